// How a request reaches a docs site: through the viewer's role in the site's organization (policies.site). A member
// without a role (a guest), like anyone outside the organization, cannot see its sites: 404, never 403.
import type { Site } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { type Resource, rowsOfTable } from '../kernel/authorize.js';
import { type Level, policies } from '../kernel/permissions.js';

/** The viewer's level on sites: their role in each site's organization (none for guests). */
export const siteLevels = rowAnnotation<Pick<Site, 'organizationId'>, Level>('site level', async (ctx, rows) => {
  const members = await ctx.membership.loadMany(rows.map((row) => row.organizationId));
  return members.map((member) => (member instanceof Error || !member ? null : member.role));
});

export const sites: Resource<Site, typeof policies.site> = {
  kind: 'Site',
  policy: policies.site,
  loadMany: rowsOfTable('Site'),
  level: siteLevels,
  parentKey: 'organizationId',
};
