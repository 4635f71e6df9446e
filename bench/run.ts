// npm run bench [-- --scale 1 --duration 5 --rounds 3 --connections 32 --no-scale-check --only <text>]
//
// Prices the REST-on-GraphQL path: the same reads through REST (/v1), through POST /graphql with the same selection,
// through a hand-written Koa + Prisma baseline (bench/baseline.ts) and through the physical limit, the same SQL on
// node:http and node-postgres (bench/raw-baseline.ts), both returning byte-identical JSON, plus one write, and the
// change-request sequence on a 1,000-page space and a 10,000-page one (bench/change-requests.ts), search over 10,000 pages
// (bench/search.ts), and the service's start-up (bench/startup.ts). Servers run in their own processes; autocannon
// drives them from this one. It runs compiled (dist/bench/run.js, by npm run bench), and so do the servers it forks:
// the product and both baselines run with plain node, as `npm start` runs the product. Variants run interleaved,
// round after round in rotating order, so that machine drift spreads over all of them; each figure is the median of
// rounds.
// Results: a table on stdout, and JSON in bench/results/.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { print } from 'graphql';
import { compileRoute } from '../rest/compile.js';
import { Fragments } from '../rest/fragments.js';
import { createToken, createUser } from '../src/admin/commands.js';
import { connectDatabase } from '../src/db/client.js';
import { applyMigrations } from '../src/db/migrations.js';
import { projectRoot } from '../src/project-root.js';
import { restModules, schema } from '../src/schema.js';
import {
  CHANGE_REQUEST_SIZES,
  type ChangeRequestResults,
  changeRequestGrowth,
  changeRequestScenario,
  changeRequestSpacesNeeded,
  changeRequestTable,
  measureChangeRequests,
  seedPagedSpaces,
} from './change-requests.js';
import { openDatabase } from './database.js';
import { measureSearch, SEARCH_SCENARIO, type SearchResults, searchTable, seedSearchContent } from './search.js';
import { seedOrganization } from './seed.js';
import { commandLine, measureStartup, nodeScript, type StartupResults } from './startup.js';
import { median } from './stats.js';

const { values: flags } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    'no-scale-check': { type: 'boolean', default: false },
    /** Runs only the scenarios whose name contains this text. */
    only: { type: 'string', default: '' },
  },
});
const scale = Number(flags.scale);
const duration = Number(flags.duration);
const rounds = Number(flags.rounds);
const connections = Number(flags.connections);
const changeRequestSizes = CHANGE_REQUEST_SIZES.filter((pages) => changeRequestScenario(pages).includes(flags.only));
const searchScenario = SEARCH_SCENARIO.includes(flags.only);

/** The documented data set at scale 1; every count is multiplied by --scale. */
const dataSet = (factor: number) => ({
  members: 50 * factor,
  collections: 20 * factor,
  nested: true,
  spacesPerCollection: 90,
  topLevelSpaces: 200 * factor,
});

const log = (message: string) => process.stderr.write(`${message}\n`);
const resultsDir = path.join(projectRoot, 'bench/results');
/** `npm start`'s command: its start-up is measured, and every server runs with its node options and variables. */
const productCommand = nodeScript(projectRoot, 'start');

// --- servers --------------------------------------------------------------------------------------------------
interface Server {
  kind: string;
  url: string;
  child: ChildProcess;
  stats(): Promise<{ statements: number; maxRssKb: number }>;
}

function startServer(kind: 'product' | 'baseline' | 'raw', databaseUrl: string, secret: string): Promise<Server> {
  const child = fork(path.join(import.meta.dirname, 'serve.js'), [kind, databaseUrl, secret], {
    // Every server runs with the node options and variables of `npm start` (package.json), so that their memory
    // and speed compare code with code, not settings. BENCH_CPU_PROF=1 writes a CPU profile of each server into
    // bench/results/profiles.
    execArgv: [
      ...productCommand.nodeOptions,
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(resultsDir, 'profiles')}`] : []),
    ],
    env: { ...process.env, ...productCommand.env, BENCH_PUBLIC_URL: 'http://docs.example.com' },
  });
  const stats = () =>
    new Promise<{ statements: number; maxRssKb: number }>((resolve) => {
      const onMessage = (message: { type: string; statements: number; maxRssKb: number }) => {
        if (message.type !== 'stats') return;
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
      child.send({ type: 'stats' });
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code})`)));
    child.once('message', (message: { type: string; port: number }) =>
      resolve({ kind, url: `http://127.0.0.1:${message.port}`, child, stats }),
    );
  });
}

