// How a request reaches import runs: named within their organization (`/v1/org/{organizationId}/imports/{id}`), and
// judged by the viewer's level on the space each imports into (policies.importRun). A run of another organization, or
// of a space the viewer cannot see, is not found; the organization's list leaves those out, and out of its count.
import { type ImportRun, Prisma } from '../generated/prisma/client.js';
import type { ImportRunStatus } from '../generated/prisma/enums.js';
import { inheritedLevel, type Resource, rowsOfTable, spaces } from '../kernel/authorize.js';
import type { ListSource } from '../kernel/lists.js';
import { policies, visibleToViewerSql } from '../kernel/permissions.js';

export const RUN_KIND = 'Import run';

export const importRuns: Resource<ImportRun, typeof policies.importRun> = {
  kind: RUN_KIND,
  policy: policies.importRun,
  loadMany: rowsOfTable('ImportRun'),
  level: inheritedLevel('import run level', spaces, (run) => run.spaceId),
  parentKey: 'organizationId',
};

/** A status of the list's filter: one of the runs', or `active` for both pending and in progress. */
export type ImportRunStatusFilter = ImportRunStatus | 'active';

export interface ImportRunFilters {
  space?: string | null;
  changeRequest?: string | null;
  site?: string | null;
  status?: ImportRunStatusFilter | null;
}

/** An organization's runs, newest first, of the spaces the viewer can see. */
export const organizationImportRuns: ListSource<ImportRun, ImportRunFilters> = {
  table: 'ImportRun',
  parentColumn: 'organizationId',
  orderBy: [
    { column: 'createdAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  descending: () => true,
  where: (ctx, args) => {
    const conditions = [Prisma.sql`EXISTS (SELECT 1 FROM "Space" s WHERE s.id = t."spaceId" AND ${visibleToViewerSql(ctx.viewer, 's')})`];
    if (args.space) conditions.push(Prisma.sql`t."spaceId" = ${args.space}`);
    if (args.changeRequest) conditions.push(Prisma.sql`t."changeRequestId" = ${args.changeRequest}`);
    // Listed under the site it was started for, or under any site that publishes its space now.
    if (args.site) {
      conditions.push(Prisma.sql`(t."siteId" = ${args.site}
        OR EXISTS (SELECT 1 FROM "SiteSpace" ss WHERE ss."siteId" = ${args.site} AND ss."spaceId" = t."spaceId"))`);
    }
    if (args.status === 'active') conditions.push(Prisma.sql`t.status IN ('pending', 'in_progress')`);
    else if (args.status) conditions.push(Prisma.sql`t.status = ${args.status}::"ImportRunStatus"`);
    return Prisma.join(conditions, ' AND ');
  },
  scope: (organizationId, args) =>
    `org/${organizationId}/imports:${JSON.stringify([args.space ?? null, args.changeRequest ?? null, args.site ?? null, args.status ?? null])}`,
};
