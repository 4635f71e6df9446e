// The Integration type, the marketplace list (filters applied in SQL, paged by the kernel's lists) and an integration
// by name, and what a space shows of the integrations enabled in it: the list, their blocks and their scripts.
import { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { builder } from '../kernel/builder.js';
import { type Context, loaderFor } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import { containsPattern, type ListSource } from '../kernel/lists.js';
import { apiUrl, appUrl } from '../kernel/urls.js';
import { PublicOrganization, publicOrganization } from '../organizations/types.js';
import { Space } from '../spaces/types.js';
import { assetsUrl, imageUrl, publicEndpoint, scriptUrl } from './assets.js';
import { enabledInSpaceSql, spaceTargetSql } from './installations.js';
import {
  type Block,
  CATEGORIES,
  type Category,
  COOKIE_SCOPES,
  type ContentSource,
  type ExternalLink,
  SCOPES,
  SCRIPT_SCOPES,
  type Scope,
  TARGETS,
  type Target,
  VISIBILITIES,
  type Visibility,
} from './manifest.js';
import { administeredOrganizations, type IntegrationRow, integrationNamed, listedSql } from './service.js';

/**
 * An enumeration whose values are stored and written in REST as GitBook spells them (`space:content:read`), and named
 * in GraphQL with what GraphQL allows (`space_content_read`): resolvers and inputs see the stored spelling.
 */
function spelledEnum<const T extends string>(name: string, values: readonly T[], description: string) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(
      values.map((value) => [value.replace(/[^A-Za-z0-9_]/g, '_'), { value, extensions: { rest: value } }]),
    ) as Record<string, { value: T; extensions: { rest: string } }>,
  });
}

export const IntegrationScopeEnum = spelledEnum('IntegrationScope', SCOPES, 'A permission granted to an integration.');
export const IntegrationCategoryEnum = spelledEnum('IntegrationCategory', CATEGORIES, 'A category of the marketplace.');
export const IntegrationTargetEnum = spelledEnum(
  'IntegrationTarget',
  TARGETS,
  'Where an integration is installed and configured: `all` (default), or only sites, spaces or the organization.',
);
export const IntegrationVisibilityEnum = spelledEnum(
  'IntegrationVisibility',
  VISIBILITIES,
  'public: listed for everyone; unlisted: reachable by name, listed for its owner organization only; private: seen ' +
    'and installed by its owner organization only.',
);

const BlockMarkdown = builder.objectRef<{ codeblock: string; body: string }>('IntegrationBlockMarkdown').implement({
  description: 'A block written in Markdown as a code block: its syntax, and the property its body holds.',
  fields: (t) => ({ codeblock: t.exposeString('codeblock'), body: t.exposeString('body') }),
});

export const IntegrationBlock = builder.objectRef<Block>('IntegrationBlock').implement({
  description: 'A custom block an integration provides.',
  fields: (t) => ({
    id: t.exposeString('id'),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    icon: t.exposeString('icon', { nullable: true }),
    urlUnfurl: t.exposeStringList('urlUnfurl', { nullable: true, description: 'URL patterns turned into this block.' }),
    markdown: t.field({ type: BlockMarkdown, nullable: true, resolve: (block) => block.markdown }),
  }),
});

const ContentSourceConfiguration = builder.objectRef<{ componentId: string }>('IntegrationContentSourceConfiguration').implement({
  fields: (t) => ({ componentId: t.exposeString('componentId') }),
});
const IntegrationContentSource = builder.objectRef<ContentSource>('IntegrationContentSource').implement({
  description: 'A source of content an integration provides.',
  fields: (t) => ({
    id: t.exposeString('id'),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    icon: t.exposeString('icon', { nullable: true }),
    configuration: t.field({ type: ContentSourceConfiguration, resolve: (source) => source.configuration }),
  }),
});

const IntegrationExternalLink = builder.objectRef<ExternalLink>('IntegrationExternalLink').implement({
  fields: (t) => ({ url: t.exposeString('url'), label: t.exposeString('label') }),
});

interface IntegrationUrlsShape {
  location: string;
  icon: string | null;
  app: string;
  assets: string;
  publicEndpoint: string;
  publicContentEndpoint: string;
}
const IntegrationUrls = builder.objectRef<IntegrationUrlsShape>('IntegrationUrls').implement({
  fields: (t) => ({
    location: t.exposeString('location', { description: 'The integration in the API.' }),
    icon: t.exposeString('icon', { nullable: true, description: 'Its icon, served with its assets.' }),
    app: t.exposeString('app'),
    assets: t.exposeString('assets', { description: 'Where this version’s script, icon and preview images are served.' }),
    publicEndpoint: t.exposeString('publicEndpoint', { description: 'Where an integration runtime would answer: none here (501).' }),
    publicContentEndpoint: t.exposeString('publicContentEndpoint'),
  }),
});

