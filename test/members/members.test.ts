// Organization members: list (filters, sort, order, pages), get, change the role, remove; the admin invariants.
import { beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../node_modules/gitbook-api-0202/dist/client.js';
import { type Person, useApi, walk } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildMember, buildOrganization, buildSpace, buildUser } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let acme: string;
beforeAll(() => {
  acme = world.organizationId;
});

const members = (token: string, query = '') => t.request('GET', `/v1/orgs/${acme}/members${query}`, { token });
const namesOf = (body: { items: { user: { displayName: string } }[] }) => body.items.map((m) => m.user.displayName);

describe('GET /v1/orgs/{organizationId}/members', () => {
  it('lists every member, guests included, through the official client, matching the published spec', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data, status } = await api.orgs.listMembersInOrganizationById(acme);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/members', 200, data);
    expect(data.count).toBe(7);
    const guest = data.items.find((m) => m.id === world.guest.userId)!;
    expect(guest).toMatchObject({ object: 'member', role: null, disabled: false, sso: false, spaces: 0, teams: 0, sites: 0 });
    expect(guest.user).toMatchObject({ object: 'user', id: world.guest.userId, email: world.guest.email, displayName: 'Guest' });
  });

  it('filters by role (guest: none) and by a case-insensitive search of name and e-mail, LIKE characters literal', async () => {
    expect(namesOf((await members(world.admin.token, '?role=edit')).body)).toEqual(['Editor']);
    expect(namesOf((await members(world.admin.token, '?role=guest')).body)).toEqual(['Guest']);
    expect(namesOf((await members(world.admin.token, '?search=REVIEW')).body)).toEqual(['Reviewer']);
    expect(namesOf((await members(world.admin.token, `?search=${world.reader.email.split('@')[0]}`)).body)).toEqual(['Reader']);
    expect((await members(world.admin.token, '?search=%25')).body.count).toBe(0);
    expect((await members(world.admin.token, '?search=_')).body.count).toBe(0);
    const bad = await members(world.admin.token, '?role=owner');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^Invalid "role": must be one of/);
    expect((await members(world.admin.token, `?search=${'x'.repeat(257)}`)).status).toBe(400);
  });

  it('sorts by joinedAt (newest first by default), lastSeenAt and name, either way', async () => {
    const { organization, owner } = await buildOrganization(t.prisma, { title: 'Sorted' });
    const at = (day: number) => new Date(Date.UTC(2026, 0, day));
    const join = async (displayName: string, joined: number, seen: number | null) =>
      buildMember(t.prisma, {
        organizationId: organization.id,
        joinedAt: at(joined),
        lastSeenAt: seen === null ? null : at(seen),
        user: await buildUser(t.prisma, { displayName }),
      });
    await t.prisma.member.update({
      where: { organizationId_userId: { organizationId: organization.id, userId: owner.userId } },
      data: { joinedAt: at(1), lastSeenAt: at(2) },
    });
    await join('carol', 3, null);
    await join('Bea', 2, 9);
    await join('dan', 4, 5);
    const names = async (query: string) =>
      namesOf((await t.request('GET', `/v1/orgs/${organization.id}/members${query}`, { token: owner.token })).body);
    const ownerName = (await t.prisma.user.findUniqueOrThrow({ where: { id: owner.userId } })).displayName;
    expect(await names('')).toEqual(['dan', 'carol', 'Bea', ownerName]);
    expect(await names('?order=asc')).toEqual([ownerName, 'Bea', 'carol', 'dan']);
    // The owner's own requests are their latest visit (test/members/last-seen.test.ts).
    expect(await names('?sort=lastSeenAt')).toEqual([ownerName, 'Bea', 'dan', 'carol']);
    expect(await names('?sort=name&order=asc')).toEqual(['Bea', 'carol', 'dan', ownerName].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('walks every member once, two per page, in each order, and refuses a token of another sort', async () => {
    for (const query of ['', '&order=asc', '&sort=name', '&sort=lastSeenAt&order=asc']) {
      const { items, pages } = await walk<{ id: string }>(t, `/v1/orgs/${acme}/members?limit=2${query}`, { token: world.admin.token });
      const seen = items.map((m) => m.id);
      expect(pages).toBe(4);
      expect(seen).toHaveLength(7);
      expect(new Set(seen).size).toBe(7);
    }
    const first = await members(world.admin.token, '?limit=1');
    const other = await members(world.admin.token, `?limit=1&sort=name&page=${first.body.next.page}`);
    expect(other.status).toBe(400);
  });

  it('runs the same number of SQL statements for 1 member and for all of them, with grants and teams counted', async () => {
    const team = await t.prisma.team.create({ data: { id: 'teamMembersTest00001', organizationId: acme, title: 'Writers' } });
    await t.prisma.teamMember.create({ data: { teamId: team.id, organizationId: acme, userId: world.editor.userId } });
    const [granted, viaTeam] = [await buildSpace(t.prisma, { organizationId: acme }), await buildSpace(t.prisma, { organizationId: acme })];
    await t.prisma.contentGrant.createMany({
      data: [
        { id: 'grantMembersTest0001', organizationId: acme, spaceId: granted.id, userId: world.editor.userId, role: 'edit' },
        { id: 'grantMembersTest0002', organizationId: acme, spaceId: viaTeam.id, teamId: team.id, role: 'read' },
        { id: 'grantMembersTest0003', organizationId: acme, spaceId: granted.id, teamId: team.id, role: 'read' },
      ],
    });
    const one = await t.counted('GET', `/v1/orgs/${acme}/members?limit=1`, { token: world.admin.token });
    const all = await t.counted('GET', `/v1/orgs/${acme}/members?limit=1000`, { token: world.admin.token });
    expect(all.body.items).toHaveLength(7);
    expect(all.statements).toBe(one.statements);
    const editor = all.body.items.find((m: { id: string }) => m.id === world.editor.userId);
    expect(editor).toMatchObject({ teams: 1, spaces: 2 });
    await t.prisma.team.delete({ where: { id: team.id } });
    await t.prisma.contentGrant.deleteMany({ where: { organizationId: acme } });
  });

  it('is refused to guests (403), and is not found in another organization (404)', async () => {
    const guest = await members(world.guest.token);
    expect(guest.status).toBe(403);
    const stranger = await members(world.outsider.token);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ error: { code: 404, message: 'Organization not found' } });
    expect((await members('')).status).toBe(401);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}', () => {
  it('answers one member, matching the spec; an unknown or foreign user is a 404', async () => {
    const api = gitbookClient('0202', t.url, world.editor.token);
    const { data } = await api.orgs.getMemberInOrganizationById(acme, world.reader.userId);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/members/{userId}', 200, data);
    expect(data).toMatchObject({ id: world.reader.userId, role: 'read', user: { email: world.reader.email } });
    const foreign = await t.request('GET', `/v1/orgs/${acme}/members/${world.outsider.userId}`, { token: world.admin.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 404, message: 'Member not found' } });
  });
});

