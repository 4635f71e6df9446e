// The search scenario (issue 12): an organization of 10,000 pages (20 spaces of 500, written as one revision each by
// the store's bulk write, which indexes them as it writes them), searched through HTTP: GET /v1/orgs/{id}/search with
// queries from rare to very common words, a phrase, an `or`, and stop words only, as the organization's admin and as a
// reader who may see half of the spaces (the other half have no default access). One request in flight at a time: the
// latency of a search, p50 and p95, and its SQL statements.
//
// Page text is drawn from a fixed vocabulary with a skewed distribution (a seeded generator: every run writes the same
// pages), so that "common" words match thousands of pages and the rare ones a few.
import type { PrismaClient } from '../src/generated/prisma/client.js';
import { newId } from '../src/kernel/ids.js';
import { type PageContent, pageContent } from '../src/revisions/store.js';
import { publishPages, seedOrganization } from './seed.js';
import { median, percentile } from './stats.js';

export const SEARCH_SCENARIO = 'GET /v1/orgs/{id}/search (10,000 pages)';

const SPACES = 20;
const PAGES_PER_SPACE = 500;
/** Requests per query, persona and round. */
const REQUESTS = 40;
const LIMIT = 20;

const VOCABULARY = (
  'the of and to in is for with on that this as by it from be are can or use your you an at not when which set ' +
  'page space content site team member token request response value file setting option field list item user admin ' +
  'install configure deploy update create delete change merge review publish search index query filter sort limit ' +
  'server client network proxy cache database table column record schema migration backup restore export import ' +
  'webhook integration event message queue worker job retry timeout error warning log metric trace alert dashboard ' +
  'permission role grant access secret key certificate domain redirect route path link anchor heading section ' +
  'markdown document block image code example template theme color font layout sidebar header footer navigation ' +
  'version release branch commit sync repository pipeline build test lint format bundle package dependency'
).split(' ');
/** Words that appear in a few pages each: the rare searches. */
const RARE = ['kubernetes', 'terraform', 'zeppelin', 'quasar', 'obsidian'];

