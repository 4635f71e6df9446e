// Spaces: POST/GET /v1/orgs/{id}/spaces, GET/PATCH/DELETE /v1/spaces/{id}, and POST .../restore, .../duplicate,
// .../move, .../transfer; the purge of spaces deleted more than 7 days ago; permissions and isolation.
import { beforeAll, describe, expect, it } from 'vitest';
// Type only: the client's enums are TypeScript enums, the wire values are their strings.
import type { SpaceEditMode } from '../../node_modules/gitbook-api-0202/dist/client.js';
import type { Space } from '../../src/generated/prisma/client.js';
import { refreshEffectiveLevels } from '../../src/kernel/permissions.js';
import { purgeDeletedSpaces } from '../../src/spaces/purge.js';
import { type Person, useApi, walk } from '../support/app.js';
import { buildCollection, buildMember, buildOrganization, buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let alice: Person; // admin of acme, beta, listing and ordering
let rita: Person; // read in acme
let eddie: Person; // edit in acme
let cora: Person; // create in acme, edit in beta
let bob: Person; // admin of other only
let gail: Person; // guest in acme
let acme: string;
let beta: string;
let other: string;
let guides: string; // collection in acme
let manuals: string; // collection in acme

/** An id that matches the id pattern but names nothing. */
const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAA';

interface SpaceBody {
  id: string;
  title: string;
  parent?: string;
  [key: string]: any;
}

async function createCollection(organizationId: string, title: string, parent?: string): Promise<string> {
  const res = await t.request('POST', `/v1/orgs/${organizationId}/collections`, {
    token: alice.token,
    body: { title, ...(parent ? { parent } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function createSpace(organizationId: string, body: Record<string, unknown> = {}, token = alice.token): Promise<SpaceBody> {
  const res = await t.request('POST', `/v1/orgs/${organizationId}/spaces`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Every space of an organization's list, walking all pages, and the count the last page answers. */
async function listAll(organizationId: string, token = alice.token, limit = 1000): Promise<{ ids: string[]; count: number }> {
  let count = -1;
  const { items } = await walk<SpaceBody>(t, `/v1/orgs/${organizationId}/spaces?limit=${limit}`, {
    token,
    eachPage: (page) => {
      count = page.body.count;
    },
  });
  return { ids: items.map((s) => s.id), count };
}

async function titlesOf(organizationId: string): Promise<string[]> {
  const res = await t.request('GET', `/v1/orgs/${organizationId}/spaces?limit=1000`, { token: alice.token });
  expect(res.status).toBe(200);
  return res.body.items.map((s: SpaceBody) => s.title);
}

beforeAll(async () => {
  ({ admin: alice, reader: rita, editor: eddie, creator: cora, outsider: bob, guest: gail } = world);
  acme = world.organizationId;
  beta = world.secondOrganizationId;
  other = world.outsiderOrganizationId;
  await buildMember(t.prisma, { organizationId: beta, user: cora, role: 'edit' });
  guides = (await buildCollection(t.prisma, { organizationId: acme, title: 'Guides' })).id;
  manuals = (await buildCollection(t.prisma, { organizationId: acme, title: 'Manuals' })).id;
});

describe('POST /v1/orgs/{organizationId}/spaces', () => {
  it('creates a space in a collection (201, Location = urls.location) through the official client, matching the spec', async () => {
    const api = gitbookClient('0202', t.url, alice.token);
    const res = await api.orgs.createSpace(acme, { title: 'Handbook', emoji: '1f4d8', parent: guides });
    expect(res.status).toBe(201);
    const data = res.data;
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/spaces', 201, data);
    expect(res.headers.get('location')).toBe(data.urls.location);
    expect(data.urls.location).toBe(`${t.url}/v1/spaces/${data.id}`);
    expect(data).toMatchObject({
      object: 'space',
      title: 'Handbook',
      emoji: '1f4d8',
      organization: acme,
      parent: guides,
      visibility: 'in-collection',
      editMode: 'live',
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
    });
    expect(data.permissions).toMatchObject({ view: true, edit: true, admin: true });
    expect(data.revision).toEqual(expect.any(String));
    expect((data as { deletedAt?: string }).deletedAt).toBeUndefined();
    const again = await t.request('GET', `/v1/spaces/${data.id}`, { token: alice.token });
    expect(again.body).toMatchObject({ id: data.id, parent: guides });
  });

  it('creates a private space at the top level when no parent is given', async () => {
    const space = await createSpace(acme, { title: 'Top' });
    expect(space.visibility).toBe('private');
    expect(space.parent).toBeUndefined();
  });

  it('refuses a member who may not create content (403), a non-member (404) and a missing token (401)', async () => {
    expect((await t.request('POST', `/v1/orgs/${acme}/spaces`, { token: rita.token, body: { title: 'No' } })).status).toBe(403);
    expect((await t.request('POST', `/v1/orgs/${acme}/spaces`, { token: eddie.token, body: { title: 'No', parent: guides } })).status).toBe(
      403,
    );
    expect((await t.request('POST', `/v1/orgs/${acme}/spaces`, { token: bob.token, body: { title: 'No' } })).status).toBe(404);
    expect((await t.request('POST', `/v1/orgs/${acme}/spaces`, { body: { title: 'No' } })).status).toBe(401);
  });

  it('rejects a title of 51 characters and an unknown parent with 400 naming the field', async () => {
    const long = await t.request('POST', `/v1/orgs/${acme}/spaces`, { token: alice.token, body: { title: 'x'.repeat(51) } });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toContain('title');
    const parent = await t.request('POST', `/v1/orgs/${acme}/spaces`, { token: alice.token, body: { title: 'P', parent: UNKNOWN_ID } });
    expect(parent.status).toBe(400);
    expect(parent.body.error.message).toContain('parent');
  });
});

describe('GET /v1/orgs/{organizationId}/spaces', () => {
  let listing: string;
  let created: string[];

  beforeAll(async () => {
    listing = (await buildOrganization(t.prisma, { title: 'Listing', owner: alice })).organization.id;
    created = [];
    for (let i = 1; i <= 7; i++) created.push((await buildSpace(t.prisma, { organizationId: listing, title: `Space ${i}` })).id);
  });

  it('returns the list envelope through the official client, matching the spec', async () => {
    const api = gitbookClient('0202', t.url, alice.token);
    const { data, status } = await api.orgs.listSpacesInOrganizationById(listing, { limit: 3 });
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/spaces', 200, data);
    expect(data.items.map((s) => s.id)).toEqual(created.slice(0, 3));
    expect(data.count).toBe(7);
    expect(data.next?.page).toEqual(expect.any(String));
  });

  it('walks every space exactly once with limit=2, with a correct count on each page', async () => {
    const { items, pages } = await walk<SpaceBody>(t, `/v1/orgs/${listing}/spaces?limit=2`, {
      token: alice.token,
      eachPage: (page) => {
        expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/spaces', 200, page.body);
        expect(page.body.count).toBe(7);
        expect(page.body.items.length).toBeLessThanOrEqual(2);
      },
    });
    expect(pages).toBe(4);
    expect(items.map((s) => s.id)).toEqual(created);
  });

  it('runs the same number of SQL statements for limit=1 and limit=1000', async () => {
    const one = await t.counted('GET', `/v1/orgs/${listing}/spaces?limit=1`, { token: alice.token });
    const all = await t.counted('GET', `/v1/orgs/${listing}/spaces?limit=1000`, { token: alice.token });
    expect(one.status).toBe(200);
    expect(one.body.items).toHaveLength(1);
    expect(all.body.items).toHaveLength(7);
    expect(all.statements).toBe(one.statements);
  });

  it('answers 404 to a non-member, 400 to a bad limit, 401 without token', async () => {
    expect((await t.request('GET', `/v1/orgs/${listing}/spaces`, { token: bob.token })).status).toBe(404);
    expect((await t.request('GET', `/v1/orgs/${listing}/spaces?limit=-1`, { token: alice.token })).status).toBe(400);
    expect((await t.request('GET', `/v1/orgs/${listing}/spaces`)).status).toBe(401);
  });

  it('leaves deleted spaces out of the list and of the count', async () => {
    expect((await t.request('DELETE', `/v1/spaces/${created[3]}`, { token: alice.token })).status).toBe(205);
    const { ids, count } = await listAll(listing, alice.token, 2);
    expect(ids).toEqual(created.filter((id) => id !== created[3]));
    expect(count).toBe(6);
  });
});

describe('GET /v1/spaces/{spaceId}', () => {
  it('returns the space through the official client, matching the spec', async () => {
    const space = await createSpace(acme, { title: 'Read me', parent: manuals });
    const api = gitbookClient('0202', t.url, alice.token);
    const { data, status } = await api.spaces.getSpaceById(space.id);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}', 200, data);
    expect(data).toMatchObject({ id: space.id, title: 'Read me', parent: manuals, organization: acme });
    expect(data.urls.app).toBe(`${t.url}/app/s/${space.id}`);
  });

  it('answers 404 for an unknown or malformed id, 401 without token', async () => {
    const unknown = await t.request('GET', `/v1/spaces/${UNKNOWN_ID}`, { token: alice.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: 404, message: expect.any(String) } });
    expect((await t.request('GET', '/v1/spaces/not%20an%20id', { token: alice.token })).status).toBe(404);
    expect((await t.request('GET', `/v1/spaces/${UNKNOWN_ID}`)).status).toBe(401);
  });
});

describe('PATCH /v1/spaces/{spaceId}', () => {
  let space: Space;

  beforeAll(async () => {
    space = await buildSpace(t.prisma, { organizationId: acme, title: 'Patch me' });
  });

  it('updates title, emoji and editMode through the official client, matching the spec', async () => {
    const api = gitbookClient('0202', t.url, alice.token);
    const { data, status } = await api.spaces.updateSpaceById(space.id, {
      title: 'Patched',
      emoji: '1f389',
      editMode: 'locked' as SpaceEditMode,
    });
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'patch', '/spaces/{spaceId}', 200, data);
    expect(data).toMatchObject({ title: 'Patched', emoji: '1f389', editMode: 'locked' });
    const again = await t.request('GET', `/v1/spaces/${space.id}`, { token: alice.token });
    expect(again.body).toMatchObject({ title: 'Patched', emoji: '1f389', editMode: 'locked' });
  });

  it('sets defaultLevel to null, then back to inherit', async () => {
    const res = await t.request('PATCH', `/v1/spaces/${space.id}`, { token: alice.token, body: { defaultLevel: null } });
    expect(res.status).toBe(200);
    expectMatchesSpec('0202', 'patch', '/spaces/{spaceId}', 200, res.body);
    expect(res.body).toHaveProperty('defaultLevel', null);
    expect((await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } })).effectiveLevel).toBeNull();
    const back = await t.request('PATCH', `/v1/spaces/${space.id}`, { token: alice.token, body: { defaultLevel: 'inherit' } });
    expect(back.status).toBe(200);
    expect(back.body.defaultLevel).toBe('inherit');
    expect((await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } })).effectiveLevel).toBe('inherit');
  });

  it('removes the emoji with emoji: null, as the published spec allows, through the official client', async () => {
    const api = gitbookClient('0202', t.url, alice.token);
    await api.spaces.updateSpaceById(space.id, { emoji: '1f680' });
    const { data, status } = await api.spaces.updateSpaceById(space.id, { emoji: null });
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'patch', '/spaces/{spaceId}', 200, data);
    expect(data.emoji).toBe('');
    expect(data.title).toBe('Patched');
  });

  it('accepts a title and an emoji of 50 characters', async () => {
    const emoji50 = '\u{1F389}'.repeat(25);
    const res = await t.request('PATCH', `/v1/spaces/${space.id}`, { token: alice.token, body: { title: 't'.repeat(50), emoji: emoji50 } });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('t'.repeat(50));
    expect(res.body.emoji).toBe(emoji50);
  });

  it.each([
    ['title of 51 characters', { title: 't'.repeat(51) }],
    // 51 code points (JSON Schema maxLength counts code points; 102 UTF-16 units, so too long either way).
    ['emoji of 51 characters', { emoji: '\u{1F389}'.repeat(51) }],
    ['editMode that is not an edit mode', { editMode: 'frozen' }],
    ['defaultLevel that is not a level', { defaultLevel: 'owner' }],
  ])('rejects a %s with a 400 naming the field', async (_case, body) => {
    const res = await t.request('PATCH', `/v1/spaces/${space.id}`, { token: alice.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(400);
    expect(res.body.error.message).toContain(Object.keys(body)[0]);
  });

  it('answers 404 for an unknown space', async () => {
    expect((await t.request('PATCH', `/v1/spaces/${UNKNOWN_ID}`, { token: alice.token, body: { title: 'x' } })).status).toBe(404);
  });
});

