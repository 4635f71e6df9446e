// Where a site redirect leads: the destination variants of GitBook's spec (a section, a site space, a page of a site
// space, an external URL), their validation against the site, and the URL each one is published at: where the site
// structure places the section or site space (site-structure/paths.ts), then the page's path in its content.
import { z } from 'zod';
import { Prisma, type Revision, type Site } from '../generated/prisma/client.js';
import type { Context } from '../kernel/context.js';
import { badRequest } from '../kernel/errors.js';
import { batchedRowById } from '../kernel/rows.js';
import { rules } from '../kernel/validation.js';
import { treeOf } from '../revisions/read.js';
import { sectionUrlPath, siteSpaceUrlPath } from '../site-structure/paths.js';
import { publishedUrl, siteBaseUrl } from '../sites/urls.js';

export type Destination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  | { kind: 'external'; url: string };

/** What a create takes besides the stored variants: a page named by its path in a space of the site. */
export type InputDestination = Destination | { kind: 'path'; spaceId: string; path: string };

const httpUrl = rules.httpUrl(2048);
const kinds = (names: string[]) => ({
  error: (issue: { code: string }) =>
    issue.code === 'invalid_union' ? `must be one of ${names.map((name) => JSON.stringify(name)).join(', ')}` : undefined,
});

const storedVariants = [
  z.object({ kind: z.literal('site-section'), siteSectionId: rules.id }),
  z.object({ kind: z.literal('site-space'), siteSpaceId: rules.id }),
  z.object({ kind: z.literal('site-page'), siteSpaceId: rules.id, pageId: rules.id }),
  z.object({ kind: z.literal('external'), url: httpUrl }),
] as const;
const pathVariant = z.object({ kind: z.literal('path'), spaceId: rules.id, path: z.string().min(1).max(512) });

/** SiteRedirectDestination: what an update takes. */
export const destinationRule = z.discriminatedUnion(
  'kind',
  [...storedVariants],
  kinds(['site-section', 'site-space', 'site-page', 'external']),
);
/** SiteRedirectInputDestination: what a create takes. */
export const inputDestinationRule = z.discriminatedUnion(
  'kind',
  [...storedVariants, pathVariant],
  kinds(['site-section', 'site-space', 'site-page', 'external', 'path']),
);

type SiteLinks = Pick<Site, 'id' | 'defaultSiteSectionId' | 'defaultSiteSpaceId'>;

/** A site space of the site, where it sits, and the revision its space shows. */
interface Placement {
  id: string;
  path: string;
  sectionId: string | null;
  sectionPath: string | null;
  sectionDefaultSiteSpaceId: string | null;
  revisionId: string | null;
}

/** The site's site space `siteSpaceId`, or (by `spaceId`) the one showing that space: its default first, then by position. */
async function placement(ctx: Context, site: SiteLinks, by: { siteSpaceId: string } | { spaceId: string }): Promise<Placement | null> {
  const which = 'siteSpaceId' in by ? Prisma.sql`ss.id = ${by.siteSpaceId}` : Prisma.sql`ss."spaceId" = ${by.spaceId}`;
  const [found] = await ctx.sql<Placement>(Prisma.sql`
    SELECT ss.id, ss.path, ss."sectionId", sec.path AS "sectionPath", sec."defaultSiteSpaceId" AS "sectionDefaultSiteSpaceId",
           sp."revisionId"
      FROM "SiteSpace" ss JOIN "Space" sp ON sp.id = ss."spaceId" LEFT JOIN "SiteSection" sec ON sec.id = ss."sectionId"
     WHERE ss."siteId" = ${site.id} AND ${which}
     ORDER BY ss.id = ${site.defaultSiteSpaceId ?? ''} DESC, ss.position, ss.id
     LIMIT 1`);
  return found ?? null;
}

