// Every write the API acknowledged survives kill -9 of the service and of its PostgreSQL under write load, and
// nothing is half-written. The service runs as `npm start` runs it, on the embedded PostgreSQL (DATABASE_URL removed)
// and on an external PostgreSQL 15 of its own; clients send creates, edits and merges at once and record every write
// answered 2xx; at a random moment (seeded: CRASH_SEED repeats one) the service, the postmaster and each of its
// children get SIGKILL; after a restart on the same data, every acknowledged write is read back through the API (the
// file each content write adds downloads byte-identical: its bytes were stored before its row committed), and
// SQL checks what the API cannot show (a merged change request without its revision, a revision without its pages).
//
// kill -9 does not test power loss: the operating system's page cache survives a killed process, so a commit that
// PostgreSQL wrote but never flushed would survive here too. This proves that the API answers only after its commit,
// and that PostgreSQL's crash recovery and the service's own start after a crash keep everything answered.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { npmScript } from '../support/npm-script.js';

const run = promisify(execFile);
const { command: node, args: startArguments, env: startVariables, root } = await npmScript('start');
const seed = Number(process.env.CRASH_SEED) || Math.floor(Math.random() * 2 ** 31);
console.log(`crash-durability: seed ${seed} (CRASH_SEED=${seed} repeats this run's choices and crash moments)`);

/** A small seeded generator (mulberry32): numbers in [0, 1). */
function generator(from: number): () => number {
  let state = from >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Service {
  child: ChildProcess;
  output: () => string;
  exited: Promise<unknown>;
}

/**
 * Processes a failed test left running, each stopped with its own signal (the service stops its embedded PostgreSQL
 * on SIGTERM; SIGINT is PostgreSQL's fast shutdown) before their data goes; SIGKILL if that takes over 20 s.
 */
const leftovers: { child: ChildProcess; signal: NodeJS.Signals }[] = [];
const directories: string[] = [];
afterAll(async () => {
  for (const { child, signal } of [...leftovers].reverse().filter(({ child }) => child.exitCode === null && child.signalCode === null)) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    if ((await Promise.race([exited, sleep(20_000).then(() => 'late')])) === 'late') child.kill('SIGKILL');
    await exited;
  }
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
}, 60_000);

/** Starts the service as `npm start` does and waits until it listens. */
async function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  const child = spawn(node, startArguments, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  leftovers.push({ child, signal: 'SIGTERM' });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  while (!output.includes('"msg":"listening"')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`service did not start:\n${output}`);
    await sleep(50);
  }
  return { child, output: () => output, exited };
}

/** The service's environment: its port and data, no rate limit (the load would meet it), DATABASE_URL as given. */
function serviceEnv(port: number, dataDir: string, databaseUrl?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...startVariables,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '0',
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
}

/** The postmaster's pid, from the first line of its lock file. */
const postmasterOf = (pgData: string) => Number(readFileSync(path.join(pgData, 'postmaster.pid'), 'utf8').split('\n')[0]);

/**
 * A crash: SIGKILL to the service, to the postmaster and to each of its children (each in a session of its own, so
 * no process group holds them all). The postmaster is stopped first, so that it forks no child while they are listed.
 */
function crash(service: Service, postmaster: number): void {
  service.child.kill('SIGKILL');
  process.kill(postmaster, 'SIGSTOP');
  const children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map(Number);
  for (const pid of [postmaster, ...children]) process.kill(pid, 'SIGKILL');
}

/** One write the clients sent: what it wrote, and whether its 2xx answer came back (acknowledged). */
interface Write {
  kind: 'create space' | 'retitle space' | 'create change request' | 'write content' | 'merge';
  spaceId?: string;
  changeRequestId?: string;
  /** The space's title (create, retitle) or the page title that the content write inserts. */
  title?: string;
  /** The bytes of the file the content write inserts beside its page (base64). */
  file?: string;
  acknowledged: boolean;
}

interface Load {
  writes: Write[];
  /** Set when the crash comes: from then on, a failed request is expected and ends its client. */
  crashed: boolean;
}