describe('DELETE, restore and purge', () => {
  it('deletes a space (205, empty body): it leaves the lists, GET still shows it with deletedAt', async () => {
    const space = await createSpace(acme, { title: 'Doomed', parent: guides });
    const res = await t.request('DELETE', `/v1/spaces/${space.id}`, { token: alice.token });
    expect(res.status).toBe(205);
    expect(res.text).toBe('');
    expectMatchesSpec('0202', 'delete', '/spaces/{spaceId}', 205, res.body);

    const got = await t.request('GET', `/v1/spaces/${space.id}`, { token: alice.token });
    expect(got.status).toBe(200);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}', 200, got.body);
    expect(got.body.deletedAt).toBe(t.clock.now().toISOString());

    expect((await listAll(acme)).ids).not.toContain(space.id);
    const inCollection = await t.request('GET', `/v1/collections/${guides}/spaces`, { token: alice.token });
    expect(inCollection.status).toBe(200);
    expect(inCollection.body.items.map((s: SpaceBody) => s.id)).not.toContain(space.id);

    // A deleted space cannot be changed or moved until restored.
    expect((await t.request('PATCH', `/v1/spaces/${space.id}`, { token: alice.token, body: { title: 'x' } })).status).toBe(409);
    const move = await t.request('POST', `/v1/spaces/${space.id}/move`, { token: alice.token, body: { parent: null } });
    expect(move.status).toBe(409);
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/move', 409, move.body);
  });

  it('deletes through the official client', async () => {
    const space = await createSpace(acme, { title: 'Doomed too' });
    const api = gitbookClient('0202', t.url, alice.token);
    const res = await api.spaces.deleteSpaceById(space.id);
    expect(res.status).toBe(205);
    expect((await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } })).deletedAt).not.toBeNull();
  });

  it('restores a space deleted 6 days ago (200) back into its collection and lists', async () => {
    const space = await createSpace(acme, { title: 'Phoenix', parent: guides });
    expect((await t.request('DELETE', `/v1/spaces/${space.id}`, { token: alice.token })).status).toBe(205);
    t.clock.advanceDays(6);
    const api = gitbookClient('0202', t.url, alice.token);
    const { data, status } = await api.spaces.restoreSpace(space.id);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/restore', 200, data);
    expect((data as { deletedAt?: string }).deletedAt).toBeUndefined();
    expect(data).toMatchObject({ id: space.id, parent: guides, visibility: 'in-collection' });
    expect((await listAll(acme)).ids).toContain(space.id);
    const inCollection = await t.request('GET', `/v1/collections/${guides}/spaces`, { token: alice.token });
    expect(inCollection.body.items.map((s: SpaceBody) => s.id)).toContain(space.id);
  });

  it('restores a space whose collection was deleted meanwhile at the top level, private', async () => {
    const doomed = await createCollection(acme, 'Short-lived');
    const space = await createSpace(acme, { title: 'Orphan', parent: doomed });
    expect((await t.request('DELETE', `/v1/collections/${doomed}`, { token: alice.token })).status).toBe(205);
    const deleted = await t.request('GET', `/v1/spaces/${space.id}`, { token: alice.token });
    expect(deleted.body.deletedAt).toEqual(expect.any(String));
    const res = await t.request('POST', `/v1/spaces/${space.id}/restore`, { token: alice.token });
    expect(res.status).toBe(200);
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/restore', 200, res.body);
    expect(res.body.parent).toBeUndefined();
    expect(res.body.visibility).toBe('private');
    expect(res.body.deletedAt).toBeUndefined();
    expect((await listAll(acme)).ids).toContain(space.id);
  });

  it('lets only those who administer the space restore it (403 for read and edit, 404 for a non-member)', async () => {
    const space = await createSpace(acme, { title: 'Guarded' });
    expect((await t.request('DELETE', `/v1/spaces/${space.id}`, { token: alice.token })).status).toBe(205);
    expect((await t.request('POST', `/v1/spaces/${space.id}/restore`, { token: rita.token })).status).toBe(403);
    expect((await t.request('POST', `/v1/spaces/${space.id}/restore`, { token: eddie.token })).status).toBe(403);
    expect((await t.request('POST', `/v1/spaces/${space.id}/restore`, { token: bob.token })).status).toBe(404);
    expect((await t.request('POST', `/v1/spaces/${space.id}/restore`, { token: cora.token })).status).toBe(200);
  });

  it('refuses to restore a space that is not deleted (409)', async () => {
    const space = await createSpace(acme, { title: 'Alive' });
    const res = await t.request('POST', `/v1/spaces/${space.id}/restore`, { token: alice.token });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe(409);
  });

  it('refuses to restore a space deleted 8 days ago (409)', async () => {
    const space = await createSpace(acme, { title: 'Too late' });
    expect((await t.request('DELETE', `/v1/spaces/${space.id}`, { token: alice.token })).status).toBe(205);
    t.clock.advanceDays(8);
    const res = await t.request('POST', `/v1/spaces/${space.id}/restore`, { token: alice.token });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe(409);
    expect((await t.request('GET', `/v1/spaces/${space.id}`, { token: alice.token })).body.deletedAt).toEqual(expect.any(String));
  });

  it('purges spaces deleted more than 7 days ago and keeps one deleted 6 days ago', async () => {
    const old = await createSpace(acme, { title: 'Old' });
    const recent = await createSpace(acme, { title: 'Recent' });
    expect((await t.request('DELETE', `/v1/spaces/${old.id}`, { token: alice.token })).status).toBe(205);
    t.clock.advanceDays(2);
    expect((await t.request('DELETE', `/v1/spaces/${recent.id}`, { token: alice.token })).status).toBe(205);
    t.clock.advanceDays(6);

    const removed = await purgeDeletedSpaces(t.app.services);
    expect(removed).toBeGreaterThanOrEqual(1);
    // Recorded by the system, in the space's organization; the event outlives the space.
    const purged = await t.prisma.auditEvent.findMany({ where: { targetId: { in: [old.id, recent.id] }, action: 'space_purged' } });
    expect(purged).toMatchObject([
      {
        organizationId: acme,
        actorType: 'system',
        actorId: 'system',
        source: 'workflow',
        targetType: 'space',
        targetLabel: 'Old',
        spaceId: old.id,
      },
    ]);
    expect(await t.prisma.space.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await t.prisma.revision.count({ where: { spaceId: old.id } })).toBe(0);
    const kept = await t.prisma.space.findUnique({ where: { id: recent.id } });
    expect(kept?.deletedAt).not.toBeNull();
    expect((await t.request('GET', `/v1/spaces/${old.id}`, { token: alice.token })).status).toBe(404);

    // Idempotent, and the kept one can still be restored.
    expect(await purgeDeletedSpaces(t.app.services)).toBe(0);
    expect(await t.prisma.auditEvent.count({ where: { targetId: { in: [old.id, recent.id] }, action: 'space_purged' } })).toBe(1);
    expect((await t.request('POST', `/v1/spaces/${recent.id}/restore`, { token: alice.token })).status).toBe(200);
  });
});

