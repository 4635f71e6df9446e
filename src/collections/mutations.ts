// Creating, updating, deleting, moving and transferring collections.
import { z } from 'zod';
import { collectionSubtree, MoveBody, positionFor } from '../content/tree.js';
import { transferContent } from '../content/transfer.js';
import { levelOn, memberOf, visibleLevel } from '../kernel/access.js';
import { builder } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { ContentLevelEnum } from '../kernel/enums.js';
import { badRequest, conflict, forbidden } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { can, refreshEffectiveLevels } from '../kernel/permissions.js';
import { parseInput } from '../kernel/validation.js';

const contentLevel = z.enum(['inherit', 'admin', 'create', 'review', 'edit', 'comment', 'read']).nullable();

const CreateCollection = z.object({ title: z.string().max(50).optional(), parent: z.string().min(1).optional() });
const UpdateCollection = z.object({
  title: z.string().max(50).optional(),
  description: z.string().max(100).optional(),
  defaultLevel: contentLevel.optional(),
});
const TransferBody = z.object({ organization: z.string().min(1) });

const CreateCollectionInput = builder.inputType('CreateCollectionInput', {
  fields: (t) => ({ title: t.string({ description: 'At most 50 characters.' }), parent: t.id({ description: 'Parent collection.' }) }),
});
const UpdateCollectionInput = builder.inputType('UpdateCollectionInput', {
  fields: (t) => ({
    title: t.string({ description: 'At most 50 characters.' }),
    description: t.string({ description: 'At most 100 characters.' }),
    defaultLevel: t.field({ type: ContentLevelEnum, description: 'A role, inherit, or null for no default access.' }),
  }),
});
const SiblingRefInput = builder.inputType('ContentPositionRef', {
  fields: (t) => ({ type: t.string({ required: true, description: 'space or collection' }), space: t.id(), collection: t.id() }),
});
export const MoveContentInput = builder.inputType('MoveContentInput', {
  fields: (t) => ({
    parent: t.id({ description: 'Target collection; null moves to the top level; absent keeps the current parent.' }),
    position: t.field({ type: builder.inputType('ContentPosition', { fields: (p) => ({ before: p.field({ type: SiblingRefInput }), after: p.field({ type: SiblingRefInput }) }) }) }),
  }),
});
export const TransferContentInput = builder.inputType('TransferContentInput', {
  fields: (t) => ({ organization: t.id({ required: true, description: 'Target organization.' }) }),
});

/** A collection the viewer administers: 404 when invisible, 403 when visible but not administrable. */
async function administeredCollection(ctx: Context, id: string) {
  const collection = await ctx.prisma.collection.findUnique({ where: { id } });
  const level = await visibleLevel(ctx, collection, 'Collection');
  if (!can.administerContent(level)) throw forbidden('You cannot administer this collection.');
  return collection!;
}

/** A collection named in a body (`field`) under which the viewer may create content, in `organizationId`. */
export async function targetCollection(ctx: Context, id: string, organizationId: string, field: string) {
  const collection = await ctx.prisma.collection.findUnique({ where: { id } });
  const level = collection?.organizationId === organizationId ? await levelOn(ctx, collection) : null;
  if (!level) throw badRequest(`Invalid "${field}": no such collection in this organization.`);
  if (!can.createContentIn(level)) throw forbidden('You cannot create content in the target collection.');
  return collection;
}

/** The target organization of a transfer: 404 when the viewer is not a member, 403 when it may not create there. */
export async function transferTarget(ctx: Context, organizationId: string, from: string) {
  const member = await memberOf(ctx, organizationId, 'Organization');
  if (organizationId === from) throw conflict('The content already belongs to this organization.');
  if (!can.createContentInOrganization(member)) throw forbidden('You cannot create content in the target organization.');
}