// --- scenarios ------------------------------------------------------------------------------------------------
interface Request {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: string;
}

interface Variant {
  scenario: string;
  variant: 'rest' | 'graphql' | 'baseline' | 'raw';
  server: Server;
  /** The i-th request of a run. */
  request(i: number): Request;
}

/** The operation a REST route runs, as text, for the same request through POST /graphql. */
function operationOf(method: string, routePath: string): string {
  const definition = restModules.flatMap((module) => module.routes).find((r) => r.method === method && r.path === routePath)!;
  return print(compileRoute(schema, new Fragments(schema, restModules), definition).document);
}

function graphqlRequest(query: string, variables: object): Request {
  return { method: 'POST', path: '/graphql', body: JSON.stringify({ query, variables }) };
}

/**
 * The product answers from three processes of its own, so that each process's peak RSS is that of one kind of
 * traffic: the REST process serves exactly what the baselines serve (its peak is compared with theirs), one serves
 * the same selections through POST /graphql, and one the write, which the baselines do not have.
 */
function variants(
  product: Server,
  productGraphql: Server,
  productWrites: Server,
  baseline: Server,
  raw: Server,
  organizationId: string,
  spaceIds: string[],
): Variant[] {
  const spaceAt = (i: number) => spaceIds[i % 100];
  const getSpace = operationOf('GET', '/v1/spaces/:spaceId');
  const listSpaces = operationOf('GET', '/v1/orgs/:organizationId/spaces');
  const listCollections = operationOf('GET', '/v1/orgs/:organizationId/collections');
  // Each read: its path (the baselines serve it without /v1) and the same selection through POST /graphql.
  const reads: { scenario: string; path: (i: number) => string; graphql: (i: number) => Request }[] = [
    {
      scenario: 'GET /v1/spaces/{id}',
      path: (i) => `/spaces/${spaceAt(i)}`,
      graphql: (i) => graphqlRequest(getSpace, { spaceId: spaceAt(i) }),
    },
    {
      scenario: 'GET /v1/orgs/{id}/spaces?limit=100',
      path: () => `/orgs/${organizationId}/spaces?limit=100`,
      graphql: () => graphqlRequest(listSpaces, { organizationId, limit: 100 }),
    },
    {
      scenario: 'GET /v1/orgs/{id}/collections?limit=1000',
      path: () => `/orgs/${organizationId}/collections?limit=1000`,
      graphql: () => graphqlRequest(listCollections, { organizationId, limit: 1000 }),
    },
  ];
  return [
    ...reads.flatMap(({ scenario, path, graphql }): Variant[] => [
      { scenario, variant: 'rest', server: product, request: (i) => ({ method: 'GET', path: `/v1${path(i)}` }) },
      { scenario, variant: 'graphql', server: productGraphql, request: graphql },
      { scenario, variant: 'baseline', server: baseline, request: (i) => ({ method: 'GET', path: path(i) }) },
      { scenario, variant: 'raw', server: raw, request: (i) => ({ method: 'GET', path: path(i) }) },
    ]),
    {
      scenario: 'PATCH /v1/spaces/{id}',
      variant: 'rest',
      server: productWrites,
      request: (i) => ({ method: 'PATCH', path: `/v1/spaces/${spaceAt(i)}`, body: JSON.stringify({ title: `Renamed ${i % 1000}` }) }),
    },
  ];
}

// --- measuring ------------------------------------------------------------------------------------------------
interface Measure {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  statementsPerRequest: number;
}

