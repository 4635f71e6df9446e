// Backups with files (src/admin/backup.ts): the bytes the backed-up rows name travel in the archive, from either
// backend into either (local and S3, the latter on s3rver: see test/support/s3-server.ts for what that does not
// prove), and every file then downloads byte-identical through the restored service's links; a backup pauses the
// sweep and waits for a sweep's batch; a damaged file, a missing one and a version 1 backup are each handled as the
// README says. Files are uploaded through the API, restores go into fresh databases and fresh stores.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDatabase, restoreDatabase, VERSION_1_NOTE } from '../../src/admin/backup.js';
import { loadConfig } from '../../src/config.js';
import { SWEEP_LOCK } from '../../src/files/storage.js';
import { createFileStore, type FileStore } from '../../src/files/store.js';
import { sweepFiles } from '../../src/files/sweep.js';
import { png } from '../files/images.js';
import { adminError } from '../support/admin.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { buildOrganization, buildSpace } from '../support/factories.js';
import { type S3Server, startS3Server } from '../support/s3-server.js';

const keyOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let s3: S3Server;
let directory: string;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  s3 = await startS3Server('unused/');
  directory = mkdtempSync(path.join(os.tmpdir(), 'docs-api-backup-files-'));
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await s3?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/** A fresh place for bytes: a new FILES_DIR, or a new prefix of the S3 server's bucket. */
function freshStoreEnv(kind: 'local' | 's3'): Record<string, string> {
  const name = randomBytes(4).toString('hex');
  return kind === 's3' ? { ...s3.env, S3_PREFIX: `${name}/` } : { FILES_STORE: 'local', FILES_DIR: path.join(directory, `files-${name}`) };
}

/** The store those settings name, built as the admin CLI builds it. */
const storeOf = (env: Record<string, string>): FileStore =>
  createFileStore(loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: directory, ...env }));

async function startService(env: Record<string, string>, databaseUrl?: string): Promise<TestApp> {
  const t = await startTestApp({ env: { FILES_SWEEP_GRACE_MINUTES: '1', ...env }, databaseUrl });
  cleanups.push(() => t.close());
  return t;
}

async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  return database;
}

const backupFile = (name: string) => path.join(directory, `${name}-${randomBytes(3).toString('hex')}.backup.gz`);

interface Instance {
  t: TestApp;
  env: Record<string, string>;
  token: string;
  /** The bytes of each file of each space, by space id and file name. */
  files: Record<string, Record<string, Buffer>>;
}

