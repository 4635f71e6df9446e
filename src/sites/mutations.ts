// Creating, changing, publishing and deleting sites, and setting their adaptive schema: inputs (with their
// validation, the published spec's limits) and mutations.
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { notNull, rules } from '../kernel/validation.js';
import * as service from './service.js';
import { Site, SiteAdaptiveSchema, SiteTypeEnum, SiteVisibilityEnum } from './types.js';

/** SiteTitle: 2 to 128 characters. */
const title = rules.title(2, 128);
/** SiteHostname: a lowercase DNS name of at least three labels (docs.example.com). */
const hostname = z
  .string()
  .max(512)
  .regex(
    /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/,
    'must be a lowercase host name of at least three labels',
  );
/** SiteProxyOrigin: a host name and at least one path segment, without scheme or trailing slash (example.com/docs). */
const proxy = z
  .string()
  .max(512)
  .regex(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/, 'must be a host name followed by path segments, e.g. example.com/docs');
/** SiteBasename, 1 to 100 characters; here also one path segment of its URL (no slash, not a dot first). */
const basename = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/, 'must be letters, digits, "-", "_" or "." (not first)');
const MAX_SPACES = 50;

export const CreateSiteInput = builder.inputType('CreateSiteInput', {
  validate: notNull('type', 'title', 'visibility', 'spaces'),
  fields: (t) => ({
    type: t.field({ type: SiteTypeEnum, description: 'Default basic.' }),
    title: t.string({ description: `2 to 128 characters; default "${service.DEFAULT_SITE_TITLE}".`, validate: title }),
    visibility: t.field({ type: SiteVisibilityEnum, description: 'Default public.' }),
    spaces: t.field({
      type: 'JSON',
      description:
        `Ids of spaces of the organization to publish in the site, in order (at most ${MAX_SPACES}; the first is the default), ` +
        'or "empty" / "sample" to create a new space for the site (sample: with a first page).',
      validate: z.union([z.array(rules.id).max(MAX_SPACES), z.enum(['empty', 'sample'])], {
        error: `must be a list of at most ${MAX_SPACES} space ids, "empty" or "sample"`,
      }),
    }),
  }),
});

const SiteAdaptiveContentInput = builder.inputType('SiteAdaptiveContentInput', {
  fields: (t) => ({ enabled: t.boolean({ required: true }) }),
});

export const UpdateSiteInput = builder.inputType('UpdateSiteInput', {
  validate: notNull('title', 'visibility', 'basename', 'adaptiveContent', 'defaultSiteSpace', 'defaultSiteSection'),
  fields: (t) => ({
    title: t.string({ description: '2 to 128 characters.', validate: title }),
    visibility: t.field({ type: SiteVisibilityEnum, description: 'Needs the admin permission on the site.' }),
    basename: t.string({ description: 'Path segment of the site on the sites URL, 1 to 100 characters.', validate: basename }),
    adaptiveContent: t.field({ type: SiteAdaptiveContentInput }),
    defaultSiteSpace: t.id({
      description: 'A site space of the site: the default at its root, or in its default section when it has sections.',
      validate: rules.id,
    }),
    defaultSiteSection: t.id({ description: 'A section of the site: the default one.', validate: rules.id }),
    proxy: t.string({
      description:
        'Serve the site under a path of another domain (example.com/docs); null removes it. Needs admin. Claims the host for ' +
        'the organization’s proxies (unless it holds it already): in effect once proven, see `customHostname`.',
      validate: proxy,
    }),
    hostname: t.string({
      description:
        'Custom hostname (docs.example.com), claimed across the instance (no other site’s hostname or proxy host); null ' +
        'removes it. Needs admin. In effect once proven, see `customHostname`. Not writable in GitBook’s API.',
      validate: hostname,
    }),
  }),
});

export const UpdateSiteAdaptiveSchemaInput = builder.inputType('UpdateSiteAdaptiveSchemaInput', {
  fields: (t) => ({
    jsonSchema: t.field({
      type: 'JSON',
      required: true,
      description: 'A JSON Schema (draft-07) of the visitors’ claims, in the shape of the published spec’s SiteAdaptiveJSONSchema.',
    }),
  }),
});

const siteKey = builder.args((t) => ({ organizationId: t.id({ required: true }), siteId: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  createSite: t.field({
    type: Site,
    description: 'Creates an unpublished site; needs the createContent permission on the organization.',
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateSiteInput, required: true }) },
    resolve: (_root, args, ctx) => service.createSite(ctx, args.organizationId, args.input as service.NewSite),
  }),
  updateSite: t.field({
    type: Site,
    args: { ...siteKey, input: t.arg({ type: UpdateSiteInput, required: true }) },
    resolve: (_root, args, ctx) => service.updateSite(ctx, args.organizationId, args.siteId, args.input),
  }),
  deleteSite: t.boolean({
    description: 'Deletes a site with everything in it but its spaces.',
    args: siteKey,
    resolve: async (_root, args, ctx) => {
      await service.deleteSite(ctx, args.organizationId, args.siteId);
      return true;
    },
  }),
  publishSite: t.field({
    type: Site,
    description: 'Makes the site live for its audience.',
    args: siteKey,
    resolve: (_root, args, ctx) => service.setPublished(ctx, args.organizationId, args.siteId, true),
  }),
  unpublishSite: t.field({
    type: Site,
    description: 'Takes the site offline; its settings and content stay.',
    args: siteKey,
    resolve: (_root, args, ctx) => service.setPublished(ctx, args.organizationId, args.siteId, false),
  }),
  updateSiteAdaptiveSchema: t.field({
    type: SiteAdaptiveSchema,
    args: { ...siteKey, input: t.arg({ type: UpdateSiteAdaptiveSchemaInput, required: true }) },
    resolve: (_root, args, ctx) => service.setAdaptiveSchema(ctx, args.organizationId, args.siteId, args.input.jsonSchema),
  }),
}));
