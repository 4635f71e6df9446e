// Site redirects: inputs (with their validation) and mutations.
import { builder } from '../kernel/builder.js';
import { notNull } from '../kernel/validation.js';
import { type Destination, destinationRule, type InputDestination, inputDestinationRule } from './destinations.js';
import * as service from './service.js';
import { SiteRedirect, sourceRule } from './types.js';

const sourceDescription = 'The path redirected, at most 512 characters: `/docs/guide`, or a wildcard `/docs/*` or `/docs*`.';
const flagFields = (t: PothosSchemaTypes.InputFieldBuilder<typeof builder.$inferSchemaTypes, 'InputObject'>) => ({
  captureWildcard: t.boolean({ description: 'A wildcard source appends what it matched to the destination (default false).' }),
  draft: t.boolean({ description: 'A draft redirect is not live (default false).' }),
  permanent: t.boolean({ description: 'Permanent (308) rather than temporary (307) (default false).' }),
});

export const CreateSiteRedirectInput = builder.inputType('CreateSiteRedirectInput', {
  validate: notNull('captureWildcard', 'draft', 'permanent'),
  fields: (t) => ({
    source: t.string({ required: true, description: sourceDescription, validate: sourceRule }),
    destination: t.field({
      type: 'JSON',
      required: true,
      description:
        '{kind: "site-section", siteSectionId}, {kind: "site-space", siteSpaceId}, {kind: "site-page", siteSpaceId, pageId}, ' +
        '{kind: "external", url} (http or https, at most 2048 characters), or {kind: "path", spaceId, path}: the page at that ' +
        'path in a space of the site, stored as a site-page destination.',
      validate: inputDestinationRule,
    }),
    ...flagFields(t),
  }),
});

export const UpdateSiteRedirectInput = builder.inputType('UpdateSiteRedirectInput', {
  validate: notNull('source', 'destination', 'captureWildcard', 'draft', 'permanent'),
  fields: (t) => ({
    source: t.string({ description: sourceDescription, validate: sourceRule }),
    destination: t.field({
      type: 'JSON',
      description: 'A site-section, site-space, site-page or external destination, as on creation (not `path`).',
      validate: destinationRule,
    }),
    ...flagFields(t),
  }),
});

const siteKey = builder.args((t) => ({ organizationId: t.id({ required: true }), siteId: t.id({ required: true }) }));
const redirectKey = builder.args((t) => ({ ...siteKey, siteRedirectId: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  createSiteRedirect: t.field({
    type: SiteRedirect,
    args: { ...siteKey, input: t.arg({ type: CreateSiteRedirectInput, required: true }) },
    resolve: (_root, args, ctx) =>
      service.createSiteRedirect(ctx, args.organizationId, args.siteId, {
        ...args.input,
        destination: args.input.destination as InputDestination,
      }),
  }),
  updateSiteRedirect: t.field({
    type: SiteRedirect,
    args: { ...redirectKey, input: t.arg({ type: UpdateSiteRedirectInput, required: true }) },
    resolve: (_root, args, ctx) =>
      service.updateSiteRedirect(ctx, args.organizationId, args.siteId, args.siteRedirectId, {
        ...args.input,
        destination: args.input.destination as Destination | null | undefined,
      }),
  }),
  deleteSiteRedirect: t.boolean({
    args: redirectKey,
    resolve: async (_root, args, ctx) => {
      await service.deleteSiteRedirect(ctx, args.organizationId, args.siteId, args.siteRedirectId);
      return true;
    },
  }),
}));
