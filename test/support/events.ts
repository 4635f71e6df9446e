// The events a change recorded (src/kernel/events.ts), read from the AuditEvent table: what tests of the recording
// mutations assert on.
import type { PrismaClient } from '../../src/generated/prisma/client.js';

/** The events of an organization, or about a target, with these actions (any, when none given), oldest first. */
export const eventsOf = (prisma: PrismaClient, where: { organizationId?: string; targetId?: string }, ...actions: string[]) =>
  prisma.auditEvent.findMany({
    where: { ...where, ...(actions.length && { action: { in: actions } }) },
    orderBy: [{ occurredAt: 'asc' }, { id: 'asc' }],
  });
