// The embedded cluster's files are private whatever the umask: its directories 0700, its files 0600. The superuser's
// password stays (0600), since attaching to the running cluster needs it; initdb's copy of it is gone. After a crash
// of its postmaster, the next start recovers by itself and says so once.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { afterAll, expect, it } from 'vitest';
import { type EmbeddedCluster, startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';

const parent = mkdtempSync(path.join(os.tmpdir(), 'embedded-postgres-'));
const dataDir = path.join(parent, 'data');
let cluster: EmbeddedCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
  rmSync(parent, { recursive: true, force: true });
});

const modeOf = (file: string) => statSync(file).mode & 0o777;

async function connects(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('SELECT 1 AS one')).rows[0].one === 1;
  } finally {
    await client.end();
  }
}

it('creates its cluster with private files under any umask, and keeps only the password it needs', { timeout: 180_000 }, async () => {
  // As root the cluster runs as the postgres OS user, who must be able to enter the directories above DATA_DIR.
  if (process.getuid?.() === 0) chmodSync(parent, 0o711);
  const umask = process.umask(0);
  try {
    cluster = await startEmbeddedPostgres(dataDir);
  } finally {
    process.umask(umask);
  }
  expect(cluster.owned).toBe(true);
  expect(await connects(cluster.url)).toBe(true);

  // As root, DATA_DIR is traversable (not readable) by the postgres OS user, who owns the cluster inside it.
  expect(modeOf(dataDir)).toBe(process.getuid?.() === 0 ? 0o711 : 0o700);
  expect(readdirSync(dataDir).sort()).toEqual(['postgres', 'postgres.log', 'postgres.password']);
  expect(modeOf(path.join(dataDir, 'postgres.password'))).toBe(0o600);
  expect(modeOf(path.join(dataDir, 'postgres.log'))).toBe(0o600);
  expect(modeOf(path.join(dataDir, 'postgres'))).toBe(0o700);
  for (const file of ['PG_VERSION', 'postgresql.conf', 'pg_hba.conf'])
    expect(modeOf(path.join(dataDir, 'postgres', file)), file).toBe(0o600);

  // A second process on the same DATA_DIR (the admin command line beside the server) attaches with the kept password.
  const attached = await startEmbeddedPostgres(dataDir);
  expect(attached.owned).toBe(false);
  expect(await connects(attached.url)).toBe(true);
});

/** Whether `pid` names a running process: neither gone nor a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

// Linux only: the recovery reads /proc to tell a live postmaster from a dead one's pid.
it.skipIf(process.platform !== 'linux')(
  'after kill -9 of the postmaster, stops its leftover backend, ignores the process now holding its pid, and starts',
  { timeout: 60_000 },
  async () => {
    // A backend busy in a loop never looks whether its postmaster is alive: it outlives it, attached to its memory.
    const busy = new pg.Client({ connectionString: cluster!.url });
    await busy.connect();
    busy.on('error', () => {}); // Its connection ends with its backend, as this test means it to.
    const [{ pid: backend }] = (await busy.query('SELECT pg_backend_pid() AS pid')).rows;
    const looping = busy.query('DO $$ BEGIN LOOP END LOOP; END $$').catch((error: Error) => error);
    const lockFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    const [postmaster, ...rest] = readFileSync(lockFile, 'utf8').split('\n');
    process.kill(Number(postmaster), 'SIGKILL');
    // Its pid given to another program since (after a reboot, or in a restarted container): the lock file names it.
    const stranger = spawn('sleep', ['60'], { stdio: 'ignore' });
    writeFileSync(lockFile, [String(stranger.pid), ...rest].join('\n'));

    const lines: { level: number; msg: string; postmasterPid?: number; orphans?: number }[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    try {
      cluster = await startEmbeddedPostgres(dataDir, 'docs', pino({ level: 'info' }, sink));
      expect(cluster.owned).toBe(true);
      expect(await connects(cluster.url)).toBe(true);
      expect(lines).toEqual([
        expect.objectContaining({ level: 40, msg: 'embedded PostgreSQL did not stop cleanly; recovering', postmasterPid: stranger.pid }),
      ]);
      expect(lines[0].orphans).toBeGreaterThanOrEqual(1);
      expect(running(backend)).toBe(false);
      expect(running(stranger.pid!)).toBe(true);
      expect(await looping).toBeInstanceOf(Error);
    } finally {
      stranger.kill();
      await busy.end().catch(() => {});
    }
  },
);