const IntegrationPermissions = builder.objectRef<{ admin: boolean; install: boolean }>('IntegrationPermissions').implement({
  description: 'What the viewer may do with the integration.',
  fields: (t) => ({
    admin: t.exposeBoolean('admin', { description: 'Republish, unpublish, and list its installations: its owner organization’s admins.' }),
    install: t.exposeBoolean('install', {
      description: 'Install it: an admin of its owner organization for a private one, of any organization otherwise.',
    }),
  }),
});

export const Integration = builder.objectRef<IntegrationRow>('Integration').implement({
  description: 'An integration published on this instance: its manifest, and where its assets are served.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'integration' }),
    name: t.exposeString('name', { description: 'Unique on the instance.' }),
    version: t.exposeInt('version', { description: 'Bumped by every republish.' }),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    summary: t.exposeString('summary', { nullable: true, description: 'Long-form Markdown.' }),
    previewImages: t.stringList({
      description: 'URLs of the preview images.',
      resolve: (integration, _args, ctx) =>
        (integration.previewImages ?? []).map((stored, i) => imageUrl(ctx, integration, stored, `preview-${i}`)),
    }),
    target: t.field({ type: IntegrationTargetEnum, resolve: (integration) => integration.target as Target }),
    verified: t.exposeBoolean('verified', { description: 'Never set on this instance.' }),
    visibility: t.field({ type: IntegrationVisibilityEnum, resolve: (integration) => integration.visibility as Visibility }),
    scopes: t.field({ type: [IntegrationScopeEnum], resolve: (integration) => (integration.scopes ?? []) as Scope[] }),
    categories: t.field({ type: [IntegrationCategoryEnum], resolve: (integration) => (integration.categories ?? []) as Category[] }),
    blocks: t.field({ type: [IntegrationBlock], resolve: (integration) => integration.blocks as Block[] }),
    contentSources: t.field({
      type: [IntegrationContentSource],
      resolve: (integration) => integration.contentSources as ContentSource[],
    }),
    configurations: t.field({
      type: 'JSON',
      description: '`account`, `space` and `site` configurations: each `{properties, required}` or `{componentId}`.',
      resolve: (integration) => integration.configurations,
    }),
    externalLinks: t.field({
      type: [IntegrationExternalLink],
      resolve: (integration) => integration.externalLinks as ExternalLink[],
    }),
    owner: t.field({
      type: PublicOrganization,
      description: 'Who publishes it: the public projection of its organization, whoever asks.',
      resolve: async (integration, _args, ctx) => {
        const owner = await publicOrganization(ctx, integration.ownerOrganizationId);
        if (!owner) throw notFound('Organization');
        return owner;
      },
    }),
    urls: t.field({
      type: IntegrationUrls,
      resolve: (integration, _args, ctx) => {
        const endpoint = publicEndpoint(ctx, integration.name);
        return {
          location: apiUrl(ctx, `integrations/${integration.name}`),
          icon: integration.icon ? imageUrl(ctx, integration, integration.icon, 'icon') : null,
          app: appUrl(ctx, `integrations/${integration.name}`),
          assets: assetsUrl(ctx, integration),
          publicEndpoint: endpoint,
          publicContentEndpoint: endpoint,
        };
      },
    }),
    permissions: t.field({
      type: IntegrationPermissions,
      resolve: async (integration, _args, ctx) => {
        const administered = await administeredOrganizations(ctx);
        const admin = administered.has(integration.ownerOrganizationId);
        return { admin, install: integration.visibility === 'private' ? admin : administered.size > 0 };
      },
    }),
    contentSecurityPolicy: t.exposeString('contentSecurityPolicy', {
      nullable: true,
      description: 'Sent as the Content-Security-Policy header of its script.',
    }),
  }),
});
export const IntegrationList = listOf('Integration', Integration);

interface IntegrationListArgs {
  search?: string | null;
  category?: Category | null;
  blockDomain?: string | null;
  blocks?: boolean | null;
  contentSources?: boolean | null;
  owner?: string | null;
  scope?: Scope | null;
  target?: Target | null;
}

const byName = [{ column: 'name', type: 'text', expression: Prisma.sql`(t.name COLLATE "C")` }] as const;
const searchSql = (search: string) => Prisma.sql`(t.name ILIKE ${containsPattern(search)} OR t.title ILIKE ${containsPattern(search)})`;

