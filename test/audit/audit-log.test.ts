// The audit log (GitBook 0.202's listOrganizationAuditEvents, getOrganizationAuditEvent,
// listOrganizationAuditEventActions): the events real changes record, through GitBook's own client, newest first, with
// the published filters and pages; admins only; the actions list; a change that rolls back records nothing; and the
// retention, applied by the purge's tick.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordEvents, recorderFor, systemActor } from '../../src/kernel/events.js';
import { purgeTask } from '../../src/tasks.js';
import { type Person, useApi, walk } from '../support/app.js';
import { buildOrganization } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const RETENTION_DAYS = 30;
const { t, world } = useApi({ world: true, env: { AUDIT_RETENTION_DAYS: String(RETENTION_DAYS) } });

const eventsPath = (organizationId: string) => `/v1/orgs/${organizationId}/audit-events`;
const listSpec = '/orgs/{organizationId}/audit-events';
const getSpec = '/orgs/{organizationId}/audit-events/{auditEventId}';
const actionsSpec = '/orgs/{organizationId}/audit-event-actions';

/** An organization of its own, its admin, and a space the admin created and renamed through the API. */
let org: string;
let owner: Person;
let spaceId: string;

beforeAll(async () => {
  ({
    organization: { id: org },
    owner,
  } = await buildOrganization(t.prisma, { title: 'Audited' }));
  const api = gitbookClient('0202', t.url, owner.token);
  spaceId = (await api.orgs.createSpace(org, { title: 'Handbook' })).data.id;
  t.clock.advanceMs(1000);
  await api.spaces.updateSpaceById(spaceId, { title: 'Handbook, renamed' });
});