/** The path of a site space below the site's root. */
const siteSpacePath = (site: SiteLinks, at: Placement) =>
  siteSpaceUrlPath(
    site,
    at.sectionId === null ? null : { id: at.sectionId, path: at.sectionPath ?? '', defaultSiteSpaceId: at.sectionDefaultSiteSpaceId },
    at,
  );

/** The page tree of the content a site space shows (its space's current revision). */
async function pagesOf(ctx: Context, at: Placement) {
  if (!at.revisionId) return null;
  return treeOf(ctx, await batchedRowById<Revision>(ctx, 'Revision', at.revisionId));
}

async function sectionOf(ctx: Context, site: SiteLinks, siteSectionId: string) {
  const [section] = await ctx.sql<{ id: string; path: string }>(
    Prisma.sql`SELECT id, path FROM "SiteSection" WHERE id = ${siteSectionId} AND "siteId" = ${site.id}`,
  );
  return section ?? null;
}

/**
 * The destination to store, checked against the site: a section or site space must be the site's, a page must be in
 * the current content of the site space named, and a `path` is resolved to the page at that path in the space (which
 * must be in the site). Anything else is a 400 naming the field under `field`.
 */
export async function checkedDestination(ctx: Context, site: SiteLinks, input: InputDestination, field: string): Promise<Destination> {
  const invalid = (name: string, problem: string) => badRequest(`Invalid "${field}.${name}": ${problem}.`);
  switch (input.kind) {
    case 'external':
      return { kind: 'external', url: input.url };
    case 'site-section':
      if (!(await sectionOf(ctx, site, input.siteSectionId))) throw invalid('siteSectionId', 'no such section in this site');
      return { kind: 'site-section', siteSectionId: input.siteSectionId };
    case 'site-space':
      if (!(await placement(ctx, site, { siteSpaceId: input.siteSpaceId })))
        throw invalid('siteSpaceId', 'no such site space in this site');
      return { kind: 'site-space', siteSpaceId: input.siteSpaceId };
    case 'site-page': {
      const at = await placement(ctx, site, { siteSpaceId: input.siteSpaceId });
      if (!at) throw invalid('siteSpaceId', 'no such site space in this site');
      const page = (await pagesOf(ctx, at))?.byId.get(input.pageId);
      if (!page?.path) throw invalid('pageId', 'no such page, with an address, in the content of that site space');
      return { kind: 'site-page', siteSpaceId: at.id, pageId: input.pageId };
    }
    case 'path': {
      const at = await placement(ctx, site, { spaceId: input.spaceId });
      if (!at) throw invalid('spaceId', 'no such space in this site');
      const page = (await pagesOf(ctx, at))?.byPath.get(input.path.replace(/^\/+|\/+$/g, ''));
      if (!page) throw invalid('path', 'no page at this path in the space');
      return { kind: 'site-page', siteSpaceId: at.id, pageId: page.page.pageId };
    }
  }
}

/**
 * The URL a destination is published at, carrying `shareKey` when given (a key the request proved valid for a
 * share-link site); null when what it names is gone (a section, site space or page deleted since).
 */
export async function destinationUrl(ctx: Context, site: Site, destination: Destination, shareKey: string | null): Promise<string | null> {
  const at = (path: string) => publishedUrl(siteBaseUrl(ctx, site), path, shareKey ?? undefined);
  switch (destination.kind) {
    case 'external':
      return destination.url;
    case 'site-section': {
      const section = await sectionOf(ctx, site, destination.siteSectionId);
      return section && at(sectionUrlPath(site, section));
    }
    case 'site-space': {
      const where = await placement(ctx, site, { siteSpaceId: destination.siteSpaceId });
      return where && at(siteSpacePath(site, where));
    }
    case 'site-page': {
      const where = await placement(ctx, site, { siteSpaceId: destination.siteSpaceId });
      const page = where && (await pagesOf(ctx, where))?.byId.get(destination.pageId);
      if (!where || !page?.path) return null;
      return at([siteSpacePath(site, where), page.path].filter(Boolean).join('/'));
    }
  }
}
