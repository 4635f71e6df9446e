// A site's structure (its sections with their site spaces, or its site spaces) as members and visitors get it, and the
// share key a request proved, recorded on the rows it returns so that their published URLs carry it. The GraphQL
// types over these are types.ts's; published.ts resolves visitors' URLs with them.
import { Prisma, type SiteSection as SiteSectionRow, type SiteSpace as SiteSpaceRow } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import type { Context } from '../kernel/context.js';
import { visibleToViewerSql } from '../kernel/permissions.js';
import { activeShareLink } from '../share-links/keys.js';
import { presentedShareKeyAnnotation } from '../sites/urls.js';

export interface Structure {
  type: 'sections' | 'siteSpaces';
  structure: (SiteSectionRow | SiteSpaceRow)[];
}

/**
 * A section's site spaces by position, those whose space the viewer can see: one statement for every section of a
 * page. The published view records the live ones itself (set), with the share key it proved.
 */
export const sectionSiteSpacesAnnotation = rowAnnotation<SiteSectionRow, SiteSpaceRow[]>('section site spaces', async (ctx, sections) => {
  const rows = await ctx.sql<SiteSpaceRow>(Prisma.sql`
    SELECT ss.* FROM "SiteSpace" ss JOIN "Space" sp ON sp.id = ss."spaceId"
     WHERE ss."sectionId" = ANY(${sections.map((section) => section.id)}::text[]) AND ${visibleToViewerSql(ctx.viewer, 'sp')}
     ORDER BY ss.position, ss.id`);
  return sections.map((section) => rows.filter((row) => row.sectionId === section.id));
});

/** Records a proven share key on rows an answer returns, so that their published URLs carry it. */
export function presentKey(rows: readonly object[], key: string | null): void {
  if (key) for (const row of rows) presentedShareKeyAnnotation.set(row, key);
}

/**
 * A site's structure in two statements. `live` keeps what visitors get: no draft section or site space, none whose
 * space is deleted. `for: 'viewer'` keeps the site spaces whose space the viewer can see (a member reading the site);
 * `for: 'visitors'` keeps what the site publishes to anyone (a visitor's URL resolved). `key` is a share key the
 * request proved, recorded on every row.
 */
export async function structureOf(
  ctx: Context,
  siteId: string,
  { live, key, for: audience }: { live: boolean; key: string | null; for: 'viewer' | 'visitors' },
) {
  const liveOnly = live ? Prisma.sql`AND NOT ss.draft AND sp."deletedAt" IS NULL` : Prisma.empty;
  const seen = audience === 'viewer' ? Prisma.sql`AND ${visibleToViewerSql(ctx.viewer, 'sp')}` : Prisma.empty;
  const [sections, siteSpaces] = await Promise.all([
    ctx.sql<SiteSectionRow>(Prisma.sql`SELECT * FROM "SiteSection" WHERE "siteId" = ${siteId} ORDER BY position, id`),
    ctx.sql<SiteSpaceRow>(Prisma.sql`
      SELECT ss.* FROM "SiteSpace" ss JOIN "Space" sp ON sp.id = ss."spaceId"
       WHERE ss."siteId" = ${siteId} ${seen} ${liveOnly} ORDER BY ss.position, ss.id`),
  ]);
  presentKey([...sections, ...siteSpaces], key);
  if (!sections.length) return { type: 'siteSpaces', structure: siteSpaces.filter((row) => !row.sectionId) } satisfies Structure;
  const shown = live ? sections.filter((section) => !section.draft) : sections;
  for (const section of shown) {
    sectionSiteSpacesAnnotation.set(
      section,
      siteSpaces.filter((row) => row.sectionId === section.id),
    );
  }
  return { type: 'sections', structure: shown } satisfies Structure;
}

/** The share key if it is an active key of the site; null when absent, wrong or deactivated (never an error). */
export async function provenShareKey(ctx: Context, siteId: string, key: string | null | undefined): Promise<string | null> {
  if (!key) return null;
  return (await activeShareLink(ctx, siteId, key)) ? key : null;
}
