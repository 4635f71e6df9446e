// Rate limits per valid token, per client address for anonymous requests and for failed authentications
// (src/rate-limits.ts), in memory and shared through PostgreSQL; the client address behind trusted proxies; and the
// throttled record of a token's last use (src/kernel/context.ts).
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { LAST_USED_PRECISION_MS } from '../../src/kernel/context.js';
import { newApiToken } from '../../src/kernel/ids.js';
import type { Logger } from '../../src/logger.js';
import { type Person, startTestApp, type TestApp, useApi } from '../support/app.js';
import { buildUser } from '../support/factories.js';

const apps: TestApp[] = [];
async function service(env: Record<string, string>, logger?: Logger): Promise<TestApp> {
  const t = await startTestApp({ env, logger });
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
    const alice = await buildUser(t.prisma, { displayName: 'Alice' });
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
    const [alice, bob] = [await buildUser(t.prisma, { displayName: 'Alice' }), await buildUser(t.prisma, { displayName: 'Bob' })];
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
    const alice = await buildUser(t.prisma, { displayName: 'Alice' });
    const res = await t.request('GET', '/v1/user', { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

/** Lines of the service's log, to read the address a request was logged under. */
function logCollector() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const addressOf = (requestId: string) => lines.find((line) => line.requestId === requestId && line.msg === 'request')?.ip;
  return { logger: pino({ level: 'info' }, sink), addressOf };
}

describe('failed authentications', () => {
  it('are not limited at 0', async () => {
    const t = await service({ RATE_LIMIT_FAILED_AUTH_PER_MINUTE: '0' });
    const statuses = [];
    for (let i = 0; i < 25; i++) statuses.push((await t.request('GET', '/v1/user', { token: newApiToken() })).status);
    expect(new Set(statuses)).toEqual(new Set([401]));
  });
});

describe.each(['memory', 'postgres'])('RATE_LIMIT_STORE=%s', (store) => {
  const storeService = (env: Record<string, string>, logger?: Logger) => service({ RATE_LIMIT_STORE: store, ...env }, logger);

  it('keeps three budgets apart: anonymous requests and failed authentications of an address never stop a valid token', async () => {
    // The defaults (60 anonymous requests a minute, 1000 per token), and 3 failed authentications.
    const t = await storeService({ RATE_LIMIT_FAILED_AUTH_PER_MINUTE: '3' });
    const [alice, bob] = [await buildUser(t.prisma, { displayName: 'Alice' }), await buildUser(t.prisma, { displayName: 'Bob' })];
    await t.prisma.apiToken.update({ where: { id: bob.tokenId }, data: { revokedAt: t.clock.now() } });

    const anonymous: number[] = [];
    for (let i = 0; i < 61; i++) anonymous.push((await t.request('GET', '/v1/orgs')).status);
    expect(anonymous.slice(0, 60).every((status) => status === 401)).toBe(true);
    expect(anonymous[60]).toBe(429);
    const ok = await t.request('GET', '/v1/user', { token: alice.token });
    expect(ok.status).toBe(200);
    expect(rateHeaders(ok.headers)).toMatchObject({ limit: '1000', remaining: '999' });

    // The anonymous budget spent leaves the failures' budget whole: unknown, revoked and foreign tokens each get 401.
    const failures = [];
    for (const token of [newApiToken(), bob.token, 'gb_api_not_ours']) failures.push(await t.request('GET', '/v1/user', { token }));
    expect(failures.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(failures.map((r) => rateHeaders(r.headers))).toMatchObject([
      { limit: '3', remaining: '2' },
      { limit: '3', remaining: '1' },
      { limit: '3', remaining: '0' },
    ]);
    expect(failures[0].body.error.message).toBe('The API token is unknown, revoked or expired.');

    // Over that budget: a guess costs its one indexed read (none when it is not of our shape), then a 429.
    const guess = await t.counted('GET', '/v1/user', { token: newApiToken() });
    expect(guess.status).toBe(429);
    expect(guess.statements).toBe(1);
    expect(guess.body.error.code).toBe(429);
    expect(rateHeaders(guess.headers)).toMatchObject({ limit: '3', remaining: '0' });
    expect(Number(guess.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const malformed = await t.counted('POST', '/graphql', { token: 'gb_api_wrong', body: { query: '{ viewer { id } }' } });
    expect(malformed.status).toBe(429);
    expect(malformed.statements).toBe(0);
    expect((await t.request('GET', '/v1/user', { token: bob.token })).status).toBe(429);

    // The valid token still passes, on REST and GraphQL, counted against itself only, at the cost of the route alone
    // (GET /v1/user's budget: its token statement and the user's read).
    const again = await t.counted('GET', '/v1/user', { token: alice.token });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(alice.userId);
    expect(again.statements).toBe(2);
    expect(rateHeaders(again.headers)).toMatchObject({ limit: '1000', remaining: '998' });
    const graphql = await t.request('POST', '/graphql', { token: alice.token, body: { query: '{ viewer { id } }' } });
    expect(graphql.status).toBe(200);
    expect(graphql.body.data.viewer.id).toBe(alice.userId);
    expect(rateHeaders(graphql.headers).remaining).toBe('997');
  });

  describe('client address', () => {
    const proxied = (forwardedFor: string, requestId: string) => ({
      headers: { 'x-forwarded-for': forwardedFor, 'x-request-id': requestId },
    });

    it('with TRUST_PROXY=1, is the address the proxy appended (the rightmost), whatever the client sent before it', async () => {
      const log = logCollector();
      const t = await storeService({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1', TRUST_PROXY: '1' }, log.logger);
      expect((await t.request('GET', '/v1/orgs', proxied('1.2.3.4, 203.0.113.1', 'a'))).status).toBe(401);
      // Another address of the client's own choosing, in front of the same appended one: the same budget.
      expect((await t.request('GET', '/v1/orgs', proxied('5.6.7.8, 203.0.113.1', 'b'))).status).toBe(429);
      expect((await t.request('GET', '/v1/orgs', proxied('1.2.3.4, 203.0.113.2', 'c'))).status).toBe(401);
      expect([log.addressOf('a'), log.addressOf('b'), log.addressOf('c')]).toEqual(['203.0.113.1', '203.0.113.1', '203.0.113.2']);
    });

    it('with TRUST_PROXY=2, is the second address from the right (the outer proxy appended it, the inner one the outer’s)', async () => {
      const log = logCollector();
      const t = await storeService({ RATE_LIMIT_FAILED_AUTH_PER_MINUTE: '1', TRUST_PROXY: '2' }, log.logger);
      const alice = await buildUser(t.prisma, { displayName: 'Alice' });
      const guess = (forwardedFor: string, requestId: string) =>
        t.request('GET', '/v1/user', { token: newApiToken(), ...proxied(forwardedFor, requestId) });
      expect((await guess('1.2.3.4, 203.0.113.1, 10.0.0.1', 'a')).status).toBe(401);
      expect((await guess('9.9.9.9, 203.0.113.1, 10.0.0.2', 'b')).status).toBe(429);
      expect((await guess('203.0.113.1, 203.0.113.2, 10.0.0.1', 'c')).status).toBe(401);
      const ok = await t.request('GET', '/v1/user', { token: alice.token, ...proxied('203.0.113.1, 10.0.0.1', 'd') });
      expect(ok.status).toBe(200);
      expect([log.addressOf('a'), log.addressOf('b'), log.addressOf('c'), log.addressOf('d')]).toEqual([
        '203.0.113.1',
        '203.0.113.1',
        '203.0.113.2',
        '203.0.113.1',
      ]);
    });

    it('with TRUST_PROXY=false, is the connection’s peer, and X-Forwarded-For is ignored', async () => {
      const log = logCollector();
      const t = await storeService({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1' }, log.logger);
      expect((await t.request('GET', '/v1/orgs', proxied('203.0.113.1', 'a'))).status).toBe(401);
      expect((await t.request('GET', '/v1/orgs', proxied('203.0.113.2', 'b'))).status).toBe(429);
      expect([log.addressOf('a'), log.addressOf('b')]).toEqual(['127.0.0.1', '127.0.0.1']);
    });
  });
});

describe('RATE_LIMIT_STORE=postgres across instances', () => {
  it('shares one token’s counter between two instances on the same database', async () => {
    const env = { RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_STORE: 'postgres' };
    const first = await service(env);
    const alice = await buildUser(first.prisma, { displayName: 'Alice' });
    const second = await startTestApp({ env, databaseUrl: first.app.db.pool.options.connectionString });
    apps.push(second);
    const statuses = [];
    for (const t of [first, second, first, second]) statuses.push((await t.request('GET', '/v1/user', { token: alice.token })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const [row] = await first.app.db.sql<{ key: string; points: number }>(
      Prisma.sql`SELECT key, points FROM "RateLimit" WHERE key LIKE 'token:%'`,
    );
    expect(row.points).toBe(4);
    // Counted by the token's id, never by its secret.
    expect(row.key).toBe(`token:${alice.tokenId}`);
  });
});

describe('lastUsedAt', () => {
  const { t } = useApi();
  let alice: Person;
  beforeAll(async () => {
    alice = await buildUser(t.prisma, { displayName: 'Alice' });
  });

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
    const bob = await buildUser(t.prisma, { displayName: 'Bob' });
    await t.prisma.apiToken.update({ where: { id: bob.tokenId }, data: { revokedAt: t.clock.now() } });
    expect((await t.request('GET', '/v1/user', { token: bob.token })).status).toBe(401);
    const row = await t.prisma.apiToken.findUniqueOrThrow({ where: { id: bob.tokenId } });
    expect(row.lastUsedAt).toBeNull();
  });
});
