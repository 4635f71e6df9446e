// A space's published URLs (Space.urls.published/public): where it is published in a site. Among the live site spaces
// of the space in published sites that are not share-link (a share-link URL needs a key the space's reader may not
// hold), the first by site creation then position gives `published`; `public` is the same when that site is public.
// Read by the statement of the space's counters.
import { Prisma, type Site, type SiteSection, type SiteSpace } from '../generated/prisma/client.js';
import type { Context } from '../kernel/context.js';
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

/**
 * The site space that gives a space its published URL, as JSON (null when it has none): a subquery on `spaceId`, so
 * that the statement that reads a space's counters (src/spaces/counts.ts) reads it too, at no round trip of its own.
 * Its aliases are its own, for the outer statement's not to shadow or be shadowed.
 */
export const publishedSiteSpaceSql = (spaceId: Prisma.Sql) => Prisma.sql`(
  SELECT json_build_object(
           'spaceId', place."spaceId", 'siteSpaceId', place.id, 'path', place.path, 'sectionId', place."sectionId",
           'siteId', site.id, 'organizationId', site."organizationId", 'hostname', site.hostname,
           'hostnameActive', site."hostnameActive", 'proxy', site.proxy, 'proxyActive', site."proxyActive",
           'basename', site.basename, 'visibility', site.visibility, 'defaultSiteSectionId', site."defaultSiteSectionId",
           'defaultSiteSpaceId', site."defaultSiteSpaceId", 'sectionPath', section.path,
           'sectionDefault', section."defaultSiteSpaceId")
    FROM "SiteSpace" place
    JOIN "Site" site ON site.id = place."siteId" AND site.published AND site.visibility <> 'share_link'
    LEFT JOIN "SiteSection" section ON section.id = place."sectionId"
   WHERE place."spaceId" = ${spaceId} AND NOT place.draft AND NOT coalesce(section.draft, false)
   ORDER BY site."createdAt", site.id, section.position NULLS FIRST, place.position, place.id
   LIMIT 1)`;

/** The published URLs that the value of publishedSiteSpaceSql gives. */
export function publishedUrlsOf(ctx: Context, json: unknown): SpacePublishedUrls {
  if (!json) return { published: null, public: null };
  const found = json as Found;
  const site = { ...found, id: found.siteId };
  const section = found.sectionId ? { id: found.sectionId, path: found.sectionPath!, defaultSiteSpaceId: found.sectionDefault } : null;
  const url = publishedUrl(siteBaseUrl(ctx, site), siteSpaceUrlPath(site, section, { id: found.siteSpaceId, path: found.path }));
  return { published: url, public: found.visibility === 'public' ? url : null };
}
