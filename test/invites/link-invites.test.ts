// Invite links: to the organization, to a space, to a collection. Created, listed, read, changed and deleted by those
// who manage them; joined by anyone who holds one, never lowering a role or a grant; refused when the organization
// disabled invite links or the joiner's membership is disabled, and once the link has expired (`expiresAt`).

import { beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../node_modules/gitbook-api-0202/dist/client.js';
import type { Collection, Space } from '../../src/generated/prisma/client.js';
import { type Person, useApi, walk } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildCollection, buildMember, buildOrganization, buildSpace, buildUser } from '../support/factories.js';
import { expectMatchesDocument, expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let acme: string;
let shelf: Collection;
let book: Space;

beforeAll(async () => {
  acme = world.organizationId;
  shelf = await buildCollection(t.prisma, { organizationId: acme, title: 'Shelf' });
  book = await buildSpace(t.prisma, { organizationId: acme, parentId: shelf.id, title: 'Book' });
});

const links = (org = acme, rest = '') => `/v1/orgs/${org}/link-invites${rest}`;
const create = (token: string, body: unknown, org = acme) => t.request('POST', links(org), { token, body });
const joinPath = (inviteId: string, org = acme) => `/v1/orgs/${org}/invites/${inviteId}`;
const join = (token: string, inviteId: string, org = acme) => t.request('POST', joinPath(inviteId, org), { token });
const roleIn = async (person: Person, org = acme) =>
  (await t.prisma.member.findUnique({ where: { organizationId_userId: { organizationId: org, userId: person.userId } } }))?.role;
const grantOf = async (person: Person, content: { spaceId?: string; collectionId?: string }) =>
  (await t.prisma.contentGrant.findFirst({ where: { userId: person.userId, ...content } }))?.role;

describe('POST /v1/orgs/{organizationId}/link-invites', () => {
  it('creates each variant through the official client, matching the spec', async () => {
    const admin = gitbookClient('0202', t.url, world.admin.token);
    const toOrganization = await admin.orgs.createOrganizationInvite(acme, { role: 'edit' as MemberRole });
    expect(toOrganization.status).toBe(201);
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/link-invites', 201, toOrganization.data);
    expect(toOrganization.data).toEqual({ object: 'invite', id: expect.any(String), role: 'edit', redundant: true });

    const guests = await admin.orgs.createOrganizationInvite(acme, { role: null });
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/link-invites', 201, guests.data);
    expect(guests.data).toMatchObject({ role: null, redundant: true });

    const creator = gitbookClient('0202', t.url, world.creator.token);
    const toSpace = await creator.orgs.createOrganizationInvite(acme, { space: book.id, level: 'edit' as MemberRole });
    expect(toSpace.status).toBe(201);
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/link-invites', 201, toSpace.data);
    expect(toSpace.data).toMatchObject({
      object: 'invite',
      level: 'edit',
      redundant: true,
      space: { id: book.id, title: 'Book', object: 'space' },
    });
    expect(toSpace.data).not.toHaveProperty('role');

    const toCollection = await creator.orgs.createOrganizationInvite(acme, { collection: shelf.id, level: 'create' as MemberRole });
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/link-invites', 201, toCollection.data);
    expect(toCollection.data).toMatchObject({ level: 'create', redundant: true, collection: { id: shelf.id, object: 'collection' } });

    const rows = await t.prisma.linkInvite.findMany({ where: { organizationId: acme } });
    expect(rows.map((row) => [row.role, row.spaceId, row.collectionId, row.level]).sort()).toEqual(
      [
        ['edit', null, null, null],
        [null, null, null, null],
        [null, book.id, null, 'edit'],
        [null, null, shelf.id, 'create'],
      ].sort(),
    );
    const created = await eventsOf(t.prisma, { targetId: toSpace.data.id });
    expect(created).toMatchObject([
      {
        action: 'invite_link_created',
        actorId: world.creator.userId,
        targetType: 'invite-link',
        spaceId: book.id,
        payload: { role: null, level: 'edit', space: book.id, collection: null, expiresAt: null },
      },
    ]);
    expect(await eventsOf(t.prisma, { targetId: toOrganization.data.id })).toMatchObject([{ payload: { role: 'edit', level: null } }]);
  });

  it('says whether the viewer already has what an invite gives', async () => {
    const res = await create(world.admin.token, { space: book.id, level: 'admin' });
    expect(res.body.redundant).toBe(true);
    const path = links(acme, `/${res.body.id}`);
    expect((await t.request('GET', path, { token: world.creator.token })).body).toMatchObject({ level: 'admin', redundant: false });
    await t.request('PATCH', path, { token: world.admin.token, body: { level: 'create' } });
    expect((await t.request('GET', path, { token: world.creator.token })).body).toMatchObject({ level: 'create', redundant: true });
    // Content the creator may only read: they cannot invite to it.
    const secret = await buildSpace(t.prisma, { organizationId: acme, title: 'Secret', defaultLevel: 'read' });
    expect((await create(world.creator.token, { space: secret.id, level: 'read' })).status).toBe(403);
  });

  it('refuses what the inviter does not hold, and who may not manage invites', async () => {
    const refused = await create(world.creator.token, { space: book.id, level: 'admin' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('You do not have the "invite as admin" permission on this space.');
    expect((await create(world.reader.token, { space: book.id, level: 'read' })).status).toBe(403);
    expect((await create(world.creator.token, { role: 'read' })).status).toBe(403);
    expect((await create(world.guest.token, { collection: shelf.id, level: 'read' })).status).toBe(400);
    expect((await create(world.outsider.token, { role: 'read' })).status).toBe(404);
    expect((await t.request('POST', links(), { body: { role: 'read' } })).status).toBe(401);
  });

  it('validates the variant and its target, writing nothing', async () => {
    const { organization: other } = await buildOrganization(t.prisma, { owner: world.admin });
    const foreign = await buildSpace(t.prisma, { organizationId: other.id });
    const deleted = await buildSpace(t.prisma, { organizationId: acme, deletedAt: t.clock.now() });
    const before = await t.prisma.linkInvite.count();
    const cases: [unknown, string][] = [
      [{}, 'Invalid "role": required: a role, or null to invite guests (or give "space" or "collection").'],
      [{ role: 'owner' }, 'Invalid "role": must be one of "admin", "create", "review", "edit", "comment", "read".'],
      [{ role: 'read', level: 'read' }, 'Invalid "level": goes with "space" or "collection".'],
      [{ space: book.id }, 'Invalid "level": required: the role the invite gives on the space or collection.'],
      [{ space: book.id, level: null }, 'Invalid "level": required: the role the invite gives on the space or collection.'],
      [
        { space: book.id, level: 'read', role: 'read' },
        'Invalid "role": an invite to a space or collection gives a "level", not a "role".',
      ],
      [{ space: book.id, collection: shelf.id, level: 'read' }, 'Invalid "collection": give "space" or "collection", not both.'],
      [{ space: 'no such/id', level: 'read' }, 'Invalid "space": not an id.'],
      [{ space: 'unknownSpace00000001', level: 'read' }, 'Invalid "space": no such space in this organization.'],
      [{ space: foreign.id, level: 'read' }, 'Invalid "space": no such space in this organization.'],
      [{ space: deleted.id, level: 'read' }, 'Invalid "space": no such space in this organization.'],
      [{ collection: 'unknownCollection001', level: 'read' }, 'Invalid "collection": no such collection in this organization.'],
    ];
    for (const [body, message] of cases) {
      const res = await create(world.admin.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect(await t.prisma.linkInvite.count()).toBe(before);
  });

  it('is refused (403) while the organization has invite links disabled', async () => {
    const { organization, owner } = await buildOrganization(t.prisma, { inviteLinks: false });
    const res = await create(owner.token, { role: 'read' }, organization.id);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/Invite links are disabled/);
    expect(await t.prisma.linkInvite.count({ where: { organizationId: organization.id } })).toBe(0);
  });
});

describe('GET /v1/orgs/{organizationId}/link-invites', () => {
  it('lists the organization’s invites to itself to its admins, matching the spec; a page walk sees each once', async () => {
    const { organization, owner } = await buildOrganization(t.prisma, { title: 'Listed' });
    const org = organization.id;
    const ids = new Set<string>();
    for (const role of ['read', 'edit', 'admin', null, 'comment']) ids.add((await create(owner.token, { role }, org)).body.id);
    const space = await buildSpace(t.prisma, { organizationId: org });
    expect((await create(owner.token, { space: space.id, level: 'read' }, org)).status).toBe(201);

    const api = gitbookClient('0202', t.url, owner.token);
    const { data } = await api.orgs.listOrganizationInviteLinks(org);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/link-invites', 200, data);
    expect(data.count).toBe(5);
    expect(new Set(data.items.map((item) => item.id))).toEqual(ids);
    expect(data.items.every((item) => item.redundant)).toBe(true);

    const { items, pages } = await walk<{ id: string }>(t, links(org, '?limit=2'), {
      token: owner.token,
      eachPage: (page) => expect(page.body.items.length).toBeLessThanOrEqual(2),
    });
    const seen = items.map((item) => item.id);
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(ids);
    expect(pages).toBe(3);
    const one = await t.counted('GET', links(org, '?limit=1'), { token: owner.token });
    const all = await t.counted('GET', links(org, '?limit=1000'), { token: owner.token });
    expect(all.body.items).toHaveLength(5);
    expect(all.statements).toBe(one.statements);
  });

  it('is for admins: 403 for other members, 404 for others', async () => {
    expect((await t.request('GET', links(), { token: world.creator.token })).status).toBe(403);
    expect((await t.request('GET', links(), { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('GET', links(), {})).status).toBe(401);
  });
});

describe('GET, PATCH and DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}', () => {
  let toOrganization: string;
  let toSpace: string;
  beforeAll(async () => {
    toOrganization = (await create(world.admin.token, { role: 'read' })).body.id;
    toSpace = (await create(world.creator.token, { space: book.id, level: 'comment' })).body.id;
  });

  it('reads and changes each kind through the official client, matching the spec', async () => {
    const admin = gitbookClient('0202', t.url, world.admin.token);
    const got = await admin.orgs.getOrganizationInviteLink(acme, toOrganization);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/link-invites/{inviteId}', 200, got.data);
    expect(got.data).toEqual({ object: 'invite', id: toOrganization, role: 'read', redundant: true });
    const changed = await admin.orgs.updateOrganizationInviteById(acme, toOrganization, { role: null });
    expectMatchesSpec('0202', 'patch', '/orgs/{organizationId}/link-invites/{inviteId}', 200, changed.data);
    expect(changed.data).toMatchObject({ id: toOrganization, role: null });

    const creator = gitbookClient('0202', t.url, world.creator.token);
    const space = await creator.orgs.getOrganizationInviteLink(acme, toSpace);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/link-invites/{inviteId}', 200, space.data);
    expect(space.data).toMatchObject({ level: 'comment', space: { id: book.id } });
    const raised = await creator.orgs.updateOrganizationInviteById(acme, toSpace, { level: 'create' as MemberRole });
    expectMatchesSpec('0202', 'patch', '/orgs/{organizationId}/link-invites/{inviteId}', 200, raised.data);
    expect(raised.data).toMatchObject({ level: 'create', redundant: true });
    expect((await t.prisma.linkInvite.findUniqueOrThrow({ where: { id: toSpace } })).level).toBe('create');
    expect(await eventsOf(t.prisma, { targetId: toOrganization }, 'invite_link_updated')).toMatchObject([
      { actorId: world.admin.userId, payload: { changed: { role: { from: 'read', to: null } } } },
    ]);
    expect(await eventsOf(t.prisma, { targetId: toSpace }, 'invite_link_updated')).toMatchObject([
      { actorId: world.creator.userId, spaceId: book.id, payload: { changed: { level: { from: 'comment', to: 'create' } } } },
    ]);
  });

  it('validates changes against the kind of invite and the manager’s own level', async () => {
    const patch = (token: string, id: string, body: unknown) => t.request('PATCH', links(acme, `/${id}`), { token, body });
    const cases: [Person, string, unknown, number, string][] = [
      [world.admin, toOrganization, { level: 'read' }, 400, 'Invalid "level": this invite is to the organization; change its "role".'],
      [world.creator, toOrganization, { role: 'edit' }, 403, 'You do not have the "admin" permission on this organization.'],
      [world.creator, toSpace, { role: 'read' }, 400, 'Invalid "role": this invite is to content; change its "level".'],
      [world.creator, toSpace, { level: null }, 400, 'Invalid "level": must be a role.'],
      [
        world.creator,
        toSpace,
        {},
        400,
        'Invalid body: give "role" (an invite to the organization) or "level" (one to content), or "expiresAt".',
      ],
      [
        world.creator,
        toSpace,
        { role: 'read', level: 'read' },
        400,
        'Invalid body: give "role" (an invite to the organization) or "level" (one to content).',
      ],
      [world.creator, toSpace, { level: 'admin' }, 403, 'You do not have the "invite as admin" permission on this space.'],
      [world.reader, toSpace, { level: 'read' }, 403, 'You do not have the "viewInviteLinks" permission on this space.'],
    ];
    for (const [person, id, body, status, message] of cases) {
      const res = await patch(person.token, id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.message).toBe(message);
    }
    expect((await t.prisma.linkInvite.findUniqueOrThrow({ where: { id: toSpace } })).level).toBe('create');
    // Refused changes recorded nothing: each still has the one event of the change above.
    expect(await eventsOf(t.prisma, { targetId: toSpace }, 'invite_link_updated')).toHaveLength(1);
    expect(await eventsOf(t.prisma, { targetId: toOrganization }, 'invite_link_updated')).toHaveLength(1);
  });

  it('shows an invite only to who manages it; another organization’s invite is not found here', async () => {
    const get = (token: string, id: string, org = acme) => t.request('GET', links(org, `/${id}`), { token });
    expect((await get(world.reader.token, toOrganization)).status).toBe(403);
    expect((await get(world.reader.token, toSpace)).status).toBe(403);
    expect((await get(world.guest.token, toSpace)).status).toBe(404);
    expect((await get(world.outsider.token, toOrganization)).status).toBe(404);
    expect((await get(world.admin.token, 'unknownInvite0000001')).status).toBe(404);
    const elsewhere = (await create(world.admin.token, { role: 'read' }, world.secondOrganizationId)).body.id;
    expect((await get(world.admin.token, elsewhere)).status).toBe(404);
    expect((await t.request('DELETE', links(acme, `/${elsewhere}`), { token: world.admin.token })).status).toBe(404);
    expect((await get(world.admin.token, elsewhere, world.secondOrganizationId)).status).toBe(200);
  });

  it('deletes (205, no body) for who manages the invite, after which it is gone', async () => {
    const doomed = (await create(world.creator.token, { collection: shelf.id, level: 'read' })).body.id;
    expect((await t.request('DELETE', links(acme, `/${doomed}`), { token: world.reader.token })).status).toBe(403);
    const api = gitbookClient('0202', t.url, world.creator.token);
    const res = await api.orgs.deleteOrganizationInviteById(acme, doomed);
    expect(res.status).toBe(205);
    expectMatchesSpec('0202', 'delete', '/orgs/{organizationId}/link-invites/{inviteId}', 205, await res.text());
    expect(await t.prisma.linkInvite.count({ where: { id: doomed } })).toBe(0);
    expect((await t.request('GET', links(acme, `/${doomed}`), { token: world.creator.token })).status).toBe(404);
    expect((await join(world.outsider.token, doomed)).status).toBe(404);
    expect((await eventsOf(t.prisma, { targetId: doomed })).map((event) => [event.action, event.actorId]).sort()).toEqual([
      ['invite_link_created', world.creator.userId],
      ['invite_link_deleted', world.creator.userId],
    ]);
  });
});

describe('POST /v1/orgs/{organizationId}/invites/{inviteId}', () => {
  it('joins with an invite to the organization through the official client: `{}`, the role, never lowered', async () => {
    const invite = (await create(world.admin.token, { role: 'edit' })).body.id;
    const newcomer = await buildUser(t.prisma);
    const api = gitbookClient('0202', t.url, newcomer.token);
    const res = await api.orgs.joinOrganizationWithInvite(acme, invite);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({});
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/invites/{inviteId}', 200, res.data);
    expect(await roleIn(newcomer)).toBe('edit');
    const raw = await join(newcomer.token, invite);
    expect(raw.text).toBe('{}');

    // A reader is raised, a reviewer keeps the higher role, and the link works again and again.
    const reader = await buildMember(t.prisma, { organizationId: acme, role: 'read' });
    const reviewer = await buildMember(t.prisma, { organizationId: acme, role: 'review' });
    expect((await join(reader.token, invite)).status).toBe(200);
    expect((await join(reviewer.token, invite)).status).toBe(200);
    expect([await roleIn(reader), await roleIn(reviewer)]).toEqual(['edit', 'review']);
    const guests = (await create(world.admin.token, { role: null })).body.id;
    expect((await join(reader.token, guests)).status).toBe(200);
    expect(await roleIn(reader)).toBe('edit');
    // Who joined, and whose role the link raised; joining again and the reviewer's join changed nothing, and record nothing.
    const about = async (person: Person) =>
      (await eventsOf(t.prisma, { targetId: person.userId })).map((event) => [event.action, event.actorId, event.payload]);
    expect(await about(newcomer)).toMatchObject([['member_joined', newcomer.userId, { role: 'edit', via: 'invite_link', invite }]]);
    expect(await about(reader)).toMatchObject([['member_role_updated', reader.userId, { role: { from: 'read', to: 'edit' }, invite }]]);
    expect(await about(reviewer)).toEqual([]);
  });

  it('joins with an invite to content: a guest with a grant, which is raised and never lowered', async () => {
    const [toEdit, toRead, toCollection] = [
      (await create(world.creator.token, { space: book.id, level: 'edit' })).body.id,
      (await create(world.creator.token, { space: book.id, level: 'read' })).body.id,
      (await create(world.admin.token, { collection: shelf.id, level: 'comment' })).body.id,
    ];
    const newcomer = await buildUser(t.prisma);
    expect((await t.request('GET', `/v1/spaces/${book.id}`, { token: newcomer.token })).status).toBe(404);
    expect((await join(newcomer.token, toRead)).body).toEqual({});
    expect(await roleIn(newcomer)).toBeNull();
    expect(await grantOf(newcomer, { spaceId: book.id })).toBe('read');
    const space = await t.request('GET', `/v1/spaces/${book.id}`, { token: newcomer.token });
    expect(space.status).toBe(200);
    expect(space.body.permissions).toMatchObject({ view: true, edit: false });
    await join(newcomer.token, toEdit);
    expect(await grantOf(newcomer, { spaceId: book.id })).toBe('edit');
    await join(newcomer.token, toRead);
    expect(await grantOf(newcomer, { spaceId: book.id })).toBe('edit');
    await join(newcomer.token, toCollection);
    expect(await grantOf(newcomer, { collectionId: shelf.id })).toBe('comment');
    // A member keeps their role when joining a space.
    expect((await join(world.editor.token, toRead)).status).toBe(200);
    expect(await roleIn(world.editor)).toBe('edit');
    // The newcomer joined as a guest; each grant given or raised is recorded, the one that changed nothing is not.
    const grants = (await eventsOf(t.prisma, { organizationId: acme }, 'grants_updated'))
      .filter((event) => [toEdit, toRead, toCollection].includes((event.payload as { invite: string }).invite))
      .map((event) => [event.targetId, (event.payload as { users: string[] }).users[0], (event.payload as { role: string }).role]);
    expect(grants.sort()).toEqual(
      [
        [book.id, newcomer.userId, 'read'],
        [book.id, newcomer.userId, 'edit'],
        [shelf.id, newcomer.userId, 'comment'],
        [book.id, world.editor.userId, 'read'],
      ].sort(),
    );
    expect(await eventsOf(t.prisma, { targetId: newcomer.userId })).toMatchObject([{ action: 'member_joined', payload: { role: null } }]);
    expect(await eventsOf(t.prisma, { targetId: world.editor.userId }, 'member_joined', 'member_role_updated')).toEqual([]);
    // The invite is redundant to them now.
    const seen = await t.request('POST', '/graphql', {
      token: newcomer.token,
      body: { query: `{ space(id: "${book.id}") { permissions { viewInviteLinks } } }` },
    });
    expect(seen.body.data.space.permissions.viewInviteLinks).toBe(false);
  });

  it('refuses: unknown or another organization’s invite (404), disabled links or membership (403), deleted space (409)', async () => {
    const newcomer = await buildUser(t.prisma);
    expect((await join(newcomer.token, 'unknownInvite0000001')).status).toBe(404);
    expect((await t.request('POST', joinPath('not an id!'), { token: newcomer.token })).status).toBe(404);
    const elsewhere = (await create(world.admin.token, { role: 'read' }, world.secondOrganizationId)).body.id;
    expect((await join(newcomer.token, elsewhere)).status).toBe(404);
    expect((await t.request('POST', joinPath(elsewhere, world.secondOrganizationId), {})).status).toBe(401);

    const { organization, owner } = await buildOrganization(t.prisma);
    const invite = (await create(owner.token, { role: 'read' }, organization.id)).body.id;
    await t.prisma.organization.update({ where: { id: organization.id }, data: { inviteLinks: false } });
    const disabledLinks = await join(newcomer.token, invite, organization.id);
    expect(disabledLinks.status).toBe(403);
    expect(disabledLinks.body.error.message).toMatch(/Invite links are disabled/);
    await t.prisma.organization.update({ where: { id: organization.id }, data: { inviteLinks: true } });

    const banned = await buildMember(t.prisma, { organizationId: organization.id, role: 'read', disabled: true });
    const refused = await join(banned.token, invite, organization.id);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/disabled/);
    expect(
      (
        await t.prisma.member.findUniqueOrThrow({
          where: { organizationId_userId: { organizationId: organization.id, userId: banned.userId } },
        })
      ).disabled,
    ).toBe(true);

    const gone = await buildSpace(t.prisma, { organizationId: organization.id });
    const toGone = (await create(owner.token, { space: gone.id, level: 'read' }, organization.id)).body.id;
    await t.prisma.space.update({ where: { id: gone.id }, data: { deletedAt: t.clock.now() } });
    expect((await join(newcomer.token, toGone, organization.id)).status).toBe(409);
    expect(await roleIn(newcomer, organization.id)).toBeUndefined();
    // Who manages it still sees it.
    expect((await t.request('GET', links(organization.id, `/${toGone}`), { token: owner.token })).status).toBe(200);
  });
});

describe('expiry of invite links', () => {
  const DAY_MS = 24 * 60 * 60 * 1000;
  const LINKS = '/orgs/{organizationId}/link-invites';
  const LINK = `${LINKS}/{inviteId}`;
  const JOIN = '/orgs/{organizationId}/invites/{inviteId}';
  const inDays = (days: number) => new Date(t.clock.now().getTime() + days * DAY_MS).toISOString();

  it('is set on creation and answered on every read through the official client, matching the spec; absent: never', async () => {
    const admin = gitbookClient('0202', t.url, world.admin.token);
    const expiresAt = inDays(7);
    // GitBook's body has no expiry: it is this service's extension, sent beside GitBook's fields.
    const created = await admin.orgs.createOrganizationInvite(acme, { role: 'read' as MemberRole, expiresAt } as { role: MemberRole });
    expect(created.status).toBe(201);
    expectMatchesSpec('0202', 'post', LINKS, 201, created.data);
    expect(created.data).toEqual({ object: 'invite', id: expect.any(String), role: 'read', redundant: true, expiresAt });
    const toSpace = await admin.orgs.createOrganizationInvite(acme, { space: book.id, level: 'read' as MemberRole, expiresAt } as {
      space: string;
      level: MemberRole;
    });
    expectMatchesSpec('0202', 'post', LINKS, 201, toSpace.data);
    expect(toSpace.data).toMatchObject({ level: 'read', expiresAt });
    expect((await t.prisma.linkInvite.findUniqueOrThrow({ where: { id: created.data.id } })).expiresAt?.toISOString()).toBe(expiresAt);

    const got = await admin.orgs.getOrganizationInviteLink(acme, created.data.id);
    expectMatchesSpec('0202', 'get', LINK, 200, got.data);
    expect(got.data).toMatchObject({ expiresAt });
    const listed = await admin.orgs.listOrganizationInviteLinks(acme, { limit: 1000 });
    expectMatchesSpec('0202', 'get', LINKS, 200, listed.data);
    expect(listed.data.items.find((item) => item.id === created.data.id)).toMatchObject({ expiresAt });

    const never = await create(world.admin.token, { role: 'read', expiresAt: null });
    expect(never.status).toBe(201);
    expect(never.body).not.toHaveProperty('expiresAt');
    expect((await t.prisma.linkInvite.findUniqueOrThrow({ where: { id: never.body.id } })).expiresAt).toBeNull();

    const graphql = await t.request('POST', '/graphql', {
      token: world.admin.token,
      body: {
        query: `{ organization(id: "${acme}") { expiring: linkInvite(inviteId: "${created.data.id}") { ... on InviteLinkToOrganization { expiresAt } }
          never: linkInvite(inviteId: "${never.body.id}") { ... on InviteLinkToOrganization { expiresAt } } }
          space(id: "${book.id}") { linkInvites(limit: 1000) { items { id expiresAt } } } }`,
      },
    });
    expect(graphql.body.data.organization).toEqual({ expiring: { expiresAt }, never: { expiresAt: null } });
    expect(graphql.body.data.space.linkInvites.items).toContainEqual({ id: toSpace.data.id, expiresAt });
  });

  it('is changed, extended or removed (null) on update, alone or with the role; absent keeps it', async () => {
    const admin = gitbookClient('0202', t.url, world.admin.token);
    const id = (await create(world.admin.token, { role: 'read', expiresAt: inDays(1) })).body.id;
    const later = inDays(30);
    const extended = await admin.orgs.updateOrganizationInviteById(acme, id, { expiresAt: later } as unknown as { role: MemberRole });
    expectMatchesSpec('0202', 'patch', LINK, 200, extended.data);
    expect(extended.data).toEqual({ object: 'invite', id, role: 'read', redundant: true, expiresAt: later });
    const withRole = await admin.orgs.updateOrganizationInviteById(acme, id, { role: 'edit' as MemberRole });
    expectMatchesSpec('0202', 'patch', LINK, 200, withRole.data);
    expect(withRole.data).toMatchObject({ role: 'edit', expiresAt: later });
    const sooner = inDays(2);
    const both = await t.request('PATCH', links(acme, `/${id}`), {
      token: world.admin.token,
      body: { role: 'comment', expiresAt: sooner },
    });
    expectMatchesSpec('0202', 'patch', LINK, 200, both.body);
    expect(both.body).toMatchObject({ role: 'comment', expiresAt: sooner });
    const cleared = await t.request('PATCH', links(acme, `/${id}`), { token: world.admin.token, body: { expiresAt: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ object: 'invite', id, role: 'comment', redundant: true });
    expect((await t.prisma.linkInvite.findUniqueOrThrow({ where: { id } })).expiresAt).toBeNull();

    // Only those who manage the link change its expiry.
    const toSpace = (await create(world.creator.token, { space: book.id, level: 'read' })).body.id;
    const byCreator = await t.request('PATCH', links(acme, `/${toSpace}`), { token: world.creator.token, body: { expiresAt: inDays(3) } });
    expect(byCreator.body).toMatchObject({ level: 'read', expiresAt: inDays(3) });
    expect((await t.request('PATCH', links(acme, `/${toSpace}`), { token: world.reader.token, body: { expiresAt: null } })).status).toBe(
      403,
    );
  });

  it('must be in the future and at most a year ahead, on creation and on update; nothing is written otherwise', async () => {
    const id = (await create(world.admin.token, { role: 'read' })).body.id;
    const before = await t.prisma.linkInvite.count();
    const cases: [unknown, string][] = [
      [t.clock.now().toISOString(), 'Invalid "expiresAt": must be in the future.'],
      [inDays(-1), 'Invalid "expiresAt": must be in the future.'],
      [inDays(365 + 1 / 24), 'Invalid "expiresAt": must be at most 365 days ahead.'],
      ['next week', 'Invalid "expiresAt": DateTime must be an ISO 8601 string.'],
      [42, 'Invalid "expiresAt": DateTime must be an ISO 8601 string.'],
    ];
    for (const [expiresAt, message] of cases) {
      const created = await create(world.admin.token, { role: 'read', expiresAt });
      expect(created.status, JSON.stringify(expiresAt)).toBe(400);
      expect(created.body.error.message).toBe(message);
      const updated = await t.request('PATCH', links(acme, `/${id}`), { token: world.admin.token, body: { expiresAt } });
      expect(updated.status, JSON.stringify(expiresAt)).toBe(400);
      expect(updated.body.error.message).toBe(message);
    }
    expect(await t.prisma.linkInvite.count()).toBe(before);
    expect((await t.prisma.linkInvite.findUniqueOrThrow({ where: { id } })).expiresAt).toBeNull();
    expect((await create(world.admin.token, { role: 'read', expiresAt: inDays(365) })).status).toBe(201);
  });

  it('refuses joining once expired (410, like an expired e-mail invite), until its managers extend it', async () => {
    const toOrganization = (await create(world.admin.token, { role: 'edit', expiresAt: inDays(2) })).body.id;
    const toSpace = (await create(world.creator.token, { space: book.id, level: 'comment', expiresAt: inDays(2) })).body.id;
    const early = await buildUser(t.prisma);
    expect((await gitbookClient('0202', t.url, early.token).orgs.joinOrganizationWithInvite(acme, toOrganization)).data).toEqual({});
    expect(await roleIn(early)).toBe('edit');

    t.clock.advanceMs(2 * DAY_MS);
    const late = await buildUser(t.prisma);
    const error = await gitbookClient('0202', t.url, late.token)
      .orgs.joinOrganizationWithInvite(acme, toOrganization)
      .catch((e) => e);
    expect(error.code).toBe(410);
    expect(error.errorMessage).toBe('This invite link has expired: ask for a new one.');
    for (const id of [toOrganization, toSpace]) {
      const refused = await join(late.token, id);
      expect(refused.status).toBe(410);
      expectMatchesDocument('ours', 'post', JOIN, 410, refused.body);
      expect(refused.body).toEqual({ error: { code: 410, message: 'This invite link has expired: ask for a new one.' } });
    }
    expect(await roleIn(late)).toBeUndefined();
    expect(await grantOf(late, { spaceId: book.id })).toBeUndefined();
    // An unknown link is still a 404: expiry tells apart only links that existed.
    expect((await join(late.token, 'unknownInvite0000001')).status).toBe(404);

    // Its managers still see it, and extend it.
    const seen = await t.request('GET', links(acme, `/${toOrganization}`), { token: world.admin.token });
    expect(seen.body.expiresAt).toBe(t.clock.now().toISOString());
    await t.request('PATCH', links(acme, `/${toOrganization}`), { token: world.admin.token, body: { expiresAt: inDays(1) } });
    expect((await join(late.token, toOrganization)).status).toBe(200);
    expect(await roleIn(late)).toBe('edit');
  });
});

describe('GraphQL lists on spaces and collections', () => {
  it('lists a space’s and a collection’s invites to who may manage them, one statement count for any page size', async () => {
    const space = await buildSpace(t.prisma, { organizationId: acme, parentId: shelf.id });
    const ids = new Set<string>();
    for (const level of ['read', 'comment', 'edit']) ids.add((await create(world.creator.token, { space: space.id, level })).body.id);
    const query = (
      limit: number,
    ) => `{ space(id: "${space.id}") { linkInvites(limit: ${limit}) { count items { id level redundant space { id } } } }
      collection(id: "${shelf.id}") { linkInvites { count items { id collection { id } } } } }`;
    const graphql = (token: string, limit: number) => t.counted('POST', '/graphql', { token, body: { query: query(limit) } });
    const one = await graphql(world.creator.token, 1);
    const all = await graphql(world.creator.token, 1000);
    expect(all.body.data.space.linkInvites.count).toBe(3);
    expect(new Set(all.body.data.space.linkInvites.items.map((item: { id: string }) => item.id))).toEqual(ids);
    expect(all.body.data.space.linkInvites.items[0].space.id).toBe(space.id);
    expect(
      all.body.data.collection.linkInvites.items.every((item: { collection: { id: string } }) => item.collection.id === shelf.id),
    ).toBe(true);
    expect(all.statements).toBe(one.statements);
    const reader = await graphql(world.reader.token, 10);
    expect(reader.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
