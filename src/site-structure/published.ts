// What visitors of a site get: the published view of a site (its live structure and customizations) for members, and
// the resolution of a visitor's URL to a site, section and site space for renderers (publishedContentByUrl). The
// resolution enforces the site's audience: a share-link site needs an active key in the URL (`?share=`), else it is
// not found; a visitor-auth site needs a visitor token signed with its current key, else 401 (or the fallback URL).
import {
  Prisma,
  type PublishingAuth,
  type Site as SiteRow,
  type SiteSection as SiteSectionRow,
  type SiteSpace as SiteSpaceRow,
} from '../generated/prisma/client.js';
import { actsIn, type Context } from '../kernel/context.js';
import { ApiError } from '../kernel/errors.js';
import { verifyVisitorToken } from '../publishing-auth/visitors.js';
import { activeShareLink } from '../share-links/keys.js';
import { publishedUrl, siteBaseUrl } from '../sites/urls.js';
import { siteSpaceUrlPath } from './paths.js';
import { presentKey, provenShareKey, type Structure, sectionSiteSpacesAnnotation, structureOf } from './structure.js';

/**
 * The site's customization as the published spec (0.202, SiteCustomizationSettings) requires it whole: these defaults
 * under what the site stores (Site.customizations), merged key by key.
 */
const DEFAULT_CUSTOMIZATIONS = {
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#00C950', dark: '#00C950' },
    warningColor: { light: '#FE9A00', dark: '#FE9A00' },
    dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    codeTheme: { default: { light: 'default-light', dark: 'default-dark' }, openapi: { light: 'default-light', dark: 'default-dark' } },
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'system', toggeable: true },
  feedback: { enabled: false },
  ai: { mode: 'search' },
  advancedCustomization: { enabled: false },
  trademark: { enabled: true },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { items: ['markdown'] },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `stored` over `defaults`: objects merged key by key, anything else (arrays included) replaced. */
function mergedOver(defaults: unknown, stored: unknown): unknown {
  if (!isPlainObject(defaults) || !isPlainObject(stored)) return stored === undefined ? defaults : stored;
  const out: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(stored)) out[key] = mergedOver(defaults[key], value);
  return out;
}

export interface PublishedView {
  site: SiteRow;
  structure: Structure;
  customizations: { site: unknown; siteSpaces: Record<string, unknown> };
}

/**
 * The published view of a site for a member: live sections and site spaces, customizations with their defaults. For a
 * share-link site, `shareKey` when it is an active key of it, which its published URLs then carry.
 */
export async function publishedView(ctx: Context, site: SiteRow, shareKey: string | null | undefined): Promise<PublishedView> {
  const key = site.visibility === 'share_link' ? await provenShareKey(ctx, site.id, shareKey) : null;
  presentKey([site], key);
  return {
    site,
    structure: await structureOf(ctx, site.id, { live: true, key, for: 'viewer' }),
    customizations: { site: mergedOver(DEFAULT_CUSTOMIZATIONS, site.customizations), siteSpaces: {} },
  };
}

// --- resolving a visitor's URL -------------------------------------------------------------------------------------

export interface PublishedSiteContent {
  site: string;
  siteSection: string | null;
  siteSpace: string;
  space: string;
  pathname: string;
  basePath: string;
  siteBasePath: string;
  organization: string;
  complete: boolean;
  canonicalUrl: string;
  shareKey: string | null;
}

export interface PublishedContentRedirect {
  target: 'external';
  site: string;
  redirect: string;
}

const noContent = () => new ApiError(404, 'No content found for the URL.');

/** Path segments of a URL, decoded, empty ones dropped. */
const segmentsOf = (pathname: string) =>
  pathname
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });

/**
 * The published site a URL is in, and how many of its path segments the site's root takes: by custom hostname, else by
 * the longest proxy (`hostname/path`) it is under, else under SITES_URL as `<organization>/<basename or id>/`. A
 * hostname or proxy whose claim is not active (not proven yet, or lapsed) leads nowhere.
 */
async function publishedSiteAt(ctx: Context, url: URL): Promise<{ site: SiteRow; depth: number } | null> {
  const host = url.hostname.toLowerCase();
  const segments = segmentsOf(url.pathname);
  const proxies = segments.map((_, i) => `${host}/${segments.slice(0, i + 1).join('/')}`);
  const root = new URL(`${ctx.config.sitesUrl}/`);
  const rootDepth = segmentsOf(root.pathname).length;
  const underRoot = url.origin === root.origin && url.pathname.startsWith(root.pathname) && segments.length >= rootDepth + 2;
  const [organizationId, name] = underRoot ? segments.slice(rootDepth, rootDepth + 2) : [null, null];
  const found = await ctx.sql<SiteRow>(Prisma.sql`
    SELECT * FROM "Site" WHERE published AND (
      (hostname = ${host} AND "hostnameActive") OR (proxy = ANY(${proxies}::text[]) AND "proxyActive")
      OR ("organizationId" = ${organizationId} AND coalesce(basename, id) = ${name}))
    ORDER BY "createdAt", id`);
  const byHostname = found.find((site) => site.hostnameActive && site.hostname === host);
  if (byHostname) return { site: byHostname, depth: 0 };
  const byProxy = found
    .filter((site) => site.proxyActive && site.proxy && proxies.includes(site.proxy))
    .sort((a, b) => b.proxy!.length - a.proxy!.length)[0];
  if (byProxy) return { site: byProxy, depth: proxies.indexOf(byProxy.proxy!) + 1 };
  const underSites = found.find((site) => site.organizationId === organizationId && (site.basename ?? site.id) === name);
  return underSites ? { site: underSites, depth: rootDepth + 2 } : null;
}

