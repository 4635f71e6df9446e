// Where a site is published: at its custom hostname, else behind its proxy, else under SITES_URL as
// `<organization id>/<basename or site id>/`. A hostname or proxy counts only while its claim is active (proven, see
// claims.ts): the row's hostnameActive and proxyActive say so. Site spaces and sections add their paths below that. A
// share-link site's URLs hold a share key (`?share=<key>`), which only callers who hold one see.
import type { Site } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import type { Context } from '../kernel/context.js';

/** What a site's published root is made of. */
export type SiteAddress = Pick<Site, 'id' | 'organizationId' | 'hostname' | 'hostnameActive' | 'proxy' | 'proxyActive' | 'basename'>;

/** The site's published root, with a trailing slash. */
export function siteBaseUrl(ctx: Pick<Context, 'config'>, site: SiteAddress): string {
  if (site.hostname && site.hostnameActive) return `https://${site.hostname}/`;
  if (site.proxy && site.proxyActive) return `https://${site.proxy}/`;
  return `${ctx.config.sitesUrl}/${site.organizationId}/${site.basename ?? site.id}/`;
}

/** A published URL below the site's root (`path` without leading slash), carrying a share key when given. */
export function publishedUrl(base: string, path: string, shareKey?: string): string {
  const url = new URL(path, base);
  if (shareKey) url.searchParams.set('share', shareKey);
  return url.toString();
}

/**
 * The share key a request presented and proved valid (the published view, a redirect lookup), recorded on the site,
 * site-space and site-section rows it answers with; null for every other request.
 */
export const presentedShareKeyAnnotation = rowAnnotation<object, string | null>('presented share key', async (_ctx, rows) =>
  rows.map(() => null),
);

/**
 * A published URL as a caller may see it: only for a published site, and for a `share-link` site only with the share
 * key the request presented (`row` carries it, see presentedShareKeyAnnotation).
 */
export async function visiblePublishedUrl(
  ctx: Context,
  site: SiteAddress & Pick<Site, 'published' | 'visibility'>,
  path: string,
  row: object,
): Promise<string | null> {
  if (!site.published) return null;
  if (site.visibility !== 'share_link') return publishedUrl(siteBaseUrl(ctx, site), path);
  const key = await presentedShareKeyAnnotation.of(ctx, row);
  return key ? publishedUrl(siteBaseUrl(ctx, site), path, key) : null;
}