/** Files through the API: a change request per space, one insert_files batch, merged. */
async function uploadFiles(t: TestApp, token: string, spaceId: string, files: Record<string, Buffer>): Promise<void> {
  const cr = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token, body: { subject: 'Files' } });
  expect(cr.status, cr.text).toBe(201);
  const content = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
    token,
    body: {
      changes: [
        {
          operation: 'insert_files',
          files: Object.entries(files).map(([name, bytes]) => ({
            name,
            contentType: 'application/octet-stream',
            base64: bytes.toString('base64'),
          })),
        },
      ],
    },
  });
  expect(content.status, content.text).toBe(200);
  const merged = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`, { token });
  expect(merged.status, merged.text).toBe(200);
}

/** A service on `kind` with two spaces of files: images, a file of most of a mebibyte, and bytes both spaces share. */
async function instanceWithFiles(kind: 'local' | 's3'): Promise<Instance> {
  const env = freshStoreEnv(kind);
  const t = await startService(env);
  const { organization, owner } = await buildOrganization(t.prisma);
  const shared = png(6, 6, 9);
  const files: Instance['files'] = {};
  for (const seed of [1, 2]) {
    const space = await buildSpace(t.prisma, { organizationId: organization.id });
    files[space.id] = {
      [`photo-${seed}.png`]: png(10 + seed, 7, seed),
      [`data-${seed}.bin`]: randomBytes(1000 * 1024 - seed),
      'shared.png': shared,
    };
    await uploadFiles(t, owner.token, space.id, files[space.id]);
  }
  return { t, env, token: owner.token, files };
}

/**
 * A GET on a connection of its own, closed after the answer. With a kept-alive one (fetch), the client can have every
 * byte while the server has yet to end its response (the read of the file's end comes after the last bytes): a close
 * of the service right then waits for that connection until its keep-alive timeout (65 s), longer than a hook's.
 */
function get(url: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks) }));
        answer.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Every file of the space as its downloadURL answers it, by name. */
async function downloads(t: TestApp, token: string, spaceId: string): Promise<Record<string, Buffer>> {
  const listed = await t.request('GET', `/v1/spaces/${spaceId}/content/files?limit=1000`, { token });
  expect(listed.status, listed.text).toBe(200);
  const found: Record<string, Buffer> = {};
  for (const item of listed.body.items) {
    const answer = await get(item.downloadURL);
    expect(answer.status, `${item.name}: ${item.downloadURL}`).toBe(200);
    found[item.name] = answer.body;
  }
  return found;
}

/** Starts a service on the restored database and store, and checks that every file downloads byte-identical. */
async function expectDownloads(source: Instance, databaseUrl: string, env: Record<string, string>): Promise<void> {
  const restored = await startService(env, databaseUrl);
  for (const [spaceId, files] of Object.entries(source.files)) {
    const found = await downloads(restored, source.token, spaceId);
    expect(Object.keys(found).sort()).toEqual(Object.keys(files).sort());
    for (const [name, bytes] of Object.entries(files)) expect(keyOf(found[name]), name).toBe(keyOf(bytes));
  }
}

/**
 * The files of a decompressed backup, walked as a restore reads them: a line `{"file","size"}` then that many raw bytes
 * (which may hold newlines), from the end of the last table to the trailer.
 */
function fileSections(content: Buffer) {
  const tablesEnd = content.lastIndexOf('\n\\.\n', content.indexOf('{"file":')) + 4;
  const files: { key: string; size: number; at: number }[] = [];
  let at = tablesEnd;
  while (content.subarray(at, at + 8).toString() === '{"file":') {
    const lineEnd = content.indexOf('\n', at);
    const { file, size } = JSON.parse(content.subarray(at, lineEnd).toString('utf8'));
    files.push({ key: file, size, at: lineEnd + 1 });
    at = lineEnd + 1 + size;
  }
  return { tablesEnd, files, trailerAt: at, trailer: JSON.parse(content.subarray(at).toString('utf8')) };
}

const distinctKeys = (instance: Instance) => new Set(Object.values(instance.files).flatMap((files) => Object.values(files).map(keyOf)));
const distinctBytes = (instance: Instance) =>
  [
    ...new Map(
      Object.values(instance.files).flatMap((files) => Object.values(files).map((bytes) => [keyOf(bytes), bytes.length])),
    ).values(),
  ].reduce((sum, size) => sum + size, 0);

describe('a backup with files', () => {
  let local: Instance;
  let remote: Instance;
  beforeAll(async () => {
    local = await instanceWithFiles('local');
    remote = await instanceWithFiles('s3');
  }, 120_000);

  it('is made and restored by the admin CLI, from the local backend into S3', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const exec = promisify(execFile);
    const cli = (env: Record<string, string>, ...args: string[]) =>
      exec('npx', ['tsx', 'src/admin/cli.ts', ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 60_000 });
    const file = backupFile('cli-local-to-s3');
    const backup = JSON.parse((await cli({ DATABASE_URL: local.t.databaseUrl, ...local.env }, 'backup', file)).stdout);
    expect(backup).toMatchObject({ object: 'backup', files: distinctKeys(local).size, fileBytes: distinctBytes(local), missingFiles: [] });

    const target = await freshDatabase();
    const targetEnv = freshStoreEnv('s3');
    const restore = JSON.parse((await cli({ DATABASE_URL: target.url, ...targetEnv }, 'restore', file)).stdout);
    expect(restore).toMatchObject({
      object: 'restore',
      rows: backup.rows,
      files: backup.files,
      fileBytes: backup.fileBytes,
      missingFiles: [],
    });
    await expectDownloads(local, target.url, targetEnv);
  }, 120_000);

  it('restores from the S3 backend into a fresh local FILES_DIR', async () => {
    const file = backupFile('s3-to-local');
    const backup = await backupDatabase(remote.t.databaseUrl, storeOf(remote.env), file);
    expect(backup).toMatchObject({ files: distinctKeys(remote).size, fileBytes: distinctBytes(remote), missingFiles: [] });
    const target = await freshDatabase();
    const targetEnv = freshStoreEnv('local');
    expect(await restoreDatabase(target.url, storeOf(targetEnv), file)).toMatchObject({ files: backup.files, fileBytes: backup.fileBytes });
    await expectDownloads(remote, target.url, targetEnv);
  }, 60_000);

  it('holds each file once, as a line with its key and size and then its bytes, and counts them in its trailer', async () => {
    const file = backupFile('layout');
    await backupDatabase(local.t.databaseUrl, storeOf(local.env), file);
    const content = gunzipSync(readFileSync(file));
    const { files, trailer, trailerAt } = fileSections(content);
    expect(files.map((section) => section.key)).toEqual([...distinctKeys(local)].sort());
    for (const { key, size, at } of files) expect(keyOf(content.subarray(at, at + size))).toBe(key);
    expect(trailer).toEqual({
      end: true,
      rows: expect.any(Object),
      files: files.length,
      fileBytes: distinctBytes(local),
      missingFiles: [],
    });
    expect(content.indexOf('\n', trailerAt)).toBe(content.length - 1);
  });

  it('refuses a file whose bytes are not those of its key, naming it, and restores nothing of it', async () => {
    const file = backupFile('damaged');
    await backupDatabase(remote.t.databaseUrl, storeOf(remote.env), file);
    const content = gunzipSync(readFileSync(file));
    const big = Object.values(remote.files)[0];
    const damagedKey = keyOf(Object.entries(big).find(([name]) => name.endsWith('.bin'))![1]);
    const line = content.indexOf(`{"file":"${damagedKey}"`);
    const bytesAt = content.indexOf('\n', line) + 1;
    content[bytesAt + 500_000] ^= 0xff;
    const damaged = backupFile('damaged-edited');
    writeFileSync(damaged, gzipSync(content));

    for (const kind of ['s3', 'local'] as const) {
      const target = await freshDatabase();
      const store = storeOf(freshStoreEnv(kind));
      const error = await adminError(restoreDatabase(target.url, store, damaged));
      expect(error.message).toBe(
        `${damaged} is not a valid backup: the bytes of file ${damagedKey} are not those of its key (SHA-256); nothing was restored`,
      );
      expect(await store.open(damagedKey)).toBeNull();
      const tables = new pg.Client({ connectionString: target.url });
      await tables.connect();
      try {
        const { rows } = await tables.query(
          'SELECT (SELECT count(*) FROM "FileVersion")::int AS files, (SELECT count(*) FROM "Space")::int AS spaces',
        );
        expect(rows[0]).toEqual({ files: 0, spaces: 0 });
      } finally {
        await tables.end();
      }
    }
  });

  it('fails, naming the key, when the store lacks bytes the rows name; with allowMissingFiles it lists them instead', async () => {
    const instance = await instanceWithFiles('local');
    const lost = keyOf(Object.values(instance.files)[1]['photo-2.png']);
    const store = storeOf(instance.env);
    await store.remove([lost]);
    const file = backupFile('missing');
    const error = await adminError(backupDatabase(instance.t.databaseUrl, store, file));
    expect(error.message).toBe(
      `1 files that the database names are missing from the file store (FILES_STORE=local): ${lost}. No backup was written. ` +
        'Put their bytes back, or back up without them with --allow-missing-files (the backup lists them).',
    );
    expect(readdirSync(directory)).not.toContain(path.basename(file));

    const backup = await backupDatabase(instance.t.databaseUrl, store, file, { allowMissingFiles: true });
    expect(backup).toMatchObject({ files: distinctKeys(instance).size - 1, missingFiles: [lost] });
    const target = await freshDatabase();
    expect(await restoreDatabase(target.url, storeOf(freshStoreEnv('s3')), file)).toMatchObject({ missingFiles: [lost] });
  }, 60_000);

  it('restores a version 1 backup (no bytes) with a note, and its files then come from a copy of its FILES_DIR', async () => {
    const file = backupFile('version-2');
    await backupDatabase(local.t.databaseUrl, storeOf(local.env), file);
    // The same backup as a version 1 service wrote it: no files, a trailer of row counts alone.
    const content = gunzipSync(readFileSync(file));
    const { tablesEnd, trailer } = fileSections(content);
    const header = JSON.parse(content.subarray(0, content.indexOf('\n')).toString('utf8'));
    const tables = content.subarray(content.indexOf('\n') + 1, tablesEnd);
    const versionOne = backupFile('version-1');
    writeFileSync(
      versionOne,
      gzipSync(
        Buffer.concat([
          Buffer.from(`${JSON.stringify({ ...header, version: 1 })}\n`),
          tables,
          Buffer.from(`${JSON.stringify({ end: true, rows: trailer.rows })}\n`),
        ]),
      ),
    );

    const target = await freshDatabase();
    const targetEnv = freshStoreEnv('local');
    expect(await restoreDatabase(target.url, storeOf(targetEnv), versionOne)).toMatchObject({
      files: 0,
      fileBytes: 0,
      note: VERSION_1_NOTE,
    });
    cpSync(local.env.FILES_DIR, targetEnv.FILES_DIR, { recursive: true });
    await expectDownloads(local, target.url, targetEnv);
  }, 60_000);
});

describe('a backup and the sweep', () => {
  /** Bytes no row names, old enough (for the service's clock) for the sweep to remove. */
  async function orphan(t: TestApp): Promise<string> {
    const bytes = randomBytes(64);
    await t.app.services.files.put(keyOf(bytes), bytes);
    t.clock.advanceMs(Date.now() - t.clock.now().getTime() + 2 * 60_000);
    return keyOf(bytes);
  }

  it('pauses the sweep while it runs; the sweep goes on once it ends', async () => {
    const instance = await instanceWithFiles('local');
    const { t } = instance;
    const leftover = await orphan(t);
    const writer = new pg.Client({ connectionString: t.databaseUrl });
    await writer.connect();
    const file = backupFile('during-sweep');
    let backup!: ReturnType<typeof backupDatabase>;
    try {
      // The backup takes the sweep lock and its snapshot, then waits for this table lock before reading "User".
      await writer.query('BEGIN');
      await writer.query('LOCK TABLE "User" IN ACCESS EXCLUSIVE MODE');
      backup = backupDatabase(t.databaseUrl, t.app.services.files, file);
      backup.catch(() => {});
      await until(writer, `SELECT EXISTS (SELECT FROM pg_locks WHERE NOT granted AND relation = 'public."User"'::regclass) AS ok`);
      expect(await sweepFiles(t.app.services)).toMatchObject({ paused: true, removed: 0 });
      expect(await t.app.services.files.open(leftover)).not.toBeNull();
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
    expect((await backup).files).toBe(distinctKeys(instance).size);
    expect(await sweepFiles(t.app.services)).toMatchObject({ paused: false, removed: 1 });
    expect(await t.app.services.files.open(leftover)).toBeNull();
  }, 60_000);

  it("waits for a sweep's batch in progress, then backs up every file still named", async () => {
    const instance = await instanceWithFiles('s3');
    const { t } = instance;
    const sweep = new pg.Client({ connectionString: t.databaseUrl });
    await sweep.connect();
    const file = backupFile('after-sweep-batch');
    let backup!: ReturnType<typeof backupDatabase>;
    try {
      // What a sweep's batch holds between its check and its deletes (sweep.ts).
      await sweep.query('BEGIN');
      await sweep.query('SELECT pg_advisory_xact_lock($1::bigint)', [SWEEP_LOCK]);
      backup = backupDatabase(t.databaseUrl, t.app.services.files, file);
      backup.catch(() => {});
      await until(sweep, `SELECT EXISTS (SELECT FROM pg_locks WHERE locktype = 'advisory' AND NOT granted) AS ok`);
      await sweep.query('COMMIT');
    } finally {
      await sweep.end();
    }
    expect((await backup).files).toBe(distinctKeys(instance).size);
  }, 60_000);

  it('runs beside a real sweep removing leftovers: the sweep removes only leftovers, the backup has every named file', async () => {
    const instance = await instanceWithFiles('s3');
    const { t } = instance;
    const leftovers = [];
    for (let i = 0; i < 20; i++) leftovers.push(await orphan(t));
    const file = backupFile('beside-sweep');
    const [sweep, backup] = await Promise.all([sweepFiles(t.app.services), backupDatabase(t.databaseUrl, t.app.services.files, file)]);
    expect(backup.files).toBe(distinctKeys(instance).size);
    expect(sweep.removed === leftovers.length || sweep.paused).toBe(true);
    for (const key of distinctKeys(instance)) expect(await t.app.services.files.open(key)).not.toBeNull();
    const target = await freshDatabase();
    const targetEnv = freshStoreEnv('local');
    await restoreDatabase(target.url, storeOf(targetEnv), file);
    await expectDownloads(instance, target.url, targetEnv);
  }, 60_000);
});

/** Until the query answers ok: true. */
async function until(client: pg.Client, sql: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    if ((await client.query(sql)).rows[0].ok) return;
    await sleep(20);
  }
  throw new Error(`Never true: ${sql}`);
}
