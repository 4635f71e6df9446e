// Safe retries (README, "Safe retries (Idempotency-Key)"): a POST, or a PUT that creates, sent again with the same
// Idempotency-Key and the same request gets the first answer again, byte for byte, without a second change; the key is
// the token's own, checked before it is looked up, refused while its first request runs and when reused for another
// request; kept answers are sealed, shared by the instances on the database, and forgotten by the purge once expired.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CLAIM_LEASE_MS } from '../../src/kernel/idempotency.js';
import { purgeTask } from '../../src/tasks.js';
import { type Person, type RequestOptions, startTestApp, type TestApp, useApi } from '../support/app.js';
import { buildMember, buildUser } from '../support/factories.js';
import { until } from '../support/until.js';

const secret = randomBytes(32);
const { t, world } = useApi({ world: true, secret });

const HOUR_MS = 3_600_000;
let keys = 0;
/** A key no other test uses. */
const newKey = () => `retry-${++keys}-${randomBytes(4).toString('hex')}`;

const spacesPath = () => `/v1/orgs/${world.organizationId}/spaces`;

function post(person: Person, path: string, body: unknown, key?: string, options: RequestOptions = {}) {
  return t.counted('POST', path, {
    token: person.token,
    body,
    ...options,
    headers: { ...(key !== undefined && { 'idempotency-key': key }), ...options.headers },
  });
}

const spacesTitled = (title: string) => t.prisma.space.count({ where: { title, organizationId: world.organizationId } });
const rowOf = (tokenId: string, key: string) => t.prisma.idempotencyKey.findUnique({ where: { tokenId_key: { tokenId, key } } });

describe('a retried POST', () => {
  it('gets the first answer again, byte for byte, and changes nothing more; a POST without a key costs nothing more', async () => {
    const key = newKey();
    const body = { title: 'Retried once' };
    const rows = () => t.prisma.idempotencyKey.count();
    const before = await rows();
    const plain = await post(world.admin, spacesPath(), { title: 'Sent without a key' });
    expect(plain.status).toBe(201);
    expect(await rows()).toBe(before);
    const first = await post(world.admin, spacesPath(), body, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await post(world.admin, spacesPath(), body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(retry.headers.get('location')).toBe(first.body.urls.location);
    expect(retry.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await spacesTitled('Retried once')).toBe(1);
    // The key claimed, then the answer stored: two statements; a replay is the token's and the key's.
    expect(first.statements).toBe(plain.statements + 2);
    expect(retry.statements).toBe(2);
  });

  it('is refused with 422 when the key was used for another body, path or method', async () => {
    const key = newKey();
    expect((await post(world.admin, spacesPath(), { title: 'First body' }, key)).status).toBe(201);
    const otherBody = await post(world.admin, spacesPath(), { title: 'Second body' }, key);
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual({
      error: { code: 422, message: expect.stringMatching(/^This Idempotency-Key was used for another request/) },
    });
    const otherPath = await post(world.admin, `/v1/orgs/${world.organizationId}/collections`, { title: 'First body' }, key);
    expect(otherPath.status).toBe(422);
    const otherMethod = await t.request('PUT', `/v1/orgs/${world.organizationId}/teams`, {
      token: world.admin.token,
      body: { title: 'First body' },
      headers: { 'idempotency-key': key },
    });
    expect(otherMethod.status).toBe(422);
    expect(await spacesTitled('Second body')).toBe(0);
    expect(await t.prisma.team.count({ where: { title: 'First body' } })).toBe(0);
  });

  it("is the token's own: the same key from another token is another request", async () => {
    const key = newKey();
    const other = await buildMember(t.prisma, { organizationId: world.organizationId, role: 'admin', user: await buildUser(t.prisma) });
    const mine = await post(world.admin, spacesPath(), { title: 'Each their own' }, key);
    const theirs = await post(other, spacesPath(), { title: 'Each their own' }, key);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await spacesTitled('Each their own')).toBe(2);
    expect((await post(other, spacesPath(), { title: 'Each their own' }, key)).text).toBe(theirs.text);
  });

  it('keeps an answer of 4xx too: the retry of a refused request is refused the same, without running', async () => {
    const key = newKey();
    const refused = await post(world.reader, spacesPath(), { title: 'Not allowed' }, key);
    expect(refused.status).toBe(403);
    const retry = await post(world.reader, spacesPath(), { title: 'Not allowed' }, key);
    expect(retry.status).toBe(403);
    expect(retry.text).toBe(refused.text);
    expect(retry.headers.get('content-type')).toBe(refused.headers.get('content-type'));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });

  it('gets an answer without a body (204) again, without a body', async () => {
    const key = newKey();
    const space = await post(world.admin, spacesPath(), { title: 'Shared' });
    const path = `/v1/spaces/${space.body.id}/permissions`;
    const body = { role: 'edit', users: [world.editor.userId] };
    const first = await post(world.admin, path, body, key);
    const retry = await post(world.admin, path, body, key);
    expect([first.status, retry.status]).toEqual([204, 204]);
    expect([first.text, retry.text]).toEqual(['', '']);
    expect(retry.headers.get('content-type')).toBeNull();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.statements).toBe(2);
  });

  it('covers a PUT that creates (a team), and ignores the key on a PATCH', async () => {
    const key = newKey();
    const path = `/v1/orgs/${world.organizationId}/teams`;
    const options = { token: world.admin.token, body: { title: 'Made by PUT' }, headers: { 'idempotency-key': key } };
    const first = await t.request('PUT', path, options);
    const retry = await t.request('PUT', path, options);
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.text).toBe(first.text);
    expect(await t.prisma.team.count({ where: { title: 'Made by PUT' } })).toBe(1);
    const space = await post(world.admin, spacesPath(), { title: 'Patched' });
    const patchKey = newKey();
    const patched = await t.request('PATCH', `/v1/spaces/${space.body.id}`, {
      token: world.admin.token,
      body: { title: 'Patched again' },
      headers: { 'idempotency-key': patchKey },
    });
    expect(patched.status).toBe(200);
    expect(await rowOf(world.admin.tokenId, patchKey)).toBeNull();
  });
});

