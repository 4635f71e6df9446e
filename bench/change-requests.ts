// The change-request scenario (issue 9): on a space of 1,000 pages, and of 10,000 (issue 24: what a step costs must
// follow the change, not the space), one sequence is what an author does to change one page: POST a change request,
// POST one content batch with one `update_page`, POST its merge. Each sequence has its
// change request and edits its own page, so that sequences in flight together never edit the same page and every
// merge is clean (three-way when another merge landed meanwhile).
//
// Merges lock the space's row, and so do creations (numbers are gap-free per space): in one space, those steps take
// turns. One connection gives each step's latency without queueing; four, a few authors merging into one space at
// once: the queue on the space's lock, and the three-way path. A load of 32 connections, as the reads get, would only
// measure the length of that queue.
//
// Each run (warm-up included) starts on a space of its own, freshly seeded, so that the history earlier runs left
// does not weigh on later ones, and so that no edit repeats one already merged (a merge that changes nothing writes
// no rows, and fewer statements). The client is fetch with one request in flight per connection; autocannon cannot
// chain a request on the body of the one before while timing each step on its own.
import type { PrismaClient } from '../src/generated/prisma/client.js';
import { newId } from '../src/kernel/ids.js';
import { type PageContent, pageContent } from '../src/revisions/store.js';
import { publishPages, seedOrganization } from './seed.js';
import { median, percentile } from './stats.js';

/** The sizes of the spaces the scenario runs on, in pages. */
export const CHANGE_REQUEST_SIZES = [1_000, 10_000] as const;
export const changeRequestScenario = (pages: number) =>
  `POST /v1/spaces/{id}/change-requests + content + merge (${pages.toLocaleString('en-US')} pages)`;
export const CHANGE_REQUEST_CONNECTIONS = [1, 4] as const;

/** Sections of 19 pages each, two levels deep: 50 sections make 1,000 pages, 500 make 10,000. */
const PAGES_PER_SECTION = 19;
/** Sequences whose statements are counted step by step, outside the timed runs. */
const COUNTED_SEQUENCES = 5;

const STEPS = ['create', 'content', 'merge'] as const;
type Step = (typeof STEPS)[number];

/** A server of the product, as bench/run.ts starts it. */
interface ProductServer {
  url: string;
  stats(): Promise<{ statements: number }>;
}

export interface PagedSpace {
  spaceId: string;
  pages: { pageId: string; title: string }[];
}

/** A page body of about 600 bytes: a heading (the page's title), prose, a list and a code block. */
const markdownOf = (title: string, note: string) =>
  `# ${title}\n\n${note} This page explains one part of the product in the words of its users: what it is for, when to ` +
  'use it, and what to expect from it once it is set up.\n\n## Steps\n\n- Open the settings of the space.\n' +
  '- Choose the integration and connect it.\n- Check the result in the activity log.\n\n```bash\ncurl -H ' +
  '"Authorization: Bearer $TOKEN" https://api.example.com/v1/user\n```\n\nRead the next page for the options.\n';

function pagesOfSpace(size: number): PageContent[] {
  const now = new Date();
  const page = (title: string, slug: string, parentId: string | null, position: number): PageContent =>
    pageContent({
      pageId: newId(),
      parentId,
      title,
      slug,
      markdown: markdownOf(title, 'As written at first.'),
      position,
      createdAt: now,
      updatedAt: now,
    });
  return Array.from({ length: size / (1 + PAGES_PER_SECTION) }, (_, s) => {
    const section = page(`Section ${s + 1}`, `section-${s + 1}`, null, s);
    return [
      section,
      ...Array.from({ length: PAGES_PER_SECTION }, (_, p) => page(`Page ${s + 1}.${p + 1}`, `page-${s + 1}-${p + 1}`, section.pageId, p)),
    ];
  }).flat();
}

/** `count` spaces of `size` pages each, in an organization of their own that `ownerId` administers. */
export async function seedPagedSpaces(prisma: PrismaClient, ownerId: string, count: number, size: number): Promise<PagedSpace[]> {
  const { spaceIds } = await seedOrganization(prisma, {
    title: `Bench change requests (${size} pages)`,
    ownerId,
    members: 0,
    collections: 0,
    nested: false,
    spacesPerCollection: 0,
    topLevelSpaces: count,
  });
  const spaces: PagedSpace[] = [];
  for (const spaceId of spaceIds) {
    const pages = pagesOfSpace(size);
    await publishPages(prisma, spaceId, ownerId, pages);
    spaces.push({ spaceId, pages: pages.map(({ pageId, title }) => ({ pageId, title })) });
  }
  return spaces;
}

