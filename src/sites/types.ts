// The Site type (its enumerations, URLs, features, adaptive schema), the query fields that reach a site of an
// organization, and the organization's list of sites.
import { z } from 'zod';
import { Prisma, type Site as SiteRow } from '../generated/prisma/client.js';
import { authorize, authorizeRow, organizations } from '../kernel/authorize.js';
import { builder, permissionsFor, permissionsType, restEnum } from '../kernel/builder.js';
import { ApiError } from '../kernel/errors.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import { containsPattern, type ListSource } from '../kernel/lists.js';
import { atLeast, policies, visibleToViewerSql } from '../kernel/permissions.js';
import { apiUrl, appUrl } from '../kernel/urls.js';
import { rules } from '../kernel/validation.js';
import { Organization } from '../organizations/types.js';
import { siteLevelAnnotation, siteSpaceCountAnnotation, sites } from './access.js';
import type { AdaptiveSchemaView } from './adaptive-schema.js';
import { SITE_FEATURE_KEYS, SITE_FEATURES, type SiteFeature as SiteFeatureRow } from './features.js';
import { siteBaseUrl, visiblePublishedUrl } from './urls.js';

export const SiteTypeEnum = restEnum(
  'SiteType',
  {
    basic: 'basic',
    premium: 'premium',
    ultimate: 'ultimate',
    sponsored: 'sponsored',
    legacy_basic: 'legacy-basic',
    legacy_premium: 'legacy-premium',
  },
  'The plan of a site: which features it includes (see `features`).',
);

export const SiteVisibilityEnum = restEnum(
  'SiteVisibility',
  { public: 'public', unlisted: 'unlisted', share_link: 'share-link', visitor_auth: 'visitor-auth' },
  'The audience of a published site: anyone (public, indexed by search engines; unlisted, not indexed), anyone with ' +
    'the secret key of a share link (share-link), or visitors authenticated with a JWT signed by the site’s key (visitor-auth).',
);

const SiteDefaultLevelEnum = restEnum(
  'SiteDefaultLevel',
  { inherit: 'inherit' },
  'Access to a site follows each member’s role in its organization (inherit).',
);

const SiteFeatureKeyEnum = restEnum(
  'SiteFeatureKey',
  Object.fromEntries(SITE_FEATURE_KEYS.map((key) => [key.replaceAll('-', '_'), key])) as Record<string, string>,
);

const SiteFeature = builder.objectRef<SiteFeatureRow>('SiteFeature').implement({
  description: 'A feature of the site’s plan.',
  fields: (t) => ({
    id: t.field({ type: SiteFeatureKeyEnum, resolve: (feature) => feature.id.replaceAll('-', '_') }),
    plan: t.field({ type: SiteTypeEnum, description: 'The plan the feature first belongs to.', resolve: (feature) => feature.plan }),
    frozen: t.exposeBoolean('frozen', { description: 'Never: features are not frozen on this instance.' }),
  }),
});

const SiteProxy = builder.objectRef<{ origin: string; target: string }>('SiteProxy').implement({
  description: 'The site served under a path of another domain, through a reverse proxy run by the domain’s owner.',
  fields: (t) => ({
    origin: t.exposeString('origin', {
      description: 'Where visitors reach the site, hostname and path (company.com/docs), while the claim of the host is active.',
    }),
    target: t.exposeString('target', {
      description: 'Where the proxy forwards requests: the site’s own root under this instance’s sites URL (SITES_URL).',
    }),
  }),
});

const SiteAdaptiveContent = builder.objectRef<{ enabled: boolean }>('SiteAdaptiveContent').implement({
  fields: (t) => ({ enabled: t.exposeBoolean('enabled', { description: 'Whether content adapts to the claims of visitors.' }) }),
});