class Api {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async request(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${this.base}${route}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async get(route: string): Promise<any> {
    const { status, body } = await this.request('GET', route);
    if (status !== 200) throw new Error(`GET ${route}: ${status} ${JSON.stringify(body)}`);
    return body;
  }
}

/**
 * Sends one write and records it; its answer's body once acknowledged, undefined when the crash cut it off. Before the
 * crash, anything but a 2xx fails the test.
 */
async function send(api: Api, load: Load, write: Write, method: string, route: string, body: unknown): Promise<any> {
  load.writes.push(write);
  let answer: { status: number; body: any };
  try {
    answer = await api.request(method, route, body);
  } catch (error) {
    if (load.crashed) return undefined;
    throw error;
  }
  if (answer.status >= 200 && answer.status < 300) {
    write.acknowledged = true;
    return answer.body;
  }
  if (load.crashed) return undefined;
  throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
}

/**
 * One client until the crash: a space, retitled; change requests on it, each given a page, most merged (one at a time
 * per space, so that merges never conflict); then another space.
 */
async function client(api: Api, load: Load, organizationId: string, name: string, random: () => number): Promise<void> {
  for (let s = 0; !load.crashed; s++) {
    const title = `${name} space ${s}`;
    const created: Write = { kind: 'create space', title, acknowledged: false };
    const space = await send(api, load, created, 'POST', `/v1/orgs/${organizationId}/spaces`, { title });
    if (!space) return;
    created.spaceId = space.id;
    for (let round = 0; round < 4 && !load.crashed; round++) {
      if (random() < 0.5) {
        const retitle = `${name} space ${s} v${round}`;
        const write: Write = { kind: 'retitle space', spaceId: space.id, title: retitle, acknowledged: false };
        if (!(await send(api, load, write, 'PATCH', `/v1/spaces/${space.id}`, { title: retitle }))) return;
      }
      const crs = `/v1/spaces/${space.id}/change-requests`;
      const opened: Write = { kind: 'create change request', spaceId: space.id, acknowledged: false };
      const cr = await send(api, load, opened, 'POST', crs, { subject: `${name} edit ${round}` });
      if (!cr) return;
      opened.changeRequestId = cr.id;
      const page = `${name} s${s} page ${round}`;
      // A file of its own (its bytes stored, and flushed, before the write's transaction names them).
      const file = Buffer.alloc(4096 + Math.floor(random() * 60_000), `${page} `).toString('base64');
      const changes = [
        { operation: 'insert_page', title: page, document: { markdown: `Written by ${name}, round ${round}.\n` } },
        { operation: 'insert_files', files: [{ name: `${page}.bin`, contentType: 'application/octet-stream', base64: file }] },
      ];
      const content: Write = { kind: 'write content', spaceId: space.id, changeRequestId: cr.id, title: page, file, acknowledged: false };
      if (!(await send(api, load, content, 'POST', `${crs}/${cr.id}/content`, { changes }))) return;
      if (random() < 0.75) {
        const merge: Write = { kind: 'merge', spaceId: space.id, changeRequestId: cr.id, title: page, acknowledged: false };
        const merged = await send(api, load, merge, 'POST', `${crs}/${cr.id}/merge`, {});
        if (!merged) return;
        expect(merged.result).toBe('merge');
      }
    }
  }
}

const titlesOf = (pages: any[]): string[] => pages.flatMap((page) => [page.title, ...titlesOf(page.pages ?? [])]);

const crRoute = (write: Write) => `/v1/spaces/${write.spaceId}/change-requests/${write.changeRequestId}`;

/** Whether one acknowledged write reads back through the API. `later` are the writes sent after it. */
async function isThere(api: Api, write: Write, later: Write[]): Promise<boolean> {
  const read = async (route: string) => {
    const { status, body } = await api.request('GET', route);
    return status === 200 ? body : undefined;
  };
  const pagesOf = async (route: string) => titlesOf((await read(route))?.pages ?? []);
  switch (write.kind) {
    case 'create space':
      return (await read(`/v1/spaces/${write.spaceId}`))?.id === write.spaceId;
    case 'retitle space': {
      // This write's title, or a later one's sent to the same space (acknowledged or cut off by the crash).
      const titles = [write, ...later].filter((w) => w.kind === 'retitle space' && w.spaceId === write.spaceId).map((w) => w.title);
      return titles.includes((await read(`/v1/spaces/${write.spaceId}`))?.title);
    }
    case 'create change request':
      return (await read(crRoute(write)))?.id === write.changeRequestId;
    case 'write content': {
      if (!(await pagesOf(`${crRoute(write)}/content`)).includes(write.title!)) return false;
      const file = (await read(`${crRoute(write)}/content/files`))?.items.find((item: any) => item.name === `${write.title}.bin`);
      const download = file && (await fetch(file.downloadURL));
      return download?.status === 200 && Buffer.from(await download.arrayBuffer()).toString('base64') === write.file;
    }
    case 'merge': {
      const cr = await read(crRoute(write));
      if (cr?.status !== 'merged') return false;
      const merged = await pagesOf(`/v1/spaces/${write.spaceId}/revisions/${cr.revisionMerged}/pages`);
      return merged.includes(write.title!) && (await pagesOf(`/v1/spaces/${write.spaceId}/content`)).includes(write.title!);
    }
  }
}

/** The acknowledged writes that the API does not read back, described. */
async function missing(api: Api, writes: Write[]): Promise<string[]> {
  const lost: string[] = [];
  for (const [index, write] of writes.entries()) {
    if (write.acknowledged && !(await isThere(api, write, writes.slice(index + 1)))) lost.push(JSON.stringify(write));
  }
  return lost;
}

/** Every change request the clients opened is merged, its revision holding all its content, or not merged at all. */
async function expectWholeChangeRequests(api: Api, writes: Write[]): Promise<void> {
  const pagesOf = async (route: string) => titlesOf((await api.get(route)).pages);
  for (const write of writes.filter((w) => w.kind === 'create change request' && w.acknowledged)) {
    const cr = await api.get(crRoute(write));
    if (cr.status === 'merged') {
      const merged = await pagesOf(`/v1/spaces/${write.spaceId}/revisions/${cr.revisionMerged}/pages`);
      expect(merged, `merged change request ${cr.id}`).toEqual(expect.arrayContaining(await pagesOf(`${crRoute(write)}/content`)));
    } else {
      expect(cr.status, `change request ${cr.id}`).toMatch(/^(draft|open)$/);
      expect(cr.revisionMerged ?? null, `change request ${cr.id}`).toBeNull();
    }
  }
}

/** What the API cannot show: rows that a write left half-done. Each query counts offending rows. */
async function verifySql(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const settings = (await client.query("SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync"))
      .rows[0];
    expect(settings).toEqual({ fsync: 'on', sync: 'on' });
    const checks: Record<string, string> = {
      'merged change requests without their merge revision on the space’s main line': `
        SELECT c.id FROM "ChangeRequest" c LEFT JOIN "Revision" r ON r.id = c."revisionMergedId" AND r."spaceId" = c."spaceId" AND r.line = 'main'
         WHERE (c.status = 'merged') <> (r.id IS NOT NULL AND c."mergedAt" IS NOT NULL)`,
      'change requests whose revision is missing': `
        SELECT c.id FROM "ChangeRequest" c LEFT JOIN "Revision" r ON r.id = c."revisionId" AND r."spaceId" = c."spaceId"
         WHERE r.id IS NULL`,
      'spaces whose current revision is not the last of their main line': `
        SELECT s.id FROM "Space" s LEFT JOIN "Revision" r ON r.id = s."revisionId" AND r."spaceId" = s.id AND r.line = 'main'
         WHERE r.id IS NULL OR r.seq <> (SELECT max(seq) FROM "Revision" m WHERE m."spaceId" = s.id AND m.line = 'main')`,
      'spaces numbering fewer change requests than they have': `
        SELECT s.id FROM "Space" s WHERE s."changeRequestSeq" < (SELECT coalesce(max(number), 0) FROM "ChangeRequest" c WHERE c."spaceId" = s.id)`,
      'revisions after the first of their line that wrote no page': `
        SELECT r.id FROM "Revision" r
         WHERE r.seq > (SELECT min(seq) FROM "Revision" f WHERE f."spaceId" = r."spaceId" AND f.line = r.line)
           AND NOT EXISTS (SELECT 1 FROM "PageVersion" p WHERE p."spaceId" = r."spaceId" AND p.line = r.line AND p."validFrom" = r.seq)`,
    };
    for (const [what, query] of Object.entries(checks)) {
      expect((await client.query(query)).rows, what).toEqual([]);
    }
  } finally {
    await client.end();
  }
}