describe('PATCH /v1/orgs/{organizationId}/members/{userId}', () => {
  let org: string;
  let owner: Person;
  let colleague: Person;
  beforeAll(async () => {
    ({
      organization: { id: org },
      owner,
    } = await buildOrganization(t.prisma, { title: 'Roles' }));
    colleague = await buildMember(t.prisma, { organizationId: org, role: 'edit' });
  });

  it('changes a role through the official client (null: guest), matching the spec', async () => {
    const api = gitbookClient('0202', t.url, owner.token);
    const { data } = await api.orgs.updateMemberInOrganizationById(org, colleague.userId, { role: 'review' as MemberRole });
    expectMatchesSpec('0202', 'patch', '/orgs/{organizationId}/members/{userId}', 200, data);
    expect(data.role).toBe('review');
    t.clock.advanceMs(1); // so that the events' order is the changes'
    const guest = await t.request('PATCH', `/v1/orgs/${org}/members/${colleague.userId}`, { token: owner.token, body: { role: null } });
    expect(guest.body.role).toBeNull();
    const row = await t.prisma.member.findUniqueOrThrow({
      where: { organizationId_userId: { organizationId: org, userId: colleague.userId } },
    });
    expect(row.role).toBeNull();
    const events = await eventsOf(t.prisma, { organizationId: org }, 'member_role_updated');
    expect(events.map((e) => e.payload)).toMatchObject([{ role: { from: 'edit', to: 'review' } }, { role: { from: 'review', to: null } }]);
    const colleagueName = (await t.prisma.user.findUniqueOrThrow({ where: { id: colleague.userId } })).displayName;
    expect(events[0]).toMatchObject({
      actorType: 'user',
      actorId: owner.userId,
      source: 'api',
      targetType: 'user',
      targetId: colleague.userId,
      targetLabel: colleagueName,
    });
    // The same role again changes nothing, and records nothing.
    await t.request('PATCH', `/v1/orgs/${org}/members/${colleague.userId}`, { token: owner.token, body: { role: null } });
    expect(await eventsOf(t.prisma, { organizationId: org }, 'member_role_updated')).toHaveLength(2);
  });

  it('is for admins only: nobody else changes a role, their own included (403)', async () => {
    await t.prisma.member.update({
      where: { organizationId_userId: { organizationId: org, userId: colleague.userId } },
      data: { role: 'create' },
    });
    for (const target of [colleague.userId, owner.userId]) {
      const res = await t.request('PATCH', `/v1/orgs/${org}/members/${target}`, { token: colleague.token, body: { role: 'admin' } });
      expect(res.status).toBe(403);
    }
    expect(await eventsOf(t.prisma, { organizationId: org }, 'member_role_updated')).toHaveLength(2);
    expect(
      (await t.request('PATCH', `/v1/orgs/${org}/members/${colleague.userId}`, { token: owner.token, body: { role: 'boss' } })).status,
    ).toBe(400);
  });

  it('keeps the last admin: demoting them is a 409 until another member is admin', async () => {
    const demote = () => t.request('PATCH', `/v1/orgs/${org}/members/${owner.userId}`, { token: owner.token, body: { role: 'read' } });
    const refused = await demote();
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('An organization keeps at least one admin: make another member admin first.');
    await t.request('PATCH', `/v1/orgs/${org}/members/${colleague.userId}`, { token: owner.token, body: { role: 'admin' } });
    expect((await demote()).status).toBe(200);
    // Two admins demoting each other at once: one of them stays admin.
    await t.request('PATCH', `/v1/orgs/${org}/members/${owner.userId}`, { token: colleague.token, body: { role: 'admin' } });
    const both = await Promise.all([
      t.request('PATCH', `/v1/orgs/${org}/members/${owner.userId}`, { token: colleague.token, body: { role: 'read' } }),
      t.request('PATCH', `/v1/orgs/${org}/members/${colleague.userId}`, { token: owner.token, body: { role: 'read' } }),
    ]);
    // The other is refused: 409 when it checks the last admin, or 403 when its caller was demoted first.
    const [first, second] = both.map((r) => r.status).sort();
    expect(first).toBe(200);
    expect([403, 409]).toContain(second);
    expect(await t.prisma.member.count({ where: { organizationId: org, role: 'admin' } })).toBe(1);
  });
});

