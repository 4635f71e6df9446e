// CORS: off unless CORS_ORIGINS names the origins whose pages may call the API.
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type TestApp, useApi } from '../support/app.js';
import { buildOrganization } from '../support/factories.js';

const { t: plain } = useApi();
const { t: open } = useApi({ env: { CORS_ORIGINS: 'https://docs.example.com, http://localhost:5173' } });

const preflight = (app: TestApp, origin: string) =>
  app.request('OPTIONS', '/v1/orgs', {
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
  });

it('answers a configured origin’s preflight and requests, exposing the headers clients read', async () => {
  const res = await preflight(open, 'https://docs.example.com');
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe('https://docs.example.com');
  expect(res.headers.get('access-control-allow-headers')).toContain('Authorization');
  expect(res.headers.get('access-control-allow-headers')).toContain('Idempotency-Key');
  expect(res.headers.get('access-control-allow-headers')).toContain('If-Match,If-None-Match');
  const { owner } = await buildOrganization(open.prisma);
  const get = await open.request('GET', '/v1/orgs', { token: owner.token, headers: { origin: 'http://localhost:5173' } });
  expect(get.status).toBe(200);
  expect(get.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  expect(get.headers.get('access-control-expose-headers')).toBe(
    'X-Request-Id,Location,ETag,Retry-After,X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset,Idempotent-Replayed',
  );
});

it('gives no CORS header to another origin, nor to any origin when CORS_ORIGINS is unset', async () => {
  expect((await preflight(open, 'https://evil.example.com')).headers.get('access-control-allow-origin')).toBeNull();
  expect((await preflight(plain, 'https://docs.example.com')).headers.get('access-control-allow-origin')).toBeNull();
});

it('refuses an origin with a path in the configuration', () => {
  expect(() => loadConfig({ CORS_ORIGINS: 'https://docs.example.com/app' })).toThrow(/CORS_ORIGINS/);
});