async function load(variant: Variant, token: string, seconds: number): Promise<Measure> {
  let n = 0;
  const before = await variant.server.stats();
  const first = variant.request(0);
  const result = await autocannon({
    url: variant.server.url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [
      {
        method: first.method,
        path: first.path,
        body: first.body,
        setupRequest: (request) => {
          const next = variant.request(n++);
          return { ...request, method: next.method, path: next.path, body: next.body };
        },
      },
    ],
  });
  const after = await variant.server.stats();
  if (result.non2xx || result.errors)
    throw new Error(`${variant.scenario} (${variant.variant}): ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statementsPerRequest: (after.statements - before.statements) / result.requests.total,
  };
}

/** Runs the variants round after round, in an order that rotates each round; returns the median of each figure. */
async function interleaved(list: Variant[], token: string): Promise<Map<Variant, Measure>> {
  for (const variant of list) await load(variant, token, 1); // warm-up: JIT, plan caches, pools
  const runs = new Map<Variant, Measure[]>(list.map((v) => [v, []]));
  for (let round = 0; round < rounds; round++) {
    const order = [...list.slice(round % list.length), ...list.slice(0, round % list.length)];
    for (const variant of order) {
      runs.get(variant)!.push(await load(variant, token, duration));
      log(`  round ${round + 1}/${rounds} ${variant.scenario} ${variant.variant}`);
    }
  }
  return new Map(
    [...runs].map(([variant, measures]) => [
      variant,
      {
        requestsPerSecond: median(measures.map((m) => m.requestsPerSecond)),
        p50: median(measures.map((m) => m.p50)),
        p99: median(measures.map((m) => m.p99)),
        statementsPerRequest: median(measures.map((m) => m.statementsPerRequest)),
      },
    ]),
  );
}

/** The product's REST bodies and the baselines' must be the same bytes, or the comparison means nothing. */
async function checkIdentical(list: Variant[], token: string) {
  const headers = { authorization: `Bearer ${token}` };
  const body = async (v: Variant) => (await fetch(`${v.server.url}${v.request(0).path}`, { headers })).text();
  for (const rest of list.filter((v) => v.variant === 'rest' && v.request(0).method === 'GET')) {
    const expected = await body(rest);
    for (const other of list.filter((v) => (v.variant === 'baseline' || v.variant === 'raw') && v.scenario === rest.scenario)) {
      const actual = await body(other);
      if (actual !== expected) {
        throw new Error(
          `${rest.scenario}: the ${other.variant} body differs from the product's\nproduct:  ${expected.slice(0, 600)}\n${other.variant}: ${actual.slice(0, 600)}`,
        );
      }
    }
  }
}

