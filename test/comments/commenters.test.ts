// Who commented: the members who posted comments or replies anywhere in a space (its change requests included), or in
// one change request, by name, as memberships; someone who left the organization is not listed. For the members with
// a role, as the organization's other people are: a guest granted the space may not list them.
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { type Person, useApi, walk } from '../support/app.js';
import { buildMember, buildSpace, buildUser } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let space: string;
let changeRequest: string;
let leaver: Person;

const spaceCommenters = (spaceId = space) => `/v1/spaces/${spaceId}/commenters`;
const crCommenters = (id: string | number = changeRequest, spaceId = space) => `/v1/spaces/${spaceId}/change-requests/${id}/commenters`;

async function post(person: Person, path: string, markdown: string): Promise<string> {
  const res = await t.request('POST', path, { token: person.token, body: { body: { markdown } } });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

const userIds = (items: { id: string; user: { id: string } }[]) => items.map((item) => item.user.id);

beforeAll(async () => {
  const organizationId = world.organizationId;
  space = (await buildSpace(t.prisma, { organizationId, title: 'Docs' })).id;
  const created = await t.request('POST', `/v1/spaces/${space}/change-requests`, { token: world.admin.token, body: { subject: 'Edit' } });
  changeRequest = created.body.id;
  leaver = await buildMember(t.prisma, { organizationId, role: 'comment', user: await buildUser(t.prisma, { displayName: 'Leaver' }) });
  // On the space: the commenter, a reply by the editor, and someone who then leaves the organization.
  const comments = `/v1/spaces/${space}/comments`;
  const onSpace = await post(world.commenter, comments, 'On the space');
  await post(world.editor, `${comments}/${onSpace}/replies`, 'Agreed');
  await post(leaver, comments, 'Before leaving');
  expect((await t.request('DELETE', `/v1/orgs/${organizationId}/members/${leaver.userId}`, { token: world.admin.token })).status).toBe(204);
  // In the change request: the admin, and a reply by the reviewer.
  const inChangeRequest = `/v1/spaces/${space}/change-requests/${changeRequest}/comments`;
  const onChangeRequest = await post(world.admin, inChangeRequest, 'In the change request');
  await post(world.reviewer, `${inChangeRequest}/${onChangeRequest}/replies`, 'Reviewed');
});

describe('GET /v1/spaces/{spaceId}/commenters', () => {
  it('lists the members who commented anywhere in the space by name, through the official client, matching the spec', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data, status } = await api.spaces.listCommentersInSpace(space);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/commenters', 200, data);
    // Admin, Commenter, Editor, Reviewer: not the one who left.
    expect(userIds(data.items)).toEqual([world.admin, world.commenter, world.editor, world.reviewer].map((person) => person.userId));
    expect(data.count).toBe(4);
    expect(data.items[1]).toMatchObject({
      object: 'member',
      id: world.commenter.userId,
      role: 'comment',
      user: { displayName: 'Commenter' },
    });
  });

  it('walks every commenter once, with the same statement count whatever the page size', async () => {
    const { items, pages } = await walk(t, `${spaceCommenters()}?limit=1`, {
      token: world.admin.token,
      eachPage: (page) => expect(page.body.count).toBe(4),
    });
    expect(userIds(items)).toEqual([world.admin, world.commenter, world.editor, world.reviewer].map((person) => person.userId));
    expect(pages).toBe(4);
    const one = await t.counted('GET', `${spaceCommenters()}?limit=1`, { token: world.admin.token });
    const all = await t.counted('GET', `${spaceCommenters()}?limit=1000`, { token: world.admin.token });
    expect(all.body.items).toHaveLength(4);
    expect(all.statements).toBe(one.statements);
    // A page of the space's commenters is not a page of its change request's.
    const wrong = await t.request('GET', `${crCommenters()}?page=${one.body.next.page}`, { token: world.admin.token });
    expect(wrong.status).toBe(400);
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/commenters', () => {
  it('lists the members who commented in the change request by name, through the official client, by id or number', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data } = await api.spaces.listCommentersInChangeRequest(space, changeRequest);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/change-requests/{changeRequestId}/commenters', 200, data);
    expect(userIds(data.items)).toEqual([world.admin.userId, world.reviewer.userId]);
    const byNumber = await t.request('GET', crCommenters(1), { token: world.reader.token });
    expect(userIds(byNumber.body.items)).toEqual([world.admin.userId, world.reviewer.userId]);
    const quiet = await t.request('POST', `/v1/spaces/${space}/change-requests`, { token: world.admin.token, body: {} });
    expect((await t.request('GET', crCommenters(quiet.body.id), { token: world.admin.token })).body).toEqual({ items: [], count: 0 });
  });
});

describe('who may list commenters', () => {
  it('is whoever sees the space with a role: 403 for a guest granted it, 404 for who cannot see it, 401 without token', async () => {
    const granted = (await buildSpace(t.prisma, { organizationId: world.organizationId, defaultLevel: null })).id;
    await t.prisma.contentGrant.create({
      data: { id: newId(), organizationId: world.organizationId, spaceId: granted, userId: world.guest.userId, role: 'comment' },
    });
    const created = await t.request('POST', `/v1/spaces/${granted}/change-requests`, { token: world.admin.token, body: {} });
    await post(world.guest, `/v1/spaces/${granted}/comments`, 'A guest’s comment');
    for (const path of [spaceCommenters(granted), crCommenters(created.body.id, granted)]) {
      const res = await t.request('GET', path, { token: world.guest.token });
      expect(res.status, path).toBe(403);
      expect(res.body.error.message, path).toBe('You do not have the "listMembers" permission on this organization.');
      expect((await t.request('GET', path, { token: world.admin.token })).status, path).toBe(200);
      expect((await t.request('GET', path, { token: world.reader.token })).status, path).toBe(404);
    }
    for (const path of [spaceCommenters(), crCommenters()]) {
      expect((await t.request('GET', path, { token: world.guest.token })).status, path).toBe(404);
      expect((await t.request('GET', path, { token: world.outsider.token })).status, path).toBe(404);
      expect((await t.request('GET', path)).status, path).toBe(401);
    }
    expect((await t.request('GET', crCommenters('unknownChangeReq0001'), { token: world.admin.token })).status).toBe(404);
  });

  it('hangs off spaces and change requests in GraphQL, in a constant number of statements', async () => {
    const guide = (await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Guide' })).id;
    await post(world.commenter, `/v1/spaces/${guide}/comments`, 'On the guide');
    const query = `query ($id: ID!, $limit: Int) { organization(id: $id) { spaces(limit: $limit) { items { id
      commenters(limit: 10) { count items { id teamCount user { displayName } } }
      changeRequests(status: draft, limit: 10) { items { commenters(limit: 10) { count items { id } } } } } } } }`;
    const run = (limit: number) =>
      t.counted('POST', '/graphql', { token: world.admin.token, body: { query, variables: { id: world.organizationId, limit } } });
    const [one, all] = [await run(1), await run(100)];
    expect(all.body.errors).toBeUndefined();
    const bySpace = new Map(all.body.data.organization.spaces.items.map((item: { id: string }) => [item.id, item]));
    expect(bySpace.get(guide)).toMatchObject({ commenters: { count: 1, items: [{ id: world.commenter.userId }] } });
    expect(bySpace.get(space)).toMatchObject({ commenters: { count: 4 } });
    expect(all.statements).toBe(one.statements);
  });
});