describe('POST /v1/spaces/{spaceId}/duplicate', () => {
  let ordering: string;

  beforeAll(async () => {
    ordering = (await buildOrganization(t.prisma, { title: 'Duplicating', owner: alice })).organization.id;
    for (const title of ['One', 'Two', 'Three']) await buildSpace(t.prisma, { organizationId: ordering, title, emoji: '1f4d8' });
  });

  it('copies a space (201, Location) through the official client, right after the original, matching the spec', async () => {
    const two = (await t.request('GET', `/v1/orgs/${ordering}/spaces`, { token: alice.token })).body.items[1] as SpaceBody;
    expect(two.title).toBe('Two');
    const api = gitbookClient('0202', t.url, alice.token);
    const res = await api.spaces.duplicateSpace(two.id);
    expect(res.status).toBe(201);
    const data = res.data;
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/duplicate', 201, data);
    expect(res.headers.get('location')).toBe(data.urls.location);
    expect(data.id).not.toBe(two.id);
    expect(data.revision).not.toBe(two.revision);
    expect(data).toMatchObject({ title: 'Two (copy)', emoji: '1f4d8', organization: ordering, visibility: 'private' });
    expect(await titlesOf(ordering)).toEqual(['One', 'Two', 'Two (copy)', 'Three']);
  });

  it('copies a space in a collection into the same collection, with its pages', async () => {
    const source = await createSpace(acme, { title: 'With pages', parent: manuals });
    await t.prisma.pageVersion.create({
      data: { id: 'pageVersion1', spaceId: source.id, line: 'main', pageId: 'page1', validFrom: 1, title: 'Intro', slug: 'intro' },
    });
    const res = await t.request('POST', `/v1/spaces/${source.id}/duplicate`, { token: alice.token });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(res.body).toMatchObject({ title: 'With pages (copy)', parent: manuals, visibility: 'in-collection' });
    const pages = await t.prisma.pageVersion.findMany({ where: { spaceId: res.body.id } });
    expect(pages.map((p) => [p.pageId, p.title, p.line, p.validFrom, p.validTo])).toEqual([['page1', 'Intro', 'main', 1, null]]);
    const list = await t.request('GET', `/v1/collections/${manuals}/spaces`, { token: alice.token });
    const ids = list.body.items.map((s: SpaceBody) => s.id);
    expect(ids.indexOf(res.body.id)).toBe(ids.indexOf(source.id) + 1);
  });

  it('keeps the copy title within 50 characters', async () => {
    const source = await createSpace(ordering, { title: 'x'.repeat(50) });
    const res = await t.request('POST', `/v1/spaces/${source.id}/duplicate`, { token: alice.token });
    expect(res.status).toBe(201);
    expect(res.body.title.length).toBeLessThanOrEqual(50);
  });

  it('is forbidden (403) to a member who may not create content, 404 to a non-member', async () => {
    const source = await createSpace(acme, { title: 'Copied by others' });
    expect((await t.request('POST', `/v1/spaces/${source.id}/duplicate`, { token: rita.token })).status).toBe(403);
    expect((await t.request('POST', `/v1/spaces/${source.id}/duplicate`, { token: bob.token })).status).toBe(404);
  });
});

