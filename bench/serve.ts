// A server process for the benchmark (started by bench/run.ts with fork): the product, or the hand-written baseline.
// It answers the parent's 'stats' messages with its SQL statement count and peak RSS.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connectDatabase } from '../src/db/client.js';
import { PageTokens } from '../src/kernel/pagination.js';
import { deriveKey } from '../src/kernel/secrets.js';
import { createBaseline } from './baseline.js';

const [kind, databaseUrl, secretBase64] = process.argv.slice(2);
const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '10' });
const secret = Buffer.from(secretBase64, 'base64');

let server: http.Server;
let statements: { count: number };
if (kind === 'product') {
  const app = createApp({ config, databaseUrl, secret });
  server = app.server;
  statements = app.db.statements;
} else {
  const db = connectDatabase(databaseUrl, config.poolSize);
  server = http.createServer(createBaseline({ prisma: db.prisma, config, pageTokens: new PageTokens(deriveKey(secret, 'page-cursor')) }).callback());
  statements = db.statements;
}

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  // URLs in bodies must be identical between the product and the baseline: both name the product's base URL.
  config.publicUrl = process.env.BENCH_PUBLIC_URL ?? `http://127.0.0.1:${port}`;
  config.appUrl = `${config.publicUrl}/app`;
  process.send!({ type: 'ready', port });
});

process.on('message', (message: { type: string }) => {
  // A normal exit, so that --cpu-prof can write its profile.
  if (message.type === 'exit') process.exit(0);
  if (message.type === 'stats') {
    process.send!({ type: 'stats', statements: statements.count, maxRssKb: process.resourceUsage().maxRSS });
  }
});
