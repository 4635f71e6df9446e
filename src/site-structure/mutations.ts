// Site spaces and sections: inputs (with their validation, limits of GitBook's published spec 0.202) and mutations.
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { notNull, rules } from '../kernel/validation.js';
import { MAX_PATH, PATH_PATTERN } from './paths.js';
import * as service from './service.js';
import { SiteSection, SiteSpace } from './types.js';

const path = z.string().min(1).max(MAX_PATH).regex(PATH_PATTERN, 'must be one URL path segment: letters, digits, ".", "_", "~" or "-"');
const condition = z.string().max(1024).nullable();
const icon = z.string().min(1).max(50).nullable();

/** `spaceId` must be sent, as an id or as null (a new empty space): GraphQL alone cannot require a nullable field. */
const spaceIdSent = z.any().superRefine((input: Record<string, unknown>, check) => {
  if (input.spaceId === undefined)
    check.addIssue({ code: 'custom', path: ['spaceId'], message: 'required: a space id, or null to create a new space' });
});

export const AddSpaceToSiteInput = builder.inputType('AddSpaceToSiteInput', {
  fields: (t) => ({
    spaceId: t.id({ description: 'A space of the organization, or null to create a new empty space.', validate: rules.id.nullable() }),
    sectionId: t.id({
      description: 'The section to add it to; absent: the default section, if the site has sections.',
      validate: rules.id,
    }),
    draft: t.boolean({ description: 'Whether the site space is a draft (default false).' }),
    title: t.string({
      description: 'The site space’s title (2 to 128 characters), else its space’s; the new space’s title with a null spaceId.',
      validate: rules.title(2, 128),
    }),
  }),
  validate: spaceIdSent,
});

export const UpdateSiteSpaceInput = builder.inputType('UpdateSiteSpaceInput', {
  fields: (t) => ({
    path: t.string({ description: 'One URL path segment, 1 to 100 characters, unique in its section.', validate: path }),
    condition: t.string({ description: 'Expression, at most 1024 characters; null removes it.', validate: condition }),
    spaceId: t.id({ description: 'Another space of the organization to publish here.', validate: rules.id }),
    hidden: t.boolean({ description: 'Left out of the site’s navigation.' }),
    draft: t.boolean(),
  }),
  validate: notNull('path', 'spaceId', 'hidden', 'draft'),
});

export const AddSectionToSiteInput = builder.inputType('AddSectionToSiteInput', {
  fields: (t) => ({
    spaceId: t.id({
      description: 'The section’s first site space: a space, or null to create a new empty one.',
      validate: rules.id.nullable(),
    }),
    title: t.string({ description: '2 to 128 characters; default: the space’s title.', validate: rules.title(2, 128).nullable() }),
    icon: t.string({ description: 'Name of an icon, at most 50 characters.', validate: icon }),
    draft: t.boolean({ description: 'Whether the section is a draft (default false).' }),
  }),
  validate: spaceIdSent,
});

export const UpdateSiteSectionInput = builder.inputType('UpdateSiteSectionInput', {
  fields: (t) => ({
    title: t.string({ description: '2 to 128 characters.', validate: rules.title(2, 128) }),
    path: t.string({ description: 'One URL path segment, 1 to 100 characters, unique in the site.', validate: path }),
    defaultSiteSpace: t.id({ description: 'A site space of this section, to make its default.', validate: rules.id }),
    condition: t.string({ description: 'Expression, at most 1024 characters; null removes it.', validate: condition }),
    icon: t.string({ description: 'Name of an icon, at most 50 characters; null removes it.', validate: icon }),
    description: t.string({ description: 'At most 256 characters; null removes it.', validate: z.string().max(256).nullable() }),
    draft: t.boolean(),
  }),
  validate: notNull('title', 'path', 'defaultSiteSpace', 'draft'),
});

/** `{before|after: {type: "<kind>", <key>: id}}`: where a move puts the item; absent: at the end. */
function moveInput(name: string, kind: string, key: 'siteSpace' | 'siteSection') {
  const Pointer = builder.inputType(`${name}Pointer`, {
    fields: (t) => ({ type: t.string({ required: true, description: kind }), [key]: t.id({ required: true, validate: rules.id }) }),
    validate: z.object({ type: z.literal(kind) }).passthrough(),
  });
  const Position = builder.inputType(`${name}Position`, {
    fields: (t) => ({ before: t.field({ type: Pointer }), after: t.field({ type: Pointer }) }),
  });
  return builder.inputType(`${name}Input`, {
    fields: (t) => ({ position: t.field({ type: Position, description: 'Absent: moves it to the end.' }) }),
  });
}