const SiteAds = builder.objectRef<{ status: 'pending'; submittable: boolean }>('SiteAds').implement({
  description: 'Ads on a sponsored site.',
  fields: (t) => ({
    status: t.exposeString('status', { description: 'pending: no ads are shown yet.' }),
    submittable: t.exposeBoolean('submittable', { description: 'Whether the site can be submitted for review: not on this instance.' }),
  }),
});

interface SiteLinks {
  location: string;
  app: string;
  preview: string;
  published: string | null;
}

const SiteUrls = builder.objectRef<SiteLinks>('SiteUrls').implement({
  fields: (t) => ({
    location: t.exposeString('location', { description: 'URL of the site in the API.' }),
    app: t.exposeString('app', { description: 'URL of the site in the application.' }),
    preview: t.exposeString('preview', {
      description: 'URL of the site’s preview in the application: its content as it would be published, for members, published or not.',
    }),
    published: t.exposeString('published', {
      nullable: true,
      description: 'URL of the published site; only when it is published, and for a share-link site only with a valid key.',
    }),
  }),
});

const SitePermissions = permissionsType('SitePermissions', policies.site);

export const Site = builder.prismaObject('Site', {
  access: sites,
  description: 'A published docs site of an organization: its spaces (site spaces), sections, audience and settings.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'site' }),
    id: t.exposeID('id'),
    etag: t.string(etagField(tagOf)),
    type: t.expose('type', { type: SiteTypeEnum }),
    appliedType: t.expose('type', {
      type: SiteTypeEnum,
      description: 'The type in effect: always `type`, since no site is frozen to a lower plan here.',
    }),
    title: t.exposeString('title'),
    organizationId: t.exposeID('organizationId'),
    hostname: t.exposeString('hostname', {
      nullable: true,
      description:
        'Custom hostname the site claims, e.g. docs.example.com; it is served there while the claim is active (`customHostname`).',
    }),
    basename: t.exposeString('basename', {
      nullable: true,
      description: 'Path segment of the site under the organization on the sites URL (its id when unset).',
    }),
    proxy: t.field({
      type: SiteProxy,
      nullable: true,
      resolve: (site, _args, ctx) =>
        site.proxy ? { origin: site.proxy, target: siteBaseUrl(ctx, { ...site, hostname: null, proxy: null }) } : null,
    }),
    visibility: t.expose('visibility', { type: SiteVisibilityEnum }),
    defaultLevel: t.field({ type: SiteDefaultLevelEnum, resolve: () => 'inherit' as const }),
    permissions: t.field({
      type: SitePermissions,
      resolve: (site, _args, ctx) => permissionsFor(ctx, policies.site, siteLevelAnnotation.of(ctx, site)),
    }),
    published: t.exposeBoolean('published', { description: 'Whether the site is live for its audience.' }),
    siteSpaceCount: t.int({
      description: 'Site spaces of the site, in any section, whose space the viewer can see.',
      resolve: (site, _args, ctx) => siteSpaceCountAnnotation.of(ctx, site),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    adaptiveContent: t.field({ type: SiteAdaptiveContent, resolve: (site) => ({ enabled: site.adaptiveContentEnabled }) }),
    ads: t.field({
      type: SiteAds,
      nullable: true,
      description: 'Only sponsored sites carry ads.',
      resolve: (site) => (site.type === 'sponsored' ? { status: 'pending' as const, submittable: false } : null),
    }),
    features: t.field({ type: [SiteFeature], resolve: (site) => [...SITE_FEATURES[site.type]] }),
    urls: t.field({
      type: SiteUrls,
      resolve: async (site, _args, ctx) => ({
        location: apiUrl(ctx, `orgs/${site.organizationId}/sites/${site.id}`),
        app: appUrl(ctx, `o/${site.organizationId}/sites/${site.id}`),
        preview: appUrl(ctx, `o/${site.organizationId}/sites/${site.id}/preview`),
        published: await visiblePublishedUrl(ctx, site, '', site),
      }),
    }),
  }),
});
export const SiteList = listOf('Site', Site);

