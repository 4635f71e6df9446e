// More than one instance: two API processes (`npm start`, JOB_CONCURRENCY=0) and two job workers (`npm run worker`),
// started together on one empty PostgreSQL database with the settings every instance must share, behave as one
// service: a file uploaded through one API instance downloads through the other, rate limits count across them, each
// job runs once, change request numbers are shared, and stopping one instance loses nothing it acknowledged.
// Two workers rather than one, so that every job has two processes that could take it.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrations } from '../../src/db/migrations.js';
import { createEmptyDatabase, type TestDatabase } from '../support/database.js';
import { npmScript } from '../support/npm-script.js';
import { startS3Server } from '../support/s3-server.js';
import { until } from '../support/until.js';

const PUBLIC_URL = 'https://docs.example.test';
const RATE_LIMIT_PER_MINUTE = 50;

/**
 * Where the processes keep files' bytes: the variables that choose and reach the backend, and how to remove it after.
 * The whole layout runs once per backend listed: another backend (FILES_STORE=s3 and its S3_* settings) is one entry.
 */
interface FilesBackend {
  name: string;
  create(): Promise<{ env: Record<string, string>; remove(): Promise<void> }>;
}

const filesBackends: FilesBackend[] = [
  {
    name: 'files in one FILES_DIR that every process shares',
    create: async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'instances-files-'));
      return { env: { FILES_DIR: dir }, remove: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'files in an S3-compatible store (s3rver)',
    create: async () => {
      const server = await startS3Server('instances/');
      return { env: server.env, remove: () => server.close() };
    },
  },
];

/**
 * The settings every process of the layout must share (README, "Running more than one instance"), then the files
 * backend's. What each process has of its own (PORT, DATA_DIR, JOB_CONCURRENCY) is added by launch().
 */
function sharedEnvironment(databaseUrl: string, secretKey: string, files: Record<string, string>): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    SECRET_KEY: secretKey,
    RATE_LIMIT_STORE: 'postgres',
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
    PUBLIC_URL,
    // The test's webhook receiver and the URLs its pages link to are on loopback.
    ALLOW_PRIVATE_NETWORK: 'true',
    DB_POOL_SIZE: '5',
    LOG_LEVEL: 'info',
    ...files,
  };
}

interface Launched {
  name: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** An API process's address (from its `listening` line); empty for a worker. */
  url: string;
}

const scripts = { api: await npmScript('start'), worker: await npmScript('worker') };
const launched: Launched[] = [];
const dataDirs: string[] = [];

/** Starts `npm start` (an API process, no jobs) or `npm run worker` as they run, and waits until it says it runs. */
async function launch(name: string, role: 'api' | 'worker', shared: Record<string, string>): Promise<Launched> {
  const { command, args, env: scriptVariables, root } = scripts[role];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `instances-${name}-`));
  dataDirs.push(dataDir);
  const env = { ...process.env, ...scriptVariables, ...shared, PORT: '0', DATA_DIR: dataDir, JOB_CONCURRENCY: role === 'api' ? '0' : '2' };
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started: Launched = { name, child, output: () => output, exited, url: '' };
  launched.push(started);
  const ready = role === 'api' ? '"msg":"listening"' : '"msg":"worker running"';
  const deadline = Date.now() + 45_000;
  while (!output.includes(ready)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${name} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (role === 'api') {
    const line = output.split('\n').find((text) => text.includes(ready))!;
    started.url = JSON.parse(line).url;
  }
  return started;
}

/** A test's receiver of webhook deliveries and of link checks: counts deliveries by webhook-id, checks by URL. */
function receiver() {
  const deliveries = new Map<string, number>();
  const checks = new Map<string, number>();
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/hook') {
        const id = String(request.headers['webhook-id']);
        deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
      } else {
        checks.set(`${request.method} ${request.url}`, (checks.get(`${request.method} ${request.url}`) ?? 0) + 1);
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  return { server, deliveries, checks };
}

interface Answer {
  status: number;
  body: any;
}