describe('the audit log', () => {
  it('lists the changes newest first, in the published shape, through GitBook’s client', async () => {
    const api = gitbookClient('0202', t.url, owner.token);
    const list = await api.orgs.listOrganizationAuditEvents(org);
    expect(list.status).toBe(200);
    expectMatchesSpec('0202', 'get', listSpec, 200, list.data);
    expect(list.data.items.map((event) => event.action)).toEqual(['space_updated', 'space_created']);
    expect(list.data.count).toBe(2);
    const [updated] = list.data.items;
    expect(updated).toEqual({
      object: 'audit-event',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      occurredAt: t.clock.now().toISOString(),
      action: 'space_updated',
      actor: { type: 'user', id: owner.userId, label: expect.any(String) },
      source: 'api',
      target: { type: 'space', id: spaceId, label: 'Handbook, renamed' },
      urls: { location: `${t.url}${eventsPath(org)}/${updated.id}` },
    });
  });

  it('answers one event with its payload: the fields that changed, the request, the token, the client address', async () => {
    const api = gitbookClient('0202', t.url, owner.token);
    const [updated] = (await api.orgs.listOrganizationAuditEvents(org, { action: 'space_updated' })).data.items;
    const details = await api.orgs.getOrganizationAuditEvent(org, updated.id);
    expect(details.status).toBe(200);
    expectMatchesSpec('0202', 'get', getSpec, 200, details.data);
    expect(details.data).toMatchObject({ ...updated, schemaVersion: 1 });
    expect(details.data.payload).toMatchObject({
      changed: { title: { from: 'Handbook', to: 'Handbook, renamed' } },
      tokenId: owner.tokenId,
      requestId: expect.any(String),
      clientAddress: expect.any(String),
    });
  });

  it('filters by action, actor, target and time, each exactly', async () => {
    const ids = async (query: string) => {
      const res = await t.request('GET', `${eventsPath(org)}?${query}`, { token: owner.token });
      expect(res.status).toBe(200);
      return res.body.items.map((event: { action: string }) => event.action);
    };
    expect(await ids('action=space_created')).toEqual(['space_created']);
    expect(await ids('action=space')).toEqual([]);
    expect(await ids(`actor=${owner.userId}`)).toEqual(['space_updated', 'space_created']);
    expect(await ids('actor=system')).toEqual([]);
    expect(await ids(`target=${spaceId}`)).toEqual(['space_updated', 'space_created']);
    expect(await ids('target=nothing')).toEqual([]);
    const now = t.clock.now();
    const before = new Date(now.getTime() - 1).toISOString();
    expect(await ids(`from=${encodeURIComponent(now.toISOString())}`)).toEqual(['space_updated']);
    expect(await ids(`to=${encodeURIComponent(before)}`)).toEqual(['space_created']);
    expect(await ids(`from=${encodeURIComponent(before)}&to=${encodeURIComponent(before)}`)).toEqual([]);
    const bad = await t.request('GET', `${eventsPath(org)}?from=yesterday`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Invalid "from": DateTime must be an ISO 8601 string.');
  });

  it('pages 1 to 100 events (20 by default), each event once, and keeps a page token to its filters', async () => {
    const { organization } = await buildOrganization(t.prisma, { owner, title: 'Busy' });
    const at = t.clock.now().getTime();
    await t.prisma.auditEvent.createMany({
      data: Array.from({ length: 45 }, (_, i) => ({
        id: randomUUID(),
        organizationId: organization.id,
        action: i % 2 ? 'space_updated' : 'space_created',
        actorType: 'system',
        actorId: 'system',
        source: 'workflow',
        targetType: 'space',
        targetId: `space${i}`,
        // Pairs of events at the same time: the id orders them.
        occurredAt: new Date(at - Math.floor(i / 2) * 1000),
      })),
    });
    const first = await t.request('GET', eventsPath(organization.id), { token: owner.token });
    // Events without labels leave them out, as the published shape has them optional.
    expectMatchesSpec('0202', 'get', listSpec, 200, first.body);
    expect(first.body.items[0].actor).toEqual({ type: 'system', id: 'system' });
    expect(first.body.items).toHaveLength(20);
    expect(first.body.count).toBe(45);
    const { items, pages } = await walk<{ id: string; occurredAt: string }>(t, `${eventsPath(organization.id)}?limit=7`, {
      token: owner.token,
    });
    expect(pages).toBe(7);
    expect(new Set(items.map((event) => event.id)).size).toBe(45);
    const times = items.map((event) => event.occurredAt);
    expect(times).toEqual([...times].sort().reverse());
    for (const limit of [0, 101, 1.5]) {
      expect((await t.request('GET', `${eventsPath(organization.id)}?limit=${limit}`, { token: owner.token })).status).toBe(400);
    }
    const filtered = `${eventsPath(organization.id)}?limit=1&action=space_updated`;
    const page = (await t.request('GET', filtered, { token: owner.token })).body.next.page;
    const elsewhere = await t.request('GET', `${eventsPath(organization.id)}?limit=1&page=${page}`, { token: owner.token });
    expect(elsewhere.status).toBe(400);
  });

  it('lists every action the product records, with its label', async () => {
    const api = gitbookClient('0202', t.url, owner.token);
    const actions = await api.orgs.listOrganizationAuditEventActions(org);
    expect(actions.status).toBe(200);
    expectMatchesSpec('0202', 'get', actionsSpec, 200, actions.data);
    expect(actions.data.items).toContainEqual({ object: 'audit-event-action', id: 'space_transferred', label: 'Space transferred' });
    expect(actions.data.items.map((action) => action.id)).toEqual(
      expect.arrayContaining(['space_created', 'space_updated', 'space_deleted', 'space_restored', 'space_moved']),
    );
  });
});

describe('who reads the audit log', () => {
  let acmeEvent: string;

  beforeAll(async () => {
    await t.request('POST', `/v1/orgs/${world.organizationId}/spaces`, { token: world.admin.token, body: { title: 'Acme space' } });
    acmeEvent = (await t.prisma.auditEvent.findFirstOrThrow({ where: { organizationId: world.organizationId } })).id;
  });

  const paths = () => [
    eventsPath(world.organizationId),
    `${eventsPath(world.organizationId)}/${acmeEvent}`,
    `/v1/orgs/${world.organizationId}/audit-event-actions`,
  ];

  it('is the organization’s admins', async () => {
    for (const path of paths()) expect((await t.request('GET', path, { token: world.admin.token })).status).toBe(200);
  });

  it('refuses members without the admin role (403), and answers outsiders and anonymous callers as nothing (404, 401)', async () => {
    for (const path of paths()) {
      for (const person of [world.creator, world.reviewer, world.editor, world.commenter, world.reader, world.guest]) {
        const res = await t.request('GET', path, { token: person.token });
        expect(res.status, path).toBe(403);
        expect(res.body.error.code).toBe(403);
      }
      expect((await t.request('GET', path, { token: world.outsider.token })).status).toBe(404);
      expect((await t.request('GET', path)).status).toBe(401);
    }
  });

  it('finds no event of another organization, nor an unknown one', async () => {
    // The admin of both Acme and Second asks for Acme's event under Second.
    const other = await t.request('GET', `${eventsPath(world.secondOrganizationId)}/${acmeEvent}`, { token: world.admin.token });
    expect(other.status).toBe(404);
    const unknown = await t.request('GET', `${eventsPath(world.organizationId)}/${randomUUID()}`, { token: world.admin.token });
    expect(unknown.status).toBe(404);
    const list = await t.request('GET', eventsPath(world.secondOrganizationId), { token: world.admin.token });
    expect(list.body.items.map((event: { id: string }) => event.id)).not.toContain(acmeEvent);
  });

  it('is the same through GraphQL', async () => {
    const query = `query($org: ID!, $id: ID!) { organization(id: $org) {
      auditEvents(limit: 1) { count items { id action actor { type id } target { id } } }
      auditEvent(auditEventId: $id) { id schemaVersion payload }
      auditEventActions { items { id label } } } }`;
    const ask = (person: Person) =>
      t.request('POST', '/graphql', { token: person.token, body: { query, variables: { org: world.organizationId, id: acmeEvent } } });
    const admin = await ask(world.admin);
    expect(admin.body.errors).toBeUndefined();
    expect(admin.body.data.organization.auditEvent).toMatchObject({ id: acmeEvent, schemaVersion: 1 });
    const reader = await ask(world.reader);
    expect(reader.body.data?.organization ?? null).toBeNull();
    expect(reader.body.errors[0].message).toMatch(/"admin" permission/);
  });

  it('has no route or mutation that edits or deletes an event', async () => {
    for (const method of ['PATCH', 'PUT', 'DELETE', 'POST']) {
      const res = await t.request(method, `${eventsPath(world.organizationId)}/${acmeEvent}`, { token: world.admin.token, body: {} });
      expect(res.status, method).toBe(405);
    }
    const introspection = await t.request('POST', '/graphql', {
      token: world.admin.token,
      body: { query: '{ __schema { mutationType { fields { name } } } }' },
    });
    const mutations: string[] = introspection.body.data.__schema.mutationType.fields.map((field: { name: string }) => field.name);
    expect(mutations.filter((name) => /audit/i.test(name))).toEqual([]);
  });
});

describe('recording', () => {
  it('records nothing for a change that rolls back, and the event of one that commits', async () => {
    const recorder = recorderFor(t.app.services, systemActor('script'));
    const { organization } = await buildOrganization(t.prisma, { title: 'Rolled back' });
    const change = async (tx: Parameters<Parameters<typeof t.prisma.$transaction>[0]>[0], title: string) => {
      await tx.organization.update({ where: { id: organization.id }, data: { title } });
      await recordEvents(tx, recorder, [
        {
          action: 'organization_updated',
          organizationId: organization.id,
          target: { type: 'organization', id: organization.id, label: title },
        },
      ]);
    };
    await expect(
      t.prisma.$transaction(async (tx) => {
        await change(tx, 'Never');
        throw new Error('the change fails after recording');
      }),
    ).rejects.toThrow('the change fails after recording');
    expect(await t.prisma.auditEvent.count({ where: { organizationId: organization.id } })).toBe(0);
    expect((await t.prisma.organization.findUniqueOrThrow({ where: { id: organization.id } })).title).toBe('Rolled back');

    await t.prisma.$transaction((tx) => change(tx, 'Kept'));
    const [event] = await t.prisma.auditEvent.findMany({ where: { organizationId: organization.id } });
    expect(event).toMatchObject({
      action: 'organization_updated',
      actorType: 'system',
      actorId: 'system',
      actorLabel: 'System',
      source: 'script',
    });
  });
});

describe('retention', () => {
  it('the purge’s tick deletes the events older than AUDIT_RETENTION_DAYS, and keeps the rest', async () => {
    const { organization } = await buildOrganization(t.prisma, { title: 'Old' });
    const now = t.clock.now().getTime();
    const event = (id: string, daysAgo: number) => ({
      id,
      organizationId: organization.id,
      action: 'space_created',
      actorType: 'system',
      actorId: 'system',
      source: 'workflow',
      targetType: 'space',
      targetId: 'space',
      payload: { clientAddress: '192.0.2.1' },
      occurredAt: new Date(now - daysAgo * 86_400_000),
    });
    const [expired, kept] = [randomUUID(), randomUUID()];
    await t.prisma.auditEvent.createMany({ data: [event(expired, RETENTION_DAYS + 0.001), event(kept, RETENTION_DAYS - 0.001)] });
    await purgeTask.run({}, { services: t.app.services } as Parameters<typeof purgeTask.run>[1]);
    const left = await t.prisma.auditEvent.findMany({ where: { organizationId: organization.id }, select: { id: true } });
    expect(left).toEqual([{ id: kept }]);
  });
});