/**
 * Starts the load on a running service, crashes everything at a seeded moment 1 to 4 s in, and returns what was sent.
 * `crashNow` does the killing.
 */
async function loadThenCrash(api: Api, round: number, crashNow: () => void): Promise<Write[]> {
  const random = generator(seed + round);
  const [organization] = (await api.get('/v1/orgs')).items;
  const load: Load = { writes: [], crashed: false };
  const clients = Array.from({ length: 6 }, (_, i) => client(api, load, organization.id, `c${i}`, generator(seed + round * 100 + i + 1)));
  const failed = Promise.all(clients).then(() => undefined);
  const delay = 1000 + Math.floor(random() * 3000);
  console.log(`crash-durability: crash after ${delay} ms of load`);
  // A client failing before the crash fails the test at once.
  await Promise.race([sleep(delay), failed]);
  load.crashed = true;
  crashNow();
  await failed;
  return load.writes;
}

/** Prints the counts (the closing note quotes them), then fails on any acknowledged write not found. */
function report(variant: string, writes: Write[], lost: string[]): void {
  const acknowledged = writes.filter((w) => w.acknowledged).length;
  const kinds = [...new Set(writes.map((w) => w.kind))]
    .map((kind) => {
      const ofKind = writes.filter((w) => w.kind === kind);
      return `${kind} ${ofKind.filter((w) => w.acknowledged).length}/${ofKind.length}`;
    })
    .join(', ');
  console.log(
    `crash-durability (${variant}): ${writes.length} writes sent, ${acknowledged} acknowledged, ` +
      `${acknowledged - lost.length} found after restart (acknowledged/sent: ${kinds})`,
  );
  expect(lost, 'acknowledged writes not found after the restart').toEqual([]);
}

