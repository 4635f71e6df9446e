// The embedded cluster's files are private whatever the umask: its directories 0700, its files 0600. The superuser's
// password stays (0600), since attaching to the running cluster needs it; initdb's copy of it is gone.
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { type EmbeddedCluster, startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';

const parent = mkdtempSync(path.join(os.tmpdir(), 'embedded-postgres-'));
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
  const dataDir = path.join(parent, 'data');
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