/**
 * Integrations with a block whose URL patterns have this host, or a subdomain of it (`figma.com` finds
 * `https://www.figma.com/file/*`); a wildcard host (`https://*.figma.com/...`) also answers its subdomains.
 */
function blockDomainSql(domain: string): Prisma.Sql {
  const host = domain.toLowerCase();
  return Prisma.sql`EXISTS (SELECT 1 FROM jsonb_array_elements(t.blocks) b
      CROSS JOIN LATERAL jsonb_array_elements_text(COALESCE(b->'urlUnfurl', '[]'::jsonb)) u(pattern)
      CROSS JOIN LATERAL (SELECT lower(substring(u.pattern FROM '^[A-Za-z]+://([^/?#:]+)')) AS raw) h
      CROSS JOIN LATERAL (SELECT regexp_replace(h.raw, '^\\*\\.', '') AS base, h.raw LIKE '*.%' AS wildcard) w
     WHERE w.base = ${host} OR right(w.base, length(${host}) + 1) = '.' || ${host}
        OR (w.wildcard AND right(${host}, length(w.base) + 1) = '.' || w.base))`;
}

function filtersSql(args: IntegrationListArgs): Prisma.Sql[] {
  const hasItems = (column: string, wanted: boolean) => Prisma.sql`(jsonb_array_length(t.${Prisma.raw(`"${column}"`)}) > 0) = ${wanted}`;
  return [
    ...(args.search ? [searchSql(args.search)] : []),
    ...(args.category ? [Prisma.sql`${args.category} = ANY(t.categories)`] : []),
    ...(args.blockDomain ? [blockDomainSql(args.blockDomain)] : []),
    ...(args.blocks != null ? [hasItems('blocks', args.blocks)] : []),
    ...(args.contentSources != null ? [hasItems('contentSources', args.contentSources)] : []),
    ...(args.owner ? [Prisma.sql`t."ownerOrganizationId" = ${args.owner}`] : []),
    ...(args.scope ? [Prisma.sql`${args.scope} = ANY(t.scopes)`] : []),
    // Installable at that target: integrations of exactly that target, or of all.
    ...(args.target ? [Prisma.sql`t.target IN (${args.target}, 'all')`] : []),
  ];
}

/** The marketplace: a root list whose one parent is the viewer. */
const listedIntegrations: ListSource<IntegrationRow, IntegrationListArgs> = {
  table: 'Integration',
  orderBy: byName,
  where: (ctx, args) => Prisma.join([listedSql(ctx, 't'), ...filtersSql(args)], ' AND '),
  scope: (userId, args) =>
    `integrations:${userId}:${JSON.stringify([args.search, args.category, args.blockDomain, args.blocks, args.contentSources, args.owner, args.scope, args.target])}`,
};

/** Integrations enabled in a space (the parent key): an active installation there, and a target that includes spaces. */
const spaceIntegrations: ListSource<IntegrationRow, { search?: string | null }> = {
  table: 'Integration',
  ofParent: (space) =>
    Prisma.sql`${spaceTargetSql('t')} AND EXISTS (SELECT 1 FROM "IntegrationInstallation" ii
      WHERE ii."integrationId" = t.id AND ${enabledInSpaceSql(space)})`,
  orderBy: byName,
  where: (_ctx, args) => (args.search ? searchSql(args.search) : Prisma.sql`TRUE`),
  scope: (spaceId, args) => `space-integrations:${spaceId}:${args.search ?? ''}`,
};

const searchArgs = builder.args((t) => ({
  search: t.string({
    description: 'Only integrations whose name or title contains this text, case-insensitively.',
    validate: z.string().max(100),
  }),
}));