/** Whether the visitor may see a visitor-auth site; else 401, or the fallback URL when asked to redirect. */
async function visitorCheck(
  ctx: Context,
  site: SiteRow,
  token: string | null | undefined,
  redirectOnError: boolean,
): Promise<PublishedContentRedirect | null> {
  const check = token ? await verifyVisitorToken(ctx, site.id, token) : { ok: false as const, reason: 'A visitor token is required.' };
  if (check.ok) return null;
  if (redirectOnError) {
    const [auth] = await ctx.sql<Pick<PublishingAuth, 'fallbackURL'>>(
      Prisma.sql`SELECT "fallbackURL" FROM "PublishingAuth" WHERE "siteId" = ${site.id}`,
    );
    if (auth?.fallbackURL) return { target: 'external', site: site.id, redirect: auth.fallbackURL };
  }
  throw new ApiError(401, check.reason);
}

/** The live section and site space a URL's remaining segments name (else the defaults), and how many they took. */
async function placeIn(ctx: Context, site: SiteRow, structure: Structure, rest: string[]) {
  let section: SiteSectionRow | null = null;
  let used = 0;
  let sectionSettled = true;
  let candidates = structure.structure as SiteSpaceRow[];
  if (structure.type === 'sections') {
    const sections = structure.structure as SiteSectionRow[];
    const named = sections.find((candidate) => candidate.path === rest[0]);
    section = named ?? sections.find((candidate) => candidate.id === site.defaultSiteSectionId) ?? sections[0] ?? null;
    if (named) used++;
    sectionSettled = !!named || sections.length === 1;
    // Recorded by structureOf: no statement.
    candidates = section ? await sectionSiteSpacesAnnotation.of(ctx, section) : [];
  }
  const defaultId = section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId;
  const named = candidates.find((candidate) => candidate.path === rest[used]);
  const siteSpace = named ?? candidates.find((candidate) => candidate.id === defaultId) ?? candidates[0] ?? null;
  if (named) used++;
  return { section, siteSpace, used, complete: !!named || (sectionSettled && candidates.length === 1) };
}

export async function resolvePublishedUrl(
  ctx: Context,
  args: { url: string; visitorAuthToken?: string | null; redirectOnError?: boolean | null },
): Promise<PublishedSiteContent | PublishedContentRedirect> {
  const url = new URL(args.url);
  const found = await publishedSiteAt(ctx, url);
  // A token scoped to organizations knows of no other's sites, however public.
  if (!found || !actsIn(ctx.viewer, found.site.organizationId)) throw noContent();
  const { site, depth } = found;
  let key: string | null = null;
  if (site.visibility === 'share_link') {
    key = url.searchParams.get('share');
    // Never tell a share-link site apart from no site without its key.
    if (!key || !(await activeShareLink(ctx, site.id, key))) throw noContent();
  }
  if (site.visibility === 'visitor_auth') {
    const redirect = await visitorCheck(ctx, site, args.visitorAuthToken, args.redirectOnError ?? false);
    if (redirect) return redirect;
  }
  const segments = segmentsOf(url.pathname);
  const rest = segments.slice(depth);
  const place = await placeIn(ctx, site, await structureOf(ctx, site.id, { live: true, key: null, for: 'visitors' }), rest);
  // A token scoped to spaces reads no other space's content, published or not.
  if (!place.siteSpace || (ctx.viewer.spaces && !ctx.viewer.spaces.includes(place.siteSpace.spaceId))) throw noContent();
  const siteBasePath = `/${segments.slice(0, depth).map(encodeURIComponent).join('/')}${depth ? '/' : ''}`;
  const consumed = rest.slice(0, place.used).map(encodeURIComponent);
  const pathname = rest.slice(place.used).join('/');
  const canonicalPath = [siteSpaceUrlPath(site, place.section, place.siteSpace), pathname].filter(Boolean).join('/');
  return {
    site: site.id,
    siteSection: place.section?.id ?? null,
    siteSpace: place.siteSpace.id,
    space: place.siteSpace.spaceId,
    pathname,
    basePath: `${siteBasePath}${consumed.map((segment) => `${segment}/`).join('')}`,
    siteBasePath,
    organization: site.organizationId,
    complete: place.complete,
    canonicalUrl: publishedUrl(siteBaseUrl(ctx, site), canonicalPath, key ?? undefined),
    shareKey: key,
  };
}
