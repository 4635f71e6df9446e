// Teams and team members: create, list (title and owner filters, pages), get, rename, delete; add, re-role and remove
// members, one at a time or in one request; who may do what.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Person, useApi, walk } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildMember, buildOrganization, buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let acme: string;
beforeAll(() => {
  acme = world.organizationId;
});

const teams = `/v1/orgs/${'{org}'}/teams`;
const path = (org: string, rest = '') => `${teams.replace('{org}', org)}${rest}`;
const create = (token: string, body: unknown, org = acme) => t.request('PUT', path(org), { token, body });

describe('PUT /v1/orgs/{organizationId}/teams', () => {
  it('creates a team with members through the official client, matching the published spec', async () => {
    const api = gitbookClient('0202', t.url, world.admin.token);
    const { data, status } = await api.orgs.createOrganizationTeam(acme, {
      title: 'Writers',
      members: [world.editor.userId, world.reader.userId],
    });
    expect(status).toBe(201);
    expectMatchesSpec('0202', 'put', '/orgs/{organizationId}/teams', 201, data);
    expect(data).toMatchObject({ object: 'team', title: 'Writers', members: 2, spaces: 0, permissions: { admin: true, view: true } });
    const rows = await t.prisma.teamMember.findMany({ where: { teamId: data.id }, orderBy: { userId: 'asc' } });
    expect(rows.map((row) => [row.userId, row.role])).toEqual(
      [world.editor.userId, world.reader.userId].sort().map((userId) => [userId, 'member']),
    );
    const [event] = await eventsOf(t.prisma, { targetId: data.id });
    expect(event).toMatchObject({
      action: 'team_created',
      organizationId: acme,
      actorId: world.admin.userId,
      targetType: 'team',
      targetLabel: 'Writers',
    });
    expect((event.payload as { members: string[] }).members.sort()).toEqual([world.editor.userId, world.reader.userId].sort());
  });

  it('enforces the title limits and membership of the organization, and is for admins only', async () => {
    for (const title of ['', ' ', 'x'.repeat(65)]) {
      const res = await create(world.admin.token, { title });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^Invalid "title"/);
    }
    expect((await create(world.admin.token, {})).status).toBe(400);
    const stranger = await create(world.admin.token, { title: 'Mixed', members: [world.outsider.userId] });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.message).toBe(`Invalid "members": "${world.outsider.userId}" is not a member of this organization.`);
    expect((await create(world.creator.token, { title: 'Mine' })).status).toBe(403);
    expect((await create(world.outsider.token, { title: 'Theirs' })).status).toBe(404);
    expect(await t.prisma.team.count({ where: { title: { in: ['Mixed', 'Mine', 'Theirs'] } } })).toBe(0);
    expect(await t.prisma.auditEvent.count({ where: { targetLabel: { in: ['Mixed', 'Mine', 'Theirs'] } } })).toBe(0);
  });
});