export const SiteAdaptiveSchema = builder.objectRef<AdaptiveSchemaView>('SiteAdaptiveSchema').implement({
  description: 'The JSON Schema of the claims a site’s visitors present, which adaptive content conditions read.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'site-adaptive-schema' }),
    jsonSchema: t.field({ type: 'JSON', resolve: (schema) => schema.jsonSchema }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the schema was last set.' }),
  }),
});

builder.objectField(Site, 'adaptiveSchema', (t) =>
  t.field({
    type: SiteAdaptiveSchema,
    description: 'The site’s adaptive schema; an error (404) when it has none.',
    resolve: async (site, _args, ctx) => {
      await authorizeRow(ctx, sites, site, 'viewAdaptiveSchema');
      if (site.adaptiveSchema === null || !site.adaptiveSchemaUpdatedAt) {
        throw new ApiError(404, 'No visitor attributes schema found for the site.');
      }
      return { jsonSchema: site.adaptiveSchema, updatedAt: site.adaptiveSchemaUpdatedAt };
    },
  }),
);

interface SiteListArgs {
  space?: string | null;
  title?: string | null;
  published?: boolean | null;
  type?: SiteRow['type'][] | null;
}

const organizationSites: ListSource<SiteRow, SiteListArgs> = {
  table: 'Site',
  parentColumn: 'organizationId',
  orderBy: [
    { column: 'createdAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  descending: () => true,
  where: (ctx, args) => {
    const conditions = [Prisma.sql`TRUE`];
    // Of a space the viewer cannot see, no site is said to publish it.
    if (args.space) {
      conditions.push(Prisma.sql`EXISTS (SELECT 1 FROM "SiteSpace" ss JOIN "Space" sp ON sp.id = ss."spaceId"
        WHERE ss."siteId" = t.id AND ss."spaceId" = ${args.space} AND ${visibleToViewerSql(ctx.viewer, 'sp')})`);
    }
    if (args.title) conditions.push(Prisma.sql`t.title ILIKE ${containsPattern(args.title)}`);
    if (args.published != null) conditions.push(Prisma.sql`t.published = ${args.published}`);
    if (args.type?.length) conditions.push(Prisma.sql`t.type = ANY(${args.type}::"SiteType"[])`);
    return Prisma.join(conditions, ' AND ');
  },
  scope: (organizationId, args) =>
    `orgs/${organizationId}/sites:${JSON.stringify([args.space ?? null, args.title ?? null, args.published ?? null, args.type ?? null])}`,
  fetch: (ctx, query, ids) => ctx.prisma.site.findMany({ ...query, where: { id: { in: ids } } }),
  annotations: [siteLevelAnnotation, siteSpaceCountAnnotation],
};

builder.objectFields(Organization, (t) => ({
  site: t.field({
    type: Site,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (org, args, ctx) => (await authorize(ctx, sites, { id: args.id, parent: org.id }, 'view')).row,
  }),
  sites: t.field({
    type: SiteList,
    description: 'Sites of the organization, newest first; empty for a guest, who sees no site.',
    args: {
      ...listArgs,
      space: t.arg.id({ description: 'Only sites that publish this space (in any of their site spaces).', validate: rules.id }),
      title: t.arg.string({ description: 'Only sites whose title contains this text, case-insensitively.', validate: z.string().max(128) }),
      published: t.arg.boolean({ description: 'Only published (true) or unpublished (false) sites.' }),
      type: t.arg({ type: [SiteTypeEnum], description: 'Only sites of these types.', validate: z.array(z.string()).max(6) }),
    },
    resolve: async (org, args, ctx, info) => {
      const { level } = await authorize(ctx, organizations, org.id, 'view');
      if (!atLeast(level, policies.site.view)) return { items: [], count: 0 };
      return listPage(organizationSites, ctx, info, org.id, args);
    },
  }),
}));
