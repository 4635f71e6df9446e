// CORS: off unless CORS_ORIGINS names the origins whose pages may call the API.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { buildOrganization } from '../support/factories.js';

let plain: TestApp;
let database: TestDatabase;
let app: App;
let url: string;
let dataDir: string;

beforeAll(async () => {
  plain = await startTestApp();
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cors-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, CORS_ORIGINS: 'https://docs.example.com, http://localhost:5173' });
  app = createApp({ config, databaseUrl: database.url, secret: randomBytes(32) });
  url = await app.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await plain?.close();
  await app?.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const preflight = (base: string, origin: string) =>
  fetch(`${base}/v1/orgs`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
  });

it('answers a configured origin’s preflight and requests, exposing the headers clients read', async () => {
  const res = await preflight(url, 'https://docs.example.com');
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe('https://docs.example.com');
  expect(res.headers.get('access-control-allow-headers')).toContain('Authorization');
  const { owner } = await buildOrganization(app.db.prisma);
  const get = await fetch(`${url}/v1/orgs`, { headers: { origin: 'http://localhost:5173', authorization: `Bearer ${owner.token}` } });
  expect(get.status).toBe(200);
  expect(get.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  expect(get.headers.get('access-control-expose-headers')).toBe('X-Request-Id,Location');
});

it('gives no CORS header to another origin, nor to any origin when CORS_ORIGINS is unset', async () => {
  expect((await preflight(url, 'https://evil.example.com')).headers.get('access-control-allow-origin')).toBeNull();
  expect((await preflight(plain.url, 'https://docs.example.com')).headers.get('access-control-allow-origin')).toBeNull();
});

it('refuses an origin with a path in the configuration', () => {
  expect(() => loadConfig({ CORS_ORIGINS: 'https://docs.example.com/app' })).toThrow(/CORS_ORIGINS/);
});
