// Creating, updating, deleting, restoring, duplicating, moving and transferring spaces.
import { z } from 'zod';
import { targetCollection, transferTarget, MoveContentInput } from '../collections/mutations.js';
import { MoveBody, positionFor } from '../content/tree.js';
import { transferContent } from '../content/transfer.js';
import type { Prisma } from '../generated/prisma/client.js';
import { memberOf, visibleLevel } from '../kernel/access.js';
import { builder } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { ContentLevelEnum } from '../kernel/enums.js';
import { badRequest, conflict, forbidden } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { atLeast, can, type Level, refreshEffectiveLevels } from '../kernel/permissions.js';
import { parseInput } from '../kernel/validation.js';
import { SpaceEditModeEnum } from './types.js';

/** Deleted spaces stay restorable this long; the purge job removes them after it (src/spaces/purge.ts). */
export const RETENTION_DAYS = 7;
export const RETENTION_MS = RETENTION_DAYS * 24 * 60 * 60 * 1000;

const LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl'] as const;

/** An emoji character sequence, or its code points in hex ("1f389", "1f468-200d-1f4bb"), as GitBook accepts. */
const emoji = z
  .string()
  .max(50)
  .regex(/^(|[0-9a-f]{4,6}(-[0-9a-f]{4,6})*|[\p{Extended_Pictographic}\p{Emoji_Component}\u200d\ufe0f\u20e3]+)$/iu, 'must be an emoji or its hex code points');

const CreateSpace = z.object({
  title: z.string().max(50).optional(),
  emoji: emoji.optional(),
  parent: z.string().min(1).optional(),
  editMode: z.enum(['live', 'locked']).optional(),
  language: z.enum(LANGUAGES).optional(),
  template: z.never({ error: 'templates are not available on this server' }).optional(),
  computedSource: z.never({ error: 'computed content sources are not available on this server' }).optional(),
  empty: z.boolean().optional(),
});

const UpdateSpace = z.object({
  title: z.string().max(50).optional(),
  // null removes the emoji ("Remove icon or emoji" in GitBook's spec); the column holds '' for none.
  emoji: emoji.nullable().transform((value) => value ?? '').optional(),
  editMode: z.enum(['live', 'locked']).optional(),
  defaultLevel: z.enum(['inherit', 'admin', 'create', 'review', 'edit', 'comment', 'read']).nullable().optional(),
  language: z.enum(LANGUAGES).nullable().optional(),
  mergeRules: z.discriminatedUnion('type', [z.object({ type: z.literal('inherit') }), z.object({ type: z.literal('none') }), z.object({ type: z.literal('rules'), rules: z.array(z.json()) })]).optional(),
});

const TransferSpace = z.object({ organization: z.string().min(1), collection: z.string().min(1).optional() });

const CreateSpaceInput = builder.inputType('CreateSpaceInput', {
  fields: (t) => ({
    title: t.string({ description: 'At most 50 characters.' }),
    emoji: t.string(),
    parent: t.id({ description: 'Parent collection.' }),
    editMode: t.field({ type: SpaceEditModeEnum }),
    language: t.string(),
    template: t.field({ type: 'JSON', description: 'Not available on this server.' }),
    computedSource: t.field({ type: 'JSON', description: 'Not available on this server.' }),
    empty: t.boolean({ description: 'Create the space with no page (spaces are created empty here in any case).' }),
  }),
});
const UpdateSpaceInput = builder.inputType('UpdateSpaceInput', {
  fields: (t) => ({
    title: t.string({ description: 'At most 50 characters.' }),
    emoji: t.string(),
    editMode: t.field({ type: SpaceEditModeEnum }),
    defaultLevel: t.field({ type: ContentLevelEnum, description: 'A role, inherit, or null for no default access.' }),
    language: t.string(),
    mergeRules: t.field({ type: 'JSON' }),
  }),
});
const TransferSpaceInput = builder.inputType('TransferSpaceInput', {
  fields: (t) => ({
    organization: t.id({ required: true, description: 'Target organization.' }),
    collection: t.id({ description: 'Collection of the target organization to put the space in.' }),
  }),
});

async function visibleSpace(ctx: Context, id: string): Promise<{ space: Prisma.SpaceGetPayload<object>; level: Exclude<Level, null> }> {
  const space = await ctx.prisma.space.findUnique({ where: { id } });
  const level = await visibleLevel(ctx, space, 'Space');
  return { space: space!, level };
}

