// How a request reaches a docs site: through the viewer's role in the site's organization (policies.site). A member
// without a role (a guest), like anyone outside the organization, cannot see its sites: 404, never 403. The number of a
// site's site spaces the viewer can see is read with the site's level, for a page of sites at once.
import { Prisma, type Site } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { type Resource, rowsOfTable } from '../kernel/authorize.js';
import { type Level, policies, visibleToViewerSql } from '../kernel/permissions.js';

/** The viewer's level on sites: their role in each site's organization (none for guests). */
export const siteLevelAnnotation = rowAnnotation<Pick<Site, 'organizationId'>, Level>('site level', async (ctx, rows) => {
  const members = await ctx.membership.loadMany(rows.map((row) => row.organizationId));
  return members.map((member) => (member instanceof Error || !member ? null : member.role));
});

/** Site spaces of each site whose space the viewer can see: one statement per page of sites. */
export const siteSpaceCountAnnotation = rowAnnotation<Site, number>('site space count', async (ctx, rows) => {
  const ids = rows.map((row) => row.id);
  const counts = await ctx.sql<{ id: string; count: number }>(Prisma.sql`
    SELECT s.id, (SELECT count(*)::int FROM "SiteSpace" ss JOIN "Space" sp ON sp.id = ss."spaceId"
                   WHERE ss."siteId" = s.id AND ${visibleToViewerSql(ctx.viewer, 'sp')}) AS count
      FROM unnest(${ids}::text[]) AS s(id)`);
  const byId = new Map(counts.map((row) => [row.id, row.count]));
  return ids.map((id) => byId.get(id) ?? 0);
});

export const sites: Resource<Site, typeof policies.site> = {
  kind: 'Site',
  policy: policies.site,
  loadMany: rowsOfTable('Site'),
  level: siteLevelAnnotation,
  parentKey: 'organizationId',
};