builder.queryFields((t) => ({
  integrations: t.field({
    type: IntegrationList,
    description:
      'The integrations of the instance the viewer may list (public ones, and all of their organizations’), by name. ' +
      'Every filter narrows the list.',
    args: {
      ...listArgs,
      ...searchArgs,
      category: t.arg({ type: IntegrationCategoryEnum, description: 'Only integrations of this category.' }),
      blockDomain: t.arg.string({
        description: 'Only integrations with a block that unfurls URLs of this domain (or of its subdomains).',
        validate: z
          .string()
          .max(100)
          .regex(/^[a-zA-Z0-9-_.]+$/, 'must be letters, digits, "-", "_" or "."'),
      }),
      blocks: t.arg.boolean({ description: 'true: only integrations with blocks; false: only those without.' }),
      contentSources: t.arg.boolean({ description: 'true: only integrations with content sources; false: only those without.' }),
      owner: t.arg.string({ description: 'Only integrations owned by this organization (its id).', validate: z.string().max(100) }),
      scope: t.arg({ type: IntegrationScopeEnum, description: 'Only integrations granted this scope.' }),
      target: t.arg({ type: IntegrationTargetEnum, description: 'Only integrations installable at this target (theirs, or `all`).' }),
    },
    resolve: (_root, args, ctx, info) => listPage(listedIntegrations, ctx, info, ctx.viewer.userId, args),
  }),
  integration: t.field({
    type: Integration,
    description: 'An integration by name: public and unlisted ones for everyone, private ones for their organization.',
    args: { name: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => integrationNamed(ctx, args.name),
  }),
}));

interface SpaceBlocks {
  name: string;
  blocks: Block[];
}
const SpaceIntegrationBlocks = builder.objectRef<SpaceBlocks>('SpaceIntegrationBlocks').implement({
  description: 'The blocks of an integration enabled in the space.',
  fields: (t) => ({ name: t.exposeString('name'), blocks: t.field({ type: [IntegrationBlock], resolve: (item) => item.blocks }) }),
});

interface SpaceScript {
  script: string;
  contentSecurityPolicy: string | null;
  cookies: boolean;
}
const SpaceIntegrationScript = builder.objectRef<SpaceScript>('SpaceIntegrationScript').implement({
  description: 'A script to load in the space’s published content.',
  fields: (t) => ({
    script: t.exposeString('script', { description: 'Its URL.' }),
    contentSecurityPolicy: t.exposeString('contentSecurityPolicy', { nullable: true }),
    cookies: t.exposeBoolean('cookies', { description: 'Whether it may set cookies (its scopes grant it).' }),
  }),
});

const enabledKeys = { blocks: Symbol('integration blocks by space'), scripts: Symbol('integration scripts by space') };

/** The integrations enabled in each space of the batch that satisfy `condition` (on `i`), by name: one statement. */
function enabledIn(ctx: Context, kind: keyof typeof enabledKeys, condition: Prisma.Sql, spaceId: string): Promise<IntegrationRow[]> {
  return loaderFor<string, IntegrationRow[]>(ctx, enabledKeys[kind], async (spaceIds) => {
    const rows = await ctx.sql<IntegrationRow & { __space: string }>(Prisma.sql`
      SELECT i.*, s.id AS "__space" FROM unnest(${[...spaceIds]}::text[]) AS s(id)
        JOIN "IntegrationInstallation" ii ON ${enabledInSpaceSql(Prisma.sql`s.id`)}
        JOIN "Integration" i ON i.id = ii."integrationId" AND ${spaceTargetSql('i')} AND ${condition}
       ORDER BY i.name COLLATE "C"`);
    const bySpace = new Map<string, IntegrationRow[]>(spaceIds.map((id) => [id, []]));
    for (const { __space, ...integration } of rows) bySpace.get(__space)!.push(integration);
    return spaceIds.map((id) => bySpace.get(id)!);
  }).load(spaceId);
}

// `space(id:)` has checked that the viewer can see the space.
builder.objectFields(Space, (t) => ({
  integrations: t.field({
    type: IntegrationList,
    description: 'The integrations enabled in the space, by name.',
    args: { ...listArgs, ...searchArgs },
    resolve: (space, args, ctx, info) => listPage(spaceIntegrations, ctx, info, space.id, args),
  }),
  integrationBlocks: t.field({
    type: [SpaceIntegrationBlocks],
    description: 'The blocks of the integrations enabled in the space, per integration with blocks.',
    resolve: async (space, _args, ctx) =>
      (await enabledIn(ctx, 'blocks', Prisma.sql`jsonb_array_length(i.blocks) > 0`, space.id)).map((integration) => ({
        name: integration.name,
        blocks: integration.blocks as Block[],
      })),
  }),
  integrationScripts: t.field({
    type: [SpaceIntegrationScript],
    description:
      'The scripts to load in the space’s published content: those of the integrations enabled in it whose scopes let ' +
      'them inject a script (site:script:inject, or space:script:inject of earlier specs).',
    resolve: async (space, _args, ctx) =>
      (await enabledIn(ctx, 'scripts', Prisma.sql`i.scopes && ${[...SCRIPT_SCOPES]}::text[]`, space.id)).map((integration) => ({
        script: scriptUrl(ctx, integration),
        contentSecurityPolicy: integration.contentSecurityPolicy,
        cookies: (integration.scopes ?? []).some((scope) => COOKIE_SCOPES.includes(scope as Scope)),
      })),
  }),
}));
