// A space's published URLs (Space.urls.published/public): where it is published in a site. Among the live site spaces
// of the space in published sites that are not share-link (a share-link URL needs a key the space's reader may not
// hold), the first by site creation then position gives `published`; `public` is the same when that site is public.
// One statement per page of spaces.
import { Prisma, type Site, type SiteSection, type SiteSpace, type Space } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { publishedUrl, siteBaseUrl } from '../sites/urls.js';
import { siteSpaceUrlPath } from './paths.js';

export interface SpacePublishedUrls {
  published: string | null;
  public: string | null;
}

type Found = Pick<
  Site,
  'organizationId' | 'hostname' | 'proxy' | 'basename' | 'visibility' | 'defaultSiteSectionId' | 'defaultSiteSpaceId'
> &
  Pick<SiteSpace, 'spaceId' | 'path'> & {
    siteId: string;
    siteSpaceId: string;
    sectionId: string | null;
    sectionPath: string | null;
    sectionDefault: SiteSection['defaultSiteSpaceId'];
  };

export const spacePublishedUrls = rowAnnotation<Pick<Space, 'id'>, SpacePublishedUrls>('space published urls', async (ctx, spaces) => {
  const ids = spaces.map((space) => space.id);
  const rows = await ctx.sql<Found>(Prisma.sql`
    SELECT DISTINCT ON (ss."spaceId") ss."spaceId", ss.id AS "siteSpaceId", ss.path, ss."sectionId",
           s.id AS "siteId", s."organizationId", s.hostname, s.proxy, s.basename, s.visibility,
           s."defaultSiteSectionId", s."defaultSiteSpaceId", sec.path AS "sectionPath", sec."defaultSiteSpaceId" AS "sectionDefault"
      FROM "SiteSpace" ss
      JOIN "Site" s ON s.id = ss."siteId" AND s.published AND s.visibility <> 'share_link'
      LEFT JOIN "SiteSection" sec ON sec.id = ss."sectionId"
     WHERE ss."spaceId" = ANY(${ids}::text[]) AND NOT ss.draft AND NOT coalesce(sec.draft, false)
     ORDER BY ss."spaceId", s."createdAt", s.id, sec.position NULLS FIRST, ss.position, ss.id`);
  const bySpace = new Map(rows.map((row) => [row.spaceId, row]));
  return ids.map((id) => {
    const found = bySpace.get(id);
    if (!found) return { published: null, public: null };
    const site = { ...found, id: found.siteId };
    const section = found.sectionId ? { id: found.sectionId, path: found.sectionPath!, defaultSiteSpaceId: found.sectionDefault } : null;
    const url = publishedUrl(siteBaseUrl(ctx, site), siteSpaceUrlPath(site, section, { id: found.siteSpaceId, path: found.path }));
    return { published: url, public: found.visibility === 'public' ? url : null };
  });
});
