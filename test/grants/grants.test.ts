// Grants on spaces and collections (invite, list, change, remove, aggregate), what they open, who may make them, and
// the spaces a member can access.
import { beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../node_modules/gitbook-api-0202/dist/client.js';
import type { Collection, Space } from '../../src/generated/prisma/client.js';
import { type Person, useApi, walk } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildCollection, buildMember, buildOrganization, buildSpace, buildUser } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let acme: string;
beforeAll(() => {
  acme = world.organizationId;
});

const newTeam = async (title: string, members: Person[], organizationId = acme) => {
  const team = await t.prisma.team.create({ data: { id: `team${Math.random().toString(36).slice(2, 14)}`, organizationId, title } });
  await t.prisma.teamMember.createMany({ data: members.map((m) => ({ teamId: team.id, organizationId, userId: m.userId })) });
  return team.id;
};
const guest = async (displayName: string) =>
  buildMember(t.prisma, { organizationId: acme, role: null, user: await buildUser(t.prisma, { displayName }) });

interface Kind {
  name: 'space' | 'collection';
  /** The REST path segment, and the spec's path template. */
  base: (id: string) => string;
  template: string;
  build: (defaultLevel?: 'inherit' | 'read' | null) => Promise<Space | Collection>;
  /** A space whose permissions show the level on the content: the space itself, or one inside the collection. */
  probe: (content: Space | Collection) => Promise<string>;
}
const kinds: Kind[] = [
  {
    name: 'space',
    base: (id) => `/v1/spaces/${id}/permissions`,
    template: '/spaces/{spaceId}/permissions',
    build: (defaultLevel = null) => buildSpace(t.prisma, { organizationId: acme, title: 'Private', defaultLevel }),
    probe: async (content) => content.id,
  },
  {
    name: 'collection',
    base: (id) => `/v1/collections/${id}/permissions`,
    template: '/collections/{collectionId}/permissions',
    build: (defaultLevel = null) => buildCollection(t.prisma, { organizationId: acme, title: 'Private', defaultLevel }),
    // Grants on a collection reach the spaces inside it.
    probe: async (content) => (await buildSpace(t.prisma, { parentId: content.id, title: 'Inside' })).id,
  },
];

