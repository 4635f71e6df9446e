// The OpenAPISpec and OpenAPISpecVersion types, an organization's specs (paged, by slug) and a spec's versions (paged,
// newest first; the latest; by id) with their content. Both types select their columns: a list never reads a spec's
// source text nor a version's files, which only `content` and `rawContent` read.
import { z } from 'zod';
import { Prisma, type OpenAPISpec as SpecRow, type OpenAPISpecVersion as VersionRow } from '../generated/prisma/client.js';
import { OpenAPIProcessErrorCode, OpenAPIProcessingState } from '../generated/prisma/enums.js';
import { builder, permissionsFor, permissionsType, prismaEnum } from '../kernel/builder.js';
import { ApiError, notFound } from '../kernel/errors.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { policies } from '../kernel/permissions.js';
import { apiUrl, appUrl } from '../kernel/urls.js';
import { Organization } from '../organizations/types.js';
import {
  checkSpecAction,
  openAPISpecs,
  openAPISpecVersions,
  rememberSpec,
  SPEC_KIND,
  type SpecKey,
  specKeys,
  VERSION_KIND,
} from './access.js';
import { REFRESH_AFTER_MS } from './processing.js';

const ProcessingStateEnum = prismaEnum(
  'OpenAPISpecProcessingState',
  OpenAPIProcessingState,
  'pending (a processing is queued), progress (it runs), complete (it ran: see lastProcessErrorCode for how).',
);
const ProcessErrorCodeEnum = prismaEnum(
  'OpenAPISpecProcessingErrorCode',
  OpenAPIProcessErrorCode,
  'Why the last processing failed: FETCH_TIMEOUT (the source, or a file it references, did not answer in time), ' +
    'FETCH_ERROR (unreachable, refused, an HTTP error, too large, too many files) or PARSE_ERROR (not JSON or YAML, ' +
    'or not a valid Swagger 2.0, OpenAPI 3.0 or 3.1 document).',
);
const VisibilityEnum = builder.enumType('OpenAPISpecVisibility', {
  description: 'Who may read the spec: `private`, its organization (the only visibility this service gives specs).',
  values: ['private', 'public'] as const,
});
const SourceFormatEnum = builder.enumType('OpenAPISpecSourceFormat', { values: ['json', 'yaml'] as const });

/** `/v1/orgs/{organizationId}/openapi/{slug}` below the API, and its application page. */
const specPath = (spec: Pick<SpecKey, 'organizationId' | 'slug'>) => `orgs/${spec.organizationId}/openapi/${spec.slug}`;

const SpecUrls = builder.objectRef<{ location: string; app: string }>('OpenAPISpecUrls').implement({
  fields: (t) => ({
    location: t.exposeString('location', { description: 'URL of the spec in the API.' }),
    app: t.exposeString('app', { description: 'URL of the spec in the application.' }),
  }),
});

const ProcessingProblem = builder.objectRef<{ message: string }>('OpenAPIErrorObject').implement({
  description: 'A problem found by the last processing.',
  fields: (t) => ({ message: t.exposeString('message') }),
});

const SpecPermissions = permissionsType('OpenAPISpecPermissions', policies.openAPISpec);

