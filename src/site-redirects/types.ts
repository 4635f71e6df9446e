// The SiteRedirect type and its destination variants, a site's redirects (paged, searched, by draft state, in one of
// three orders) and the lookup of the redirect that answers a path, with the URL it leads to. Reading them takes
// site `view`, which `organization.site(id:)` has checked.
import { z } from 'zod';
import type { SiteRedirect as SiteRedirectRow, Site as SiteRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { childResource } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import { containsPattern, type ListSource, type OrderColumn } from '../kernel/lists.js';
import { policies } from '../kernel/permissions.js';
import { shareKeyArgument } from '../share-links/keys.js';
import { sites } from '../sites/access.js';
import { Site } from '../sites/types.js';
import type { Destination } from './destinations.js';
import { lookUpRedirect, type RedirectLookup } from './service.js';

/** SiteRedirectSourcePath of GitBook's spec 0.202: segments of URL characters and %-escapes, an optional trailing wildcard. */
export const SOURCE_PATTERN =
  /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;
export const sourceRule = z
  .string()
  .max(512)
  .regex(
    SOURCE_PATTERN,
    'must be a path such as "/docs/guide": "/" then segments of letters, digits, "-", "_", ".", "~", "+" or %-escapes, no empty segment nor trailing "/", optionally ending with "*" or "/*"',
  );

type Variant<K extends Destination['kind']> = Extract<Destination, { kind: K }>;

const SectionDestination = builder.objectRef<Variant<'site-section'>>('SiteRedirectDestinationSiteSection').implement({
  description: 'A section of the site, at its root.',
  fields: (t) => ({ kind: t.exposeString('kind'), siteSectionId: t.exposeString('siteSectionId') }),
});
const SiteSpaceDestination = builder.objectRef<Variant<'site-space'>>('SiteRedirectDestinationSiteSpace').implement({
  description: 'A site space of the site, at its root.',
  fields: (t) => ({ kind: t.exposeString('kind'), siteSpaceId: t.exposeString('siteSpaceId') }),
});
const PageDestination = builder.objectRef<Variant<'site-page'>>('SiteRedirectDestinationPage').implement({
  description: 'A page of the current content of a site space.',
  fields: (t) => ({ kind: t.exposeString('kind'), siteSpaceId: t.exposeString('siteSpaceId'), pageId: t.exposeString('pageId') }),
});
const ExternalDestination = builder.objectRef<Variant<'external'>>('SiteRedirectDestinationExternal').implement({
  description: 'A URL outside the site.',
  fields: (t) => ({ kind: t.exposeString('kind'), url: t.exposeString('url') }),
});

const SiteRedirectDestination = builder.unionType('SiteRedirectDestination', {
  description: 'Where a redirect leads, by `kind`.',
  types: [SectionDestination, SiteSpaceDestination, PageDestination, ExternalDestination],
  resolveType: (destination) =>
    ({
      'site-section': SectionDestination,
      'site-space': SiteSpaceDestination,
      'site-page': PageDestination,
      external: ExternalDestination,
    })[destination.kind],
});

/** A site's redirects are seen by whoever sees the site (policies.siteRedirect). */
export const siteRedirects = childResource<SiteRedirectRow, typeof policies.siteRedirect, SiteRow>(sites, {
  kind: 'Site redirect',
  policy: policies.siteRedirect,
  table: 'SiteRedirect',
  parentKey: 'siteId',
});

export const SiteRedirect = builder.objectRef<SiteRedirectRow>('SiteRedirect').implement({
  access: siteRedirects,
  description: 'A redirect of a site: visitors of `source` are sent to `destination`.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'site-redirect' }),
    id: t.exposeID('id'),
    etag: t.string(etagField(tagOf)),
    source: t.exposeString('source', { description: 'The path redirected; a trailing `*` or `/*` makes it a prefix (wildcard).' }),
    destination: t.field({ type: SiteRedirectDestination, resolve: (redirect) => redirect.destination as Destination }),
    draft: t.exposeBoolean('draft', { description: 'A draft redirect is not live: lookups ignore it.' }),
    captureWildcard: t.exposeBoolean('captureWildcard', {
      description: 'A wildcard source appends the rest of the path it matched to the destination URL.',
    }),
    permanent: t.exposeBoolean('permanent', { description: 'Served as a permanent redirect (308) rather than a temporary one (307).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Absent when never changed since creation.',
      resolve: (redirect) => (redirect.updatedAt > redirect.createdAt ? redirect.updatedAt : null),
    }),
  }),
});
export const SiteRedirectList = listOf('SiteRedirect', SiteRedirect);

