// An organization's storage usage, which STORAGE_QUOTA_MB bounds: the distinct bytes its rows name, history included
// (every version of every file of its spaces, deleted spaces until purged, change requests' files), with its live
// exports (a PDF until its link expires) and the intents of writes in progress. Bytes named twice count once.
import { Prisma } from '../generated/prisma/client.js';
import type { Services } from '../kernel/context.js';

/** `("storageKey", size)` of every byte sequence the organization (an SQL expression of its id) names at `now`. */
export const namedByOrganizationSql = (organization: Prisma.Sql, now: Date) => Prisma.sql`
  SELECT fv."storageKey", fv.size FROM "FileVersion" fv JOIN "Space" s ON s.id = fv."spaceId" WHERE s."organizationId" = ${organization}
  UNION ALL SELECT "storageKey", size FROM "FileExport" WHERE "organizationId" = ${organization} AND "expiresAt" > ${now}
  UNION ALL SELECT "storageKey", size FROM "FileIntent" WHERE "organizationId" = ${organization} AND "expiresAt" > ${now}`;

/** The bytes of `rows` (`("storageKey", size)`, a key possibly more than once), each key counted once. */
export const distinctBytesSql = (rows: Prisma.Sql) => Prisma.sql`
  SELECT coalesce(sum(size), 0)::bigint FROM (SELECT max(size) AS size FROM (${rows}) named GROUP BY "storageKey") usage`;

export interface StorageUsage {
  usedBytes: number;
  /** null when no quota is set. */
  quotaBytes: number | null;
}

export async function storageUsageOf(services: Pick<Services, 'sql' | 'clock' | 'config'>, organizationId: string): Promise<StorageUsage> {
  const [{ used }] = await services.sql<{ used: bigint | number | null }>(
    Prisma.sql`SELECT (${distinctBytesSql(namedByOrganizationSql(Prisma.sql`${organizationId}`, services.clock.now()))}) AS used`,
  );
  return { usedBytes: Number(used ?? 0), quotaBytes: services.config.storageQuotaBytes || null };
}
