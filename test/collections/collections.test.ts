// Collections: the eight endpoints of the spec, move and transfer rules, permissions, limits, pagination.
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { type Person, useApi, walk } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildCollection, buildMember, buildOrganization, buildSpace, buildSpaces } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let alice: Person; // admin of acme and of beta
let rita: Person; // reader in acme
let carl: Person; // creator in acme, reader in beta
let bob: Person; // admin of other only
let acme: string;
let beta: string;
let other: string;

beforeAll(async () => {
  ({ admin: alice, reader: rita, creator: carl, outsider: bob } = world);
  acme = world.organizationId;
  beta = world.secondOrganizationId;
  other = world.outsiderOrganizationId;
  await buildMember(t.prisma, { organizationId: beta, user: carl, role: 'read' });
});

const create = async (org: string, body: object, token = alice.token) => {
  const res = await t.request('POST', `/v1/orgs/${org}/collections`, { token, body });
  expect(res.status).toBe(201);
  return res.body as { id: string; title: string };
};
const titles = async (org: string, token = alice.token, query = '') =>
  (await t.request('GET', `/v1/orgs/${org}/collections${query}`, { token })).body.items.map((c: { title: string }) => c.title);

describe('POST /v1/orgs/{organizationId}/collections', () => {
  it('creates a collection (201 with Location) through the official client, matching the published spec', async () => {
    const api = gitbookClient('0202', t.url, alice.token);
    const res = await api.orgs.createCollection(acme, { title: 'Guides' });
    expect(res.status).toBe(201);
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/collections', 201, res.data);
    expect(res.headers.get('location')).toBe(res.data.urls.location);
    expect(res.data).toMatchObject({ object: 'collection', title: 'Guides', organization: acme, defaultLevel: 'inherit' });
    expect(res.data.parent).toBeUndefined();
    expect(await eventsOf(t.prisma, { targetId: res.data.id })).toMatchObject([
      {
        action: 'collection_created',
        organizationId: acme,
        actorType: 'user',
        actorId: alice.userId,
        source: 'api',
        targetType: 'collection',
        targetLabel: 'Guides',
        payload: { parent: null },
      },
    ]);
  });

  it('creates a nested collection under a parent', async () => {
    const parent = await create(acme, { title: 'Parent' });
    const child = await create(acme, { title: 'Child', parent: parent.id });
    expect(child).toMatchObject({ parent: parent.id });
  });

  it('enforces the title limit (50) with a 400 naming the field', async () => {
    const res = await t.request('POST', `/v1/orgs/${acme}/collections`, { token: alice.token, body: { title: 'x'.repeat(51) } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('title');
  });

  it('is forbidden to a reader (403), not found to a non-member (404), refused for a parent elsewhere (400)', async () => {
    expect((await t.request('POST', `/v1/orgs/${acme}/collections`, { token: rita.token, body: { title: 'No' } })).status).toBe(403);
    expect((await t.request('POST', `/v1/orgs/${acme}/collections`, { token: bob.token, body: { title: 'No' } })).status).toBe(404);
    const foreign = await create(other, { title: 'Foreign' }, bob.token);
    const res = await t.request('POST', `/v1/orgs/${acme}/collections`, { token: alice.token, body: { title: 'X', parent: foreign.id } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('parent');
    expect(await t.prisma.auditEvent.count({ where: { action: 'collection_created', targetLabel: { in: ['No', 'X'] } } })).toBe(0);
  });
});

describe('GET /v1/collections/{collectionId}', () => {
  it('returns the collection with the caller permissions', async () => {
    const c = await create(acme, { title: 'Readable' });
    const api = gitbookClient('0202', t.url, rita.token);
    const { data } = await api.collections.getCollectionById(c.id);
    expectMatchesSpec('0202', 'get', '/collections/{collectionId}', 200, data);
    expect(data.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
  });

  it('answers 404 across organizations exactly as for an unknown id, and 401 without a token', async () => {
    const c = await create(acme, { title: 'Private to Acme' });
    const foreign = await t.request('GET', `/v1/collections/${c.id}`, { token: bob.token });
    const unknown = await t.request('GET', '/v1/collections/unknownCollection1', { token: bob.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect((await t.request('GET', `/v1/collections/${c.id}`)).status).toBe(401);
  });
});

describe('PATCH /v1/collections/{collectionId}', () => {
  it('updates title, description and defaultLevel', async () => {
    const c = await create(acme, { title: 'Before' });
    const api = gitbookClient('0202', t.url, alice.token);
    // The client types roles as a TypeScript enum; on the wire it is the string.
    const { data } = await api.collections.updateCollectionById(c.id, {
      title: 'After',
      description: 'About',
      defaultLevel: 'edit' as never,
    });
    expectMatchesSpec('0202', 'patch', '/collections/{collectionId}', 200, data);
    expect(data).toMatchObject({ title: 'After', description: 'About', defaultLevel: 'edit' });
    expect(await eventsOf(t.prisma, { targetId: c.id }, 'collection_updated')).toMatchObject([
      {
        targetLabel: 'After',
        payload: {
          changed: {
            title: { from: 'Before', to: 'After' },
            description: { from: null, to: 'About' },
            defaultLevel: { from: 'inherit', to: 'edit' },
          },
        },
      },
    ]);
    // The same values again change nothing, and record nothing.
    await t.request('PATCH', `/v1/collections/${c.id}`, { token: alice.token, body: { title: 'After', defaultLevel: 'edit' } });
    expect(await eventsOf(t.prisma, { targetId: c.id }, 'collection_updated')).toHaveLength(1);
  });

  it('hides a collection with defaultLevel null from members below admin, and its subtree with it', async () => {
    const c = await create(acme, { title: 'Secret' });
    const child = await create(acme, { title: 'Secret child', parent: c.id });
    const res = await t.request('PATCH', `/v1/collections/${c.id}`, { token: alice.token, body: { defaultLevel: null } });
    expect(res.status).toBe(200);
    expect(res.body.defaultLevel).toBeNull();
    expect((await t.request('GET', `/v1/collections/${c.id}`, { token: rita.token })).status).toBe(404);
    expect((await t.request('GET', `/v1/collections/${child.id}`, { token: rita.token })).status).toBe(404);
    expect(await titles(acme, rita.token)).not.toContain('Secret');
    expect(await titles(acme, alice.token)).toContain('Secret child');
  });

  it.each([
    ['title of 51 characters', { title: 'x'.repeat(51) }],
    ['description of 101 characters', { description: 'x'.repeat(101) }],
    ['defaultLevel that is not a level', { defaultLevel: 'owner' }],
  ])('rejects a %s with a 400 naming the field', async (_case, body) => {
    const c = await create(acme, { title: 'Limits' });
    const res = await t.request('PATCH', `/v1/collections/${c.id}`, { token: alice.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(Object.keys(body)[0]);
  });

  it('is forbidden to a reader (403)', async () => {
    const c = await create(acme, { title: 'Admins only' });
    expect((await t.request('PATCH', `/v1/collections/${c.id}`, { token: rita.token, body: { title: 'Mine' } })).status).toBe(403);
    expect(await eventsOf(t.prisma, { targetId: c.id }, 'collection_updated')).toEqual([]);
  });
});

describe('DELETE /v1/collections/{collectionId}', () => {
  it('deletes the collection and its subcollections (205, empty) and soft-deletes their spaces', async () => {
    const c = await create(acme, { title: 'Doomed' });
    const child = await create(acme, { title: 'Doomed child', parent: c.id });
    const space = await buildSpace(t.prisma, { organizationId: acme, parentId: child.id, title: 'Inside' });
    const res = await t.request('DELETE', `/v1/collections/${c.id}`, { token: alice.token });
    expect(res.status).toBe(205);
    expect(res.text).toBe('');
    expect((await t.request('GET', `/v1/collections/${child.id}`, { token: alice.token })).status).toBe(404);
    const gone = await t.request('GET', `/v1/spaces/${space.id}`, { token: alice.token });
    expect(gone.body.deletedAt).toBeDefined();
    const restored = await t.request('POST', `/v1/spaces/${space.id}/restore`, { token: alice.token });
    expect(restored.status).toBe(200);
    expect(restored.body.parent).toBeUndefined();
    expect(await eventsOf(t.prisma, { targetId: c.id }, 'collection_deleted')).toMatchObject([
      { actorId: alice.userId, targetLabel: 'Doomed', payload: { spaces: [space.id] } },
    ]);
    // The space deleted with it records its own, for whoever follows that space.
    expect(await eventsOf(t.prisma, { targetId: space.id }, 'space_deleted')).toMatchObject([
      { spaceId: space.id, targetLabel: 'Inside', payload: { collection: c.id } },
    ]);
  });

  it('is forbidden to a reader (403) and not found to a non-member (404)', async () => {
    const c = await create(acme, { title: 'Kept' });
    expect((await t.request('DELETE', `/v1/collections/${c.id}`, { token: rita.token })).status).toBe(403);
    expect((await t.request('DELETE', `/v1/collections/${c.id}`, { token: bob.token })).status).toBe(404);
    expect((await t.request('GET', `/v1/collections/${c.id}`, { token: alice.token })).status).toBe(200);
    expect(await eventsOf(t.prisma, { targetId: c.id }, 'collection_deleted')).toEqual([]);
  });
});

describe('POST /v1/collections/{collectionId}/move', () => {
  it('moves a collection under another, before and after siblings', async () => {
    const home = await create(acme, { title: 'Home' });
    const [a, b, c] = [
      await create(acme, { title: 'A', parent: home.id }),
      await create(acme, { title: 'B', parent: home.id }),
      await create(acme, { title: 'C' }),
    ];
    const api = gitbookClient('0202', t.url, alice.token);
    const moved = await api.collections.moveCollection(c.id, {
      parent: home.id,
      position: { before: { type: 'collection', collection: a.id } },
    });
    expectMatchesSpec('0202', 'post', '/collections/{collectionId}/move', 200, moved.data);
    expect(moved.data.parent).toBe(home.id);
    const order = async () =>
      (await t.request('GET', `/v1/orgs/${acme}/collections`, { token: alice.token })).body.items
        .filter((x: { parent?: string }) => x.parent === home.id)
        .map((x: { title: string }) => x.title);
    expect(await order()).toEqual(['C', 'A', 'B']);
    await api.collections.moveCollection(c.id, { position: { after: { type: 'collection', collection: b.id } } });
    expect(await order()).toEqual(['A', 'B', 'C']);
    await api.collections.moveCollection(a.id, { position: { after: { type: 'collection', collection: b.id } } });
    expect(await order()).toEqual(['B', 'A', 'C']);
    const top = await api.collections.moveCollection(b.id, { parent: null });
    expect(top.data.parent).toBeUndefined();
    expect((await eventsOf(t.prisma, { targetId: b.id }, 'collection_moved')).map((event) => event.payload)).toMatchObject([
      { parent: { from: home.id, to: null } },
    ]);
  });

  it('keeps ordering exact after many moves between the same two neighbours', async () => {
    const home = await create(acme, { title: 'Dense' });
    const first = await create(acme, { title: 'first', parent: home.id });
    await create(acme, { title: 'last', parent: home.id });
    const moving = [];
    for (let i = 0; i < 60; i++) moving.push(await create(acme, { title: `m${i}`, parent: home.id }));
    for (const m of moving) {
      const res = await t.request('POST', `/v1/collections/${m.id}/move`, {
        token: alice.token,
        body: { position: { after: { type: 'collection', collection: first.id } } },
      });
      expect(res.status).toBe(200);
    }
    const order = (await t.request('GET', `/v1/orgs/${acme}/collections?limit=1000`, { token: alice.token })).body.items
      .filter((x: { parent?: string }) => x.parent === home.id)
      .map((x: { title: string }) => x.title);
    expect(order).toEqual(['first', ...moving.map((m) => m.title).reverse(), 'last']);
  });

  it('refuses to move a collection under itself or a descendant (400)', async () => {
    const top = await create(acme, { title: 'Top' });
    const below = await create(acme, { title: 'Below', parent: top.id });
    for (const parent of [top.id, below.id]) {
      const res = await t.request('POST', `/v1/collections/${top.id}/move`, { token: alice.token, body: { parent } });
      expect(res.status).toBe(400);
      expectMatchesSpec('0202', 'post', '/collections/{collectionId}/move', 400, res.body);
    }
  });

  it('refuses a position that is not a sibling in the target (400), a reader (403), a stranger (404)', async () => {
    const x = await create(acme, { title: 'X' });
    const y = await create(acme, { title: 'Y' });
    const nested = await create(acme, { title: 'Nested', parent: y.id });
    const bad = await t.request('POST', `/v1/collections/${x.id}/move`, {
      token: alice.token,
      body: { position: { before: { type: 'collection', collection: nested.id } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('position.before');
    expect((await t.request('POST', `/v1/collections/${x.id}/move`, { token: rita.token, body: { parent: y.id } })).status).toBe(403);
    expect((await t.request('POST', `/v1/collections/${x.id}/move`, { token: bob.token, body: { parent: null } })).status).toBe(404);
    expect(await eventsOf(t.prisma, { targetId: x.id }, 'collection_moved')).toEqual([]);
  });
});

describe('POST /v1/collections/{collectionId}/transfer', () => {
  it('moves the collection with its subtree and spaces to another organization', async () => {
    const c = await create(acme, { title: 'Travelling' });
    const child = await create(acme, { title: 'Travelling child', parent: c.id });
    const space = await buildSpace(t.prisma, { organizationId: acme, parentId: child.id, title: 'Luggage' });
    const api = gitbookClient('0202', t.url, alice.token);
    const { data } = await api.collections.transferCollection(c.id, { organization: beta });
    expectMatchesSpec('0202', 'post', '/collections/{collectionId}/transfer', 200, data);
    expect(data.organization).toBe(beta);
    expect((await t.request('GET', `/v1/collections/${child.id}`, { token: alice.token })).body.organization).toBe(beta);
    expect((await t.request('GET', `/v1/spaces/${space.id}`, { token: alice.token })).body.organization).toBe(beta);
    expect(await titles(acme)).not.toContain('Travelling');
    expect(await titles(beta)).toEqual(expect.arrayContaining(['Travelling', 'Travelling child']));
    // In both organizations' logs.
    const events = await eventsOf(t.prisma, { targetId: c.id }, 'collection_transferred');
    expect(events.map((event) => event.organizationId).sort()).toEqual([acme, beta].sort());
    expect(events[0].payload).toMatchObject({ organization: { from: acme, to: beta }, spaces: [space.id] });
  });

  it('answers 409 for the same organization, 404 for one the caller is not in, 403 without create rights there', async () => {
    // An admin of the collection's organization, reader in beta.
    const ada = await buildMember(t.prisma, { organizationId: acme, role: 'admin' });
    await buildMember(t.prisma, { organizationId: beta, user: ada, role: 'read' });
    const c = await create(acme, { title: 'Staying' }, ada.token);
    const same = await t.request('POST', `/v1/collections/${c.id}/transfer`, { token: ada.token, body: { organization: acme } });
    expect(same.status).toBe(409);
    expectMatchesSpec('0202', 'post', '/collections/{collectionId}/transfer', 409, same.body);
    const stranger = await t.request('POST', `/v1/collections/${c.id}/transfer`, { token: ada.token, body: { organization: other } });
    expect(stranger.status).toBe(404);
    const reader = await t.request('POST', `/v1/collections/${c.id}/transfer`, { token: ada.token, body: { organization: beta } });
    expect(reader.status).toBe(403);
    expect(reader.body.error.message).toContain('createContent');
    const missing = await t.request('POST', `/v1/collections/${c.id}/transfer`, { token: ada.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('organization');
    expect((await t.request('GET', `/v1/collections/${c.id}`, { token: ada.token })).body.organization).toBe(acme);
    expect(await eventsOf(t.prisma, { targetId: c.id }, 'collection_transferred')).toEqual([]);
  });
});

// Issue 21: a creator deleted or transferred a collection and took along the spaces below it that they could not
// administer (restricted ones they could not even see), into an organization of their own.
describe('deleting and transferring what is below a collection', () => {
  let carlsOrg: string;
  beforeAll(async () => {
    carlsOrg = (await buildOrganization(t.prisma, { title: "Carl's", owner: carl })).organization.id;
  });

  /** A collection carl creates (so he administers it), with a nested collection and a space he administers too. */
  const carlsCollection = async (title: string) => {
    const c = await create(acme, { title }, carl.token);
    const child = await create(acme, { title: `${title} child`, parent: c.id }, carl.token);
    const space = await buildSpace(t.prisma, { organizationId: acme, parentId: child.id, title: `${title} space` });
    return { c, child, space };
  };
  /** What the rows of a subtree say: each collection's and space's organization, and whether a space is deleted. */
  const rows = async (collectionIds: string[], spaceIds: string[]) => ({
    collections: (await t.prisma.collection.findMany({ where: { id: { in: collectionIds } }, orderBy: { id: 'asc' } })).map((c) => [
      c.id,
      c.organizationId,
    ]),
    spaces: (await t.prisma.space.findMany({ where: { id: { in: spaceIds } }, orderBy: { id: 'asc' } })).map((s) => [
      s.id,
      s.organizationId,
      s.deletedAt,
    ]),
  });

  // Each: something below carl's collection that carl, a creator, may not administer.
  const beyondReach = {
    'a restricted space (defaultLevel null) he cannot see': async (parentId: string) => ({
      spaces: [(await buildSpace(t.prisma, { organizationId: acme, parentId, defaultLevel: null, title: 'Restricted' })).id],
      collections: [],
    }),
    'a space he only reads (defaultLevel read)': async (parentId: string) => ({
      spaces: [(await buildSpace(t.prisma, { organizationId: acme, parentId, defaultLevel: 'read', title: 'Read only' })).id],
      collections: [],
    }),
    'a restricted collection, with a space in it': async (parentId: string) => {
      const hidden = await buildCollection(t.prisma, { organizationId: acme, parentId, defaultLevel: null, title: 'Hidden' });
      return { collections: [hidden.id], spaces: [(await buildSpace(t.prisma, { organizationId: acme, parentId: hidden.id })).id] };
    },
    'a deleted restricted space': async (parentId: string) => ({
      spaces: [
        (await buildSpace(t.prisma, { organizationId: acme, parentId, defaultLevel: null, deletedAt: t.clock.now(), title: 'Binned' })).id,
      ],
      collections: [],
    }),
  };

  it.each(Object.entries(beyondReach))('refuses a creator to delete a collection above %s (403), changing nothing', async (_, build) => {
    const { c, child, space } = await carlsCollection('Guarded');
    const below = await build(child.id);
    const collectionIds = [c.id, child.id, ...below.collections];
    const spaceIds = [space.id, ...below.spaces];
    expect((await t.request('GET', `/v1/collections/${c.id}`, { token: carl.token })).body.permissions.admin).toBe(true);
    const before = await rows(collectionIds, spaceIds);
    const res = await t.request('DELETE', `/v1/collections/${c.id}`, { token: carl.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: { code: 403, message: expect.stringContaining('every collection and space') } });
    expect(await rows(collectionIds, spaceIds)).toEqual(before);
    expect(before.collections).toHaveLength(collectionIds.length);
    for (const id of collectionIds) expect((await t.request('GET', `/v1/collections/${id}`, { token: alice.token })).status).toBe(200);
    for (const id of spaceIds) expect((await t.request('GET', `/v1/spaces/${id}`, { token: alice.token })).status).toBe(200);
  });

  it('refuses a creator to transfer a collection above a restricted space into his own organization (403), moving nothing', async () => {
    const { c, child, space } = await carlsCollection('Guarded travel');
    const restricted = await buildSpace(t.prisma, { organizationId: acme, parentId: child.id, defaultLevel: null, title: 'Stays' });
    expect((await t.request('GET', `/v1/spaces/${restricted.id}`, { token: carl.token })).status).toBe(404);
    const collectionIds = [c.id, child.id];
    const spaceIds = [space.id, restricted.id];
    const before = await rows(collectionIds, spaceIds);
    const res = await t.request('POST', `/v1/collections/${c.id}/transfer`, { token: carl.token, body: { organization: carlsOrg } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe(403);
    expect(await rows(collectionIds, spaceIds)).toEqual(before);
    expect(before.spaces.every(([, organizationId]) => organizationId === acme)).toBe(true);
    expect((await t.request('GET', `/v1/spaces/${restricted.id}`, { token: alice.token })).body.organization).toBe(acme);
    expect((await t.request('GET', `/v1/spaces/${restricted.id}`, { token: carl.token })).status).toBe(404);
    expect(await titles(acme, alice.token, '?limit=1000')).toEqual(expect.arrayContaining(['Guarded travel', 'Guarded travel child']));
    expect(await titles(carlsOrg, carl.token)).toEqual([]);
  });

  it('refuses a creator to transfer even a collection he administers throughout: that needs the admin role of its organization', async () => {
    const { c, child, space } = await carlsCollection('Administered travel');
    const res = await t.request('POST', `/v1/collections/${c.id}/transfer`, { token: carl.token, body: { organization: carlsOrg } });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('Only the admins of its organization');
    expect(await rows([c.id, child.id], [space.id])).toEqual({
      collections: [c.id, child.id].sort().map((id) => [id, acme]),
      spaces: [[space.id, acme, null]],
    });
  });

  it('lets a creator delete a collection when he administers everything below, a grant included', async () => {
    const { c, child, space } = await carlsCollection('Granted');
    const restricted = await buildSpace(t.prisma, { organizationId: acme, parentId: child.id, defaultLevel: null, title: 'Granted' });
    await t.prisma.contentGrant.create({
      data: { id: newId(), organizationId: acme, spaceId: restricted.id, userId: carl.userId, role: 'create' },
    });
    expect((await t.request('DELETE', `/v1/collections/${c.id}`, { token: carl.token })).status).toBe(205);
    expect(await t.prisma.collection.count({ where: { id: { in: [c.id, child.id] } } })).toBe(0);
    const spaces = await t.prisma.space.findMany({ where: { id: { in: [space.id, restricted.id] } } });
    expect(spaces.map((s) => s.deletedAt)).toEqual([t.clock.now(), t.clock.now()]);
  });

  it('checks the subtree in a number of statements that does not grow with it', async () => {
    const counted = async (spaces: number, collections: number) => {
      const { c, child } = await carlsCollection(`Sized ${spaces}`);
      let parentId = child.id;
      for (let i = 0; i < collections; i++) parentId = (await buildCollection(t.prisma, { organizationId: acme, parentId })).id;
      await buildSpaces(t.prisma, { organizationId: acme, parentId, count: spaces });
      await buildSpace(t.prisma, { organizationId: acme, parentId, defaultLevel: null });
      const refused = await t.counted('DELETE', `/v1/collections/${c.id}`, { token: carl.token });
      expect(refused.status).toBe(403);
      await t.prisma.space.deleteMany({ where: { parentId, defaultLevel: null } });
      const deleted = await t.counted('DELETE', `/v1/collections/${c.id}`, { token: carl.token });
      expect(deleted.status).toBe(205);
      return [refused.statements, deleted.statements];
    };
    expect(await counted(1, 0)).toEqual(await counted(40, 5));
  });
});

describe('GET /v1/orgs/{organizationId}/collections', () => {
  let org: string;
  beforeAll(async () => {
    org = (await buildOrganization(t.prisma, { title: 'Many', owner: alice })).organization.id;
    const roots = [];
    for (let i = 0; i < 5; i++) roots.push(await buildCollection(t.prisma, { organizationId: org, title: `root ${i}` }));
    for (let i = 0; i < 3; i++) await buildCollection(t.prisma, { organizationId: org, parentId: roots[0].id, title: `nested ${i}` });
  });

  it('lists through the official client, matching the published spec', async () => {
    const api = gitbookClient('0202', t.url, alice.token);
    const { data } = await api.orgs.listCollectionsInOrganizationById(org);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/collections', 200, data);
    expect(data.count).toBe(8);
  });

  it('leaves nested collections out with nested=false', async () => {
    const res = await t.request('GET', `/v1/orgs/${org}/collections?nested=false`, { token: alice.token });
    expect(res.body.count).toBe(5);
    expect(res.body.items.every((c: { parent?: string }) => c.parent === undefined)).toBe(true);
    expect((await t.request('GET', `/v1/orgs/${org}/collections?nested=maybe`, { token: alice.token })).status).toBe(400);
  });

  it('walks every collection exactly once with limit=3', async () => {
    const { items, pages } = await walk<{ id: string }>(t, `/v1/orgs/${org}/collections?limit=3`, {
      token: alice.token,
      eachPage: (page) => expect(page.body.count).toBe(8),
    });
    expect(pages).toBe(3);
    expect(new Set(items.map((c) => c.id)).size).toBe(8);
  });

  it('runs the same number of SQL statements for limit 1 and limit 1000', async () => {
    const one = await t.counted('GET', `/v1/orgs/${org}/collections?limit=1`, { token: alice.token });
    const all = await t.counted('GET', `/v1/orgs/${org}/collections?limit=1000`, { token: alice.token });
    expect(all.body.items).toHaveLength(8);
    expect(all.statements).toBe(one.statements);
  });

  it('answers 404 to a non-member', async () => {
    expect((await t.request('GET', `/v1/orgs/${org}/collections`, { token: bob.token })).status).toBe(404);
  });
});

describe('GET /v1/collections/{collectionId}/spaces', () => {
  it('lists the spaces of the collection, walks pages, and keeps its statement count flat', async () => {
    const c = await create(acme, { title: 'Library' });
    for (let i = 0; i < 5; i++) await buildSpace(t.prisma, { organizationId: acme, parentId: c.id, title: `book ${i}` });
    const api = gitbookClient('0202', t.url, rita.token);
    const { data } = await api.collections.listSpacesInCollectionById(c.id);
    expectMatchesSpec('0202', 'get', '/collections/{collectionId}/spaces', 200, data);
    expect(data.items.map((s: { title: string }) => s.title)).toEqual(['book 0', 'book 1', 'book 2', 'book 3', 'book 4']);
    const { items, pages } = await walk<{ id: string }>(t, `/v1/collections/${c.id}/spaces?limit=2`, { token: alice.token });
    expect(new Set(items.map((s) => s.id)).size).toBe(5);
    expect(pages).toBe(3);
    const one = await t.counted('GET', `/v1/collections/${c.id}/spaces?limit=1`, { token: alice.token });
    const all = await t.counted('GET', `/v1/collections/${c.id}/spaces?limit=1000`, { token: alice.token });
    expect(all.body.items).toHaveLength(5);
    expect(all.statements).toBe(one.statements);
    expect((await t.request('GET', `/v1/collections/${c.id}/spaces`, { token: bob.token })).status).toBe(404);
  });
});