/** A live space the viewer administers: 404 invisible, 403 not administrable, 409 deleted. */
async function administeredSpace(ctx: Context, id: string, allowDeleted = false) {
  const { space, level } = await visibleSpace(ctx, id);
  if (!can.administerContent(level)) throw forbidden('You cannot administer this space.');
  if (space.deletedAt && !allowDeleted) throw conflict('The space is deleted; restore it first.');
  return space;
}

/** Where new content may go: a collection the viewer can create in, or the organization's top level. */
async function creationParent(ctx: Context, organizationId: string, parentId: string | null | undefined, field: string) {
  const member = await memberOf(ctx, organizationId, 'Organization');
  if (parentId) return targetCollection(ctx, parentId, organizationId, field);
  if (!can.createContentInOrganization(member)) throw forbidden('You cannot create content in this organization.');
  return null;
}

/** `in-collection` only exists for spaces in a collection: a space that leaves its collection becomes private. */
function visibilityUnder(parentId: string | null, visibility: Prisma.SpaceGetPayload<object>['visibility']) {
  return !parentId && visibility === 'in_collection' ? 'private' : visibility;
}

/** Creates a space with its first (empty) revision, in one transaction. */
async function insertSpace(
  tx: Prisma.TransactionClient,
  data: Omit<Prisma.SpaceUncheckedCreateInput, 'id' | 'revisionId'> & { id: string },
  createdById: string,
) {
  await tx.space.create({ data });
  const revision = await tx.revision.create({ data: { id: newId(), spaceId: data.id, createdById } });
  await tx.space.update({ where: { id: data.id }, data: { revisionId: revision.id } });
  return revision;
}