/** A sequence's three requests, the second and third on the change request the first created. */
class Author {
  constructor(
    private readonly server: ProductServer,
    private readonly token: string,
    private readonly space: PagedSpace,
  ) {}

  private get scenario() {
    return changeRequestScenario(this.space.pages.length);
  }

  private async post(path: string, body: object, status: number): Promise<{ ms: number; body: Record<string, unknown> }> {
    const started = performance.now();
    const response = await fetch(`${this.server.url}/v1/spaces/${this.space.spaceId}/change-requests${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== status) throw new Error(`${this.scenario}: POST ${path || '/'} answered ${response.status}: ${text}`);
    return { ms, body: JSON.parse(text) };
  }

  /** Runs the steps of sequence `n` (it edits page n modulo the space's pages); `between` runs after each step. */
  async sequence(n: number, between: (step: Step) => Promise<void> = async () => {}): Promise<Record<Step, number>> {
    const page = this.space.pages[n % this.space.pages.length];
    const created = await this.post('', { subject: `Edit ${page.title}` }, 201);
    await between('create');
    const edit = {
      operation: 'update_page',
      page: page.pageId,
      document: { markdown: markdownOf(page.title, `Edited in sequence ${n}.`) },
    };
    const content = await this.post(`/${created.body.id}/content`, { changes: [edit] }, 200);
    await between('content');
    const merged = await this.post(`/${created.body.id}/merge`, {}, 200);
    if (merged.body.result !== 'merge') throw new Error(`${this.scenario}: the merge answered ${JSON.stringify(merged.body)}`);
    await between('merge');
    return { create: created.ms, content: content.ms, merge: merged.ms };
  }
}

export interface Latency {
  p50: number;
  p90: number;
}

export interface ChangeRequestRun {
  connections: number;
  sequences: number;
  sequencesPerSecond: number;
  latency: Record<Step | 'sequence', Latency>;
  /** Every statement the server ran during the run, per sequence. */
  statementsPerSequence: number;
}

/** Sequences on `connections` connections for `seconds`, each connection starting its next one when one ends. */
async function run(
  server: ProductServer,
  token: string,
  space: PagedSpace,
  connections: number,
  seconds: number,
): Promise<ChangeRequestRun> {
  const author = new Author(server, token, space);
  const timings: Record<Step | 'sequence', number[]> = { create: [], content: [], merge: [], sequence: [] };
  let next = 0;
  const before = await server.stats();
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const steps = await author.sequence(next++);
        for (const step of STEPS) timings[step].push(steps[step]);
        timings.sequence.push(steps.create + steps.content + steps.merge);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const after = await server.stats();
  const sequences = timings.sequence.length;
  const latency = Object.fromEntries(
    Object.entries(timings).map(([step, values]) => [step, { p50: percentile(values, 50), p90: percentile(values, 90) }]),
  ) as ChangeRequestRun['latency'];
  return {
    connections,
    sequences,
    sequencesPerSecond: sequences / elapsed,
    latency,
    statementsPerSequence: (after.statements - before.statements) / sequences,
  };
}

/** The statements of each step, counted on the server between steps, one sequence at a time. */
async function countStatements(server: ProductServer, token: string, space: PagedSpace): Promise<Record<Step, number[]>> {
  const counts: Record<Step, number[]> = { create: [], content: [], merge: [] };
  const author = new Author(server, token, space);
  for (let n = 0; n < COUNTED_SEQUENCES; n++) {
    let last = (await server.stats()).statements;
    await author.sequence(n, async (step) => {
      const now = (await server.stats()).statements;
      counts[step].push(now - last);
      last = now;
    });
  }
  return counts;
}

export interface ChangeRequestResults {
  scenario: string;
  pages: number;
  /** The median of the rounds, per number of connections. */
  runs: ChangeRequestRun[];
  /** Each step's statements in every counted sequence. */
  statements: Record<Step, number[]>;
}

/** The spaces the scenario uses at one size: one per run, warm-ups included, and one where statements are counted. */
export const changeRequestSpacesNeeded = (rounds: number) => CHANGE_REQUEST_CONNECTIONS.length * (rounds + 1) + 1;

/**
 * Warms up (one second per number of connections), counts statements, then measures `rounds` rounds of a run per number
 * of connections, in an order that rotates each round; each figure is the median of the rounds.
 */
export async function measureChangeRequests(
  server: ProductServer,
  token: string,
  spaces: PagedSpace[],
  options: { rounds: number; seconds: number; log(message: string): void },
): Promise<ChangeRequestResults> {
  const fresh = [...spaces];
  const pages = spaces[0].pages.length;
  const warmUps = CHANGE_REQUEST_CONNECTIONS.map((connections) => ({ connections, space: fresh.shift()! }));
  for (const { connections, space } of warmUps) await run(server, token, space, connections, 1);
  const statements = await countStatements(server, token, fresh.shift()!);
  const runs = new Map<number, ChangeRequestRun[]>(CHANGE_REQUEST_CONNECTIONS.map((c) => [c, []]));
  for (let round = 0; round < options.rounds; round++) {
    const shift = round % CHANGE_REQUEST_CONNECTIONS.length;
    const order = [...CHANGE_REQUEST_CONNECTIONS.slice(shift), ...CHANGE_REQUEST_CONNECTIONS.slice(0, shift)];
    for (const connections of order) {
      runs.get(connections)!.push(await run(server, token, fresh.shift()!, connections, options.seconds));
      options.log(`  round ${round + 1}/${options.rounds} change requests, ${connections} connection(s)`);
    }
  }
  const medianOf = (list: ChangeRequestRun[], figure: (run: ChangeRequestRun) => number) => median(list.map(figure));
  return {
    scenario: changeRequestScenario(pages),
    pages,
    runs: [...runs].map(([connections, list]) => ({
      connections,
      sequences: medianOf(list, (r) => r.sequences),
      sequencesPerSecond: medianOf(list, (r) => r.sequencesPerSecond),
      latency: Object.fromEntries(
        ([...STEPS, 'sequence'] as const).map((step) => [
          step,
          { p50: medianOf(list, (r) => r.latency[step].p50), p90: medianOf(list, (r) => r.latency[step].p90) },
        ]),
      ) as ChangeRequestRun['latency'],
      statementsPerSequence: medianOf(list, (r) => r.statementsPerSequence),
    })),
    statements,
  };
}

/** The scenario's table, for stdout and the README. */
export function changeRequestTable(results: ChangeRequestResults): string {
  const paths = {
    create: 'POST .../change-requests',
    content: 'POST .../{id}/content (1 update_page)',
    merge: 'POST .../{id}/merge',
  };
  const sql = (step: Step) => {
    const counts = results.statements[step];
    const [low, high] = [Math.min(...counts), Math.max(...counts)];
    return low === high ? `${low}` : `${low}-${high}`;
  };
  const total = STEPS.map((step) => median(results.statements[step])).reduce((a, b) => a + b, 0);
  const ms = (value: number) => value.toFixed(1);
  return [
    `${results.scenario}: p50 and p90 per step and per sequence, SQL statements per step`,
    '',
    '| Step | Connections | sequences/s | p50 ms | p90 ms | SQL |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.runs.flatMap((r) => [
      ...STEPS.map(
        (step) => `| ${paths[step]} | ${r.connections} | | ${ms(r.latency[step].p50)} | ${ms(r.latency[step].p90)} | ${sql(step)} |`,
      ),
      `| whole sequence | ${r.connections} | ${r.sequencesPerSecond.toFixed(1)} | ${ms(r.latency.sequence.p50)} | ${ms(r.latency.sequence.p90)} | ${total} (${r.statementsPerSequence.toFixed(1)} under load) |`,
    ]),
  ].join('\n');
}

/** How much slower each step is on the larger space than on the smaller one: p50 over p50, on one connection. */
export function changeRequestGrowth(small: ChangeRequestResults, large: ChangeRequestResults): Record<Step | 'sequence', number> {
  const p50 = (results: ChangeRequestResults, step: Step | 'sequence') => results.runs.find((r) => r.connections === 1)!.latency[step].p50;
  return Object.fromEntries(([...STEPS, 'sequence'] as const).map((step) => [step, p50(large, step) / p50(small, step)])) as Record<
    Step | 'sequence',
    number
  >;
}
