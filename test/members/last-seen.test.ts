// A member's last visit (`lastSeenAt`): written when they act in the organization, at most once a minute (like a
// token's lastUsedAt), with no statement of its own and no audit event (bookkeeping); and GitBook's ping
// (updateOrganizationMemberLastSeenAt), which answers `{}`.
import { describe, expect, it } from 'vitest';
import { LAST_SEEN_PRECISION_MS } from '../../src/kernel/context.js';
import { type Person, useApi } from '../support/app.js';
import { buildMember, buildOrganization, buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });

const lastSeen = async (organizationId: string, person: Person) =>
  (await t.prisma.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId, userId: person.userId } } })).lastSeenAt;

describe('a member’s last visit', () => {
  it('is recorded by what they do in the organization (reading, changing), at most once a minute, there alone', async () => {
    const { organization } = await buildOrganization(t.prisma, { title: 'Visited' });
    const { organization: elsewhere } = await buildOrganization(t.prisma, { title: 'Not visited' });
    const person = await buildMember(t.prisma, { organizationId: organization.id, role: 'edit' });
    await buildMember(t.prisma, { organizationId: elsewhere.id, user: person });
    expect(await lastSeen(organization.id, person)).toBeNull();

    const first = t.clock.now();
    const read = await t.counted('GET', `/v1/orgs/${organization.id}/spaces`, { token: person.token });
    expect(read.status).toBe(200);
    expect(await lastSeen(organization.id, person)).toEqual(first);
    expect(await lastSeen(elsewhere.id, person)).toBeNull();

    t.clock.advanceMs(LAST_SEEN_PRECISION_MS - 1);
    const again = await t.counted('GET', `/v1/orgs/${organization.id}/spaces`, { token: person.token });
    expect(again.statements).toBe(read.statements);
    expect(await lastSeen(organization.id, person)).toEqual(first);

    t.clock.advanceMs(1);
    await t.request('GET', `/v1/orgs/${organization.id}/spaces`, { token: person.token });
    expect(await lastSeen(organization.id, person)).toEqual(t.clock.now());
    expect(await t.prisma.auditEvent.count({ where: { organizationId: organization.id } })).toBe(0);

    // A change made through a route outside the organization's path: the event's statement records the visit.
    const space = await buildSpace(t.prisma, { organizationId: organization.id });
    t.clock.advanceMs(LAST_SEEN_PRECISION_MS);
    const change = await t.request('PATCH', `/v1/spaces/${space.id}`, { token: person.token, body: { title: 'Renamed' } });
    expect(change.status).toBe(200);
    expect(await lastSeen(organization.id, person)).toEqual(t.clock.now());
    expect(await lastSeen(elsewhere.id, person)).toBeNull();
  });

  it('makes sorting the members by it put the latest visitor first', async () => {
    const { organization, owner } = await buildOrganization(t.prisma, { title: 'Sorted by visit' });
    const early = await buildMember(t.prisma, { organizationId: organization.id, lastSeenAt: new Date('2025-06-01T00:00:00Z') });
    await buildMember(t.prisma, { organizationId: organization.id });
    t.clock.advanceMs(LAST_SEEN_PRECISION_MS);
    const res = await t.request('GET', `/v1/orgs/${organization.id}/members?sort=lastSeenAt`, { token: owner.token });
    expect(res.body.items.map((member: { id: string }) => member.id).slice(0, 2)).toEqual([owner.userId, early.userId]);
    expect(res.body.items[0].lastSeenAt).toBe(t.clock.now().toISOString());
  });

  it('is what the ping records, for any member (guests too), answering {}; outsiders are not found', async () => {
    t.clock.advanceMs(LAST_SEEN_PRECISION_MS);
    const ping = await gitbookClient('0202', t.url, world.guest.token).orgs.updateOrganizationMemberLastSeenAt(world.organizationId);
    expect(ping.status).toBe(200);
    expect(ping.data).toEqual({});
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/ping', 200, ping.data);
    expect(await lastSeen(world.organizationId, world.guest)).toEqual(t.clock.now());
    expect(await t.prisma.auditEvent.count({ where: { organizationId: world.organizationId } })).toBe(0);

    const outsider = await t.request('POST', `/v1/orgs/${world.organizationId}/ping`, { token: world.outsider.token });
    expect(outsider.status).toBe(404);
    expect((await t.request('POST', `/v1/orgs/${world.organizationId}/ping`)).status).toBe(401);
  });
});