export const MoveSiteSpaceInput = moveInput('MoveSiteSpace', 'site-space', 'siteSpace');
export const MoveSiteSectionInput = moveInput('MoveSiteSection', 'site-section', 'siteSection');

type MovePosition = { before?: Record<string, unknown> | null; after?: Record<string, unknown> | null } | null | undefined;

/** Where the body of a move places the item (`before` wins when both are sent). */
function placement(position: MovePosition, key: string): service.Placement | null {
  if (position?.before) return { id: position.before[key] as string, before: true, field: `position.before.${key}` };
  if (position?.after) return { id: position.after[key] as string, before: false, field: `position.after.${key}` };
  return null;
}

const siteKey = builder.args((t) => ({ organizationId: t.id({ required: true }), siteId: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  addSpaceToSite: t.field({
    type: SiteSpace,
    description:
      'Adds a space (or a new empty one) to the site: to the named section, else the default section, else the site’s root; ' +
      'at a path made unique from its title. The first site space of a section (or root) becomes its default.',
    args: { ...siteKey, input: t.arg({ type: AddSpaceToSiteInput, required: true }) },
    resolve: (_root, args, ctx) => service.addSpaceToSite(ctx, args.organizationId, args.siteId, args.input as service.AddSiteSpace),
  }),
  updateSiteSpace: t.field({
    type: SiteSpace,
    args: { ...siteKey, siteSpaceId: t.arg.id({ required: true }), input: t.arg({ type: UpdateSiteSpaceInput, required: true }) },
    resolve: (_root, args, ctx) => service.updateSiteSpace(ctx, args.organizationId, args.siteId, args.siteSpaceId, args.input),
  }),
  deleteSiteSpace: t.boolean({
    description: 'Removes a site space (not its space); a default is succeeded by the next site space by position, else the previous.',
    args: { ...siteKey, siteSpaceId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await service.deleteSiteSpace(ctx, args.organizationId, args.siteId, args.siteSpaceId);
      return true;
    },
  }),
  moveSiteSpace: t.field({
    type: SiteSpace,
    args: { ...siteKey, siteSpaceId: t.arg.id({ required: true }), input: t.arg({ type: MoveSiteSpaceInput, required: true }) },
    resolve: (_root, args, ctx) =>
      service.moveSiteSpace(ctx, args.organizationId, args.siteId, args.siteSpaceId, placement(args.input.position, 'siteSpace')),
  }),
  addSectionToSite: t.field({
    type: SiteSection,
    description:
      'Adds a section with the space as its first site space. The site’s first section becomes its default section and ' +
      'takes the site’s root site spaces (their default stays the default): a site has sections or root site spaces, not both.',
    args: { ...siteKey, input: t.arg({ type: AddSectionToSiteInput, required: true }) },
    resolve: (_root, args, ctx) => service.addSectionToSite(ctx, args.organizationId, args.siteId, args.input as service.AddSection),
  }),
  updateSiteSection: t.field({
    type: SiteSection,
    args: { ...siteKey, siteSectionId: t.arg.id({ required: true }), input: t.arg({ type: UpdateSiteSectionInput, required: true }) },
    resolve: (_root, args, ctx) => service.updateSiteSection(ctx, args.organizationId, args.siteId, args.siteSectionId, args.input),
  }),
  deleteSiteSection: t.boolean({
    description: 'Removes a section with its site spaces; a default section is succeeded by the next one, else the previous.',
    args: { ...siteKey, siteSectionId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await service.deleteSiteSection(ctx, args.organizationId, args.siteId, args.siteSectionId);
      return true;
    },
  }),
  moveSiteSection: t.field({
    type: SiteSection,
    args: { ...siteKey, siteSectionId: t.arg.id({ required: true }), input: t.arg({ type: MoveSiteSectionInput, required: true }) },
    resolve: (_root, args, ctx) =>
      service.moveSiteSection(ctx, args.organizationId, args.siteId, args.siteSectionId, placement(args.input.position, 'siteSection')),
  }),
}));