describe('the key', () => {
  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['not ASCII', 'clé'],
  ])('is refused with 400 when %s', async (_, key) => {
    const res = await post(world.admin, spacesPath(), { title: `Bad key ${key.length}` }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message: 'Invalid "Idempotency-Key": must be 1 to 255 printable ASCII characters.' } });
  });

  it('takes 255 printable ASCII characters, spaces and punctuation included', async () => {
    const key = `${'a b!~'.repeat(51)}`;
    expect(key).toHaveLength(255);
    expect((await post(world.admin, spacesPath(), { title: 'Long key' }, key)).status).toBe(201);
    expect((await post(world.admin, spacesPath(), { title: 'Long key' }, key)).headers.get('idempotent-replayed')).toBe('true');
  });

  it('is looked up only for an authenticated token: an unknown one is a 401, never a replay', async () => {
    const key = newKey();
    expect((await post(world.admin, spacesPath(), { title: 'Token checked first' }, key)).status).toBe(201);
    const forged = await post(
      { ...world.admin, token: `${world.admin.token.slice(0, -4)}zzzz` },
      spacesPath(),
      { title: 'Token checked first' },
      key,
    );
    expect(forged.status).toBe(401);
    expect(forged.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('a retry while the first request runs', () => {
  it('is refused with 409 and Retry-After, and the first request still answers and keeps its answer', async () => {
    const key = newKey();
    const body = { title: 'Slow to create' };
    // The first request waits for a lock on the spaces table once it has claimed the key.
    const holder = new pg.Client({ connectionString: t.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE "Space" IN EXCLUSIVE MODE');
      const first = post(world.admin, spacesPath(), body, key);
      await until(
        () => rowOf(world.admin.tokenId, key),
        (row) => row !== null,
      );
      const meanwhile = await post(world.admin, spacesPath(), body, key);
      expect(meanwhile.status).toBe(409);
      expect(meanwhile.headers.get('retry-after')).toBe('1');
      expect(meanwhile.body).toEqual({
        error: { code: 409, message: 'A request with this Idempotency-Key is still running; retry once it has finished.' },
      });
      // Another body with the key is still another request.
      expect((await post(world.admin, spacesPath(), { title: 'Other' }, key)).status).toBe(422);
      await holder.query('COMMIT');
      const answered = await first;
      expect(answered.status).toBe(201);
      const retry = await post(world.admin, spacesPath(), body, key);
      expect(retry.text).toBe(answered.text);
      expect(await spacesTitled('Slow to create')).toBe(1);
    } finally {
      await holder.end();
    }
  });

  it('lets one of many requests sent at once run: the others get its answer or 409', async () => {
    const key = newKey();
    const body = { title: 'Sent ten times at once' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(world.admin, spacesPath(), body, key)));
    const created = answers.filter((answer) => answer.status === 201);
    expect(answers.every((answer) => answer.status === 201 || answer.status === 409)).toBe(true);
    expect(created.filter((answer) => answer.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(new Set(created.map((answer) => answer.text)).size).toBe(1);
    expect(await spacesTitled('Sent ten times at once')).toBe(1);
  });

  it('runs again once the claim of a request that never answered (its instance died) is past its lease', async () => {
    const key = newKey();
    const body = { title: 'Claimed, never answered' };
    expect((await post(world.admin, spacesPath(), body, key)).status).toBe(201);
    // As if the instance had died between its change and storing the answer.
    await t.prisma.idempotencyKey.update({
      where: { tokenId_key: { tokenId: world.admin.tokenId, key } },
      data: { status: null, answer: null },
    });
    expect((await post(world.admin, spacesPath(), body, key)).status).toBe(409);
    t.clock.advanceMs(CLAIM_LEASE_MS);
    // Still the same request only.
    expect((await post(world.admin, spacesPath(), { title: 'Another' }, key)).status).toBe(422);
    const again = await post(world.admin, spacesPath(), body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect((await post(world.admin, spacesPath(), body, key)).text).toBe(again.text);
  });
});

describe('kept answers', () => {
  it('are sealed: a webhook secret in an answer is not in the table in clear', async () => {
    const key = newKey();
    const path = `/v1/orgs/${world.organizationId}/webhooks`;
    const body = { url: 'https://example.com/hook', events: ['space_created'] };
    const created = await post(world.admin, path, body, key);
    expect(created.status).toBe(201);
    const row = await rowOf(world.admin.tokenId, key);
    expect(row?.status).toBe(201);
    expect(row?.answer).toMatch(/^v2\./);
    expect(row?.answer).not.toContain(created.body.secret);
    expect(row?.answer).not.toContain(created.body.id);
    const retry = await post(world.admin, path, body, key);
    expect(retry.body.secret).toBe(created.body.secret);
    expect(retry.text).toBe(created.text);
    expect(await t.prisma.webhook.count({ where: { organizationId: world.organizationId } })).toBe(1);
  });

  it('are sealed: a created API token in an answer is not in the table in clear, and the retry mints no second token', async () => {
    const key = newKey();
    const body = { label: 'Minted once' };
    const created = await post(world.admin, '/v1/user/tokens', body, key);
    expect(created.status, created.text).toBe(201);
    expect(created.body.token).toMatch(/^dpa_/);
    const row = await rowOf(world.admin.tokenId, key);
    expect(row?.answer).toMatch(/^v2\./);
    expect(row?.answer).not.toContain(created.body.token);
    const retry = await post(world.admin, '/v1/user/tokens', body, key);
    expect(retry.text).toBe(created.text);
    expect(await t.prisma.apiToken.count({ where: { userId: world.admin.userId, label: 'Minted once' } })).toBe(1);
  });

  it('leave out a server error: the key is given back, and the retry runs', async () => {
    const key = newKey();
    const body = { title: 'Failed once' };
    const failing = new pg.Client({ connectionString: t.databaseUrl });
    await failing.connect();
    try {
      await failing.query(`CREATE FUNCTION refuse_space() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`);
      await failing.query('CREATE TRIGGER refuse_space BEFORE INSERT ON "Space" FOR EACH ROW EXECUTE FUNCTION refuse_space()');
      const failed = await post(world.admin, spacesPath(), body, key);
      expect(failed.status).toBe(500);
      expect(await rowOf(world.admin.tokenId, key)).toBeNull();
    } finally {
      await failing.query('DROP TRIGGER IF EXISTS refuse_space ON "Space"');
      await failing.query('DROP FUNCTION IF EXISTS refuse_space()');
      await failing.end();
    }
    const retry = await post(world.admin, spacesPath(), body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await spacesTitled('Failed once')).toBe(1);
  });

  it('expire: after IDEMPOTENCY_KEY_HOURS the key is a new one, and the purge deletes what has expired', async () => {
    const [reused, forgotten] = [newKey(), newKey()];
    const body = { title: 'Expiring' };
    const first = await post(world.admin, spacesPath(), body, reused);
    await post(world.admin, spacesPath(), { title: 'Forgotten' }, forgotten);
    t.clock.advanceMs(24 * HOUR_MS - 1);
    expect((await post(world.admin, spacesPath(), body, reused)).text).toBe(first.text);
    t.clock.advanceMs(1);
    // Expired, not yet purged: the key is free.
    const second = await post(world.admin, spacesPath(), body, reused);
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect(await rowOf(world.admin.tokenId, forgotten)).not.toBeNull();
    await purgeTask.run({}, { services: t.app.services } as Parameters<typeof purgeTask.run>[1]);
    expect(await rowOf(world.admin.tokenId, forgotten)).toBeNull();
    // The key claimed again lives on.
    expect(await rowOf(world.admin.tokenId, reused)).not.toBeNull();
    expect(await t.prisma.idempotencyKey.count({ where: { expiresAt: { lte: t.clock.now() } } })).toBe(0);
  });
});

describe('two instances on one database', () => {
  let second: TestApp | undefined;
  afterAll(() => second?.stop());

  it('the retry on the second replays the answer of the first', async () => {
    second = await startTestApp({ databaseUrl: t.databaseUrl, secret });
    second.clock.advanceMs(t.clock.now().getTime() - second.clock.now().getTime());
    const key = newKey();
    const options = { token: world.admin.token, body: { title: 'Across instances' }, headers: { 'idempotency-key': key } };
    const first = await t.request('POST', spacesPath(), options);
    const retry = await second.request('POST', spacesPath(), options);
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await spacesTitled('Across instances')).toBe(1);
  });
});

describe('the OpenAPI document', () => {
  it('offers the header, and its 422, on the routes that take it only', async () => {
    const { body: document } = await t.request('GET', '/openapi.json');
    const keyOf = (operation: { parameters?: { name: string }[] }) => operation.parameters?.find((p) => p.name === 'Idempotency-Key');
    const createSpace = document.paths['/orgs/{organizationId}/spaces'].post;
    expect(keyOf(createSpace)).toMatchObject({ in: 'header', required: false, schema: { maxLength: 255 } });
    expect(createSpace.responses['422']).toEqual({ $ref: '#/components/responses/UnprocessableContent' });
    expect(createSpace.responses['201'].headers).toHaveProperty('Idempotent-Replayed');
    expect(keyOf(document.paths['/orgs/{organizationId}/teams'].put)).toBeDefined();
    for (const operation of [document.paths['/spaces/{spaceId}'].patch, document.paths['/orgs/{organizationId}/spaces'].get]) {
      expect(keyOf(operation)).toBeUndefined();
      expect(operation.responses).not.toHaveProperty('422');
    }
  });
});