describe('DELETE /v1/orgs/{organizationId}/members/{userId}', () => {
  it('removes a member with their team memberships and grants, in one go; the last admin stays', async () => {
    const { organization, owner } = await buildOrganization(t.prisma, { title: 'Leaving' });
    const org = organization.id;
    const leaver = await buildMember(t.prisma, { organizationId: org, role: 'edit' });
    const team = await t.prisma.team.create({ data: { id: 'teamLeavingTest00001', organizationId: org, title: 'Crew' } });
    await t.prisma.teamMember.create({ data: { teamId: team.id, organizationId: org, userId: leaver.userId } });
    const space = await buildSpace(t.prisma, { organizationId: org });
    await t.prisma.contentGrant.create({
      data: { id: 'grantLeavingTest0001', organizationId: org, spaceId: space.id, userId: leaver.userId, role: 'edit' },
    });

    const api = gitbookClient('0202', t.url, owner.token);
    const { status } = await api.orgs.removeMemberFromOrganizationById(org, leaver.userId);
    expect(status).toBe(204);
    expect(await t.prisma.member.count({ where: { organizationId: org, userId: leaver.userId } })).toBe(0);
    expect(await t.prisma.teamMember.count({ where: { userId: leaver.userId } })).toBe(0);
    expect(await t.prisma.contentGrant.count({ where: { userId: leaver.userId } })).toBe(0);
    expect((await t.request('GET', `/v1/orgs/${org}`, { token: leaver.token })).status).toBe(404);
    expect(await eventsOf(t.prisma, { organizationId: org }, 'member_removed')).toMatchObject([
      { actorId: owner.userId, targetId: leaver.userId, payload: { role: 'edit' } },
    ]);

    const last = await t.request('DELETE', `/v1/orgs/${org}/members/${owner.userId}`, { token: owner.token });
    expect(last.status).toBe(409);
    expect(await eventsOf(t.prisma, { organizationId: org }, 'member_removed')).toHaveLength(1);
    expect((await t.request('DELETE', `/v1/orgs/${org}/members/${owner.userId}`, { token: leaver.token })).status).toBe(404);
  });

  it('lets a member leave, and no one but an admin remove someone else', async () => {
    const { organization, owner } = await buildOrganization(t.prisma, { title: 'Door' });
    const org = organization.id;
    const [stayer, goer] = [
      await buildMember(t.prisma, { organizationId: org }),
      await buildMember(t.prisma, { organizationId: org, role: null }),
    ];
    expect((await t.request('DELETE', `/v1/orgs/${org}/members/${owner.userId}`, { token: stayer.token })).status).toBe(403);
    expect((await t.request('DELETE', `/v1/orgs/${org}/members/${goer.userId}`, { token: goer.token })).status).toBe(204);
    expect((await t.request('DELETE', `/v1/orgs/${org}/members/${goer.userId}`, { token: owner.token })).status).toBe(404);
  });
});
