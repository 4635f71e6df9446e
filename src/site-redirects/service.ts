// Creating, changing and deleting a site's redirects (site `edit`), and finding the redirect that answers a path.
// Sources are unique in a site (409). A lookup takes the redirect whose source is the path itself, else the wildcard
// redirect (source ending in `*` or `/*`) with the longest prefix of the path; draft redirects never answer.
import { Prisma, type Site, type SiteRedirect as SiteRedirectRow } from '../generated/prisma/client.js';
import { authorize } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { conflict, isUniqueViolation, notFound } from '../kernel/errors.js';
import { lockIfMatch } from '../kernel/etags.js';
import { changedFields, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { activeShareLink } from '../share-links/keys.js';
import { sites } from '../sites/access.js';
import { checkedDestination, type Destination, destinationUrl, type InputDestination } from './destinations.js';
import { siteRedirectEvent } from './events.js';

export interface NewSiteRedirect {
  source: string;
  destination: InputDestination;
  captureWildcard?: boolean | null;
  draft?: boolean | null;
  permanent?: boolean | null;
}

export interface SiteRedirectChange {
  source?: string | null;
  destination?: Destination | null;
  captureWildcard?: boolean | null;
  draft?: boolean | null;
  permanent?: boolean | null;
}

const duplicate = (source: string) => conflict(`A redirect from "${source}" already exists in this site.`);

export async function createSiteRedirect(ctx: Context, organizationId: string, siteId: string, input: NewSiteRedirect) {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'edit');
  const destination = await checkedDestination(ctx, site, input.destination, 'destination');
  const now = ctx.clock.now();
  try {
    return await ctx.prisma.$transaction(async (tx) => {
      const redirect = await tx.siteRedirect.create({
        data: {
          id: newId(),
          siteId,
          source: input.source,
          destination,
          // The published spec's defaults: a live, temporary redirect that captures nothing.
          captureWildcard: input.captureWildcard ?? false,
          draft: input.draft ?? false,
          permanent: input.permanent ?? false,
          createdAt: now,
          updatedAt: now,
        },
      });
      const { captureWildcard, draft, permanent } = redirect;
      await recordEvents(tx, ctx, [
        siteRedirectEvent('site_redirect_created', site, redirect, { destination, captureWildcard, draft, permanent }),
      ]);
      return redirect;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input.source);
    throw error;
  }
}

/** Changes the fields given, and only those; returns the redirect as it now stands. */
export async function updateSiteRedirect(
  ctx: Context,
  organizationId: string,
  siteId: string,
  siteRedirectId: string,
  input: SiteRedirectChange,
): Promise<SiteRedirectRow> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'edit');
  const destination = input.destination ? await checkedDestination(ctx, site, input.destination, 'destination') : undefined;
  const data = {
    ...(input.source != null && { source: input.source }),
    ...(destination && { destination }),
    ...(input.captureWildcard != null && { captureWildcard: input.captureWildcard }),
    ...(input.draft != null && { draft: input.draft }),
    ...(input.permanent != null && { permanent: input.permanent }),
  };
  if (!Object.keys(data).length) {
    const [unchanged] = await ctx.sql<SiteRedirectRow>(
      Prisma.sql`SELECT * FROM "SiteRedirect" WHERE id = ${siteRedirectId} AND "siteId" = ${siteId}`,
    );
    if (!unchanged) throw notFound('Site redirect');
    return unchanged;
  }
  try {
    return await ctx.prisma.$transaction(async (tx) => {
      await lockIfMatch(tx, ctx, 'SiteRedirect', siteRedirectId, 'Site redirect');
      const before = await tx.siteRedirect.findFirst({ where: { id: siteRedirectId, siteId } });
      if (!before) throw notFound('Site redirect');
      const updated = await tx.siteRedirect.update({ where: { id: siteRedirectId }, data: { ...data, updatedAt: ctx.clock.now() } });
      const changed = changedFields(before, data);
      if (Object.keys(changed).length)
        await recordEvents(tx, ctx, [siteRedirectEvent('site_redirect_updated', site, updated, { changed })]);
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input.source ?? '');
    throw error;
  }
}

export async function deleteSiteRedirect(ctx: Context, organizationId: string, siteId: string, siteRedirectId: string): Promise<void> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'edit');
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'SiteRedirect', siteRedirectId, 'Site redirect');
    const [redirect] = await tx.$queryRaw<Pick<SiteRedirectRow, 'id' | 'source'>[]>`
      DELETE FROM "SiteRedirect" WHERE id = ${siteRedirectId} AND "siteId" = ${siteId} RETURNING id, source`;
    if (!redirect) throw notFound('Site redirect');
    await recordEvents(tx, ctx, [siteRedirectEvent('site_redirect_deleted', site, redirect)]);
  });
}

export interface RedirectLookup {
  redirect: SiteRedirectRow;
  target: string;
}

/**
 * The live redirect that answers `source` on the site, and the URL it leads to: an exact source first, else the
 * wildcard source with the longest matching prefix, whose matched rest is appended to the URL when it captures it.
 * For a share-link site, a valid active `shareKey` is carried by the URL (a wrong or inactive one is left out).
 */
export async function lookUpRedirect(
  ctx: Context,
  site: Site,
  source: string,
  shareKey: string | null | undefined,
): Promise<RedirectLookup> {
  const [redirect] = await ctx.sql<SiteRedirectRow>(Prisma.sql`
    SELECT * FROM "SiteRedirect" r
     WHERE r."siteId" = ${site.id} AND NOT r.draft
       AND (r.source = ${source} OR (right(r.source, 1) = '*' AND starts_with(${source}, left(r.source, -1))))
     ORDER BY r.source = ${source} DESC, length(r.source) DESC
     LIMIT 1`);
  if (!redirect) throw notFound('Site redirect');
  const destination = redirect.destination as Destination;
  const key =
    shareKey && destination.kind !== 'external' && site.visibility === 'share_link' && (await activeShareLink(ctx, site.id, shareKey))
      ? shareKey
      : null;
  const target = await destinationUrl(ctx, site, destination, key);
  if (target === null) throw notFound('Site redirect destination');
  const wildcard = redirect.source !== source && redirect.captureWildcard;
  return { redirect, target: wildcard ? withSuffix(target, redirect.source, source) : target };
}

/** The target with what the wildcard matched appended to its path: below it for `/*`, as is for `*`. */
function withSuffix(target: string, pattern: string, source: string): string {
  const prefix = pattern.slice(0, -1);
  const rest = source.slice(prefix.length);
  if (!rest) return target;
  const url = new URL(target);
  const suffix = prefix.endsWith('/') ? `/${rest}` : rest;
  url.pathname = suffix.startsWith('/') ? url.pathname.replace(/\/+$/, '') + suffix : url.pathname + suffix;
  return url.toString();
}