describe('POST /v1/spaces/{spaceId}/move', () => {
  it('moves a space to another collection through the official client, matching the spec', async () => {
    const space = await createSpace(acme, { title: 'Mover', parent: guides });
    const api = gitbookClient('0202', t.url, alice.token);
    const { data, status } = await api.spaces.moveSpace(space.id, { parent: manuals });
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/move', 200, data);
    expect(data).toMatchObject({ parent: manuals, visibility: 'in-collection' });
    const inManuals = await t.request('GET', `/v1/collections/${manuals}/spaces`, { token: alice.token });
    expect(inManuals.body.items.map((s: SpaceBody) => s.id).at(-1)).toBe(space.id);
    const inGuides = await t.request('GET', `/v1/collections/${guides}/spaces`, { token: alice.token });
    expect(inGuides.body.items.map((s: SpaceBody) => s.id)).not.toContain(space.id);
  });

  it('moves a space to the top level with parent null: in-collection becomes private', async () => {
    const space = await createSpace(acme, { title: 'Leaver', parent: guides });
    expect(space.visibility).toBe('in-collection');
    const res = await t.request('POST', `/v1/spaces/${space.id}/move`, { token: alice.token, body: { parent: null } });
    expect(res.status).toBe(200);
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/move', 200, res.body);
    expect(res.body.parent).toBeUndefined();
    expect(res.body.visibility).toBe('private');
    const row = await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } });
    expect(row.parentId).toBeNull();
  });

  it('places a space before or after a sibling, as the list order shows', async () => {
    const org = (await buildOrganization(t.prisma, { title: 'Ordering', owner: alice })).organization.id;
    const ids: Record<string, string> = {};
    for (const title of ['A', 'B', 'C', 'D']) ids[title] = (await createSpace(org, { title })).id;
    expect(await titlesOf(org)).toEqual(['A', 'B', 'C', 'D']);

    const before = await t.request('POST', `/v1/spaces/${ids.D}/move`, {
      token: alice.token,
      body: { position: { before: { type: 'space', space: ids.B } } },
    });
    expect(before.status).toBe(200);
    expect(await titlesOf(org)).toEqual(['A', 'D', 'B', 'C']);

    const after = await t.request('POST', `/v1/spaces/${ids.A}/move`, {
      token: alice.token,
      body: { parent: null, position: { after: { type: 'space', space: ids.C } } },
    });
    expect(after.status).toBe(200);
    expect(await titlesOf(org)).toEqual(['D', 'B', 'C', 'A']);

    const first = await t.request('POST', `/v1/spaces/${ids.C}/move`, {
      token: alice.token,
      body: { position: { before: { type: 'space', space: ids.D } } },
    });
    expect(first.status).toBe(200);
    expect(await titlesOf(org)).toEqual(['C', 'D', 'B', 'A']);

    // Many moves into the same gap (halving it each time, until the siblings are renumbered) keep a strict order:
    // A and B alternately go right after C, B last.
    for (let i = 0; i < 60; i++) {
      const mover = i % 2 === 0 ? ids.A : ids.B;
      const res = await t.request('POST', `/v1/spaces/${mover}/move`, {
        token: alice.token,
        body: { position: { after: { type: 'space', space: ids.C } } },
      });
      expect(res.status).toBe(200);
    }
    expect(await titlesOf(org)).toEqual(['C', 'B', 'A', 'D']);
  });

  it('places a space in a collection relative to its new siblings', async () => {
    const first = await createSpace(acme, { title: 'Sibling 1', parent: manuals });
    const mover = await createSpace(acme, { title: 'Incoming' });
    const res = await t.request('POST', `/v1/spaces/${mover.id}/move`, {
      token: alice.token,
      body: { parent: manuals, position: { before: { type: 'space', space: first.id } } },
    });
    expect(res.status).toBe(200);
    const list = await t.request('GET', `/v1/collections/${manuals}/spaces?limit=1000`, { token: alice.token });
    const ids = list.body.items.map((s: SpaceBody) => s.id);
    expect(ids.indexOf(mover.id)).toBe(ids.indexOf(first.id) - 1);
  });

  it('answers 400 for an unknown parent or sibling, 404 for an unknown space, matching the spec', async () => {
    const space = await createSpace(acme, { title: 'Stays' });
    const parent = await t.request('POST', `/v1/spaces/${space.id}/move`, { token: alice.token, body: { parent: UNKNOWN_ID } });
    expect(parent.status).toBe(400);
    expect(parent.body.error.message).toContain('parent');
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/move', 400, parent.body);
    const sibling = await t.request('POST', `/v1/spaces/${space.id}/move`, {
      token: alice.token,
      body: { position: { before: { type: 'space', space: UNKNOWN_ID } } },
    });
    expect(sibling.status).toBe(400);
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/move', 400, sibling.body);
    const unknown = await t.request('POST', `/v1/spaces/${UNKNOWN_ID}/move`, { token: alice.token, body: { parent: null } });
    expect(unknown.status).toBe(404);
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/move', 404, unknown.body);
    const foreign = await t.request('POST', `/v1/spaces/${space.id}/move`, { token: bob.token, body: { parent: null } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
  });

  it('is forbidden (403) to a member who may not administer the space', async () => {
    const space = await createSpace(acme, { title: 'Fixed' });
    expect((await t.request('POST', `/v1/spaces/${space.id}/move`, { token: eddie.token, body: { parent: guides } })).status).toBe(403);
    expect((await t.request('POST', `/v1/spaces/${space.id}/move`, { token: rita.token, body: { parent: null } })).status).toBe(403);
  });
});