const SiteRedirectOrderEnum = builder.enumType('SiteRedirectOrderBy', {
  description: 'createdAt (default, oldest first), updatedAt (last changed first) or source (byte-wise).',
  values: ['createdAt', 'updatedAt', 'source'] as const,
});

interface RedirectListArgs {
  search?: string | null;
  draft?: boolean | null;
  orderBy?: 'createdAt' | 'updatedAt' | 'source' | null;
}

const orders: Record<'createdAt' | 'updatedAt' | 'source', readonly OrderColumn[]> = {
  createdAt: [
    { column: 'createdAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  updatedAt: [
    { column: 'updatedAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  // Sources are unique in a site; ordered byte-wise, whatever the database's collation.
  source: [{ column: 'source', type: 'text', expression: Prisma.sql`(t.source COLLATE "C")` }],
};

const redirectsOfSite: ListSource<SiteRedirectRow, RedirectListArgs> = {
  table: 'SiteRedirect',
  parentColumn: 'siteId',
  orderBy: (args) => orders[args.orderBy ?? 'createdAt'],
  descending: (args) => args.orderBy === 'updatedAt',
  // `draft` as the published spec defaults it: live redirects unless drafts are asked for.
  where: (_ctx, args) =>
    Prisma.sql`t.draft = ${args.draft ?? false} ${args.search ? Prisma.sql`AND t.source ILIKE ${containsPattern(args.search)}` : Prisma.empty}`,
  scope: (siteId, args) => `site-redirects:${siteId}:${args.draft ?? false}:${args.orderBy ?? 'createdAt'}:${args.search ?? ''}`,
};

const SiteRedirectLookup = builder.objectRef<RedirectLookup>('SiteRedirectLookup').implement({
  description: 'The redirect that answers a path, and where it leads.',
  fields: (t) => ({
    redirect: t.field({ type: SiteRedirect, resolve: (lookup) => lookup.redirect }),
    target: t.exposeString('target', { description: 'The URL of the destination (with what a wildcard captured).' }),
  }),
});

builder.objectFields(Site, (t) => ({
  redirects: t.field({
    type: SiteRedirectList,
    description: 'The site’s redirects: live ones unless `draft` is true.',
    args: {
      ...listArgs,
      search: t.arg.string({
        description: 'Only redirects whose source contains this text, case-insensitively (at most 512 characters).',
        validate: z.string().max(512),
      }),
      draft: t.arg.boolean({ description: 'true: the draft redirects; false (default): the live ones.' }),
      orderBy: t.arg({ type: SiteRedirectOrderEnum }),
    },
    resolve: (site, args, ctx, info) => listPage(redirectsOfSite, ctx, info, site.id, args),
  }),
  redirect: t.field({
    type: SiteRedirectLookup,
    description: 'The live redirect that answers a path (exact source first, else the longest matching wildcard), and its target.',
    args: {
      source: t.arg.string({ required: true, description: 'The path visited.', validate: sourceRule }),
      shareKey: t.arg.string(shareKeyArgument),
    },
    resolve: (site, args, ctx) => lookUpRedirect(ctx, site, args.source, args.shareKey),
  }),
}));
