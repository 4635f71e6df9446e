// How a request reaches a docs site: through the viewer's role in the site's organization (policies.site). A member
// without a role (a guest), like anyone outside the organization, cannot see its sites: 404, never 403.
import type { Site } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { type Authorized, authorize, forbidden, type Resource } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { type ActionOf, atLeast, type Level, policies } from '../kernel/permissions.js';

export type SiteAction = ActionOf<typeof policies.site>;

/** The viewer's level on sites: their role in each site's organization (none for guests). */
export const siteLevels = rowAnnotation<Pick<Site, 'organizationId'>, Level>('site level', async (ctx, rows) => {
  const members = await ctx.membership.loadMany(rows.map((row) => row.organizationId));
  return members.map((member) => (member instanceof Error || !member ? null : member.role));
});

export const sites: Resource<Site, typeof policies.site> = {
  kind: 'Site',
  policy: policies.site,
  load: async (ctx, id) => (await ctx.sql<Site>(Prisma.sql`SELECT * FROM "Site" WHERE id = ${id}`))[0] ?? null,
  level: siteLevels,
};

/** A site of the organization in the path, after checking `action`: one of another organization is not found. */
export async function siteIn(ctx: Context, organizationId: string, siteId: string, action: SiteAction): Promise<Authorized<Site>> {
  const found = await authorize(ctx, sites, siteId, action);
  if (found.row.organizationId !== organizationId) throw notFound('Site');
  return found;
}

/** 403 unless the viewer may do `action` on a site already reached (a field of it that needs more than `view`). */
export async function checkSiteAction(ctx: Context, site: Site, action: SiteAction): Promise<void> {
  if (!atLeast(await siteLevels.of(ctx, site), policies.site[action])) throw forbidden(action, 'Site');
}