describe('GET /v1/orgs/{organizationId}/teams', () => {
  let org: string;
  let owner: Person;
  let lead: Person;
  beforeAll(async () => {
    ({
      organization: { id: org },
      owner,
    } = await buildOrganization(t.prisma, { title: 'Teams' }));
    lead = await buildMember(t.prisma, { organizationId: org, role: 'read' });
    for (const title of ['Design', 'backend', 'Frontend', 'Docs_team', 'Data']) {
      const res = await create(owner.token, { title }, org);
      expect(res.status).toBe(201);
    }
    const design = await t.prisma.team.findFirstOrThrow({ where: { organizationId: org, title: 'Design' } });
    await t.prisma.teamMember.create({ data: { teamId: design.id, organizationId: org, userId: lead.userId, role: 'owner' } });
  });

  it('lists teams by title, case-insensitively, matching the spec, with the viewer’s permissions on each', async () => {
    const api = gitbookClient('0202', t.url, lead.token);
    const { data } = await api.orgs.listTeamsInOrganizationById(org);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/teams', 200, data);
    expect(data.items.map((team) => team.title)).toEqual(['backend', 'Data', 'Design', 'Docs_team', 'Frontend']);
    expect(data.items.map((team) => team.permissions.admin)).toEqual([false, false, true, false, false]);
  });

  it('filters by title (LIKE characters literal) and by the teams a member can manage', async () => {
    const titles = async (query: string) =>
      (await t.request('GET', path(org, query), { token: lead.token })).body.items.map((team: { title: string }) => team.title);
    expect(await titles('?title=END')).toEqual(['backend', 'Frontend']);
    expect(await titles('?title=_')).toEqual(['Docs_team']);
    expect(await titles(`?owner=${lead.userId}`)).toEqual(['Design']);
    expect(await titles(`?owner=${owner.userId}`)).toHaveLength(5);
  });

  it('walks every team once with one statement count whatever the page size; guests are refused', async () => {
    const { items, pages } = await walk<{ id: string }>(t, path(org, '?limit=2'), { token: owner.token });
    expect(new Set(items.map((team) => team.id)).size).toBe(5);
    expect(pages).toBe(3);
    const one = await t.counted('GET', path(org, '?limit=1'), { token: owner.token });
    const all = await t.counted('GET', path(org, '?limit=1000'), { token: owner.token });
    expect(all.statements).toBe(one.statements);
    const guest = await buildMember(t.prisma, { organizationId: org, role: null });
    expect((await t.request('GET', path(org), { token: guest.token })).status).toBe(403);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/teams', () => {
  it('lists a member’s teams by title with their role in each, matching the spec, one statement count for any size', async () => {
    const { organization, owner } = await buildOrganization(t.prisma, { title: 'Member teams' });
    const org = organization.id;
    const joiner = await buildMember(t.prisma, { organizationId: org, role: 'read' });
    const ids: Record<string, string> = {};
    for (const title of ['zeta', 'Alpha', 'beta']) {
      ids[title] = (await create(owner.token, { title, members: [joiner.userId] }, org)).body.id;
    }
    await create(owner.token, { title: 'Without them' }, org);
    await t.request('PUT', path(org, `/${ids.beta}/members/${joiner.userId}`), { token: owner.token, body: { role: 'owner' } });

    const api = gitbookClient('0202', t.url, joiner.token);
    const { data } = await api.orgs.listTeamsForOrganizationMember(org, joiner.userId);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/members/{userId}/teams', 200, data);
    expect(data.items.map((item) => [item.team.title, item.member.role, item.team.members])).toEqual([
      ['Alpha', 'member', 1],
      ['beta', 'owner', 1],
      ['zeta', 'member', 1],
    ]);
    const filtered = await t.request('GET', `/v1/orgs/${org}/members/${joiner.userId}/teams?title=ET`, { token: joiner.token });
    expect(filtered.body.items.map((item: { team: { title: string } }) => item.team.title)).toEqual(['beta', 'zeta']);

    const { items } = await walk<{ team: { id: string } }>(t, `/v1/orgs/${org}/members/${joiner.userId}/teams?limit=1`, {
      token: joiner.token,
    });
    const seen = items.map((item) => item.team.id);
    expect(seen).toEqual([ids.Alpha, ids.beta, ids.zeta]);
    const one = await t.counted('GET', `/v1/orgs/${org}/members/${joiner.userId}/teams?limit=1`, { token: owner.token });
    const all = await t.counted('GET', `/v1/orgs/${org}/members/${joiner.userId}/teams?limit=1000`, { token: owner.token });
    expect(all.statements).toBe(one.statements);

    // A guest sees no other member (not found), and may not list teams, not even their own (403).
    const guest = await buildMember(t.prisma, { organizationId: org, role: null });
    expect((await t.request('GET', `/v1/orgs/${org}/members/${joiner.userId}/teams`, { token: guest.token })).status).toBe(404);
    expect((await t.request('GET', `/v1/orgs/${org}/members/${guest.userId}/teams`, { token: guest.token })).status).toBe(403);
    expect((await t.request('GET', `/v1/orgs/${org}/members/${world.admin.userId}/teams`, { token: owner.token })).status).toBe(404);
  });
});

describe('one team', () => {
  let team: string;
  let owner: Person;
  beforeAll(async () => {
    owner = await buildMember(t.prisma, { organizationId: acme, role: 'comment' });
    team = (await create(world.admin.token, { title: 'Support', members: [world.reader.userId] })).body.id;
    await t.request('PUT', path(acme, `/${team}/members/${owner.userId}`), { token: world.admin.token, body: { role: 'owner' } });
    const [granted, other] = [await buildSpace(t.prisma, { organizationId: acme }), await buildSpace(t.prisma, { organizationId: acme })];
    await t.prisma.contentGrant.createMany({
      data: [
        { id: 'grantTeamsTest000001', organizationId: acme, spaceId: granted.id, teamId: team, role: 'read' },
        { id: 'grantTeamsTest000002', organizationId: acme, spaceId: other.id, teamId: team, role: 'edit' },
      ],
    });
  });

  it('GET answers the team with true counters; a team of another organization is not found', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data } = await api.orgs.getTeamInOrganizationById(acme, team);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/teams/{teamId}', 200, data);
    expect(data).toMatchObject({ id: team, title: 'Support', members: 2, spaces: 2, permissions: { admin: false, view: true } });
    const { organization: other } = await buildOrganization(t.prisma, { owner: world.admin });
    const res = await t.request('GET', path(other.id, `/${team}`), { token: world.admin.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: 'Team not found' } });
  });

  it('lists its members with their organization membership, matching the spec', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data } = await api.orgs.listTeamMembersInOrganizationById(acme, team);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/teams/{teamId}/members', 200, data);
    expect(data.items.map((item) => [item.organization.id, item.team.role])).toEqual([
      [world.reader.userId, 'member'],
      [owner.userId, 'owner'],
    ]);
    expect(data.items[0].organization.user.email).toBe(world.reader.email);
    const one = await t.counted('GET', path(acme, `/${team}/members?limit=1`), { token: world.admin.token });
    const all = await t.counted('GET', path(acme, `/${team}/members?limit=1000`), { token: world.admin.token });
    expect(all.statements).toBe(one.statements);
  });

  it('is renamed by its owner (whatever their role) or an admin, not by other members', async () => {
    const api = gitbookClient('0202', t.url, owner.token);
    const { data } = await api.orgs.updateTeamInOrganizationById(acme, team, { title: 'Customer support' });
    expectMatchesSpec('0202', 'patch', '/orgs/{organizationId}/teams/{teamId}', 200, data);
    expect(data.title).toBe('Customer support');
    expect(data.permissions.admin).toBe(true);
    const refused = await t.request('PATCH', path(acme, `/${team}`), { token: world.editor.token, body: { title: 'Mine now' } });
    expect(refused.status).toBe(403);
    expect((await t.request('PATCH', path(acme, `/${team}`), { token: owner.token, body: { title: '' } })).status).toBe(400);
    // The same title again changes nothing: one event, the owner's.
    await t.request('PATCH', path(acme, `/${team}`), { token: owner.token, body: { title: 'Customer support' } });
    expect(await eventsOf(t.prisma, { targetId: team }, 'team_updated')).toMatchObject([
      {
        actorId: owner.userId,
        targetLabel: 'Customer support',
        payload: { changed: { title: { from: 'Support', to: 'Customer support' } } },
      },
    ]);
  });

  it('changes members in one request: ids or e-mails, remove wins over add, roles by user id', async () => {
    const api = gitbookClient('0202', t.url, owner.token);
    const res = await api.orgs.updateMembersInOrganizationTeam(acme, team, {
      add: [world.editor.email.toUpperCase(), world.creator.userId, world.reviewer.userId],
      remove: [world.reader.email, world.reviewer.userId],
      memberships: { [world.creator.userId]: { role: 'owner' as never } },
    });
    expect(res.status).toBe(204);
    const rows = await t.prisma.teamMember.findMany({ where: { teamId: team } });
    expect(Object.fromEntries(rows.map((row) => [row.userId, row.role]))).toEqual({
      [owner.userId]: 'owner',
      [world.editor.userId]: 'member',
      [world.creator.userId]: 'owner',
    });
    const outsider = await t.request('PUT', path(acme, `/${team}/members`), {
      token: owner.token,
      body: { add: [world.outsider.email] },
    });
    expect(outsider.status).toBe(400);
    expect(outsider.body.error.message).toBe(
      `Invalid "add": ${JSON.stringify(world.outsider.email)} is not a member of this organization.`,
    );
    const notInTeam = await t.request('PUT', path(acme, `/${team}/members`), {
      token: owner.token,
      body: { memberships: { [world.reader.userId]: { role: 'owner' } } },
    });
    expect(notInTeam.status).toBe(400);
    const badRole = await t.request('PUT', path(acme, `/${team}/members`), {
      token: owner.token,
      body: { memberships: { [world.editor.userId]: { role: 'boss' } } },
    });
    expect(badRole.status).toBe(400);
    expect((await t.prisma.teamMember.findMany({ where: { teamId: team } })).length).toBe(3);
    // One event, with what changed: the reviewer, added and removed, is neither.
    const events = await eventsOf(t.prisma, { targetId: team }, 'team_members_updated');
    expect(events).toHaveLength(1);
    const { added, removed, roles } = events[0].payload as { added: string[]; removed: string[]; roles: object };
    expect([added.sort(), removed, roles]).toEqual([
      [world.editor.userId, world.creator.userId].sort(),
      [world.reader.userId],
      { [world.creator.userId]: 'owner' },
    ]);
  });

  it('adds, re-roles and removes one member; only members of the organization, only by those who manage the team', async () => {
    const api = gitbookClient('0202', t.url, world.admin.token);
    expect((await api.orgs.addMemberToOrganizationTeamById(acme, team, world.commenter.userId, {})).status).toBe(204);
    const added = await t.prisma.teamMember.findUniqueOrThrow({
      where: { teamId_userId: { teamId: team, userId: world.commenter.userId } },
    });
    expect(added.role).toBe('member');
    await t.request('PUT', path(acme, `/${team}/members/${world.commenter.userId}`), { token: world.admin.token, body: { role: 'owner' } });
    expect(
      (await t.prisma.teamMember.findUniqueOrThrow({ where: { teamId_userId: { teamId: team, userId: world.commenter.userId } } })).role,
    ).toBe('owner');
    const stranger = await t.request('PUT', path(acme, `/${team}/members/${world.outsider.userId}`), {
      token: world.admin.token,
      body: {},
    });
    expect(stranger.status).toBe(404);
    const byMember = await t.request('PUT', path(acme, `/${team}/members/${world.reader.userId}`), { token: world.editor.token, body: {} });
    expect(byMember.status).toBe(403);

    expect((await api.orgs.deleteMemberFromOrganizationTeamById(acme, team, world.commenter.userId)).status).toBe(204);
    const again = await t.request('DELETE', path(acme, `/${team}/members/${world.commenter.userId}`), { token: world.admin.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: { code: 404, message: 'Team member not found' } });
    const about = async (action: string) =>
      (await eventsOf(t.prisma, { targetId: team }, action))
        .filter((event) => (event.payload as { userId: string }).userId === world.commenter.userId)
        .map((event) => event.payload);
    expect(await about('team_member_added')).toMatchObject([{ role: 'member' }]);
    expect(await about('team_member_role_updated')).toMatchObject([{ role: 'owner' }]);
    expect(await about('team_member_removed')).toHaveLength(1);
    expect(
      (await eventsOf(t.prisma, { targetId: team })).filter((event) =>
        [world.outsider.userId, world.reader.userId].includes((event.payload as { userId?: string }).userId ?? ''),
      ),
    ).toEqual([]);
  });

  it('is deleted by an admin only, with its memberships and grants', async () => {
    expect((await t.request('DELETE', path(acme, `/${team}`), { token: owner.token })).status).toBe(403);
    const api = gitbookClient('0202', t.url, world.admin.token);
    expect((await api.orgs.removeTeamFromOrganizationById(acme, team)).status).toBe(204);
    expect(await t.prisma.teamMember.count({ where: { teamId: team } })).toBe(0);
    expect(await t.prisma.contentGrant.count({ where: { teamId: team } })).toBe(0);
    expect((await t.request('GET', path(acme, `/${team}`), { token: world.admin.token })).status).toBe(404);
    expect(await eventsOf(t.prisma, { targetId: team }, 'team_deleted')).toMatchObject([
      { actorId: world.admin.userId, targetLabel: 'Customer support' },
    ]);
  });
});