// Each took 12 to 30 s on a shared 2-core machine (two starts of the service, the first with initdb, and the reads);
// the timeouts allow for a busier one, as start.test.ts's do.
describe('kill -9 of the service and its PostgreSQL under write load', () => {
  it('embedded PostgreSQL: every acknowledged write is there after a restart, nothing half-written', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crash-embedded-'));
    directories.push(dataDir);
    const port = await freePort();
    const env = serviceEnv(port, dataDir);
    const first = await startService(env);
    const token = /API token \(shown once, keep it safe\): (dpa_\w+)/.exec(first.output())?.[1];
    expect(token).toBeDefined();
    const api = new Api(`http://127.0.0.1:${port}`, token!);
    const pgData = path.join(dataDir, 'postgres');
    const writes = await loadThenCrash(api, 1, () => crash(first, postmasterOf(pgData)));
    await first.exited;

    const second = await startService(env);
    const recovering = second
      .output()
      .split('\n')
      .filter((line) => line.includes('did not stop cleanly'));
    expect(recovering).toEqual([expect.stringContaining('"msg":"embedded PostgreSQL did not stop cleanly; recovering"')]);
    report('embedded', writes, await missing(api, writes));
    await expectWholeChangeRequests(api, writes);
    const password = readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim();
    const lock = readFileSync(path.join(pgData, 'postmaster.pid'), 'utf8').split('\n');
    await verifySql(`postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${lock[3]}/docs`);
    const stopped = second.exited;
    second.child.kill('SIGTERM');
    await stopped;
  }, 120_000);

  const pg15 = '/usr/lib/postgresql/15/bin';
  it.skipIf(!existsSync(`${pg15}/initdb`))(
    'external PostgreSQL 15 (fsync on): every acknowledged write is there after both restart, nothing half-written',
    async () => {
      const directory = mkdtempSync(path.join(os.tmpdir(), 'crash-external-'));
      directories.push(directory);
      const pgData = path.join(directory, 'pg15');
      // PostgreSQL refuses to run as root: as root, the cluster is the postgres OS user's.
      const ids =
        process.getuid?.() === 0
          ? { uid: Number((await run('id', ['-u', 'postgres'])).stdout), gid: Number((await run('id', ['-g', 'postgres'])).stdout) }
          : {};
      if (ids.uid !== undefined) chmodSync(directory, 0o711);
      await run('install', ['-d', '-m', '0700', ...(ids.uid === undefined ? [] : ['-o', 'postgres', '-g', 'postgres']), pgData]);
      await run(
        `${pg15}/initdb`,
        ['-D', pgData, '--auth=trust', '--username=postgres', '--no-sync', '--encoding=UTF8', '--locale=C.UTF-8'],
        {
          ...ids,
          env: { ...process.env, LC_ALL: 'C.UTF-8' },
        },
      );
      const pgPort = await freePort();
      // The postmaster is this process's child, as under a supervisor: its death is reaped, so its pid is free again.
      const startPostgres = async () => {
        const postmaster = spawn(
          `${pg15}/postgres`,
          ['-D', pgData, '-p', String(pgPort), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=on'],
          { ...ids, stdio: 'ignore' },
        );
        leftovers.push({ child: postmaster, signal: 'SIGINT' });
        const exited = new Promise((resolve) => postmaster.once('exit', resolve));
        for (const deadline = Date.now() + 30_000; ; await sleep(100)) {
          const probe = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${pgPort}/postgres` });
          try {
            await probe.connect();
            await probe.end();
            return { postmaster, exited };
          } catch (error) {
            if (Date.now() > deadline || postmaster.exitCode !== null) throw error;
          }
        }
      };
      const databaseUrl = `postgresql://postgres@127.0.0.1:${pgPort}/postgres`;
      let postgres = await startPostgres();
      const port = await freePort();
      const env = serviceEnv(port, path.join(directory, 'data'), databaseUrl);
      const first = await startService(env);
      const token = /API token \(shown once, keep it safe\): (dpa_\w+)/.exec(first.output())?.[1];
      expect(token).toBeDefined();
      const api = new Api(`http://127.0.0.1:${port}`, token!);
      const writes = await loadThenCrash(api, 2, () => crash(first, postgres.postmaster.pid!));
      await Promise.all([first.exited, postgres.exited]);

      postgres = await startPostgres();
      const second = await startService(env);
      report('external PostgreSQL 15', writes, await missing(api, writes));
      await expectWholeChangeRequests(api, writes);
      await verifySql(databaseUrl);
      const stopped = second.exited;
      second.child.kill('SIGTERM');
      await stopped;
      postgres.postmaster.kill('SIGINT');
      await postgres.exited;
    },
    120_000,
  );
});