builder.mutationFields((t) => ({
  createSpace: t.prismaField({
    type: 'Space',
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateSpaceInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const organizationId = String(args.organizationId);
      await memberOf(ctx, organizationId, 'Organization');
      const input = parseInput(CreateSpace, args.input);
      const parent = await creationParent(ctx, organizationId, input.parent, 'parent');
      const id = newId();
      return ctx.prisma.$transaction(async (tx) => {
        await insertSpace(
          tx,
          {
            id,
            organizationId,
            parentId: parent?.id ?? null,
            title: input.title ?? '',
            emoji: input.emoji ?? '',
            editMode: input.editMode ?? 'live',
            language: input.language,
            visibility: parent ? 'in_collection' : 'private',
            effectiveLevel: parent ? parent.effectiveLevel : 'inherit',
            position: await positionFor(tx, organizationId, parent?.id ?? null, id),
          },
          ctx.viewer.userId,
        );
        return tx.space.findUniqueOrThrow({ ...query, where: { id } });
      });
    },
  }),
  updateSpace: t.prismaField({
    type: 'Space',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateSpaceInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const { space, level } = await visibleSpace(ctx, String(args.id));
      const input = parseInput(UpdateSpace, args.input);
      const settings = input.defaultLevel !== undefined || input.editMode !== undefined || input.mergeRules !== undefined;
      if (settings ? !can.administerContent(level) : !atLeast(level, 'edit')) throw forbidden('You cannot update this space.');
      if (space.deletedAt) throw conflict('The space is deleted; restore it first.');
      return ctx.prisma.$transaction(async (tx) => {
        await tx.space.update({ where: { id: space.id }, data: input });
        if (input.defaultLevel !== undefined) await refreshEffectiveLevels(tx, space.organizationId);
        return tx.space.findUniqueOrThrow({ ...query, where: { id: space.id } });
      });
    },
  }),
  deleteSpace: t.boolean({
    description: `Soft-deletes a space: it leaves lists, stays restorable for ${RETENTION_DAYS} days, then is removed for good.`,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const space = await administeredSpace(ctx, String(args.id), true);
      if (!space.deletedAt) await ctx.prisma.space.update({ where: { id: space.id }, data: { deletedAt: ctx.clock.now() } });
      return true;
    },
  }),
  restoreSpace: t.prismaField({
    type: 'Space',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const space = await administeredSpace(ctx, String(args.id), true);
      if (!space.deletedAt) throw conflict('The space is not deleted.');
      if (ctx.clock.now().getTime() - space.deletedAt.getTime() > RETENTION_MS) {
        throw conflict(`The space was deleted more than ${RETENTION_DAYS} days ago and can no longer be restored.`);
      }
      return ctx.prisma.$transaction(async (tx) => {
        // Its collection may have been deleted meanwhile: the space then comes back at the top level, last.
        const position = space.parentId ? space.position : await positionFor(tx, space.organizationId, null, space.id);
        await tx.space.update({ where: { id: space.id }, data: { deletedAt: null, position, visibility: visibilityUnder(space.parentId, space.visibility) } });
        await refreshEffectiveLevels(tx, space.organizationId);
        return tx.space.findUniqueOrThrow({ ...query, where: { id: space.id } });
      });
    },
  }),
  duplicateSpace: t.prismaField({
    type: 'Space',
    description: 'Copies a space (settings and current content) next to the original.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const { space } = await visibleSpace(ctx, String(args.id));
      if (space.deletedAt) throw conflict('The space is deleted; restore it first.');
      const parent = await creationParent(ctx, space.organizationId, space.parentId, 'parent');
      const id = newId();
      return ctx.prisma.$transaction(async (tx) => {
        const siblingsAfter = { type: 'space' as const, space: space.id };
        const revision = await insertSpace(
          tx,
          {
            id,
            organizationId: space.organizationId,
            parentId: parent?.id ?? null,
            title: `${space.title} (copy)`.slice(0, 50),
            emoji: space.emoji,
            visibility: visibilityUnder(parent?.id ?? null, space.visibility),
            editMode: space.editMode,
            defaultLevel: space.defaultLevel,
            effectiveLevel: space.effectiveLevel,
            language: space.language,
            mergeRules: space.mergeRules as Prisma.InputJsonValue,
            position: await positionFor(tx, space.organizationId, parent?.id ?? null, id, { after: siblingsAfter }),
          },
          ctx.viewer.userId,
        );
        if (space.revisionId) await copyRevisionContent(tx, space.revisionId, revision.id);
        return tx.space.findUniqueOrThrow({ ...query, where: { id } });
      });
    },
  }),
  moveSpace: t.prismaField({
    type: 'Space',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: MoveContentInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const space = await administeredSpace(ctx, String(args.id));
      const input = parseInput(MoveBody, args.input);
      const parentId = input.parent === undefined ? space.parentId : input.parent;
      if (parentId) await targetCollection(ctx, parentId, space.organizationId, 'parent');
      return ctx.prisma.$transaction(async (tx) => {
        const position = await positionFor(tx, space.organizationId, parentId, space.id, input.position);
        await tx.space.update({ where: { id: space.id }, data: { parentId, position, visibility: visibilityUnder(parentId, space.visibility) } });
        await refreshEffectiveLevels(tx, space.organizationId);
        return tx.space.findUniqueOrThrow({ ...query, where: { id: space.id } });
      });
    },
  }),
  transferSpace: t.prismaField({
    type: 'Space',
    description: 'Moves a space to another organization, at its top level or into one of its collections.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: TransferSpaceInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const space = await administeredSpace(ctx, String(args.id));
      const input = parseInput(TransferSpace, args.input);
      await transferTarget(ctx, input.organization, space.organizationId);
      const parent = input.collection ? await targetCollection(ctx, input.collection, input.organization, 'collection') : null;
      return ctx.prisma.$transaction(async (tx) => {
        const position = await positionFor(tx, input.organization, parent?.id ?? null, space.id);
        const parentId = parent?.id ?? null;
        await tx.space.update({ where: { id: space.id }, data: { parentId, position, visibility: visibilityUnder(parentId, space.visibility) } });
        await transferContent(tx, { from: space.organizationId, to: input.organization, collectionIds: [], spaceIds: [space.id] });
        return tx.space.findUniqueOrThrow({ ...query, where: { id: space.id } });
      });
    },
  }),
}));

/** Copies the pages and files of one revision into another (two statements each way, whatever the size). */
async function copyRevisionContent(tx: Prisma.TransactionClient, from: string, to: string) {
  const [pages, files] = await Promise.all([tx.page.findMany({ where: { revisionId: from } }), tx.file.findMany({ where: { revisionId: from } })]);
  if (pages.length) await tx.page.createMany({ data: pages.map((p) => ({ ...p, revisionId: to })) as Prisma.PageCreateManyInput[] });
  if (files.length) await tx.file.createMany({ data: files.map((f) => ({ ...f, revisionId: to })) });
}