// --- main -----------------------------------------------------------------------------------------------------
const database = await openDatabase('bench');
const servers: Server[] = [];
try {
  await applyMigrations(database.url);
  const db = connectDatabase(database.url, 4);
  const owner = await createUser(db.prisma, { email: 'bench@example.com', name: 'Bench' });
  const { token } = await createToken(db.prisma, { email: owner.email });
  log(`seeding scale ${scale}: ${JSON.stringify(dataSet(scale))}`);
  const main = await seedOrganization(db.prisma, { title: 'Bench', ownerId: owner.id, ...dataSet(scale) });
  const big = flags['no-scale-check']
    ? undefined
    : await seedOrganization(db.prisma, { title: 'Bench x10', ownerId: owner.id, ...dataSet(scale * 10) });
  const pagedSpaces = [];
  for (const pages of changeRequestSizes) {
    log(`seeding ${changeRequestSpacesNeeded(rounds)} spaces of ${pages} pages`);
    pagedSpaces.push(await seedPagedSpaces(db.prisma, owner.id, changeRequestSpacesNeeded(rounds), pages));
  }
  const searchReader = searchScenario ? await createUser(db.prisma, { email: 'reader@example.com', name: 'Reader' }) : undefined;
  const searchSeed = searchReader ? await seedSearchContent(db.prisma, owner.id, searchReader.id) : undefined;
  const searchReaderToken = searchReader ? (await createToken(db.prisma, { email: searchReader.email })).token : '';
  await db.prisma.$executeRawUnsafe('VACUUM ANALYZE');
  await db.close();

  // Before any server runs, so that the machine is as quiet as it is when a service starts.
  log(`measuring start-up: ${rounds} starts of ${commandLine(productCommand)}`);
  const startup: StartupResults = await measureStartup(productCommand, projectRoot, database.url, rounds);

  const secret = randomBytes(32).toString('base64');
  const [product, productGraphql, productWrites, baseline, raw] = await Promise.all(
    (['product', 'product', 'product', 'baseline', 'raw'] as const).map((kind) => startServer(kind, database.url, secret)),
  );
  servers.push(product, productGraphql, productWrites, baseline, raw);
  // Its own process, so that the other processes' peak RSS stays that of their traffic.
  const productChangeRequests = pagedSpaces.length ? await startServer('product', database.url, secret) : undefined;
  if (productChangeRequests) servers.push(productChangeRequests);
  const productSearch = searchSeed ? await startServer('product', database.url, secret) : undefined;
  if (productSearch) servers.push(productSearch);

  const list = variants(product, productGraphql, productWrites, baseline, raw, main.organizationId, main.spaceIds).filter((v) =>
    v.scenario.includes(flags.only),
  );
  await checkIdentical(list, token);
  log(`measuring: ${rounds} rounds x ${duration}s per variant, ${connections} connections`);
  const results = await interleaved(list, token);

  let scaleCheck: { p50: number; p50AtTenTimes: number; growth: number } | undefined;
  if (big) {
    log('measuring list-100 at 1x and 10x');
    const listAt = (organizationId: string): Variant => ({
      scenario: 'GET /v1/orgs/{id}/spaces?limit=100',
      variant: 'rest',
      server: product,
      request: () => ({ method: 'GET', path: `/v1/orgs/${organizationId}/spaces?limit=100` }),
    });
    const [one, ten] = [listAt(main.organizationId), listAt(big.organizationId)];
    const both = await interleaved([one, ten], token);
    scaleCheck = { p50: both.get(one)!.p50, p50AtTenTimes: both.get(ten)!.p50, growth: both.get(ten)!.p50 / both.get(one)!.p50 };
  }
  const changeRequests: (ChangeRequestResults & { peakRssMiB: number })[] = [];
  for (const spaces of productChangeRequests ? pagedSpaces : []) {
    log(`measuring ${changeRequestScenario(spaces[0].pages.length)}: ${rounds} rounds x ${duration}s per number of connections`);
    const measured = await measureChangeRequests(productChangeRequests!, token, spaces, { rounds, seconds: duration, log });
    changeRequests.push({ ...measured, peakRssMiB: Math.round((await productChangeRequests!.stats()).maxRssKb / 1024) });
  }
  const changeRequestGrowthAtTenTimes = changeRequests.length === 2 ? changeRequestGrowth(changeRequests[0], changeRequests[1]) : undefined;
  let search: SearchResults | undefined;
  if (productSearch && searchSeed) {
    log(`measuring ${SEARCH_SCENARIO}: ${rounds} rounds`);
    search = await measureSearch(productSearch, { admin: token, reader: searchReaderToken }, searchSeed, { rounds, log });
  }
  const [productStats, graphqlStats, baselineStats, rawStats] = await Promise.all([
    product.stats(),
    productGraphql.stats(),
    baseline.stats(),
    raw.stats(),
  ]);

  // --- report -------------------------------------------------------------------------------------------------
  const rows = [...results].map(([v, m]) => ({ scenario: v.scenario, variant: v.variant, ...m }));
  const find = (scenario: string, variant: string) => rows.find((r) => r.scenario === scenario && r.variant === variant);
  const ratios = [...new Set(rows.filter((r) => r.variant === 'graphql').map((r) => r.scenario))].map((scenario) => ({
    scenario,
    restOverBaseline: find(scenario, 'rest')!.requestsPerSecond / find(scenario, 'baseline')!.requestsPerSecond,
    restOverGraphql: find(scenario, 'rest')!.requestsPerSecond / find(scenario, 'graphql')!.requestsPerSecond,
    restOverRaw: find(scenario, 'rest')!.requestsPerSecond / find(scenario, 'raw')!.requestsPerSecond,
  }));
  const peakRss = { product: productStats.maxRssKb / 1024, baseline: baselineStats.maxRssKb / 1024 };
  const targets = [
    ...ratios.map((r) => ({
      target: `REST >= 0.9x hand-written: ${r.scenario}`,
      value: r.restOverBaseline,
      met: r.restOverBaseline >= 0.9,
    })),
    ...ratios.map((r) => ({
      target: `REST >= 1.2x GraphQL over HTTP: ${r.scenario}`,
      value: r.restOverGraphql,
      met: r.restOverGraphql >= 1.2,
    })),
    ...rows
      .filter((r) => r.variant === 'rest')
      .map((r) => ({ target: `p99 <= 3x p50 (REST): ${r.scenario}`, value: r.p99 / r.p50, met: r.p99 <= 3 * r.p50 })),
    ...(scaleCheck ? [{ target: 'list-100 p50 at 10x data <= 1.5x', value: scaleCheck.growth, met: scaleCheck.growth <= 1.5 }] : []),
    ...(changeRequestGrowthAtTenTimes
      ? (['content', 'merge'] as const).map((step) => ({
          target: `change request ${step} p50 at 10,000 pages <= 1.5x at 1,000`,
          value: changeRequestGrowthAtTenTimes[step],
          met: changeRequestGrowthAtTenTimes[step] <= 1.5,
        }))
      : []),
    { target: 'idle RSS after start-up <= 150 MiB', value: startup.idleRssMiB, met: startup.idleRssMiB <= 150 },
    {
      target: 'peak RSS, product (REST) <= 1.1x hand-written',
      value: peakRss.product / peakRss.baseline,
      met: peakRss.product <= 1.1 * peakRss.baseline,
    },
  ];
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    database: process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL 17',
    settings: { scale, duration, rounds, connections, dataSet: dataSet(scale) },
    results: rows,
    peakRssMiB: {
      product: Math.round(productStats.maxRssKb / 1024),
      productGraphql: Math.round(graphqlStats.maxRssKb / 1024),
      baseline: Math.round(baselineStats.maxRssKb / 1024),
      raw: Math.round(rawStats.maxRssKb / 1024),
    },
    ratios,
    startup,
    scaleCheck,
    changeRequests,
    changeRequestGrowthAtTenTimes,
    search,
    targets,
  };
  mkdirSync(resultsDir, { recursive: true });
  // latest.json is what the README quotes: only a run of every scenario replaces it.
  if (!flags.only) writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(resultsDir, `${report.date.replace(/[:.]/g, '-')}.json`), `${JSON.stringify(report, null, 2)}\n`);

  const table = [
    '| Scenario | Variant | req/s | p50 ms | p99 ms | SQL/req |',
    '|---|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${r.variant} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.statementsPerRequest.toFixed(1)} |`,
    ),
  ];
  console.log(table.join('\n'));
  console.log(
    `\nPeak RSS: product ${report.peakRssMiB.product} MiB (REST; ${report.peakRssMiB.productGraphql} MiB serving GraphQL), baseline ${report.peakRssMiB.baseline} MiB, raw ${report.peakRssMiB.raw} MiB`,
  );
  console.log(`Start-up: ${startup.startupMs} ms from spawn to listening, ${startup.startupCpuMs} ms of CPU (median of ${startup.rounds})`);
  console.log(`Idle RSS after start-up: ${startup.idleRssMiB} MiB (the Node process; PostgreSQL's processes excluded)`);
  for (const r of ratios) {
    console.log(
      `${r.scenario}: REST/hand-written ${r.restOverBaseline.toFixed(2)}x, REST/GraphQL ${r.restOverGraphql.toFixed(2)}x, REST/raw ${r.restOverRaw.toFixed(2)}x`,
    );
  }
  if (scaleCheck)
    console.log(`list-100 p50: ${scaleCheck.p50} ms at 1x, ${scaleCheck.p50AtTenTimes} ms at 10x (${scaleCheck.growth.toFixed(2)}x)`);
  for (const results of changeRequests) console.log(`\n${changeRequestTable(results)}\nPeak RSS serving it: ${results.peakRssMiB} MiB`);
  if (changeRequestGrowthAtTenTimes) {
    const growth = Object.entries(changeRequestGrowthAtTenTimes).map(([step, value]) => `${step} ${value.toFixed(2)}x`);
    console.log(`p50 at 10,000 pages over 1,000 (one connection): ${growth.join(', ')}`);
  }
  if (search) console.log(`\n${searchTable(search)}`);
  console.log('\nTargets:');
  for (const t of targets) console.log(`  ${t.met ? 'met   ' : 'MISSED'} ${t.target} (${t.value.toFixed(2)})`);
} finally {
  for (const server of servers) server.child.send({ type: 'exit' });
  await database.close();
}
