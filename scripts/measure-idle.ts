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
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../bench/database.js';
import { measureStartup, type NodeScript, nodeScript } from '../bench/startup.js';
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

const start = nodeScript(root, 'start');
const command: NodeScript = {
  env: start.env,
  nodeOptions: [...values['node-arg'], ...(values.tsx ? ['--import', 'tsx'] : start.nodeOptions)],
  module: values.tsx ? ['src/main.ts'] : start.module,
};

const database = await openDatabase('measure_idle');
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