builder.mutationFields((t) => ({
  createCollection: t.prismaField({
    type: 'Collection',
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateCollectionInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const organizationId = String(args.organizationId);
      const member = await memberOf(ctx, organizationId, 'Organization');
      const input = parseInput(CreateCollection, args.input);
      const parent = input.parent ? await targetCollection(ctx, input.parent, organizationId, 'parent') : null;
      if (!parent && !can.createContentInOrganization(member)) throw forbidden('You cannot create content in this organization.');
      const id = newId();
      return ctx.prisma.$transaction(async (tx) =>
        tx.collection.create({
          ...query,
          data: {
            id,
            organizationId,
            parentId: parent?.id ?? null,
            title: input.title ?? '',
            effectiveLevel: parent ? parent.effectiveLevel : 'inherit',
            position: await positionFor(tx, organizationId, parent?.id ?? null, id),
          },
        }),
      );
    },
  }),
  updateCollection: t.prismaField({
    type: 'Collection',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateCollectionInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const collection = await administeredCollection(ctx, String(args.id));
      const input = parseInput(UpdateCollection, args.input);
      return ctx.prisma.$transaction(async (tx) => {
        await tx.collection.update({ where: { id: collection.id }, data: input });
        if (input.defaultLevel !== undefined) await refreshEffectiveLevels(tx, collection.organizationId);
        return tx.collection.findUniqueOrThrow({ ...query, where: { id: collection.id } });
      });
    },
  }),
  deleteCollection: t.boolean({
    description: 'Deletes a collection and the collections below it; their spaces are soft-deleted (restorable for 7 days).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const collection = await administeredCollection(ctx, String(args.id));
      await ctx.prisma.$transaction(async (tx) => {
        const ids = await collectionSubtree(tx, collection.id);
        await tx.space.updateMany({ where: { parentId: { in: ids }, deletedAt: null }, data: { deletedAt: ctx.clock.now() } });
        await tx.collection.delete({ where: { id: collection.id } });
        await refreshEffectiveLevels(tx, collection.organizationId);
      });
      return true;
    },
  }),
  moveCollection: t.prismaField({
    type: 'Collection',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: MoveContentInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const collection = await administeredCollection(ctx, String(args.id));
      const input = parseInput(MoveBody, args.input);
      const parentId = input.parent === undefined ? collection.parentId : input.parent;
      if (parentId) await targetCollection(ctx, parentId, collection.organizationId, 'parent');
      return ctx.prisma.$transaction(async (tx) => {
        if (parentId && (await collectionSubtree(tx, collection.id)).includes(parentId)) {
          throw badRequest('Invalid "parent": a collection cannot be moved into itself or one of its descendants.');
        }
        const position = await positionFor(tx, collection.organizationId, parentId, collection.id, input.position);
        await tx.collection.update({ where: { id: collection.id }, data: { parentId, position } });
        await refreshEffectiveLevels(tx, collection.organizationId);
        return tx.collection.findUniqueOrThrow({ ...query, where: { id: collection.id } });
      });
    },
  }),
  transferCollection: t.prismaField({
    type: 'Collection',
    description: 'Moves a collection, with everything below it, to the top level of another organization.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: TransferContentInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const collection = await administeredCollection(ctx, String(args.id));
      const { organization } = parseInput(TransferBody, args.input);
      await transferTarget(ctx, organization, collection.organizationId);
      return ctx.prisma.$transaction(async (tx) => {
        const collectionIds = await collectionSubtree(tx, collection.id);
        const spaces = await tx.space.findMany({ where: { parentId: { in: collectionIds } }, select: { id: true } });
        const position = await positionFor(tx, organization, null, collection.id);
        await tx.collection.update({ where: { id: collection.id }, data: { parentId: null, position } });
        await transferContent(tx, { from: collection.organizationId, to: organization, collectionIds, spaceIds: spaces.map((s) => s.id) });
        return tx.collection.findUniqueOrThrow({ ...query, where: { id: collection.id } });
      });
    },
  }),
}));
