// Webhooks (an extension of GitBook's API): /v1/orgs/{organizationId}/webhooks and its deliveries. A real receiver
// on loopback takes the deliveries and verifies them with the standardwebhooks library; the spaces' events (created,
// updated) are the events under test. Retries, the disabling, redelivery, a restart, the organization's and the
// creator's sight each have their test.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Person, startTestApp, type TestApp, useApi } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildMember, buildSpace, buildUser } from '../support/factories.js';
import { expectMatchesDocument } from '../support/openapi.js';
import { until } from '../support/until.js';
import { buildWorld } from '../support/world.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
}

/** A receiver on loopback: it records each request, and answers the statuses queued for it, then 200. */
function receiver() {
  const received: Received[] = [];
  const statuses: number[] = [];
  const held: (() => void)[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body, path: request.url ?? '' });
      // A slow receiver: held until the test lets it answer.
      if (request.url === '/slow') held.push(() => response.end('late'));
      else {
        response.statusCode = statuses.shift() ?? 200;
        response.end('ok');
      }
    });
  });
  return {
    received,
    statuses,
    server,
    url: (path = '/hook') => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    release() {
      for (const answer of held.splice(0)) answer();
    },
    clear() {
      received.length = 0;
      statuses.length = 0;
    },
  };
}

const hook = receiver();
beforeAll(() => new Promise<void>((resolve) => hook.server.listen(0, '127.0.0.1', resolve)));
afterAll(() => new Promise<void>((resolve) => hook.server.close(() => resolve())));
beforeEach(() => hook.clear());

const env = {
  ALLOW_PRIVATE_NETWORK: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1s,1s',
  WEBHOOK_FAILURES_TO_DISABLE: '2',
};
const { t, world } = useApi({ world: true, jobs: 1, env });

/** The verified body of a received delivery: the signature checked with the webhook's secret. */
function verified(secret: string, request: Received) {
  return new Verifier(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, any> };
}