describe('POST /v1/spaces/{spaceId}/transfer', () => {
  it('transfers a space to another organization where the caller is admin, matching the 0.167 spec', async () => {
    const space = await createSpace(acme, { title: 'Emigrant', parent: guides });
    const api = gitbookClient('0167', t.url, alice.token);
    const { data, status } = await api.spaces.transferSpace(space.id, { organization: beta });
    expect(status).toBe(200);
    expectMatchesSpec('0167', 'post', '/spaces/{spaceId}/transfer', 200, data);
    expect(data).toMatchObject({ id: space.id, organization: beta, visibility: 'private' });
    expect((data as { parent?: string }).parent).toBeUndefined();
    expect((await listAll(beta)).ids).toContain(space.id);
    expect((await listAll(acme)).ids).not.toContain(space.id);
    // Members of the former organization lose access.
    expect((await t.request('GET', `/v1/spaces/${space.id}`, { token: eddie.token })).status).toBe(404);
  });

  it('transfers into a collection of the target organization', async () => {
    const target = await createCollection(beta, 'Imported');
    const space = await createSpace(acme, { title: 'Into collection' });
    const res = await t.request('POST', `/v1/spaces/${space.id}/transfer`, {
      token: alice.token,
      body: { organization: beta, collection: target },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ organization: beta, parent: target });
  });

  it('answers 409 for the same organization, 404 for one the caller is not a member of, matching the 0.167 spec', async () => {
    const space = await createSpace(acme, { title: 'Homebody' });
    const same = await t.request('POST', `/v1/spaces/${space.id}/transfer`, { token: alice.token, body: { organization: acme } });
    expect(same.status).toBe(409);
    expectMatchesSpec('0167', 'post', '/spaces/{spaceId}/transfer', 409, same.body);
    const foreign = await t.request('POST', `/v1/spaces/${space.id}/transfer`, { token: alice.token, body: { organization: other } });
    expect(foreign.status).toBe(404);
    expectMatchesSpec('0167', 'post', '/spaces/{spaceId}/transfer', 404, foreign.body);
    const unknownSpace = await t.request('POST', `/v1/spaces/${UNKNOWN_ID}/transfer`, { token: alice.token, body: { organization: beta } });
    expect(unknownSpace.status).toBe(404);
    expectMatchesSpec('0167', 'post', '/spaces/{spaceId}/transfer', 404, unknownSpace.body);
    expect((await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } })).organizationId).toBe(acme);
  });

  it('is forbidden (403) to a member without create rights in the target organization', async () => {
    // An admin of the space's organization, editor in beta.
    const ada = await buildMember(t.prisma, { organizationId: acme, role: 'admin' });
    await buildMember(t.prisma, { organizationId: beta, user: ada, role: 'edit' });
    const space = await createSpace(acme, { title: 'Ada space' }, ada.token);
    const res = await t.request('POST', `/v1/spaces/${space.id}/transfer`, { token: ada.token, body: { organization: beta } });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('createContent');
    expect((await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } })).organizationId).toBe(acme);
    // And to one who cannot administer the space itself.
    expect((await t.request('POST', `/v1/spaces/${space.id}/transfer`, { token: eddie.token, body: { organization: beta } })).status).toBe(
      403,
    );
  });

  // Issue 21: content left an organization by the hand of anyone who could administer it there.
  it('is forbidden (403) to whoever is not an admin of the space organization, even administering the space', async () => {
    // A guest of acme other than gail, whose empty view of acme a test below checks.
    const gert = await buildMember(t.prisma, { organizationId: acme, role: null });
    const { organization: gerts } = await buildOrganization(t.prisma, { title: "Gert's", owner: gert });
    const { organization: coras } = await buildOrganization(t.prisma, { title: "Cora's", owner: cora });
    const granted = await createSpace(acme, { title: 'Granted to a guest', parent: guides });
    const grant = await t.request('POST', `/v1/spaces/${granted.id}/permissions`, {
      token: alice.token,
      body: { role: 'create', users: [gert.userId] },
    });
    expect(grant.status).toBe(204);
    const created = await createSpace(acme, { title: 'Created by a creator' }, cora.token);
    for (const [person, space, target] of [
      [gert, granted, gerts.id],
      [cora, created, coras.id],
    ] as const) {
      const seen = await t.request('GET', `/v1/spaces/${space.id}`, { token: person.token });
      expect(seen.body.permissions.admin).toBe(true);
      const res = await t.request('POST', `/v1/spaces/${space.id}/transfer`, { token: person.token, body: { organization: target } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: { code: 403, message: 'Only the admins of its organization may move content to another organization.' },
      });
      const row = await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } });
      expect([row.organizationId, row.parentId, row.deletedAt]).toEqual([acme, space.parent ?? null, null]);
      expect((await t.request('GET', `/v1/spaces/${space.id}`, { token: alice.token })).body.organization).toBe(acme);
      expect((await listAll(target, person.token)).count).toBe(0);
    }
    // The grant still stands: nothing of the transfer ran.
    expect(await t.prisma.contentGrant.count({ where: { spaceId: granted.id, userId: gert.userId } })).toBe(1);
  });

  it('rejects a body without organization (400)', async () => {
    const space = await createSpace(acme, { title: 'Nowhere' });
    const res = await t.request('POST', `/v1/spaces/${space.id}/transfer`, { token: alice.token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('organization');
  });
});

