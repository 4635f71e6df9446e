// Creating, updating, deleting, restoring, duplicating, moving and transferring spaces: inputs (with their
// validation) and mutations.
import { z } from 'zod';
import { RETENTION_DAYS } from '../content/retention.js';
import { MoveContentInput } from '../content/types.js';
import { builder } from '../kernel/builder.js';
import { ContentLevelEnum } from '../kernel/enums.js';
import { mergeRules, notNull, rules } from '../kernel/validation.js';
import * as service from './service.js';
import { SpaceEditModeEnum } from './types.js';

const LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'zh-tw',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;

const language = z.enum(LANGUAGES);
const notAvailable = (what: string) => z.never({ error: `${what} are not available on this server` });

export const CreateSpaceInput = builder.inputType('CreateSpaceInput', {
  fields: (t) => ({
    title: t.string({ description: 'At most 50 characters.', validate: z.string().max(50) }),
    emoji: t.string({ validate: rules.emoji }),
    parent: t.id({ description: 'Parent collection.', validate: rules.id }),
    editMode: t.field({ type: SpaceEditModeEnum }),
    language: t.string({ validate: language }),
    template: t.field({ type: 'JSON', description: 'Not available on this server.', validate: notAvailable('templates') }),
    computedSource: t.field({
      type: 'JSON',
      description: 'Not available on this server.',
      validate: notAvailable('computed content sources'),
    }),
    empty: t.boolean({ description: 'Create the space with no page (spaces are created empty here in any case).' }),
  }),
});
export const UpdateSpaceInput = builder.inputType('UpdateSpaceInput', {
  validate: notNull('title', 'editMode', 'mergeRules'),
  fields: (t) => ({
    title: t.string({ description: 'At most 50 characters.', validate: z.string().max(50) }),
    emoji: t.string({ description: 'null removes the emoji.', validate: rules.emoji }),
    editMode: t.field({ type: SpaceEditModeEnum }),
    defaultLevel: t.field({ type: ContentLevelEnum, description: 'A role, inherit, or null for no default access.' }),
    language: t.string({ validate: language }),
    mergeRules: t.field({
      type: 'JSON',
      description: '{type: "inherit"}, {type: "none"} or {type: "rules", rules}.',
      validate: mergeRules.space,
    }),
  }),
});
export const MoveSpaceInput = MoveContentInput;
export const TransferSpaceInput = builder.inputType('TransferSpaceInput', {
  fields: (t) => ({
    organization: t.id({ required: true, description: 'Target organization.', validate: rules.id }),
    collection: t.id({ description: 'Collection of the target organization to put the space in.', validate: rules.id }),
  }),
});

const byId = builder.args((t) => ({ id: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  createSpace: t.prismaField({
    type: 'Space',
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateSpaceInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await service.createSpace(ctx, args.organizationId, args.input);
      return ctx.prisma.space.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateSpace: t.prismaField({
    type: 'Space',
    args: { ...byId, input: t.arg({ type: UpdateSpaceInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await service.updateSpace(ctx, args.id, args.input);
      return ctx.prisma.space.findUniqueOrThrow({ ...query, where: { id: args.id } });
    },
  }),
  deleteSpace: t.boolean({
    description: `Soft-deletes a space: it leaves lists, stays restorable for ${RETENTION_DAYS} days, then is removed for good.`,
    args: byId,
    resolve: async (_root, args, ctx) => {
      await service.deleteSpace(ctx, args.id);
      return true;
    },
  }),
  restoreSpace: t.prismaField({
    type: 'Space',
    args: byId,
    resolve: async (query, _root, args, ctx) => {
      await service.restoreSpace(ctx, args.id);
      return ctx.prisma.space.findUniqueOrThrow({ ...query, where: { id: args.id } });
    },
  }),
  duplicateSpace: t.prismaField({
    type: 'Space',
    description: 'Copies a space (settings and current content) next to the original.',
    args: byId,
    resolve: async (query, _root, args, ctx) => {
      const id = await service.duplicateSpace(ctx, args.id);
      return ctx.prisma.space.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  moveSpace: t.prismaField({
    type: 'Space',
    args: { ...byId, input: t.arg({ type: MoveSpaceInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await service.moveSpace(ctx, args.id, args.input);
      return ctx.prisma.space.findUniqueOrThrow({ ...query, where: { id: args.id } });
    },
  }),
  transferSpace: t.prismaField({
    type: 'Space',
    description:
      'Moves a space to another organization, at its top level or into one of its collections. Needs the admin role in its organization and `create` in the target.',
    args: { ...byId, input: t.arg({ type: TransferSpaceInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await service.transferSpace(ctx, args.id, args.input);
      return ctx.prisma.space.findUniqueOrThrow({ ...query, where: { id: args.id } });
    },
  }),
}));
