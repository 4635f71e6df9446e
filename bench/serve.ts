// A server process for the benchmark (started by bench/run.ts with fork): the product, the hand-written Koa + Prisma
// baseline, or the raw node-postgres one. It answers the parent's 'stats' messages with its SQL statement count and
// peak RSS. Each kind imports only its own modules, so that its peak RSS is its own.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config.js';
import { PageTokens } from '../src/kernel/pagination.js';
import { deriveKey } from '../src/kernel/secrets.js';

const [kind, databaseUrl, secretBase64] = process.argv.slice(2);
// Rate limits stay on, so that their cost is measured, with a limit the benchmark's one token never reaches.
const config = loadConfig({
  LOG_LEVEL: 'silent',
  PORT: '0',
  DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '10',
  RATE_LIMIT_PER_MINUTE: '1000000',
});
const secret = Buffer.from(secretBase64, 'base64');
const pageTokens = new PageTokens(deriveKey(secret, 'page-cursor'));

let server: http.Server;
let statements: { count: number };
if (kind === 'product') {
  const { createApp } = await import('../src/app.js');
  const app = createApp({ config, databaseUrl, secret });
  server = app.server;
  statements = app.db.statements;
} else if (kind === 'baseline') {
  const [{ connectDatabase }, { createBaseline }] = await Promise.all([import('../src/db/client.js'), import('./baseline.js')]);
  const db = connectDatabase(databaseUrl, config.poolSize);
  server = http.createServer(createBaseline({ prisma: db.prisma, config, pageTokens }).callback());
  statements = db.statements;
} else {
  const [{ countedPool }, { createRawBaseline }] = await Promise.all([import('../src/db/counted-pool.js'), import('./raw-baseline.js')]);
  const raw = countedPool(databaseUrl, config.poolSize);
  server = http.createServer(createRawBaseline({ pool: raw.pool, config, pageTokens }));
  statements = raw.statements;
}

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  // URLs in bodies must be identical between the product and the baselines: all name the product's base URL.
  config.publicUrl = process.env.BENCH_PUBLIC_URL ?? `http://127.0.0.1:${port}`;
  config.appUrl = `${config.publicUrl}/app`;
  process.send!({ type: 'ready', port });
});

/**
 * This process's peak RSS in KiB. Linux's getrusage (process.resourceUsage().maxRSS) keeps the peak of the process
 * that spawned it, across the exec: a server started by a benchmark holding a seeded data set in memory would report
 * the benchmark's peak. /proc's VmHWM is the peak of this process's own memory; elsewhere maxRSS is what there is.
 */
function peakRssKb(): number {
  const status = process.platform === 'linux' ? readFileSync('/proc/self/status', 'utf8') : '';
  const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  return hwm ? Number(hwm) : process.resourceUsage().maxRSS;
}

process.on('message', (message: { type: string }) => {
  // A normal exit, so that --cpu-prof can write its profile.
  if (message.type === 'exit') process.exit(0);
  if (message.type === 'stats') {
    process.send!({ type: 'stats', statements: statements.count, maxRssKb: peakRssKb() });
  }
});
