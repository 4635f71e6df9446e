// The organization's change requests (every space the viewer can see, with the space list's filters and more), the
// order of both lists (last update by default, or creation), and who contributed to a change request: one item per
// user and kind of contribution (edit, comment).
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { type Person, useApi, walk } from '../support/app.js';
import { buildSite, buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });

/** Spaces of Acme: open to its members, restricted (no default level), granted to the guest alone, deleted. */
const spaces = { docs: '', restricted: '', granted: '', deleted: '', elsewhere: '' };
/** Change requests by subject. */
const ids: Record<string, string> = {};
let site: string;

const orgList = (query = '', organizationId = world.organizationId) => `/v1/orgs/${organizationId}/change-requests${query}`;
const crBase = (spaceId: string, id: string) => `/v1/spaces/${spaceId}/change-requests/${id}`;

async function ok(method: string, path: string, person: Person, body?: unknown) {
  const res = await t.request(method, path, { token: person.token, body });
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

/** A change request of the space, one second after whatever came before; opened unless it stays a draft. */
async function changeRequest(spaceId: string, subject: string, { by = world.admin, status = 'open' } = {}) {
  t.clock.advanceMs(1000);
  const created = await ok('POST', `/v1/spaces/${spaceId}/change-requests`, by, { subject });
  if (status !== 'draft') await ok('PATCH', crBase(spaceId, created.id), world.admin, { status: 'open' });
  if (status === 'archived') await ok('PATCH', crBase(spaceId, created.id), world.admin, { status: 'archived' });
  ids[subject] = created.id;
}

async function subjects(query: string, person: Person = world.admin) {
  const res = await t.request('GET', orgList(query), { token: person.token });
  expect(res.status, res.text).toBe(200);
  expect(res.body.count).toBe(res.body.items.length);
  return res.body.items.map((cr: { subject: string }) => cr.subject);
}

beforeAll(async () => {
  const organizationId = world.organizationId;
  spaces.docs = (await buildSpace(t.prisma, { organizationId, title: 'Docs' })).id;
  spaces.restricted = (await buildSpace(t.prisma, { organizationId, title: 'Restricted', defaultLevel: null })).id;
  spaces.granted = (await buildSpace(t.prisma, { organizationId, title: 'Granted', defaultLevel: null })).id;
  spaces.deleted = (await buildSpace(t.prisma, { organizationId, title: 'Deleted' })).id;
  spaces.elsewhere = (await buildSpace(t.prisma, { organizationId: world.secondOrganizationId, title: 'Elsewhere' })).id;
  await t.prisma.contentGrant.create({
    data: { id: newId(), organizationId, spaceId: spaces.granted, userId: world.guest.userId, role: 'read' },
  });
  await changeRequest(spaces.docs, 'Docs one');
  await changeRequest(spaces.docs, 'Docs draft', { by: world.editor, status: 'draft' });
  await changeRequest(spaces.restricted, 'Restricted');
  await changeRequest(spaces.granted, 'Granted');
  await changeRequest(spaces.deleted, 'Deleted');
  await changeRequest(spaces.elsewhere, 'Elsewhere');
  await changeRequest(spaces.docs, 'Docs archived', { status: 'archived' });
  await t.prisma.space.update({ where: { id: spaces.deleted }, data: { deletedAt: t.clock.now() } });
  // The editor writes the first change request's content last: it is the most recently updated.
  t.clock.advanceMs(1000);
  await ok('POST', `${crBase(spaces.docs, ids['Docs one'])}/content`, world.editor, {
    changes: [{ operation: 'insert_page', title: 'New page', document: { markdown: 'Text.\n' } }],
  });
  // A site publishing the docs and the granted space.
  site = (await buildSite(t.prisma, { organizationId })).id;
  for (const [i, spaceId] of [spaces.docs, spaces.granted].entries()) {
    await t.prisma.siteSpace.create({ data: { id: newId(), siteId: site, spaceId, path: `s${i}` } });
  }
});

describe('GET /v1/orgs/{organizationId}/change-requests', () => {
  it('lists the open change requests of the spaces the viewer can see, last updated first, through the official client', async () => {
    const api = gitbookClient('0202', t.url, world.admin.token);
    const { data, status } = await api.orgs.listChangeRequestsForOrganization(world.organizationId);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/change-requests', 200, data);
    // Not the deleted space's, not another organization's, not drafts nor archived ones.
    expect(data.items.map((cr) => cr.subject)).toEqual(['Docs one', 'Granted', 'Restricted']);
    expect(data.items[0]).toMatchObject({
      object: 'change-request',
      space: spaces.docs,
      status: 'open',
      createdBy: { id: world.admin.userId },
    });
    expect(data.count).toBe(3);
    const byCreation = await api.orgs.listChangeRequestsForOrganization(world.organizationId, { orderBy: 'createdAt' as never });
    expect(byCreation.data.items.map((cr) => cr.subject)).toEqual(['Granted', 'Restricted', 'Docs one']);
    const several = await api.orgs.listChangeRequestsForOrganization(world.organizationId, {
      status: ['draft', 'open', 'archived'] as never,
    });
    expect(several.data.items.map((cr) => cr.subject)).toEqual(['Docs one', 'Docs archived', 'Granted', 'Restricted', 'Docs draft']);
    expect(await subjects(`?status=archived`)).toEqual(['Docs archived']);
    expect(await subjects(`?status=merged`)).toEqual([]);
  });

  it('shows each viewer the change requests of the spaces they can see: a reader the open ones, a guest what was granted', async () => {
    const all = '?status=draft&status=open&status=archived';
    expect(await subjects(all, world.reader)).toEqual(['Docs one', 'Docs archived', 'Docs draft']);
    expect(await subjects(all, world.guest)).toEqual(['Granted']);
    const second = await t.request('GET', orgList('', world.secondOrganizationId), { token: world.admin.token });
    expect(second.body.items.map((cr: { subject: string }) => cr.subject)).toEqual(['Elsewhere']);
    // Outside the organization: not found.
    expect((await t.request('GET', orgList(), { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('GET', orgList('', world.secondOrganizationId), { token: world.reader.token })).status).toBe(404);
    expect((await t.request('GET', orgList())).status).toBe(401);
  });

  it('filters by creator, contributor, space and site; a topic or a style guide run matches none', async () => {
    const all = '?status=draft&status=open&status=archived';
    expect(await subjects(`${all}&creator=${world.editor.userId}`)).toEqual(['Docs draft']);
    expect(await subjects(`${all}&contributor=${world.editor.userId}`)).toEqual(['Docs one', 'Docs draft']);
    expect(await subjects(`${all}&space=${spaces.restricted}`)).toEqual(['Restricted']);
    expect(await subjects(`${all}&space=${spaces.elsewhere}`)).toEqual([]);
    expect(await subjects(`${all}&space=${spaces.restricted}`, world.reader)).toEqual([]);
    expect(await subjects(`${all}&site=${site}`)).toEqual(['Docs one', 'Docs archived', 'Granted', 'Docs draft']);
    expect(await subjects(`${all}&site=${site}`, world.reader)).toEqual(['Docs one', 'Docs archived', 'Docs draft']);
    // A guest sees no site of the organization: the filter tells them nothing of one.
    expect(await subjects(`${all}&site=${site}`, world.guest)).toEqual([]);
    expect(await subjects('?topic=pricing')).toEqual([]);
    expect(await subjects('?styleguideRun=run1')).toEqual([]);
    expect(await subjects('?finding=all')).toEqual(['Docs one', 'Granted', 'Restricted']);
    for (const [query, message] of [
      ['?status=closed', 'Invalid "status": must be one of "draft", "open", "archived", "merged".'],
      ['?status=open,draft', 'Invalid "status": must be one of "draft", "open", "archived", "merged".'],
      ['?orderBy=title', 'Invalid "orderBy": must be one of "updatedAt", "createdAt".'],
      ['?finding=some', 'Invalid "finding": must be one of "none", "all".'],
      ['?creator=not%20an%20id', 'Invalid "creator": not an id.'],
    ]) {
      const res = await t.request('GET', orgList(query), { token: world.admin.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error.message, query).toBe(message);
    }
  });

  it('walks every change request once, with the same statement count whatever the page size', async () => {
    const all = '?status=draft&status=open&status=archived';
    const { items, pages } = await walk(t, orgList(`${all}&limit=2`), {
      token: world.admin.token,
      eachPage: (page) => expect(page.body.count).toBe(5),
    });
    expect(items.map((cr) => cr.subject)).toEqual(['Docs one', 'Docs archived', 'Granted', 'Restricted', 'Docs draft']);
    expect(pages).toBe(3);
    const first = await t.request('GET', orgList('?limit=1'), { token: world.admin.token });
    const wrong = await t.request('GET', orgList(`?orderBy=createdAt&page=${first.body.next.page}`), { token: world.admin.token });
    expect(wrong.status).toBe(400);
    const one = await t.counted('GET', orgList(`${all}&limit=1`), { token: world.admin.token });
    const many = await t.counted('GET', orgList(`${all}&limit=1000`), { token: world.admin.token });
    expect(many.body.items).toHaveLength(5);
    expect(many.statements).toBe(one.statements);
  });

  it('hangs off the organization in GraphQL, with contributors and commenters, in a constant number of statements', async () => {
    const query = `query ($id: ID!, $limit: Int) { organization(id: $id) {
      changeRequests(status: [draft, open, archived], limit: $limit) { count items { subject space { id }
        contributors { count items { actionType count user { id } } } commenters { count } } } } }`;
    const run = (limit: number) =>
      t.counted('POST', '/graphql', { token: world.admin.token, body: { query, variables: { id: world.organizationId, limit } } });
    const [one, all] = [await run(1), await run(1000)];
    expect(all.body.errors).toBeUndefined();
    const items = all.body.data.organization.changeRequests.items;
    expect(items).toHaveLength(5);
    expect(items[0].contributors.items).toEqual(
      expect.arrayContaining([{ actionType: 'edit', count: 1, user: { id: world.editor.userId } }]),
    );
    expect(all.statements).toBe(one.statements);
    const empty = await t.request('POST', '/graphql', {
      token: world.admin.token,
      body: { query: `{ organization(id: "${world.organizationId}") { changeRequests(status: []) { count } } }` },
    });
    expect(empty.body.errors[0].message).toBe('Invalid "status": must have at least 1 items.');
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests, ordered', () => {
  it('lists the last updated first by default, or the last created (orderBy), through the official client', async () => {
    const spaceId = (await buildSpace(t.prisma, { organizationId: world.organizationId })).id;
    for (const subject of ['First', 'Second', 'Third']) await changeRequest(spaceId, subject);
    t.clock.advanceMs(1000);
    await ok('PATCH', crBase(spaceId, ids.First), world.admin, { subject: 'First, renamed' });
    const api = gitbookClient('0202', t.url, world.reader.token);
    const updated = await api.spaces.listChangeRequestsForSpace(spaceId);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/change-requests', 200, updated.data);
    expect(updated.data.items.map((cr) => cr.subject)).toEqual(['First, renamed', 'Third', 'Second']);
    const created = await api.spaces.listChangeRequestsForSpace(spaceId, { orderBy: 'createdAt' as never });
    expect(created.data.items.map((cr) => cr.subject)).toEqual(['Third', 'Second', 'First, renamed']);
    const topic = await api.spaces.listChangeRequestsForSpace(spaceId, { topic: 'pricing' });
    expect(topic.data).toEqual({ items: [], count: 0 });
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/contributors', () => {
  let contributors: string;
  beforeAll(async () => {
    const changeRequestId = ids['Docs one'];
    contributors = `${crBase(spaces.docs, changeRequestId)}/contributors`;
    const comments = `${crBase(spaces.docs, changeRequestId)}/comments`;
    t.clock.advanceMs(1000);
    const first = await ok('POST', comments, world.commenter, { body: { markdown: 'Looks good' } });
    t.clock.advanceMs(1000);
    await ok('POST', `${comments}/${first.id}/replies`, world.editor, { body: { markdown: 'Thanks' } });
    t.clock.advanceMs(1000);
    await ok('POST', comments, world.commenter, { body: { markdown: 'One more thing' } });
  });

  it('lists each user once per kind of contribution, with its count and last time, through the official client', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data, status } = await api.spaces.getContributorsByChangeRequestId(spaces.docs, ids['Docs one']);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/change-requests/{changeRequestId}/contributors', 200, data);
    const summary = data.items.map((item) => `${item.user.id} ${item.actionType} ${item.count}`).sort();
    expect(summary).toEqual(
      [
        // The creator wrote its first revision; the editor the content.
        `${world.admin.userId} edit 1`,
        `${world.editor.userId} edit 1`,
        `${world.editor.userId} comment 1`,
        `${world.commenter.userId} comment 2`,
      ].sort(),
    );
    expect(data.count).toBe(4);
    const times = data.items.map((item) => Date.parse(item.updatedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const commenter = data.items.find((item) => item.user.id === world.commenter.userId);
    expect(commenter?.updatedAt).toBe(t.clock.now().toISOString());
  });

  it('answers by number too; 404 for who cannot see the space, an unknown change request or another space’s; 401', async () => {
    const byNumber = await t.request('GET', `/v1/spaces/${spaces.docs}/change-requests/1/contributors`, { token: world.admin.token });
    expect(byNumber.body.count).toBe(4);
    for (const person of [world.guest, world.outsider]) {
      expect((await t.request('GET', contributors, { token: person.token })).status).toBe(404);
    }
    const unknown = `/v1/spaces/${spaces.docs}/change-requests/unknownChangeReq0001/contributors`;
    expect((await t.request('GET', unknown, { token: world.admin.token })).status).toBe(404);
    const elsewhere = `${crBase(spaces.restricted, ids['Docs one'])}/contributors`;
    expect((await t.request('GET', elsewhere, { token: world.admin.token })).status).toBe(404);
    expect((await t.request('GET', contributors)).status).toBe(401);
  });
});