describe.each(kinds)('grants on a $name', (kind) => {
  const view = (probe: string, token: string) => t.request('GET', `/v1/spaces/${probe}`, { token });

  it('invites users and teams through the official client, lists them as the published spec says, and opens the content to them', async () => {
    const content = await kind.build();
    const probe = await kind.probe(content);
    const [alice, bob] = [await guest('Alice'), await guest('Bob')];
    const team = await newTeam('Readers', [bob]);
    expect((await view(probe, alice.token)).status).toBe(404);
    expect((await view(probe, bob.token)).status).toBe(404);

    const api = gitbookClient('0202', t.url, world.admin.token);
    const invite =
      kind.name === 'space'
        ? await api.spaces.inviteToSpace(content.id, { role: 'edit' as MemberRole, users: [alice.userId] })
        : await api.collections.inviteToCollection(content.id, { role: 'edit' as MemberRole, users: [alice.userId] });
    expect(invite.status).toBe(204);
    t.clock.advanceMs(1); // so that the events' order is the changes'
    const teamInvite = await t.request('POST', kind.base(content.id), {
      token: world.admin.token,
      body: { role: 'comment', teams: [team] },
    });
    expect(teamInvite.status).toBe(204);

    expect((await view(probe, alice.token)).body.permissions).toMatchObject({ view: true, edit: true });
    expect((await view(probe, bob.token)).body.permissions).toMatchObject({ view: true, edit: false, comment: true });

    const users =
      kind.name === 'space'
        ? await api.spaces.listUserPermissionsInSpace(content.id)
        : await api.collections.listUserPermissionsInCollection(content.id);
    expectMatchesSpec('0202', 'get', `${kind.template}/users`, 200, users.data);
    expect(users.data.items.map((item) => [item.user.id, item.permission])).toEqual([[alice.userId, 'edit']]);
    expect(users.data.count).toBe(1);

    const teams =
      kind.name === 'space'
        ? await api.spaces.listTeamPermissionsInSpace(content.id)
        : await api.collections.listTeamPermissionsInCollection(content.id);
    expectMatchesSpec('0202', 'get', `${kind.template}/teams`, 200, teams.data);
    expect(teams.data.items).toMatchObject([{ permission: 'comment', team: { id: team, title: 'Readers', members: 1 } }]);

    const aggregate =
      kind.name === 'space'
        ? await api.spaces.listPermissionsAggregateInSpace(content.id)
        : await api.collections.listPermissionsAggregateInCollection(content.id);
    expectMatchesSpec('0202', 'get', `${kind.template}/aggregate`, 200, aggregate.data);
    // The organization's admin by role, Alice and Bob by grants; nobody else (the default level is null).
    expect(aggregate.data.items.map((item) => [item.user.displayName, item.permission])).toEqual([
      ['Admin', 'admin'],
      ['Alice', 'edit'],
      ['Bob', 'comment'],
    ]);
    expect(await eventsOf(t.prisma, { targetId: content.id })).toMatchObject([
      {
        action: 'grants_updated',
        organizationId: acme,
        actorId: world.admin.userId,
        targetType: kind.name,
        targetLabel: 'Private',
        spaceId: kind.name === 'space' ? content.id : null,
        payload: { role: 'edit', users: [alice.userId], teams: [] },
      },
      { action: 'grants_updated', payload: { role: 'comment', users: [], teams: [team] } },
    ]);
  });

  it('changes and removes grants (null removes too), and access follows at once', async () => {
    const content = await kind.build();
    const probe = await kind.probe(content);
    const alice = await guest('Alice');
    const team = await newTeam('Team', [alice]);
    const api = gitbookClient('0202', t.url, world.admin.token);
    await t.request('POST', kind.base(content.id), {
      token: world.admin.token,
      body: { role: 'read', users: [alice.userId], teams: [team] },
    });

    const update =
      kind.name === 'space'
        ? await api.spaces.updateUserPermissionInSpace(content.id, alice.userId, { role: 'review' as MemberRole })
        : await api.collections.updateUserPermissionInCollection(content.id, alice.userId, { role: 'review' as MemberRole });
    expect(update.status).toBe(204);
    expect((await view(probe, alice.token)).body.permissions).toMatchObject({ review: true });

    const removal =
      kind.name === 'space'
        ? await api.spaces.removeUserFromSpace(content.id, alice.userId)
        : await api.collections.removeUserFromCollection(content.id, alice.userId);
    expect(removal.status).toBe(205);
    // Still readable through the team's grant, and no more than that.
    expect((await view(probe, alice.token)).body.permissions).toMatchObject({ view: true, comment: false });

    const teamUpdate = await t.request('PATCH', `${kind.base(content.id)}/teams/${team}`, {
      token: world.admin.token,
      body: { role: null },
    });
    expect(teamUpdate.status).toBe(204);
    expect((await view(probe, alice.token)).status).toBe(404);

    // Removing what is not there answers the same, and changes nothing.
    expect((await t.request('DELETE', `${kind.base(content.id)}/teams/${team}`, { token: world.admin.token })).status).toBe(205);
    expect(await t.prisma.contentGrant.count({ where: { [`${kind.name}Id`]: content.id } })).toBe(0);

    // null removes through the invite endpoint too.
    await t.request('POST', kind.base(content.id), { token: world.admin.token, body: { role: 'read', users: [alice.userId] } });
    expect(
      (await t.request('POST', kind.base(content.id), { token: world.admin.token, body: { role: null, users: [alice.userId] } })).status,
    ).toBe(204);
    expect(await t.prisma.contentGrant.count({ where: { [`${kind.name}Id`]: content.id } })).toBe(0);
    // Each change records its event (the clock stands still: compared in any order); removing what is not there
    // records nothing.
    const events = await eventsOf(t.prisma, { targetId: content.id });
    const summary = (action: string, role: string | null, users: string[], teams: string[]) => JSON.stringify([action, role, users, teams]);
    expect(
      events
        .map(({ action, payload }) => {
          const { role = null, users, teams } = payload as { role?: string; users: string[]; teams: string[] };
          return summary(action, role, users, teams);
        })
        .sort(),
    ).toEqual(
      [
        summary('grants_updated', 'read', [alice.userId], [team]),
        summary('grants_updated', 'review', [alice.userId], []),
        summary('grants_removed', null, [alice.userId], []),
        summary('grants_removed', null, [], [team]),
        summary('grants_updated', 'read', [alice.userId], []),
        summary('grants_removed', null, [alice.userId], []),
      ].sort(),
    );
  });

  it('is for the content’s admins, who grant no more than they hold; other organizations see nothing', async () => {
    const content = await kind.build('inherit');
    const alice = await guest('Alice');
    const body = { role: 'read', users: [alice.userId] };
    // Readers see it, and may not grant; the creator administers it, up to their own level.
    expect((await t.request('POST', kind.base(content.id), { token: world.reader.token, body })).status).toBe(403);
    expect((await t.request('POST', kind.base(content.id), { token: world.creator.token, body: { ...body, role: 'create' } })).status).toBe(
      204,
    );
    const above = await t.request('POST', kind.base(content.id), { token: world.creator.token, body: { ...body, role: 'admin' } });
    expect(above.status).toBe(403);
    expect(above.body.error.message).toBe(`You cannot grant the role "admin": it is above your own level on this ${kind.name}.`);
    expect((await t.request('GET', `${kind.base(content.id)}/users`, { token: world.reader.token })).status).toBe(200);
    // Outside the organization: not found, for reads and writes alike.
    for (const [method, path] of [
      ['GET', `${kind.base(content.id)}/users`],
      ['GET', `${kind.base(content.id)}/teams`],
      ['GET', `${kind.base(content.id)}/aggregate`],
      ['POST', kind.base(content.id)],
      ['PATCH', `${kind.base(content.id)}/users/${alice.userId}`],
      ['DELETE', `${kind.base(content.id)}/users/${alice.userId}`],
    ] as const) {
      const res = await t.request(method, path, {
        token: world.outsider.token,
        body: method === 'GET' || method === 'DELETE' ? undefined : body,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await t.request('GET', `${kind.base(content.id)}/users`)).status).toBe(401);
    // Only the creator's grant within their level was made: the refused ones recorded nothing.
    expect((await eventsOf(t.prisma, { targetId: content.id })).map((e) => [e.action, e.actorId])).toEqual([
      ['grants_updated', world.creator.userId],
    ]);
  });

  it('refuses grantees outside the organization (404, as the spec has it) and bad bodies (400)', async () => {
    const content = await kind.build();
    const otherTeam = await newTeam('Elsewhere', [], world.outsiderOrganizationId);
    const stranger = await buildUser(t.prisma);
    const post = (body: unknown) => t.request('POST', kind.base(content.id), { token: world.admin.token, body });
    const cases: [unknown, number, RegExp][] = [
      [{ role: 'read', users: [world.outsider.userId] }, 404, /^No user ".+" in this organization\.$/],
      [{ role: 'read', users: [stranger.userId] }, 404, /^No user/],
      [{ role: 'read', teams: [otherTeam] }, 404, /^No team ".+" in this organization\.$/],
      [{ users: [world.reader.userId] }, 400, /^Invalid "role"/],
      [{ role: 'owner', users: [world.reader.userId] }, 400, /^Invalid "role"/],
      [{ role: 'read' }, 400, /^Invalid "users"/],
      [{ role: 'read', users: [] }, 400, /^Invalid "users"/],
      [{ role: 'read', users: ['not an id!'] }, 400, /^Invalid "users/],
      [{ role: 'read', teams: Array.from({ length: 101 }, (_, i) => `team${i}`) }, 400, /^Invalid "teams"/],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    const patch = await t.request('PATCH', `${kind.base(content.id)}/users/${world.outsider.userId}`, {
      token: world.admin.token,
      body: { role: 'read' },
    });
    expect(patch.status).toBe(404);
    expect(
      (await t.request('PATCH', `${kind.base(content.id)}/users/${world.reader.userId}`, { token: world.admin.token, body: {} })).status,
    ).toBe(400);
    expect(await t.prisma.contentGrant.count({ where: { [`${kind.name}Id`]: content.id } })).toBe(0);
    // Refused changes record nothing.
    expect(await eventsOf(t.prisma, { targetId: content.id })).toEqual([]);
  });

  it('cannot store a grant on two things or for two grantees: the database refuses it', async () => {
    const content = await kind.build();
    const other = await kind.build();
    const base = { organizationId: acme, role: 'read' as const, [`${kind.name}Id`]: content.id };
    await expect(
      t.prisma.contentGrant.create({
        data: { id: 'grantCheck0000000001', ...base, userId: world.reader.userId, teamId: await newTeam('Both', []) },
      }),
    ).rejects.toThrow(/ContentGrant_one_grantee/);
    const [spaceId, collectionId] =
      kind.name === 'space'
        ? [content.id, (await buildCollection(t.prisma, { organizationId: acme })).id]
        : [(await buildSpace(t.prisma, { organizationId: acme })).id, other.id];
    await expect(
      t.prisma.contentGrant.create({
        data: { id: 'grantCheck0000000002', organizationId: acme, role: 'read', userId: world.reader.userId, spaceId, collectionId },
      }),
    ).rejects.toThrow(/ContentGrant_one_target/);
    await expect(
      t.prisma.contentGrant.create({
        data: { id: 'grantCheck0000000003', organizationId: acme, role: 'read', userId: world.reader.userId },
      }),
    ).rejects.toThrow(/ContentGrant_one_target/);
  });

  it('filters the aggregate by level, and pages every list in one statement whatever the page size', async () => {
    const content = await kind.build('read');
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => guest(`Person ${i}`)));
    const team = await newTeam('Many', people);
    await t.request('POST', kind.base(content.id), {
      token: world.admin.token,
      body: { role: 'edit', users: people.map((p) => p.userId), teams: [team] },
    });
    const editors = await t.request('GET', `${kind.base(content.id)}/aggregate?role=edit`, { token: world.admin.token });
    // The six by their grant; the editor's role is capped at the default level, read.
    expect(editors.body.items.map((item: { user: { displayName: string } }) => item.user.displayName)).toEqual(
      people.map((_, i) => `Person ${i}`),
    );
    const readers = await t.request('GET', `${kind.base(content.id)}/aggregate?role=read`, { token: world.admin.token });
    // Every member with a role below admin is capped at the default level, read.
    expect(readers.body.items.map((item: { user: { displayName: string } }) => item.user.displayName)).toEqual([
      'Commenter',
      'Creator',
      'Editor',
      'Reader',
      'Reviewer',
    ]);

    for (const list of ['users', 'aggregate']) {
      // The statements of each page walk() reads; it fails on any page that is not a 200.
      const statements = new Set<number>();
      const { items, pages } = await walk<{ user: { id: string } }>(t, `${kind.base(content.id)}/${list}?limit=2`, {
        token: world.admin.token,
        eachPage: (page) => statements.add(page.statements),
      });
      const seen = items.map((item) => item.user.id);
      expect(new Set(seen).size, list).toBe(seen.length);
      expect(seen.length, list).toBe(list === 'users' ? 6 : 12);
      expect(pages, list).toBe(list === 'users' ? 3 : 6);
      const whole = await t.counted('GET', `${kind.base(content.id)}/${list}?limit=100`, { token: world.admin.token });
      expect([...statements], list).toEqual([whole.statements]);
    }
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces', () => {
  let org: string;
  let member: Person;
  let colleague: Person;
  let spaces: Record<string, Space>;
  beforeAll(async () => {
    const owner = world.admin;
    const { organization } = await buildOrganization(t.prisma, { owner, title: 'Spaces' });
    org = organization.id;
    member = await buildMember(t.prisma, { organizationId: org, role: null });
    colleague = await buildMember(t.prisma, { organizationId: org, role: 'read' });
    const shelf = await buildCollection(t.prisma, { organizationId: org, title: 'Shelf', defaultLevel: null });
    spaces = {
      open: await buildSpace(t.prisma, { organizationId: org, title: 'Open', defaultLevel: 'inherit', createdAt: new Date('2026-01-01') }),
      granted: await buildSpace(t.prisma, { organizationId: org, title: 'Granted', defaultLevel: null, createdAt: new Date('2026-01-02') }),
      inShelf: await buildSpace(t.prisma, { parentId: shelf.id, title: 'In shelf', createdAt: new Date('2026-01-03') }),
      closed: await buildSpace(t.prisma, { organizationId: org, title: 'Closed', defaultLevel: null, createdAt: new Date('2026-01-04') }),
    };
    const team = await newTeam('Shelf team', [member], org);
    await t.prisma.contentGrant.createMany({
      data: [
        { id: 'grantMemberSpaces001', organizationId: org, spaceId: spaces.granted.id, userId: member.userId, role: 'edit' },
        { id: 'grantMemberSpaces002', organizationId: org, collectionId: shelf.id, teamId: team, role: 'comment' },
      ],
    });
  });

  it('lists the spaces a member can access with their level, newest first, through the official client', async () => {
    const api = gitbookClient('0202', t.url, world.admin.token);
    const { data } = await api.orgs.listSpacesForOrganizationMember(org, member.userId);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/members/{userId}/spaces', 200, data);
    // A guest: nothing by role; the granted space and the shelf's space through the team.
    expect(data.items.map((item) => [item.space.title, item.permission])).toEqual([
      ['In shelf', 'comment'],
      ['Granted', 'edit'],
    ]);
    const ascending = await t.request('GET', `/v1/orgs/${org}/members/${colleague.userId}/spaces?order=asc`, { token: world.admin.token });
    expect(
      ascending.body.items.map((item: { space: { title: string }; permission: string }) => [item.space.title, item.permission]),
    ).toEqual([['Open', 'read']]);
  });

  it('shows the caller only spaces they can see themselves, and is for members of the organization', async () => {
    // The colleague sees only the open space, so the member's granted spaces stay hidden from them.
    const res = await t.request('GET', `/v1/orgs/${org}/members/${member.userId}/spaces`, { token: colleague.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], count: 0 });
    expect((await t.request('GET', `/v1/orgs/${org}/members/${member.userId}/spaces`, { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('GET', `/v1/orgs/${org}/members/${world.outsider.userId}/spaces`, { token: world.admin.token })).status).toBe(
      404,
    );
  });

  it('pages in one statement whatever the page size', async () => {
    const path = `/v1/orgs/${org}/members/${member.userId}/spaces`;
    const first = await t.counted('GET', `${path}?limit=1`, { token: world.admin.token });
    const second = await t.counted('GET', `${path}?limit=1&page=${first.body.next.page}`, { token: world.admin.token });
    const whole = await t.counted('GET', `${path}?limit=100`, { token: world.admin.token });
    expect([first.body.items[0].space.id, second.body.items[0].space.id]).toEqual([spaces.inShelf.id, spaces.granted.id]);
    expect(second.body.next).toBeUndefined();
    expect(first.statements).toBe(whole.statements);
    expect(second.statements).toBe(whole.statements);
  });
});

describe('POST /v1/orgs/{organizationId}/members/{userId}/sso', () => {
  it('makes a member an SSO member, for admins only', async () => {
    const person = await buildMember(t.prisma, { organizationId: acme, role: 'read' });
    const api = gitbookClient('0202', t.url, world.admin.token);
    const { data, status } = await api.orgs.setUserAsSsoMemberForOrganization(acme, person.userId);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/members/{userId}/sso', 200, data);
    expect(data).toMatchObject({ id: person.userId, sso: true, role: 'read' });
    // Once: setting it again changes nothing.
    await api.orgs.setUserAsSsoMemberForOrganization(acme, person.userId);
    expect(await eventsOf(t.prisma, { targetId: person.userId }, 'member_sso_set')).toMatchObject([
      { organizationId: acme, actorId: world.admin.userId, targetType: 'user' },
    ]);
    expect((await t.request('POST', `/v1/orgs/${acme}/members/${person.userId}/sso`, { token: world.reader.token })).status).toBe(403);
    expect((await t.request('POST', `/v1/orgs/${acme}/members/${world.outsider.userId}/sso`, { token: world.admin.token })).status).toBe(
      404,
    );
    expect((await t.request('POST', `/v1/orgs/${acme}/members/${person.userId}/sso`, { token: world.outsider.token })).status).toBe(404);
    expect(await eventsOf(t.prisma, { targetId: person.userId })).toHaveLength(1);
  });
});