describe('permissions and isolation', () => {
  let space: Space;

  beforeAll(async () => {
    space = await buildSpace(t.prisma, { organizationId: acme, title: 'Shared' });
  });

  it('answers 404 to a user of another organization on GET, PATCH and DELETE, as for an unknown id', async () => {
    const unknown = await t.request('GET', `/v1/spaces/${UNKNOWN_ID}`, { token: bob.token });
    expect(unknown.status).toBe(404);
    for (const [method, body] of [['GET'], ['PATCH', { title: 'Mine' }], ['DELETE']] as const) {
      const res = await t.request(method, `/v1/spaces/${space.id}`, { token: bob.token, body });
      expect(res.status, method).toBe(404);
      expect(res.body, method).toEqual(unknown.body);
      const unknownSame = await t.request(method, `/v1/spaces/${UNKNOWN_ID}`, { token: bob.token, body });
      expect(unknownSame.body, method).toEqual(res.body);
    }
    const row = await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } });
    expect(row.title).toBe('Shared');
    expect(row.deletedAt).toBeNull();
  });

  it('lets a read member see the space (view, not edit) but not update it (403)', async () => {
    const api = gitbookClient('0202', t.url, rita.token);
    const { data } = await api.spaces.getSpaceById(space.id);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}', 200, data);
    expect(data.permissions).toMatchObject({ view: true, access: true, edit: false, comment: false, admin: false });
    const res = await t.request('PATCH', `/v1/spaces/${space.id}`, { token: rita.token, body: { title: 'Rita' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe(403);
    expect((await t.request('DELETE', `/v1/spaces/${space.id}`, { token: rita.token })).status).toBe(403);
  });

  it('lets an edit member change the title but not defaultLevel or editMode (403)', async () => {
    const view = await t.request('GET', `/v1/spaces/${space.id}`, { token: eddie.token });
    expect(view.body.permissions).toMatchObject({ view: true, edit: true, admin: false });
    const title = await t.request('PATCH', `/v1/spaces/${space.id}`, { token: eddie.token, body: { title: 'Edited' } });
    expect(title.status).toBe(200);
    expect(title.body.title).toBe('Edited');
    const level = await t.request('PATCH', `/v1/spaces/${space.id}`, { token: eddie.token, body: { defaultLevel: null } });
    expect(level.status).toBe(403);
    const mode = await t.request('PATCH', `/v1/spaces/${space.id}`, { token: eddie.token, body: { editMode: 'locked' } });
    expect(mode.status).toBe(403);
    expect((await t.request('DELETE', `/v1/spaces/${space.id}`, { token: eddie.token })).status).toBe(403);
    const row = await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } });
    expect(row).toMatchObject({ defaultLevel: 'inherit', editMode: 'live', deletedAt: null });
  });

  it('hides a space with defaultLevel null from a read member (404, not listed) but not from an admin', async () => {
    const hidden = await createSpace(acme, { title: 'Hidden' });
    const before = await listAll(acme, rita.token);
    expect(before.ids).toContain(hidden.id);
    const patch = await t.request('PATCH', `/v1/spaces/${hidden.id}`, { token: alice.token, body: { defaultLevel: null } });
    expect(patch.status).toBe(200);

    const unknown = await t.request('GET', `/v1/spaces/${UNKNOWN_ID}`, { token: rita.token });
    const res = await t.request('GET', `/v1/spaces/${hidden.id}`, { token: rita.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(unknown.body);
    const after = await listAll(acme, rita.token);
    expect(after.ids).not.toContain(hidden.id);
    expect(after.count).toBe(before.count - 1);
    expect(after.ids).toHaveLength(after.count);
    expect((await t.request('GET', `/v1/spaces/${hidden.id}`, { token: eddie.token })).status).toBe(404);

    const admin = await t.request('GET', `/v1/spaces/${hidden.id}`, { token: alice.token });
    expect(admin.status).toBe(200);
    expect(admin.body.permissions.admin).toBe(true);
    expect((await listAll(acme, alice.token)).ids).toContain(hidden.id);
  });

  it('shows no space to a guest of the organization', async () => {
    const list = await t.request('GET', `/v1/orgs/${acme}/spaces`, { token: gail.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ items: [], count: 0 });
    expect((await t.request('GET', `/v1/spaces/${space.id}`, { token: gail.token })).status).toBe(404);
  });

  it('requires a token (401) on every space endpoint', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/spaces/${space.id}`],
      ['PATCH', `/v1/spaces/${space.id}`, { title: 'x' }],
      ['DELETE', `/v1/spaces/${space.id}`],
      ['POST', `/v1/spaces/${space.id}/restore`],
      ['POST', `/v1/spaces/${space.id}/duplicate`],
      ['POST', `/v1/spaces/${space.id}/move`, { parent: null }],
      ['POST', `/v1/spaces/${space.id}/transfer`, { organization: beta }],
      ['GET', `/v1/orgs/${acme}/spaces`],
      ['POST', `/v1/orgs/${acme}/spaces`, { title: 'x' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error.code).toBe(401);
    }
  });
});

describe('a space under a collection the caller may not see', () => {
  it('does not name that collection as its parent, REST and GraphQL alike', async () => {
    const hidden = await buildCollection(t.prisma, { organizationId: world.organizationId, defaultLevel: null });
    const open = await buildSpace(t.prisma, { organizationId: world.organizationId, parentId: hidden.id, defaultLevel: 'read' });
    await refreshEffectiveLevels(t.prisma, world.organizationId);
    const asReader = await t.request('GET', `/v1/spaces/${open.id}`, { token: world.reader.token });
    expect(asReader.status).toBe(200);
    expect(asReader.body.parent).toBeUndefined();
    expect(asReader.text).not.toContain(hidden.id);
    const viaGraphql = await t.request('POST', '/graphql', {
      token: world.reader.token,
      body: { query: `{ space(id: "${open.id}") { id parentId } }` },
    });
    expect(viaGraphql.body.data.space).toEqual({ id: open.id, parentId: null });
    // Its organization's admin sees the collection, and the space names it.
    expect((await t.request('GET', `/v1/spaces/${open.id}`, { token: world.admin.token })).body.parent).toBe(hidden.id);
  });
});
