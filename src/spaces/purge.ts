// The scheduled job that removes spaces deleted more than RETENTION_DAYS ago, with everything they contain.
import { RETENTION_MS } from '../content/retention.js';
import type { Space } from '../generated/prisma/client.js';
import type { Services } from '../kernel/context.js';
import { recordEvents, recorderFor, systemActor } from '../kernel/events.js';

/**
 * Returns how many spaces were removed, each recorded as `space_purged` by the system in the same transaction.
 * Idempotent; safe to run from several instances at once.
 */
export async function purgeDeletedSpaces(services: Pick<Services, 'prisma' | 'clock' | 'eventHooks'>): Promise<number> {
  const cutoff = new Date(services.clock.now().getTime() - RETENTION_MS);
  return services.prisma.$transaction(async (tx) => {
    const purged = await tx.$queryRaw<Pick<Space, 'id' | 'organizationId' | 'title' | 'deletedAt'>[]>`
      DELETE FROM "Space" WHERE "deletedAt" < ${cutoff} RETURNING id, "organizationId", title, "deletedAt"`;
    await recordEvents(
      tx,
      recorderFor(services, systemActor('workflow')),
      purged.map((space) => ({
        action: 'space_purged',
        organizationId: space.organizationId,
        target: { type: 'space', id: space.id, label: space.title },
        spaceId: space.id,
        payload: { deletedAt: space.deletedAt },
      })),
    );
    return purged.length;
  });
}