async function createWebhook(app: TestApp, person: Person, organizationId: string, body: Record<string, unknown>) {
  const res = await app.request('POST', `/v1/orgs/${organizationId}/webhooks`, { token: person.token, body: { url: hook.url(), ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string };
}

/** A space created a second after the last event: deliveries are listed newest first. */
function createSpace(app: TestApp, person: Person, organizationId: string, title: string) {
  app.clock.advanceMs(1000);
  return app.request('POST', `/v1/orgs/${organizationId}/spaces`, { token: person.token, body: { title } });
}

async function deliveriesOf(app: TestApp, organizationId: string, webhookId: string) {
  const res = await app.request('GET', `/v1/orgs/${organizationId}/webhooks/${webhookId}/deliveries`, { token: world.admin.token });
  expect(res.status).toBe(200);
  return res.body.items as { id: string; type: string; status: string; attempts: number; responseStatus?: number }[];
}

const settled = (app: TestApp, organizationId: string, webhookId: string, count = 1) =>
  until(
    () => deliveriesOf(app, organizationId, webhookId),
    (items) => items.length >= count && items.every((item) => item.status !== 'pending'),
  );

const auditActions = async (webhookId: string) =>
  (await t.prisma.auditEvent.findMany({ where: { targetId: webhookId }, orderBy: { occurredAt: 'asc' } })).map((event) => event.action);

describe('managing webhooks', () => {
  it('creates, reads, lists, updates, rotates and deletes, the secret answered only by creation and rotation', async () => {
    const base = `/v1/orgs/${world.organizationId}/webhooks`;
    const created = await t.request('POST', base, {
      token: world.admin.token,
      body: { url: 'https://example.com/hook', events: ['space_created'], description: 'CI' },
    });
    expect(created.status).toBe(201);
    expectMatchesDocument('ours', 'POST', '/orgs/{organizationId}/webhooks', 201, created.body);
    expect(created.body).toMatchObject({
      object: 'webhook',
      url: 'https://example.com/hook',
      events: ['space_created'],
      spaces: [],
      active: true,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const id = created.body.id;
    expect(created.body.urls.location).toBe(`${t.url}${base}/${id}`);

    const read = await t.request('GET', `${base}/${id}`, { token: world.admin.token });
    expect(read.status).toBe(200);
    expectMatchesDocument('ours', 'GET', '/orgs/{organizationId}/webhooks/{webhookId}', 200, read.body);
    expect(read.body).not.toHaveProperty('secret');
    const listed = await t.request('GET', base, { token: world.admin.token });
    expect(listed.body.items.map((item: { id: string }) => item.id)).toContain(id);
    expect(listed.body.items.every((item: object) => !('secret' in item))).toBe(true);

    const updated = await t.request('PATCH', `${base}/${id}`, { token: world.admin.token, body: { events: ['*'], active: false } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ events: ['*'], active: false });
    expect(updated.body).not.toHaveProperty('secret');

    const rotated = await t.request('POST', `${base}/${id}/secret`, { token: world.admin.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);

    expect((await t.request('DELETE', `${base}/${id}`, { token: world.admin.token })).status).toBe(204);
    expect((await t.request('GET', `${base}/${id}`, { token: world.admin.token })).status).toBe(404);
    expect(await auditActions(id)).toEqual(['webhook_created', 'webhook_updated', 'webhook_secret_rotated', 'webhook_deleted']);
    const update = await t.prisma.auditEvent.findFirstOrThrow({ where: { targetId: id, action: 'webhook_updated' } });
    expect((update.payload as any).changed).toEqual({ events: { from: ['space_created'], to: ['*'] }, active: { from: true, to: false } });
  });

  it('is for organization admins only: others are refused, or do not learn it exists', async () => {
    const base = `/v1/orgs/${world.organizationId}/webhooks`;
    const { id } = await createWebhook(t, world.admin, world.organizationId, { events: ['*'], active: false });
    expect((await t.request('POST', base, { token: world.creator.token, body: { url: hook.url(), events: ['*'] } })).status).toBe(403);
    expect((await t.request('GET', base, { token: world.creator.token })).status).toBe(403);
    for (const person of [world.creator, world.reader, world.outsider]) {
      expect((await t.request('GET', `${base}/${id}`, { token: person.token })).status).toBe(404);
      expect((await t.request('PATCH', `${base}/${id}`, { token: person.token, body: { active: true } })).status).toBe(404);
    }
    // Another organization's path does not reach it either.
    expect((await t.request('GET', `/v1/orgs/${world.secondOrganizationId}/webhooks/${id}`, { token: world.admin.token })).status).toBe(
      404,
    );
  });

  it('refuses URLs that are not http or https, unknown spaces and bad event types', async () => {
    const base = `/v1/orgs/${world.organizationId}/webhooks`;
    for (const body of [
      { url: 'ftp://example.com/x', events: ['*'] },
      { url: 'https://example.com/x', events: [] },
      { url: 'https://example.com/x', events: ['Space Created'] },
      { url: 'https://example.com/x', events: ['*'], spaces: ['nosuchspace'] },
    ]) {
      const res = await t.request('POST', base, { token: world.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('deliveries', () => {
  it('delivers a matching event, signed so that standardwebhooks verifies it, with the space and organization', async () => {
    const { id, secret } = await createWebhook(t, world.admin, world.organizationId, { events: ['space_created'] });
    const space = await createSpace(t, world.admin, world.organizationId, 'Delivered');
    expect(space.status).toBe(201);
    const [delivery] = await settled(t, world.organizationId, id);
    expect(delivery).toMatchObject({ type: 'space_created', status: 'success', attempts: 1, responseStatus: 200 });
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0].headers['webhook-id']).toBe(delivery.id);
    const body = verified(secret, hook.received[0]);
    expect(body.type).toBe('space_created');
    expect(body.data).toMatchObject({
      organizationId: world.organizationId,
      spaceId: space.body.id,
      target: { type: 'space', id: space.body.id, label: 'Delivered' },
      actor: { type: 'user', id: world.admin.userId },
      urls: { space: `${t.url}/v1/spaces/${space.body.id}`, organization: `${t.url}/v1/orgs/${world.organizationId}` },
    });
    expect(body.data).not.toHaveProperty('requestId');
    const list = await t.request('GET', `/v1/orgs/${world.organizationId}/webhooks/${id}/deliveries`, { token: world.admin.token });
    expectMatchesDocument('ours', 'GET', '/orgs/{organizationId}/webhooks/{webhookId}/deliveries', 200, list.body);
    // A signature made with another secret does not verify.
    expect(() => verified(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, hook.received[0])).toThrow();
    await t.request('DELETE', `/v1/orgs/${world.organizationId}/webhooks/${id}`, { token: world.admin.token });
  });

  it('delivers only the events subscribed to, and only about the spaces it is limited to', async () => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const other = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const { id } = await createWebhook(t, world.admin, world.organizationId, { events: ['space_updated'], spaces: [space.id] });
    await createSpace(t, world.admin, world.organizationId, 'Not subscribed');
    for (const target of [other, space]) {
      const res = await t.request('PATCH', `/v1/spaces/${target.id}`, {
        token: world.admin.token,
        body: { title: `Renamed ${target.id}` },
      });
      expect(res.status).toBe(200);
    }
    const items = await settled(t, world.organizationId, id);
    expect(items.map((item) => item.type)).toEqual(['space_updated']);
    expect(hook.received).toHaveLength(1);
    await t.request('DELETE', `/v1/orgs/${world.organizationId}/webhooks/${id}`, { token: world.admin.token });
  });

  it('retries a 500 with the same webhook-id, and succeeds', async () => {
    const { id, secret } = await createWebhook(t, world.admin, world.organizationId, { events: ['space_created'] });
    hook.statuses.push(500);
    await createSpace(t, world.admin, world.organizationId, 'Retried');
    const [delivery] = await settled(t, world.organizationId, id);
    expect(delivery).toMatchObject({ status: 'success', attempts: 2, responseStatus: 200 });
    expect(hook.received).toHaveLength(2);
    expect(hook.received.map((request) => request.headers['webhook-id'])).toEqual([delivery.id, delivery.id]);
    for (const request of hook.received) expect(verified(secret, request).type).toBe('space_created');
    await t.request('DELETE', `/v1/orgs/${world.organizationId}/webhooks/${id}`, { token: world.admin.token });
  });

  it('does not retry a 400, and redelivers on request with the same id', async () => {
    const base = `/v1/orgs/${world.organizationId}/webhooks`;
    const { id } = await createWebhook(t, world.admin, world.organizationId, { events: ['space_created'] });
    hook.statuses.push(400);
    await createSpace(t, world.admin, world.organizationId, 'Refused');
    const [delivery] = await settled(t, world.organizationId, id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, responseStatus: 400 });
    expect(hook.received).toHaveLength(1);

    const again = await t.request('POST', `${base}/${id}/deliveries/${delivery.id}/redeliver`, { token: world.admin.token });
    expect(again.status).toBe(200);
    expectMatchesDocument('ours', 'POST', '/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', 200, again.body);
    expect(again.body).toMatchObject({ object: 'webhook-delivery', id: delivery.id, status: 'pending' });
    const [redelivered] = await settled(t, world.organizationId, id);
    expect(redelivered).toMatchObject({ id: delivery.id, status: 'success', responseStatus: 200 });
    expect(hook.received.map((request) => request.headers['webhook-id'])).toEqual([delivery.id, delivery.id]);
    expect((await t.request('POST', `${base}/${id}/deliveries/nosuchdelivery/redeliver`, { token: world.admin.token })).status).toBe(404);
    await t.request('DELETE', `${base}/${id}`, { token: world.admin.token });
  });

  it('is disabled, with its reason and an audit event, after deliveries keep failing', async () => {
    const base = `/v1/orgs/${world.organizationId}/webhooks`;
    const { id } = await createWebhook(t, world.admin, world.organizationId, { events: ['space_created'] });
    // Each delivery: the first attempt and the schedule's two retries.
    hook.statuses.push(...Array(6).fill(503));
    await createSpace(t, world.admin, world.organizationId, 'Failing 1');
    await settled(t, world.organizationId, id, 1);
    await createSpace(t, world.admin, world.organizationId, 'Failing 2');
    const items = await settled(t, world.organizationId, id, 2);
    expect(items.map((item) => [item.status, item.attempts])).toEqual([
      ['failed', 3],
      ['failed', 3],
    ]);
    const webhook = await t.request('GET', `${base}/${id}`, { token: world.admin.token });
    expect(webhook.body).toMatchObject({ active: false, disabledReason: 'Its last 2 deliveries failed.' });
    expect(await auditActions(id)).toEqual(['webhook_created', 'webhook_disabled']);
    const disabled = await t.prisma.auditEvent.findFirstOrThrow({ where: { targetId: id, action: 'webhook_disabled' } });
    expect(disabled).toMatchObject({ actorType: 'system', source: 'workflow' });

    // Inactive: nothing more is delivered, nor pinged; resumed: delivered again, its reason gone.
    hook.clear();
    expect((await t.request('POST', `${base}/${id}/ping`, { token: world.admin.token })).status).toBe(409);
    await createSpace(t, world.admin, world.organizationId, 'While disabled');
    const resumed = await t.request('PATCH', `${base}/${id}`, { token: world.admin.token, body: { active: true } });
    expect(resumed.body).toMatchObject({ active: true });
    expect(resumed.body).not.toHaveProperty('disabledReason');
    await createSpace(t, world.admin, world.organizationId, 'Resumed');
    const after = await settled(t, world.organizationId, id, 3);
    expect(after.map((item) => item.status)).toEqual(['success', 'failed', 'failed']);
    expect(hook.received).toHaveLength(1);
    await t.request('DELETE', `${base}/${id}`, { token: world.admin.token });
  });

  it('does not hold one webhook up behind a slow receiver of another', async () => {
    const slow = await createWebhook(t, world.admin, world.organizationId, { url: hook.url('/slow'), events: ['space_created'] });
    const fast = await createWebhook(t, world.admin, world.organizationId, { events: ['space_created'] });
    await createSpace(t, world.admin, world.organizationId, 'Raced');
    await createSpace(t, world.admin, world.organizationId, 'Raced again');
    // Both of the fast webhook's deliveries arrive while the slow receiver still holds its first.
    await settled(t, world.organizationId, fast.id, 2);
    expect(hook.received.filter((request) => request.path === '/slow')).toHaveLength(1);
    hook.release();
    await until(
      async () => hook.received.filter((request) => request.path === '/slow').length,
      (count) => count === 2,
    );
    hook.release();
    await settled(t, world.organizationId, slow.id, 2);
    for (const { id } of [slow, fast])
      await t.request('DELETE', `/v1/orgs/${world.organizationId}/webhooks/${id}`, { token: world.admin.token });
  });

  it('pings the receiver', async () => {
    const { id, secret } = await createWebhook(t, world.admin, world.organizationId, { events: ['space_created'] });
    const ping = await t.request('POST', `/v1/orgs/${world.organizationId}/webhooks/${id}/ping`, { token: world.admin.token });
    expect(ping.status).toBe(200);
    expectMatchesDocument('ours', 'POST', '/orgs/{organizationId}/webhooks/{webhookId}/ping', 200, ping.body);
    await settled(t, world.organizationId, id);
    expect(verified(secret, hook.received[0])).toMatchObject({
      type: 'ping',
      data: { organizationId: world.organizationId, webhookId: id },
    });
    await t.request('DELETE', `/v1/orgs/${world.organizationId}/webhooks/${id}`, { token: world.admin.token });
  });
});

describe("what a webhook's receiver may see", () => {
  it("never receives another organization's events", async () => {
    const { id } = await createWebhook(t, world.admin, world.secondOrganizationId, { events: ['space_created'] });
    const own = await createWebhook(t, world.admin, world.organizationId, { events: ['space_created'] });
    await createSpace(t, world.admin, world.organizationId, 'Acme only');
    await settled(t, world.organizationId, own.id);
    expect(await deliveriesOf(t, world.secondOrganizationId, id)).toEqual([]);
    expect(hook.received).toHaveLength(1);
    await t.request('DELETE', `/v1/orgs/${world.secondOrganizationId}/webhooks/${id}`, { token: world.admin.token });
    await t.request('DELETE', `/v1/orgs/${world.organizationId}/webhooks/${own.id}`, { token: world.admin.token });
  });

  it('sends nothing once its creator is no longer an admin, whose spaces they may not see, and is disabled', async () => {
    const ann = await buildMember(t.prisma, { organizationId: world.organizationId, role: 'admin', user: await buildUser(t.prisma) });
    const hidden = await buildSpace(t.prisma, { organizationId: world.organizationId, defaultLevel: null });
    const open = await buildSpace(t.prisma, { organizationId: world.organizationId, defaultLevel: 'inherit' });
    const { id } = await createWebhook(t, ann, world.organizationId, { events: ['space_updated'] });
    await t.prisma.member.update({
      where: { organizationId_userId: { organizationId: world.organizationId, userId: ann.userId } },
      data: { role: 'read' },
    });
    for (const space of [hidden, open]) {
      expect((await t.request('PATCH', `/v1/spaces/${space.id}`, { token: world.admin.token, body: { title: 'Seen?' } })).status).toBe(200);
    }
    const items = await settled(t, world.organizationId, id);
    // Neither event was sent, the hidden space's nor the open one's: when due, their creator was no admin any more (the
    // second change has no delivery when the first one's already disabled the webhook).
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect([item.type, item.status, item.attempts]).toEqual(['space_updated', 'failed', 0]);
    expect(hook.received).toHaveLength(0);
    const webhook = await t.request('GET', `/v1/orgs/${world.organizationId}/webhooks/${id}`, { token: world.admin.token });
    expect(webhook.body).toMatchObject({ active: false, disabledReason: 'Its creator is no longer an admin of the organization.' });
  });
});

describe("a webhook's creator", () => {
  it('who loses the admin role or leaves disables their webhooks in that change, recorded by whoever made it', async () => {
    const creators = [
      await buildMember(t.prisma, { organizationId: world.organizationId, role: 'admin', user: await buildUser(t.prisma) }),
      await buildMember(t.prisma, { organizationId: world.organizationId, role: 'admin', user: await buildUser(t.prisma) }),
    ];
    const hooks: { id: string }[] = [];
    // Subscribed to what the test does not do: no delivery reaches the receiver after it.
    for (const creator of creators) hooks.push(await createWebhook(t, creator, world.organizationId, { events: ['space_created'] }));
    const kept = await createWebhook(t, world.admin, world.organizationId, { events: ['space_created'] });
    const members = `/v1/orgs/${world.organizationId}/members`;
    const demotion = await t.request('PATCH', `${members}/${creators[0].userId}`, { token: world.admin.token, body: { role: 'edit' } });
    expect(demotion.status).toBe(200);
    const removal = await t.request('DELETE', `${members}/${creators[1].userId}`, { token: world.admin.token });
    expect(removal.status).toBe(204);
    for (const { id } of hooks) {
      const webhook = await t.request('GET', `/v1/orgs/${world.organizationId}/webhooks/${id}`, { token: world.admin.token });
      expect(webhook.body).toMatchObject({ active: false, disabledReason: 'Its creator is no longer an admin of the organization.' });
      const [disabled] = await eventsOf(t.prisma, { targetId: id }, 'webhook_disabled');
      expect(disabled).toMatchObject({ actorType: 'user', actorId: world.admin.userId, source: 'api', targetType: 'webhook' });
      expect(disabled.payload).toMatchObject({ reason: 'Its creator is no longer an admin of the organization.' });
    }
    const untouched = await t.request('GET', `/v1/orgs/${world.organizationId}/webhooks/${kept.id}`, { token: world.admin.token });
    expect(untouched.body).toMatchObject({ active: true });
    expect(untouched.body.disabledReason).toBeUndefined();
    await t.request('DELETE', `/v1/orgs/${world.organizationId}/webhooks/${kept.id}`, { token: world.admin.token });
  });
});

describe('a restart', () => {
  const opened: TestApp[] = [];
  afterAll(async () => {
    for (const app of opened.reverse()) await app.close();
  });

  it('delivers what was pending when the service stopped, once a worker runs', async () => {
    const secret = randomBytes(32);
    const first = await startTestApp({ env, secret });
    opened.push(first);
    const people = await buildWorld(first.prisma);
    const { id, secret: signing } = await createWebhook(first, people.admin, people.organizationId, { events: ['space_created'] });
    expect((await createSpace(first, people.admin, people.organizationId, 'Before the restart')).status).toBe(201);
    await first.stop();
    expect(hook.received).toHaveLength(0);

    const second = await startTestApp({ env, secret, databaseUrl: first.databaseUrl, jobs: 1 });
    opened.push(second);
    await until(
      async () => hook.received.length,
      (count) => count === 1,
    );
    expect(verified(signing, hook.received[0]).data.target.label).toBe('Before the restart');
    const delivery = await second.prisma.webhookDelivery.findFirstOrThrow({ where: { webhookId: id } });
    expect(delivery.status).toBe('success');
  });
});