/** A seeded generator (mulberry32): the same pages on every run. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** A page's markdown: an intro and three sections of about 60 words, words skewed towards the start of the vocabulary. */
function pageText(random: () => number, index: number): { title: string; markdown: string } {
  const word = () => VOCABULARY[Math.floor(random() ** 2.2 * VOCABULARY.length)];
  const sentence = (words: number) => {
    const text = Array.from({ length: words }, word).join(' ');
    return `${text[0].toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = () => Array.from({ length: 5 }, () => sentence(12)).join(' ');
  const rare = index % 500 === 0 ? ` ${RARE[(index / 500) % RARE.length]}` : '';
  const title = `${word()} ${word()} ${index}`.replace(/^./, (c) => c.toUpperCase());
  const sections = Array.from({ length: 3 }, (_, i) => `## ${sentence(3).slice(0, -1)}\n\n${paragraph()}${i === 1 ? rare : ''}\n`);
  return { title, markdown: `${paragraph()}\n\n${sections.join('\n')}` };
}

export interface SearchSeed {
  organizationId: string;
  /** A member with role read, who sees the spaces with a default level (half of them). */
  readerId: string;
  pages: number;
  /** Milliseconds to write (and index) a space's 500 pages in one revision, per space. */
  writeMs: number[];
}

/** The organization of 10,000 pages; `readerId` must be a user, made a reader of it. */
export async function seedSearchContent(prisma: PrismaClient, ownerId: string, readerId: string): Promise<SearchSeed> {
  const { organizationId, spaceIds } = await seedOrganization(prisma, {
    title: 'Bench search',
    ownerId,
    members: 0,
    collections: 0,
    nested: false,
    spacesPerCollection: 0,
    topLevelSpaces: SPACES,
  });
  await prisma.member.create({ data: { organizationId, userId: readerId, role: 'read' } });
  // Every other space is private to the reader: the search filters them out in its statement.
  const closed = spaceIds.filter((_, i) => i % 2 === 1);
  await prisma.$executeRaw`UPDATE "Space" SET "defaultLevel" = NULL, "effectiveLevel" = NULL WHERE id = ANY(${closed}::text[])`;
  const random = generator(12);
  const writeMs: number[] = [];
  let index = 0;
  for (const spaceId of spaceIds) {
    const now = new Date();
    const pages: PageContent[] = [];
    for (let p = 0; p < PAGES_PER_SPACE; p++) {
      const { title, markdown } = pageText(random, index++);
      // Ten top-level pages of 49 children each: paths two levels deep.
      const parentId = p % 50 === 0 ? null : pages[Math.floor(p / 50) * 50].pageId;
      pages.push(
        pageContent({ pageId: newId(), parentId, title, slug: `page-${p}`, markdown, position: p, createdAt: now, updatedAt: now }),
      );
    }
    const started = performance.now();
    await publishPages(prisma, spaceId, ownerId, pages);
    writeMs.push(performance.now() - started);
  }
  return { organizationId, readerId, pages: index, writeMs };
}

/** A server of the product, as bench/run.ts starts it. */
interface ProductServer {
  url: string;
  stats(): Promise<{ statements: number }>;
}

const QUERIES = [
  { name: 'rare word', query: 'kubernetes' },
  { name: 'two rare words (or)', query: 'terraform or zeppelin' },
  { name: 'common word', query: 'deploy' },
  { name: 'very common word', query: 'page' },
  { name: 'two common words', query: 'configure webhook' },
  { name: 'phrase', query: '"error log"' },
  { name: 'stop words only', query: 'the of and' },
];

export interface SearchMeasure {
  name: string;
  query: string;
  persona: 'admin' | 'reader';
  /** Matching pages (the list's `count`). */
  matches: number;
  p50: number;
  p95: number;
  statementsPerRequest: number;
}

export interface SearchResults {
  scenario: string;
  pages: number;
  limit: number;
  /** Median milliseconds to write a space's 500 pages, indexing included. */
  writeMsPer500Pages: number;
  measures: SearchMeasure[];
}

async function searchOnce(server: ProductServer, token: string, organizationId: string, query: string) {
  const started = performance.now();
  const response = await fetch(`${server.url}/v1/orgs/${organizationId}/search?query=${encodeURIComponent(query)}&limit=${LIMIT}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${SEARCH_SCENARIO}: "${query}" answered ${response.status}: ${text}`);
  return { ms, count: (JSON.parse(text) as { count: number }).count };
}

/** Each query as each persona, `rounds` rounds of REQUESTS requests after a warm-up; figures are medians of rounds. */
export async function measureSearch(
  server: ProductServer,
  tokens: Record<SearchMeasure['persona'], string>,
  seed: SearchSeed,
  options: { rounds: number; log(message: string): void },
): Promise<SearchResults> {
  const cases = QUERIES.flatMap((q) => (['admin', 'reader'] as const).map((persona) => ({ ...q, persona })));
  for (const c of cases) for (let i = 0; i < 5; i++) await searchOnce(server, tokens[c.persona], seed.organizationId, c.query);
  const rounds = new Map(cases.map((c) => [c, [] as { p50: number; p95: number; statements: number; count: number }[]]));
  for (let round = 0; round < options.rounds; round++) {
    for (const c of cases) {
      const before = (await server.stats()).statements;
      const times: number[] = [];
      let count = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const result = await searchOnce(server, tokens[c.persona], seed.organizationId, c.query);
        times.push(result.ms);
        count = result.count;
      }
      const statements = ((await server.stats()).statements - before) / REQUESTS;
      rounds.get(c)!.push({ p50: percentile(times, 50), p95: percentile(times, 95), statements, count });
    }
    options.log(`  round ${round + 1}/${options.rounds} search`);
  }
  return {
    scenario: SEARCH_SCENARIO,
    pages: seed.pages,
    limit: LIMIT,
    writeMsPer500Pages: median(seed.writeMs),
    measures: [...rounds].map(([c, list]) => ({
      name: c.name,
      query: c.query,
      persona: c.persona,
      matches: list[0].count,
      p50: median(list.map((r) => r.p50)),
      p95: median(list.map((r) => r.p95)),
      statementsPerRequest: median(list.map((r) => r.statements)),
    })),
  };
}

/** The scenario's table, for stdout and the README. */
export function searchTable(results: SearchResults): string {
  return [
    `${results.scenario}: limit=${results.limit}, one request at a time; p50 and p95 in ms. ` +
      `Writing a space's 500 pages (indexing included): ${results.writeMsPer500Pages.toFixed(0)} ms.`,
    '',
    '| Query | As | Matching pages | p50 ms | p95 ms | SQL/req |',
    '|---|---|---:|---:|---:|---:|',
    ...results.measures.map(
      (m) =>
        `| ${m.name}: \`${m.query}\` | ${m.persona} | ${m.matches} | ${m.p50.toFixed(1)} | ${m.p95.toFixed(1)} | ${m.statementsPerRequest.toFixed(1)} |`,
    ),
  ].join('\n');
}
