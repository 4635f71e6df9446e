// What can be done to collections, for the viewer of a Context: plain functions that check permissions through the
// kernel's authorize() and keep the tree's invariants (positions, effective levels) in one transaction.

import { authorizeTransfer, transferContent } from '../content/transfer.js';
import { collectionSubtree, creationParent, type MoveContent, moveTarget, positionFor } from '../content/tree.js';
import { authorize, authorizeSubtree, collections } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { refreshEffectiveLevels } from '../kernel/permissions.js';
import type { CollectionChange, CollectionTransfer, NewCollection } from './inputs.js';

/** Returns the new collection's id. */
export async function createCollection(ctx: Context, organizationId: string, input: NewCollection): Promise<string> {
  const parent = await creationParent(ctx, organizationId, input.parent);
  const id = newId();
  await ctx.prisma.$transaction(async (tx) =>
    tx.collection.create({
      data: {
        id,
        organizationId,
        parentId: parent?.id ?? null,
        title: input.title ?? '',
        effectiveLevel: parent ? parent.effectiveLevel : 'inherit',
        position: await positionFor(tx, organizationId, parent?.id ?? null, id),
      },
      select: { id: true },
    }),
  );
  return id;
}

export async function updateCollection(ctx: Context, id: string, input: CollectionChange): Promise<void> {
  const { row: collection } = await authorize(ctx, collections, id, 'admin');
  await ctx.prisma.$transaction(async (tx) => {
    await tx.collection.update({
      where: { id },
      data: {
        ...(input.title != null && { title: input.title }),
        ...(input.description != null && { description: input.description }),
        ...(input.defaultLevel !== undefined && { defaultLevel: input.defaultLevel }),
      },
    });
    if (input.defaultLevel !== undefined) await refreshEffectiveLevels(tx, collection.organizationId);
  });
}

/**
 * Deletes a collection and the collections below it; their spaces are soft-deleted (restorable). The caller must
 * administer every one of them, not only the collection.
 */
export async function deleteCollection(ctx: Context, id: string): Promise<void> {
  const { row: collection } = await authorize(ctx, collections, id, 'admin');
  await ctx.prisma.$transaction(async (tx) => {
    const { spaceIds } = await authorizeSubtree(tx, ctx, id, 'admin');
    await tx.space.updateMany({ where: { id: { in: spaceIds }, deletedAt: null }, data: { deletedAt: ctx.clock.now() } });
    await tx.collection.delete({ where: { id } });
    await refreshEffectiveLevels(tx, collection.organizationId);
  });
}

export async function moveCollection(ctx: Context, id: string, input: MoveContent): Promise<void> {
  const { row: collection } = await authorize(ctx, collections, id, 'admin');
  const parentId = await moveTarget(ctx, collection, input.parent);
  await ctx.prisma.$transaction(async (tx) => {
    if (parentId && (await collectionSubtree(tx, id)).includes(parentId)) {
      throw badRequest('Invalid "parent": a collection cannot be moved into itself or one of its descendants.');
    }
    const position = await positionFor(tx, collection.organizationId, parentId, id, input.position);
    await tx.collection.update({ where: { id }, data: { parentId, position } });
    await refreshEffectiveLevels(tx, collection.organizationId);
  });
}

/** Moves a collection, with everything below it (which the caller must administer), to the top level of another organization. */
export async function transferCollection(ctx: Context, id: string, input: CollectionTransfer): Promise<void> {
  const { row: collection } = await authorize(ctx, collections, id, 'admin');
  await authorizeTransfer(ctx, collection.organizationId, input.organization);
  await ctx.prisma.$transaction(async (tx) => {
    const { collectionIds, spaceIds } = await authorizeSubtree(tx, ctx, id, 'admin');
    const position = await positionFor(tx, input.organization, null, id);
    await tx.collection.update({ where: { id }, data: { parentId: null, position } });
    await transferContent(tx, {
      from: collection.organizationId,
      to: input.organization,
      collectionIds,
      spaceIds,
    });
  });
}
