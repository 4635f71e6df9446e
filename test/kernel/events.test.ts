// One record per change, in the change's transaction: what happened, to what, by whom, from where and when; nothing
// for a change that rolls back or is refused.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/kernel/context.js';
import { recordEvents, recorderFor, systemActor } from '../../src/kernel/events.js';
import { useApi } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildSpace } from '../support/factories.js';

const { t, world } = useApi({ world: true });

/** The events about one target, oldest first. */
const eventsAbout = (targetId: string) => eventsOf(t.prisma, { targetId });

describe('events', () => {
  it('records a change with its actor, the request it came in, and the fields it changed', async () => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Before' });
    const requestId = 'audit-test-request-1';
    const res = await t.request('PATCH', `/v1/spaces/${space.id}`, {
      token: world.admin.token,
      body: { title: 'After' },
      headers: { 'x-request-id': requestId },
    });
    expect(res.status, res.text).toBe(200);
    const [event] = await eventsAbout(space.id);
    expect(event).toMatchObject({
      organizationId: world.organizationId,
      action: 'space_updated',
      actorType: 'user',
      actorId: world.admin.userId,
      actorLabel: 'Admin',
      source: 'api',
      targetType: 'space',
      targetId: space.id,
      targetLabel: 'After',
      spaceId: space.id,
      occurredAt: t.clock.now(),
    });
    expect(event.payload).toEqual({
      changed: { title: { from: 'Before', to: 'After' } },
      requestId,
      tokenId: world.admin.tokenId,
      clientAddress: expect.stringMatching(/127\.0\.0\.1/),
    });
  });

  it('records text that is not well-formed as the column keeps it (a lone surrogate becomes U+FFFD)', async () => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Plain' });
    const res = await t.request('PATCH', `/v1/spaces/${space.id}`, { token: world.admin.token, body: { title: 'Half \ud800' } });
    expect(res.status, res.text).toBe(200);
    const [event] = await eventsAbout(space.id);
    expect(event.payload).toMatchObject({ changed: { title: { from: 'Plain', to: 'Half \uFFFD' } } });
  });

  it('records nothing for a refused change, nor for one that changes nothing', async () => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Same' });
    expect((await t.request('PATCH', `/v1/spaces/${space.id}`, { token: world.reader.token, body: { title: 'X' } })).status).toBe(403);
    expect((await t.request('PATCH', `/v1/spaces/${space.id}`, { token: world.admin.token, body: { title: 'Same' } })).status).toBe(200);
    expect(await eventsAbout(space.id)).toEqual([]);
  });

  it('records nothing when the change rolls back, and keeps what commits', async () => {
    const recorder = recorderFor({ clock: systemClock, eventHooks: [] }, systemActor('workflow'));
    const event = { action: 'space_deleted', organizationId: world.organizationId, target: { type: 'space', id: 'rolled-back' } };
    await expect(
      t.prisma.$transaction(async (tx) => {
        await recordEvents(tx, recorder, [event]);
        throw new Error('the change fails after recording');
      }),
    ).rejects.toThrow('the change fails after recording');
    expect(await eventsAbout('rolled-back')).toEqual([]);
    await t.prisma.$transaction((tx) => recordEvents(tx, recorder, [{ ...event, target: { type: 'space', id: 'committed' } }]));
    expect(await eventsAbout('committed')).toEqual([
      expect.objectContaining({ actorType: 'system', actorId: 'system', actorLabel: 'System', source: 'workflow', payload: {} }),
    ]);
  });
});
