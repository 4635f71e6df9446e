// Grants in the permission kernel: a member's level on content is the highest of their role (capped by the content's
// default level), their own grants and their teams' grants, on the content or on any collection above it. Lists and
// single reads agree, and a list stays one statement whatever its size.
import { beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../src/generated/prisma/enums.js';
import { newId } from '../../src/kernel/ids.js';
import { type Person, useApi } from '../support/app.js';
import { buildCollection, buildMember, buildOrganization, buildSpace } from '../support/factories.js';

const { t } = useApi();
let org: string;
let admin: Person;
let guest: Person;
let reader: Person;
let teammate: Person;
let team: string;
/** A collection nobody sees by default (defaultLevel null), with a nested collection and spaces at both depths. */
let vault: string;
let vaultSpace: string;
let deepSpace: string;
/** A space everyone reads by default. */
let openSpace: string;

const grant = (target: { collectionId?: string; spaceId?: string }, to: { userId?: string; teamId?: string }, role: MemberRole) =>
  t.prisma.contentGrant.create({ data: { id: newId(), organizationId: org, ...target, ...to, role } });

const spaceIds = async (person: Person) =>
  (await t.request('GET', `/v1/orgs/${org}/spaces?limit=1000`, { token: person.token })).body.items.map((s: { id: string }) => s.id).sort();
const rename = (person: Person, spaceId: string) =>
  t.request('PATCH', `/v1/spaces/${spaceId}`, { token: person.token, body: { title: `Renamed by ${person.userId}` } });

beforeAll(async () => {
  ({
    organization: { id: org },
    owner: admin,
  } = await buildOrganization(t.prisma, { title: 'Granting' }));
  guest = await buildMember(t.prisma, { organizationId: org, role: null });
  reader = await buildMember(t.prisma, { organizationId: org, role: 'read' });
  teammate = await buildMember(t.prisma, { organizationId: org, role: 'read' });
  team = (await t.prisma.team.create({ data: { id: newId(), organizationId: org, title: 'Editors' } })).id;
  await t.prisma.teamMember.create({ data: { teamId: team, organizationId: org, userId: teammate.userId } });

  vault = (await buildCollection(t.prisma, { organizationId: org, title: 'Vault', defaultLevel: null })).id;
  const inner = await buildCollection(t.prisma, { organizationId: org, title: 'Inner', parentId: vault });
  vaultSpace = (await buildSpace(t.prisma, { organizationId: org, title: 'Vault space', parentId: vault })).id;
  deepSpace = (await buildSpace(t.prisma, { organizationId: org, title: 'Deep space', parentId: inner.id })).id;
  openSpace = (await buildSpace(t.prisma, { organizationId: org, title: 'Open space' })).id;
});

describe('without grants', () => {
  it('a guest sees no content, a reader only what is open, and an admin everything', async () => {
    expect(await spaceIds(guest)).toEqual([]);
    expect(await spaceIds(reader)).toEqual([openSpace]);
    expect(await spaceIds(admin)).toEqual([openSpace, vaultSpace, deepSpace].sort());
    expect((await t.request('GET', `/v1/spaces/${vaultSpace}`, { token: reader.token })).status).toBe(404);
  });
});

describe('a grant to a user', () => {
  it('lets a guest see and work on exactly the granted space, at the granted role', async () => {
    await grant({ spaceId: vaultSpace }, { userId: guest.userId }, 'read');
    expect(await spaceIds(guest)).toEqual([vaultSpace]);
    const seen = await t.request('GET', `/v1/spaces/${vaultSpace}`, { token: guest.token });
    expect(seen.status).toBe(200);
    expect(seen.body.permissions).toMatchObject({ view: true, edit: false, admin: false });
    expect((await rename(guest, vaultSpace)).status).toBe(403);
    await t.prisma.contentGrant.updateMany({ where: { userId: guest.userId }, data: { role: 'edit' } });
    expect((await rename(guest, vaultSpace)).status).toBe(200);
    expect((await t.request('GET', `/v1/spaces/${deepSpace}`, { token: guest.token })).status).toBe(404);
  });

  it('raises a role above the content’s default level, and never lowers it', async () => {
    expect((await rename(reader, openSpace)).status).toBe(403);
    await grant({ spaceId: openSpace }, { userId: reader.userId }, 'edit');
    expect((await rename(reader, openSpace)).status).toBe(200);
    await grant({ spaceId: openSpace }, { userId: admin.userId }, 'read');
    expect((await t.request('GET', `/v1/spaces/${openSpace}`, { token: admin.token })).body.permissions.admin).toBe(true);
  });
});

describe('a grant to a team, on a collection', () => {
  it('reaches every member of the team, on the collection and everything below it, and nobody else', async () => {
    expect(await spaceIds(teammate)).toEqual([openSpace]);
    await grant({ collectionId: vault }, { teamId: team }, 'edit');
    expect(await spaceIds(teammate)).toEqual([openSpace, vaultSpace, deepSpace].sort());
    expect((await rename(teammate, deepSpace)).status).toBe(200);
    expect((await rename(teammate, openSpace)).status).toBe(403);
    const collections = await t.request('GET', `/v1/orgs/${org}/collections?limit=1000`, { token: teammate.token });
    expect(collections.body.items.map((c: { title: string }) => c.title).sort()).toEqual(['Inner', 'Vault']);
    expect(await spaceIds(reader)).toEqual([openSpace]);
  });

  it('reads grants in one more statement, whatever the page size; members without grants pay nothing', async () => {
    // Both pages hold a space under a collection, whose parent is named only once judged (its row, its grants).
    const granted = {
      two: await t.counted('GET', `/v1/orgs/${org}/spaces?limit=2`, { token: teammate.token }),
      all: await t.counted('GET', `/v1/orgs/${org}/spaces?limit=1000`, { token: teammate.token }),
    };
    expect(granted.two.body.items.some((space: { parent?: string }) => space.parent)).toBe(true);
    expect(granted.all.body.items).toHaveLength(3);
    expect(granted.all.statements).toBe(granted.two.statements);
    const plain = await buildMember(t.prisma, { organizationId: org, role: 'read' });
    const without = await t.counted('GET', `/v1/orgs/${org}/spaces?limit=1000`, { token: plain.token });
    // The spaces' grants; the parents' rows and their grants (the plain member's one space has no parent).
    expect(granted.all.statements).toBe(without.statements + 3);
  });

  it('ends with the team membership: leaving the team, or the organization, takes the access away', async () => {
    await t.prisma.teamMember.delete({ where: { teamId_userId: { teamId: team, userId: teammate.userId } } });
    expect(await spaceIds(teammate)).toEqual([openSpace]);
    expect((await t.request('GET', `/v1/spaces/${deepSpace}`, { token: teammate.token })).status).toBe(404);
    await t.prisma.teamMember.create({ data: { teamId: team, organizationId: org, userId: teammate.userId } });
    expect((await t.request('DELETE', `/v1/orgs/${org}/members/${teammate.userId}`, { token: admin.token })).status).toBe(204);
    expect((await t.request('GET', `/v1/spaces/${deepSpace}`, { token: teammate.token })).status).toBe(404);
  });

  it('stays in its organization: a grant elsewhere shows nothing here, and a disabled member loses it', async () => {
    const { organization: elsewhere } = await buildOrganization(t.prisma, { title: 'Elsewhere' });
    const theirs = await buildSpace(t.prisma, { organizationId: elsewhere.id, defaultLevel: null });
    await t.prisma.contentGrant.create({
      data: { id: newId(), organizationId: elsewhere.id, spaceId: theirs.id, userId: reader.userId, role: 'admin' },
    });
    expect((await t.request('GET', `/v1/spaces/${theirs.id}`, { token: reader.token })).status).toBe(404);
    await t.prisma.member.update({
      where: { organizationId_userId: { organizationId: org, userId: guest.userId } },
      data: { disabled: true },
    });
    expect((await t.request('GET', `/v1/spaces/${vaultSpace}`, { token: guest.token })).status).toBe(404);
    expect((await t.request('GET', `/v1/orgs/${org}/spaces`, { token: guest.token })).status).toBe(404);
  });
});
