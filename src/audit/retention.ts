// The audit log's retention: events (and the client addresses they hold) older than AUDIT_RETENTION_DAYS are deleted
// by the purge's tick (src/tasks.ts). The only deletion of events there is.
import type { Services } from '../kernel/context.js';

const DAY_MS = 86_400_000;

/** Deletes the events older than the retention; answers how many. */
export async function forgetExpiredAuditEvents(services: Pick<Services, 'prisma' | 'clock' | 'config'>): Promise<number> {
  const before = new Date(services.clock.now().getTime() - services.config.auditRetentionDays * DAY_MS);
  const { count } = await services.prisma.auditEvent.deleteMany({ where: { occurredAt: { lt: before } } });
  return count;
}