export const OpenAPISpec = builder.prismaObject('OpenAPISpec', {
  access: openAPISpecs,
  description:
    'An OpenAPI specification hosted for the organization: its source (a URL, or text), processed in the background ' +
    `into versions. A URL source is fetched again when last processed more than ${REFRESH_AFTER_MS / 60_000} minutes ago.`,
  select: { id: true, organizationId: true, slug: true, lastVersionId: true },
  fields: (t) => ({
    object: t.string({ resolve: () => 'openapi-spec' }),
    id: t.exposeID('id'),
    etag: t.string({ select: { rowVersion: true }, ...etagField(tagOf) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    slug: t.exposeString('slug', { description: 'Its name in URLs: lowercase letters and digits with single hyphens between them.' }),
    sourceURL: t.exposeString('sourceURL', { nullable: true, description: 'The URL it is fetched from; absent for a text source.' }),
    visibility: t.field({ type: VisibilityEnum, select: { visibility: true }, resolve: (spec) => spec.visibility as 'private' }),
    processingState: t.expose('processingState', { type: ProcessingStateEnum }),
    lastVersionId: t.exposeID('lastVersionId', { nullable: true, description: 'The latest version: the newest.' }),
    lastProcessedAt: t.expose('lastProcessedAt', { type: 'DateTime', nullable: true }),
    lastProcessErrorCode: t.expose('lastProcessErrorCode', {
      type: ProcessErrorCodeEnum,
      nullable: true,
      description: 'Absent when the last processing succeeded.',
    }),
    lastProcessedErrors: t.field({
      type: [ProcessingProblem],
      description: 'The first 20 problems of the last processing, when it failed.',
      select: { lastProcessedErrors: true },
      resolve: (spec) => (spec.lastProcessedErrors as { message: string }[] | null) ?? [],
    }),
    lastProcessedErrorCount: t.exposeInt('lastProcessedErrorCount', { description: 'How many problems the last processing found.' }),
    permissions: t.field({
      type: SpecPermissions,
      resolve: (spec, _args, ctx) => permissionsFor(ctx, policies.openAPISpec, openAPISpecs.level.of(ctx, spec)),
    }),
    urls: t.field({
      type: SpecUrls,
      resolve: (spec, _args, ctx) => ({
        location: apiUrl(ctx, specPath(spec)),
        app: appUrl(ctx, `o/${spec.organizationId}/openapi/${spec.slug}`),
      }),
    }),
  }),
});
export const OpenAPISpecList = listOf('OpenAPISpec', OpenAPISpec);

const VersionUrls = builder.objectRef<{ location: string }>('OpenAPISpecVersionUrls').implement({
  fields: (t) => ({ location: t.exposeString('location', { description: 'URL of the version in the API.' }) }),
});

const ContentUrls = builder.objectRef<{ source: string; public: string | null }>('OpenAPISpecContentUrls').implement({
  fields: (t) => ({
    source: t.exposeString('source', {
      description: 'Where the content was read: the source URL, or the API URL of a text source’s content.',
    }),
    public: t.exposeString('public', {
      nullable: true,
      description: 'A URL anyone may read the content at: null, as specs are private.',
    }),
  }),
});

interface VersionContent {
  filesystem: unknown;
  urls: { source: string; public: string | null };
}

const VersionContent = builder.objectRef<VersionContent>('OpenAPISpecContent').implement({
  description: 'The files of a version.',
  fields: (t) => ({
    filesystem: t.field({
      type: 'JSON',
      description:
        'Each file of the version, by path, parsed (JSON): the entry file, and every file its external `$ref`s reach, ' +
        'by its path relative to the entry file’s directory (as the references resolve), or its URL when outside it.',
      resolve: (content) => content.filesystem,
    }),
    urls: t.expose('urls', { type: ContentUrls }),
  }),
});

const RawContent = builder.objectRef<{ text: string; format: 'json' | 'yaml' }>('OpenAPISpecRawContent').implement({
  description: 'The entry file of a version, exactly as fetched or given.',
  fields: (t) => ({ text: t.exposeString('text'), format: t.expose('format', { type: SourceFormatEnum }) }),
});

/** The spec a version belongs to: read by whatever reached the version, so known without a statement. */
const specOf = async (ctx: Parameters<typeof specKeys>[0], specId: string) => (await specKeys(ctx).load(specId))!;
const versionPath = (spec: SpecKey, versionId: string) => `${specPath(spec)}/versions/${versionId}`;

export const OpenAPISpecVersion = builder.prismaObject('OpenAPISpecVersion', {
  access: openAPISpecVersions,
  description: 'What one processing of a spec read, when its content differed from the version before.',
  select: { id: true, specId: true, url: true },
  fields: (t) => ({
    object: t.string({ resolve: () => 'openapi-spec-version' }),
    id: t.exposeID('id'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    url: t.string({
      description: 'Where the specification was read: its source URL, or the API URL of a text source’s content.',
      resolve: async (version, _args, ctx) =>
        version.url ?? apiUrl(ctx, `${versionPath(await specOf(ctx, version.specId), version.id)}/content`),
    }),
    urls: t.field({
      type: VersionUrls,
      resolve: async (version, _args, ctx) => ({ location: apiUrl(ctx, versionPath(await specOf(ctx, version.specId), version.id)) }),
    }),
    content: t.field({
      type: VersionContent,
      select: { filesystem: true },
      resolve: async (version, _args, ctx) => ({
        filesystem: version.filesystem,
        urls: {
          source: version.url ?? apiUrl(ctx, `${versionPath(await specOf(ctx, version.specId), version.id)}/content`),
          public: null,
        },
      }),
    }),
    rawContent: t.field({
      type: RawContent,
      description: 'The entry file as read; an error (404) for a version stored without it.',
      select: { rawText: true, rawFormat: true },
      resolve: (version) => {
        if (version.rawText === null || version.rawFormat === null)
          throw new ApiError(404, `No raw content is stored for this ${VERSION_KIND}.`);
        return { text: version.rawText, format: version.rawFormat as 'json' | 'yaml' };
      },
    }),
  }),
});
export const OpenAPISpecVersionList = listOf('OpenAPISpecVersion', OpenAPISpecVersion);

const organizationSpecs: ListSource<Pick<SpecRow, 'id' | 'organizationId' | 'slug' | 'lastVersionId'>> = {
  table: 'OpenAPISpec',
  parentColumn: 'organizationId',
  orderBy: [{ column: 'slug', type: 'text', expression: Prisma.sql`(t.slug COLLATE "C")` }],
  where: () => Prisma.sql`TRUE`,
  scope: (organizationId) => `orgs/${organizationId}/openapi`,
  fetch: (ctx, query, ids) => ctx.prisma.openAPISpec.findMany({ ...query, where: { id: { in: ids } } }),
};

const specVersions: ListSource<Pick<VersionRow, 'id' | 'specId' | 'url'>> = {
  table: 'OpenAPISpecVersion',
  parentColumn: 'specId',
  orderBy: [
    { column: 'createdAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  descending: () => true,
  where: () => Prisma.sql`TRUE`,
  scope: (specId) => `openapi-versions:${specId}`,
  fetch: (ctx, query, ids) => ctx.prisma.openAPISpecVersion.findMany({ ...query, where: { id: { in: ids } } }),
};

builder.objectFields(Organization, (t) => ({
  openAPISpecs: t.field({
    type: OpenAPISpecList,
    description: 'The organization’s OpenAPI specifications, by slug.',
    args: listArgs,
    resolve: async (org, args, ctx, info) => {
      await checkSpecAction(ctx, org.id, 'view');
      return listPage(organizationSpecs, ctx, info, org.id, args);
    },
  }),
  openAPISpec: t.prismaField({
    type: 'OpenAPISpec',
    description: 'The organization’s OpenAPI specification with this slug.',
    args: { slug: t.arg.string({ required: true }) },
    resolve: async (query, org, args, ctx) => {
      await checkSpecAction(ctx, org.id, 'view');
      const spec = await ctx.prisma.openAPISpec.findUnique({
        ...query,
        where: { organizationId_slug: { organizationId: org.id, slug: args.slug } },
      });
      if (!spec) throw notFound(SPEC_KIND);
      return rememberSpec(ctx, spec);
    },
  }),
}));

builder.objectFields(OpenAPISpec, (t) => ({
  versions: t.field({
    type: OpenAPISpecVersionList,
    description: 'The versions of the spec, newest first.',
    args: listArgs,
    resolve: (spec, args, ctx, info) => listPage(specVersions, ctx, info, rememberSpec(ctx, spec).id, args),
  }),
  latestVersion: t.prismaField({
    type: 'OpenAPISpecVersion',
    description: 'The newest version; an error (404) while the spec has none.',
    resolve: async (query, spec, _args, ctx) => {
      const version =
        spec.lastVersionId && (await ctx.prisma.openAPISpecVersion.findUnique({ ...query, where: { id: spec.lastVersionId } }));
      if (!version) throw notFound(VERSION_KIND);
      rememberSpec(ctx, spec);
      return version;
    },
  }),
  version: t.prismaField({
    type: 'OpenAPISpecVersion',
    args: { id: t.arg.id({ required: true, validate: z.string().max(100) }) },
    resolve: async (query, spec, args, ctx) => {
      const version = await ctx.prisma.openAPISpecVersion.findFirst({ ...query, where: { id: args.id, specId: spec.id } });
      if (!version) throw notFound(VERSION_KIND);
      rememberSpec(ctx, spec);
      return version;
    },
  }),
}));
