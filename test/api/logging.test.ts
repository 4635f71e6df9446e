// Request log lines: one per request, with its request id, its route's outcome, and the actor (user and token ids).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { buildOrganization } from '../support/factories.js';

const lines: Record<string, unknown>[] = [];
let database: TestDatabase;
let app: App;
let url: string;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'logging-'));
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  app = createApp({ config: loadConfig({ DATA_DIR: dataDir }), databaseUrl: database.url, secret: randomBytes(32), logger });
  url = await app.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('logs each request with its actor, for REST and GraphQL, and without one when the token is refused', async () => {
  const { owner } = await buildOrganization(app.db.prisma);
  const headers = { authorization: `Bearer ${owner.token}`, 'x-request-id': 'rest-1' };
  await fetch(`${url}/v1/orgs`, { headers });
  await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { ...headers, 'x-request-id': 'graphql-1', 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ organizations { count } }' }),
  });
  await fetch(`${url}/v1/orgs`, { headers: { authorization: 'Bearer dpa_wrong', 'x-request-id': 'refused-1' } });
  const requestLine = (id: string) => lines.find((line) => line.requestId === id && line.msg === 'request');
  expect(requestLine('rest-1')).toMatchObject({
    method: 'GET',
    path: '/v1/orgs',
    status: 200,
    userId: owner.userId,
    tokenId: owner.tokenId,
  });
  expect(requestLine('graphql-1')).toMatchObject({
    method: 'POST',
    path: '/graphql',
    status: 200,
    userId: owner.userId,
    tokenId: owner.tokenId,
  });
  expect(requestLine('refused-1')).toMatchObject({ status: 401 });
  expect(requestLine('refused-1')).not.toHaveProperty('userId');
});
