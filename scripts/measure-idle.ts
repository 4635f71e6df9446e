// npm run -s measure:idle -- [--rounds N] [--tsx] [--node-arg ARG]...
//
// The service's start-up and its memory before its first request, without the rest of the benchmark: starts it as
// `npm start` does, the way `npm run bench` measures start-up (bench/startup.ts: time to its "listening" line, CPU
// time, and the Node process's RSS a second after /health/ready answers, and its peak), on a database of its own
// (an embedded PostgreSQL in a temporary directory, or a new database on DATABASE_URL's server), migrated first so
// that each measured start is an ordinary one. PostgreSQL's processes are not counted.
//
// --rounds N      starts (default 3); the median of each figure is printed, then each start.
// --tsx           runs src/main.ts under tsx (`node --import tsx`) instead of the build, to tell what tsx costs.
// --node-arg ARG  an option for the service's node (repeatable): --heap-prof, --max-semi-space-size=4, ...
//                 (`--node-arg=--heap-prof --node-arg=--heap-prof-dir=/tmp/heap`, then
//                 `npx tsx scripts/heap-profile-summary.ts /tmp/heap/*.heapprofile`).
//
// Linux only (/proc).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { measureStartup, type NodeScript, startCommand } from '../bench/startup.js';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { applyMigrations } from '../src/db/migrations.js';
import { installJobQueue } from '../src/jobs/queue.js';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    tsx: { type: 'boolean', default: false },
    'node-arg': { type: 'string', multiple: true, default: [] },
  },
});

const start = startCommand(root);
const command: NodeScript = {
  ...start,
  nodeOptions: [...values['node-arg'], ...(values.tsx ? ['--import', 'tsx'] : start.nodeOptions)],
  module: values.tsx ? ['src/main.ts'] : start.module,
};
command.text = [
  ...Object.entries(command.env).map(([name, value]) => `${name}=${value}`),
  'node',
  ...command.nodeOptions,
  ...command.module,
].join(' ');

/** A server and a new database on it, with a way to remove both (or the database alone, on DATABASE_URL's server). */
async function openServer(): Promise<{ url: string; close(): Promise<void> }> {
  let serverUrl = process.env.DATABASE_URL;
  let dataDir: string | undefined;
  let stopCluster = async () => {};
  if (!serverUrl) {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'measure-idle-'));
    const cluster = await startEmbeddedPostgres(dataDir);
    serverUrl = cluster.url;
    stopCluster = () => cluster.stop();
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const name = `measure_idle_${process.pid}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    close: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await stopCluster();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const database = await openServer();
try {
  await applyMigrations(database.url);
  await installJobQueue(database.url);
  const results = await measureStartup(command, root, database.url, Number(values.rounds));
  const { samples, ...medians } = results;
  console.log(JSON.stringify(medians));
  for (const [round, sample] of samples.entries()) console.log(`start ${round + 1}: ${JSON.stringify(sample)}`);
} finally {
  await database.close();
}
