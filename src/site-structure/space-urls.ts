// A space's published URLs (Space.urls.published/public): where it is published in a site. Among the live site spaces
// of the space in published sites that are not share-link (a share-link URL needs a key the space's reader may not
// hold), the first by site creation then position gives `published`; `public` is the same when that site is public.
// Read by the statement of the space's counters. A read of the space that presents an active share key (`shareKey`)
// answers instead, as `published`, the space's first live place in the share-link site the key opens, with the key.
import { Prisma, type Site, type SiteSection, type SiteSpace, type Space } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import type { Context } from '../kernel/context.js';
import { hashToken } from '../kernel/ids.js';
import { publishedUrl, siteBaseUrl } from '../sites/urls.js';
import { siteSpaceUrlPath } from './paths.js';

export interface SpacePublishedUrls {
  published: string | null;
  public: string | null;
}

type Found = Pick<
  Site,
  | 'organizationId'
  | 'hostname'
  | 'hostnameActive'
  | 'proxy'
  | 'proxyActive'
  | 'basename'
  | 'visibility'
  | 'defaultSiteSectionId'
  | 'defaultSiteSpaceId'
> &
  Pick<SiteSpace, 'spaceId' | 'path'> & {
    siteId: string;
    siteSpaceId: string;
    sectionId: string | null;
    sectionPath: string | null;
    sectionDefault: SiteSection['defaultSiteSpaceId'];
  };

/** The first live site space of the space in a published site that `sites` admits (on `site`), as JSON; null for none. */
const firstPlaceSql = (spaceId: Prisma.Sql, sites: Prisma.Sql) => Prisma.sql`(
  SELECT json_build_object(
           'spaceId', place."spaceId", 'siteSpaceId', place.id, 'path', place.path, 'sectionId', place."sectionId",
           'siteId', site.id, 'organizationId', site."organizationId", 'hostname', site.hostname,
           'hostnameActive', site."hostnameActive", 'proxy', site.proxy, 'proxyActive', site."proxyActive",
           'basename', site.basename, 'visibility', site.visibility, 'defaultSiteSectionId', site."defaultSiteSectionId",
           'defaultSiteSpaceId', site."defaultSiteSpaceId", 'sectionPath', section.path,
           'sectionDefault', section."defaultSiteSpaceId")
    FROM "SiteSpace" place
    JOIN "Site" site ON site.id = place."siteId" AND site.published AND ${sites}
    LEFT JOIN "SiteSection" section ON section.id = place."sectionId"
   WHERE place."spaceId" = ${spaceId} AND NOT place.draft AND NOT coalesce(section.draft, false)
   ORDER BY site."createdAt", site.id, section.position NULLS FIRST, place.position, place.id
   LIMIT 1)`;

/**
 * The site space that gives a space its published URL, as JSON (null when it has none): a subquery on `spaceId`, so
 * that the statement that reads a space's summary (src/spaces/summary.ts) reads it too, at no round trip of its own.
 * Its aliases are its own, for the outer statement's not to shadow or be shadowed.
 */
export const publishedSiteSpaceSql = (spaceId: Prisma.Sql) => firstPlaceSql(spaceId, Prisma.sql`site.visibility <> 'share_link'`);

/** The published URL of a place that firstPlaceSql found, carrying a share key when given. */
function placeUrl(ctx: Context, found: Found, shareKey?: string): string {
  const site = { ...found, id: found.siteId };
  const section = found.sectionId ? { id: found.sectionId, path: found.sectionPath!, defaultSiteSpaceId: found.sectionDefault } : null;
  return publishedUrl(siteBaseUrl(ctx, site), siteSpaceUrlPath(site, section, { id: found.siteSpaceId, path: found.path }), shareKey);
}

/** The published URLs that the value of publishedSiteSpaceSql gives. */
export function publishedUrlsOf(ctx: Context, json: unknown): SpacePublishedUrls {
  if (!json) return { published: null, public: null };
  const found = json as Found;
  const url = placeUrl(ctx, found);
  return { published: url, public: found.visibility === 'public' ? url : null };
}

/** The published URL a read of the space proved with a share key (sharedPublishedUrl); null for every other read. */
export const sharedPublishedUrlAnnotation = rowAnnotation<Space, string | null>('shared published URL', async (_ctx, rows) =>
  rows.map(() => null),
);

/**
 * The space's URL in the published share-link site that this key (an active share link's) opens, carrying the key:
 * null when the key opens no such site or the site holds no live place of the space. One statement.
 */
export async function sharedPublishedUrl(ctx: Context, spaceId: string, key: string): Promise<string | null> {
  const opened = Prisma.sql`site.visibility = 'share_link'
    AND site.id IN (SELECT link."siteId" FROM "ShareLink" link WHERE link."keyHash" = ${hashToken(key)} AND link.active)`;
  const [{ place }] = await ctx.sql<{ place: Found | null }>(Prisma.sql`SELECT ${firstPlaceSql(Prisma.sql`${spaceId}`, opened)} AS place`);
  return place ? placeUrl(ctx, place, key) : null;
}