async function call(base: string, method: string, route: string, token: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

/** A request that must succeed: its answer's body. */
async function ok(base: string, method: string, route: string, token: string, body?: unknown) {
  const answer = await call(base, method, route, token, body);
  expect(answer.status, `${method} ${route}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

/** The titles of a change request's pages, read through `base`. */
async function pageTitles(base: string, token: string, spaceId: string, number: number): Promise<string[]> {
  const tree = await ok(base, 'GET', `/v1/spaces/${spaceId}/change-requests/${number}/content/pages`, token);
  const titles: string[] = [];
  const walk = (pages: { title: string; pages?: unknown[] }[] = []) => {
    for (const page of pages) {
      titles.push(page.title);
      walk(page.pages as never);
    }
  };
  walk(tree.pages);
  return titles;
}

describe.each(filesBackends)('two API instances and two workers on one database, $name', (backend) => {
  let database: TestDatabase;
  let files: Awaited<ReturnType<FilesBackend['create']>>;
  const hooks = receiver();
  let receiverUrl: string;
  let a: Launched;
  let b: Launched;
  let token: string;
  let organizationId: string;
  let spaceId: string;
  let webhookId: string;
  /** Tokens of the owner, one per check, each with a budget of its own (minted through B, which stays up). */
  const mint = async (label: string) => (await ok(b.url, 'POST', '/v1/user/tokens', token, { label })).token as string;

  beforeAll(async () => {
    database = await createEmptyDatabase();
    files = await backend.create();
    await new Promise<void>((resolve) => hooks.server.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(hooks.server.address() as AddressInfo).port}`;
    const shared = sharedEnvironment(database.url, randomBytes(24).toString('base64url'), files.env);
    // All at once on the empty database: each migrates it as a start does, and one of the API processes bootstraps it.
    [a, b] = await Promise.all([
      launch('api-a', 'api', shared),
      launch('api-b', 'api', shared),
      launch('worker-1', 'worker', shared),
      launch('worker-2', 'worker', shared),
    ]);
    token = /API token \(shown once, keep it safe\): (dpa_\w+)/.exec(a.output() + b.output())?.[1] ?? '';
    organizationId = (await ok(b.url, 'GET', '/v1/orgs', token)).items[0].id;
    spaceId = (await ok(a.url, 'POST', `/v1/orgs/${organizationId}/spaces`, token, { title: 'Shared' })).id;
    // Every event of the organization from now on is a delivery job, which the workers send to the receiver.
    const webhook = await ok(b.url, 'POST', `/v1/orgs/${organizationId}/webhooks`, token, { url: `${receiverUrl}/hook`, events: ['*'] });
    webhookId = webhook.id;
  });

  afterAll(async () => {
    for (const running of launched.filter((one) => one.child.exitCode === null)) {
      running.child.kill('SIGTERM');
      await running.exited;
    }
    await new Promise((resolve) => hooks.server.close(resolve));
    await database?.drop();
    await files?.remove();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('start together on an empty database: migrated once, bootstrapped once, both ready', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const applied = await client.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" ORDER BY 1');
      expect(applied.rows.map((row) => row.migration_name)).toEqual(readMigrations().map((migration) => migration.name));
    } finally {
      await client.end();
    }
    const printed = [a, b].filter((api) => api.output().includes('API token (shown once'));
    expect(printed.map((api) => api.name)).toHaveLength(1);
    expect(token).toMatch(/^dpa_/);
    for (const api of [a, b]) {
      const ready = await fetch(`${api.url}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok', database: 'ok' });
    }
  });

  it('a file uploaded through A downloads byte-identical through B, and the reverse', async () => {
    const bytes = randomBytes(300 * 1024);
    const number = (await ok(a.url, 'POST', `/v1/spaces/${spaceId}/change-requests`, token, { subject: 'Files' })).number;
    await ok(a.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${number}/content`, token, {
      changes: [
        {
          operation: 'insert_files',
          files: [{ name: 'blob.bin', contentType: 'application/octet-stream', base64: bytes.toString('base64') }],
        },
        // Links for the link-check jobs (see the last test).
        ...[1, 2, 3].map((n) => ({
          operation: 'insert_page',
          title: `Links ${n}`,
          document: { markdown: `[Checked](${receiverUrl}/link/${n})\n` },
        })),
      ],
    });
    const linkOf = async (base: string) => {
      const listed = await ok(base, 'GET', `/v1/spaces/${spaceId}/change-requests/${number}/content/files`, token);
      expect(listed.items).toHaveLength(1);
      return listed.items[0].downloadURL as string;
    };
    // Both instances mint links under the one PUBLIC_URL, signed with the one secret: each serves the other's.
    for (const [minting, serving] of [
      [a, b],
      [b, a],
    ]) {
      const link = new URL(await linkOf(minting.url));
      expect(link.origin).toBe(PUBLIC_URL);
      const download = await fetch(`${serving.url}${link.pathname}${link.search}`);
      expect(download.status, `${minting.name}'s link on ${serving.name}`).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it('change request numbers are one sequence: created on A, read on B at once; concurrent creates numbered apart', async () => {
    const own = await mint('numbering');
    const first = await ok(a.url, 'POST', `/v1/spaces/${spaceId}/change-requests`, own, { subject: 'Seen at once' });
    const seen = await ok(b.url, 'GET', `/v1/spaces/${spaceId}/change-requests/${first.number}`, own);
    expect(seen).toMatchObject({ id: first.id, number: first.number, subject: 'Seen at once' });

    const creates = Array.from({ length: 16 }, (_, i) =>
      ok(i % 2 ? b.url : a.url, 'POST', `/v1/spaces/${spaceId}/change-requests`, own, { subject: `Race ${i}` }),
    );
    const created = await Promise.all(creates);
    const numbers = created.map((cr) => cr.number as number).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 16 }, (_, i) => first.number + 1 + i));
    // Each is read by number on the instance that did not create it.
    const crossed = await Promise.all(
      created.map((cr, i) => ok(i % 2 ? a.url : b.url, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr.number}`, own)),
    );
    expect(crossed.map((cr) => cr.id)).toEqual(created.map((cr) => cr.id));
  });

  it("a token's rate limit counts its requests on A and on B together", async () => {
    const own = await mint('rate limit');
    // 40 requests to each: either instance alone would accept them all (40 < 50); together, 50 pass and 30 are refused.
    const statuses = await Promise.all(
      Array.from({ length: 80 }, (_, i) => call(i % 2 ? b.url : a.url, 'GET', '/v1/user', own).then((answer) => answer.status)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT_PER_MINUTE);
    expect(statuses.filter((status) => status === 429)).toHaveLength(80 - RATE_LIMIT_PER_MINUTE);
  });

  it('stopping A mid-stream of writes loses nothing A acknowledged, applies nothing by halves, and B keeps answering', async () => {
    const WRITERS = 4;
    const writers = await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        const own = await mint(`writer ${w}`);
        const number = (await ok(b.url, 'POST', `/v1/spaces/${spaceId}/change-requests`, own, { subject: `Writer ${w}` })).number as number;
        return {
          w,
          own,
          number,
          acknowledged: [] as number[],
          cut: undefined as { batch: number; status: number; outcome: string } | undefined,
        };
      }),
    );
    // A batch is two pages: applied whole, both are there; by halves, one.
    const batch = (w: number, i: number) => ({
      changes: ['a', 'b'].map((half) => ({
        operation: 'insert_page',
        title: `w${w}-${i}-${half}`,
        document: { markdown: `Batch ${i}.\n` },
      })),
    });
    let acknowledged = 0;
    let signalled = false;
    const stopped = a.exited;
    const streams = writers.map(async (writer) => {
      for (let i = 0; ; i++) {
        const route = `/v1/spaces/${spaceId}/change-requests/${writer.number}/content`;
        const outcome = await call(a.url, 'POST', route, writer.own, batch(writer.w, i)).then(
          (answer) => answer,
          (error: Error) => ({ status: 0, body: String((error.cause as Error | undefined)?.message ?? error.message) }),
        );
        if (outcome.status === 200) {
          writer.acknowledged.push(i);
          if (++acknowledged >= 3 * WRITERS && !signalled) {
            signalled = true;
            a.child.kill('SIGTERM');
          }
          continue;
        }
        writer.cut = { batch: i, status: outcome.status, outcome: JSON.stringify(outcome.body) };
        return;
      }
    });
    // B answers all along, while A drains, until it is gone (or the wait for it below runs out).
    const reads: number[] = [];
    const reader = (async () => {
      const own = await mint('reader');
      const deadline = Date.now() + 15_000;
      let gone = false;
      void stopped.then(() => (gone = true));
      while (!gone && Date.now() < deadline) {
        reads.push((await call(b.url, 'GET', `/v1/spaces/${spaceId}`, own)).status);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    await Promise.all(streams);
    // Its clients kept their connections busy until they were refused: the process still stops, and promptly.
    const exitCode = await Promise.race([stopped, new Promise((resolve) => setTimeout(() => resolve('still running after 10 s'), 10_000))]);
    expect(exitCode, a.output().slice(-2000)).toBe(0);
    await reader;
    expect(a.output()).toContain('"msg":"stopped"');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((status) => status === 200)).toBe(true);

    for (const writer of writers) {
      // A's last request of each writer was refused or its connection closed (status 0): never an HTTP error.
      expect(writer.cut?.status, `writer ${writer.w}: ${writer.cut?.outcome}`).toBe(0);
      // What a load balancer would do next: the writer's next batch goes to B.
      const next = writer.cut!.batch + 1;
      await ok(b.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${writer.number}/content`, writer.own, batch(writer.w, next));
      const titles = await pageTitles(b.url, writer.own, spaceId, writer.number);
      const halves = new Map<number, string[]>();
      for (const title of titles) {
        const [, i, half] = /^w\d+-(\d+)-([ab])$/.exec(title)!;
        halves.set(Number(i), [...(halves.get(Number(i)) ?? []), half]);
      }
      for (const [i, found] of halves) expect(found.sort(), `writer ${writer.w}, batch ${i}`).toEqual(['a', 'b']);
      const applied = [...halves.keys()].sort((x, y) => x - y);
      // Every acknowledged batch is there; besides them only the cut one (if it committed before its answer was lost)
      // and the one sent to B.
      expect(applied.filter((i) => !writer.acknowledged.includes(i) && i !== writer.cut!.batch)).toEqual([next]);
      expect(writer.acknowledged.every((i) => applied.includes(i))).toBe(true);
    }
  });

  it('each job runs once: every webhook delivery and link check reaches its receiver exactly once', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const unfinished = async () =>
        (
          await client.query<{ count: string }>(
            `SELECT (SELECT count(*) FROM "BackgroundJob" WHERE state NOT IN ('succeeded', 'failed'))
                  + (SELECT count(*) FROM "WebhookDelivery" WHERE status = 'pending') AS count`,
          )
        ).rows[0].count;
      expect(await until(unfinished, (count) => count === '0', 20_000)).toBe('0');
      const jobs = (
        await client.query<{ kind: string; state: string; attempts: number }>('SELECT kind, state, attempts FROM "BackgroundJob"')
      ).rows;
      const kinds = new Set(jobs.map((job) => job.kind));
      expect(kinds).toContain('webhook-delivery');
      expect(kinds).toContain('link-check');
      expect(jobs.filter((job) => job.state !== 'succeeded' || job.attempts !== 1)).toEqual([]);

      const deliveries = (
        await client.query<{ id: string; status: string; attempts: number }>(
          'SELECT id, status, attempts FROM "WebhookDelivery" WHERE "webhookId" = $1',
          [webhookId],
        )
      ).rows;
      // The events of every test above: spaces, change requests, content, tokens.
      expect(deliveries.length).toBeGreaterThan(40);
      expect(deliveries.filter((delivery) => delivery.status !== 'success' || delivery.attempts !== 1)).toEqual([]);
      expect([...hooks.deliveries.keys()].sort()).toEqual(deliveries.map((delivery) => delivery.id).sort());
      expect([...hooks.deliveries.values()].every((count) => count === 1)).toBe(true);
    } finally {
      await client.end();
    }
    expect(Object.fromEntries(hooks.checks)).toEqual({ 'HEAD /link/1': 1, 'HEAD /link/2': 1, 'HEAD /link/3': 1 });
  });
});
