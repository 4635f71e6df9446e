// The scheduled job that removes spaces deleted more than RETENTION_DAYS ago, with everything they contain.
import { RETENTION_MS } from '../content/retention.js';
import type { PrismaClient } from '../generated/prisma/client.js';

/** Returns how many spaces were removed. Idempotent; safe to run from several instances at once. */
export async function purgeDeletedSpaces(prisma: PrismaClient, now: Date): Promise<number> {
  const { count } = await prisma.space.deleteMany({ where: { deletedAt: { lt: new Date(now.getTime() - RETENTION_MS) } } });
  return count;
}
