// Rate limits per token and per client address (src/rate-limits.ts), in memory and shared through PostgreSQL, and
// the throttled record of a token's last use (src/kernel/context.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { LAST_USED_PRECISION_MS } from '../../src/kernel/context.js';
import { type Person, startTestApp, type TestApp } from '../support/app.js';

const apps: TestApp[] = [];
async function service(env: Record<string, string>): Promise<TestApp> {
  const t = await startTestApp({ env });
  apps.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((t) => t.close()));
});

function rateHeaders(headers: Headers) {
  return {
    limit: headers.get('x-ratelimit-limit'),
    remaining: headers.get('x-ratelimit-remaining'),
    reset: Number(headers.get('x-ratelimit-reset')),
  };
}

describe('per token', () => {
  it('counts down on every response, then refuses with 429, Retry-After and the error shape', async () => {
    const t = await service({ RATE_LIMIT_PER_MINUTE: '3' });
    const alice = await t.person('Alice');
    const sentAt = Date.now();
    const seen = [await t.request('GET', '/v1/user', { token: alice.token })];
    const answeredAt = Date.now();
    for (let i = 0; i < 2; i++) seen.push(await t.request('GET', '/v1/user', { token: alice.token }));
    expect(seen.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(seen.map((r) => rateHeaders(r.headers).remaining)).toEqual(['2', '1', '0']);
    const { limit, reset } = rateHeaders(seen[0].headers);
    expect(limit).toBe('3');
    // The window opened with the first request and lasts a minute.
    expect(reset).toBeGreaterThanOrEqual(Math.floor(sentAt / 1000) + 60);
    expect(reset).toBeLessThanOrEqual(Math.ceil(answeredAt / 1000) + 60);

    const refused = await t.request('GET', '/v1/user', { token: alice.token });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({
      error: { code: 429, message: `API rate limit exceeded. Please try again in ${retryAfter} seconds.` },
    });
    expect(rateHeaders(refused.headers)).toMatchObject({ limit: '3', remaining: '0' });
  });

  it('limits GraphQL with the same counter, and leaves other tokens and health checks alone', async () => {
    const t = await service({ RATE_LIMIT_PER_MINUTE: '2' });
    const [alice, bob] = [await t.person('Alice'), await t.person('Bob')];
    const query = { query: '{ viewer { id } }' };
    expect((await t.request('POST', '/graphql', { token: alice.token, body: query })).status).toBe(200);
    expect((await t.request('GET', '/v1/user', { token: alice.token })).status).toBe(200);
    const refused = await t.request('POST', '/graphql', { token: alice.token, body: query });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe(429);
    expect((await t.request('GET', '/v1/user', { token: bob.token })).status).toBe(200);
    const health = await t.request('GET', '/health/live');
    expect(health.status).toBe(200);
    expect(health.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('is off at 0', async () => {
    const t = await service({ RATE_LIMIT_PER_MINUTE: '0' });
    const alice = await t.person('Alice');
    const res = await t.request('GET', '/v1/user', { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('per client address', () => {
  it('limits requests without a token', async () => {
    const t = await service({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '2' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.request('GET', '/v1/orgs')).status);
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('refuses an address that keeps failing authentication, whatever token it tries next, without looking it up', async () => {
    const t = await service({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '2' });
    const alice = await t.person('Alice');
    expect((await t.request('GET', '/v1/user', { token: 'gb_api_wrong1' })).status).toBe(401);
    expect((await t.request('GET', '/v1/user', { token: 'gb_api_wrong2' })).status).toBe(401);
    const refused = await t.counted('GET', '/v1/user', { token: alice.token });
    expect(refused.status).toBe(429);
    expect(refused.statements).toBe(0);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('2');
  });

  it('is the first X-Forwarded-For address behind a trusted proxy, and the peer otherwise', async () => {
    const trusting = await service({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1', TRUST_PROXY: 'true' });
    const from = (address: string) => ({ headers: { 'x-forwarded-for': `${address}, 10.0.0.1` } });
    expect((await trusting.request('GET', '/v1/orgs', from('203.0.113.1'))).status).toBe(401);
    expect((await trusting.request('GET', '/v1/orgs', from('203.0.113.1'))).status).toBe(429);
    expect((await trusting.request('GET', '/v1/orgs', from('203.0.113.2'))).status).toBe(401);

    const direct = await service({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1' });
    expect((await direct.request('GET', '/v1/orgs', from('203.0.113.1'))).status).toBe(401);
    expect((await direct.request('GET', '/v1/orgs', from('203.0.113.2'))).status).toBe(429);
  });
});

describe('RATE_LIMIT_STORE=postgres', () => {
  it('shares one token’s counter between two instances on the same database', async () => {
    const env = { RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_STORE: 'postgres' };
    const first = await service(env);
    const alice = await first.person('Alice');
    const second = await startTestApp({ env, databaseUrl: first.app.db.pool.options.connectionString });
    apps.push(second);
    const statuses = [];
    for (const t of [first, second, first, second]) statuses.push((await t.request('GET', '/v1/user', { token: alice.token })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const [row] = await first.app.db.sql<{ key: string; points: number }>(
      Prisma.sql`SELECT key, points FROM "RateLimit" WHERE key LIKE 'token:%'`,
    );
    expect(row.points).toBe(4);
    expect(row.key).not.toContain(alice.token);
  });
});

describe('lastUsedAt', () => {
  let t: TestApp;
  let alice: Person;
  beforeAll(async () => {
    t = await startTestApp();
    alice = await t.person('Alice');
  });
  afterAll(() => t?.close());

  const lastUsedAt = async () =>
    (await t.prisma.apiToken.findUniqueOrThrow({ where: { id: alice.tokenId }, select: { lastUsedAt: true } })).lastUsedAt;

  it('is recorded on first use, then at most once per precision window, in the one authentication statement', async () => {
    expect(await lastUsedAt()).toBeNull();
    const first = await t.counted('GET', '/v1/user', { token: alice.token });
    const recorded = await lastUsedAt();
    expect(recorded).toEqual(t.clock.now());

    t.clock.advanceMs(LAST_USED_PRECISION_MS - 1);
    const second = await t.counted('GET', '/v1/user', { token: alice.token });
    expect(second.statements).toBe(first.statements);
    expect(await lastUsedAt()).toEqual(recorded);

    t.clock.advanceMs(1);
    await t.request('GET', '/v1/user', { token: alice.token });
    expect(await lastUsedAt()).toEqual(t.clock.now());
  });

  it('is not touched by a revoked token', async () => {
    const bob = await t.person('Bob');
    await t.prisma.apiToken.update({ where: { id: bob.tokenId }, data: { revokedAt: t.clock.now() } });
    expect((await t.request('GET', '/v1/user', { token: bob.token })).status).toBe(401);
    const row = await t.prisma.apiToken.findUniqueOrThrow({ where: { id: bob.tokenId } });
    expect(row.lastUsedAt).toBeNull();
  });
});
