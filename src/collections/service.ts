// What can be done to collections, for the viewer of a Context: plain functions that check permissions through the
// kernel's authorize() and keep the tree's invariants (positions, effective levels) in one transaction.

import { authorizeTransfer, transferContent } from '../content/transfer.js';
import { collectionSubtree, creationParent, type MoveContent, moveTarget, positionFor } from '../content/tree.js';
import { authorize, authorizeSubtree, collections } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest } from '../kernel/errors.js';
import { lockIfMatch } from '../kernel/etags.js';
import { type ChangeEvent, changedFields, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { refreshEffectiveLevels } from '../kernel/permissions.js';
import type { CollectionChange, CollectionTransfer, NewCollection } from './inputs.js';

/** An event about the collection. */
const collectionEvent = (
  action: string,
  collection: { id: string; organizationId: string; title: string },
  payload?: Record<string, unknown>,
): ChangeEvent => ({
  action,
  organizationId: collection.organizationId,
  target: { type: 'collection', id: collection.id, label: collection.title },
  ...(payload && { payload }),
});

/** Returns the new collection's id. */
export async function createCollection(ctx: Context, organizationId: string, input: NewCollection): Promise<string> {
  const parent = await creationParent(ctx, organizationId, input.parent);
  const id = newId();
  const title = input.title ?? '';
  await ctx.prisma.$transaction(async (tx) => {
    await tx.collection.create({
      data: {
        id,
        organizationId,
        parentId: parent?.id ?? null,
        title,
        effectiveLevel: parent ? parent.effectiveLevel : 'inherit',
        position: await positionFor(tx, organizationId, parent?.id ?? null, id),
      },
      select: { id: true },
    });
    await recordEvents(tx, ctx, [collectionEvent('collection_created', { id, organizationId, title }, { parent: parent?.id ?? null })]);
  });
  return id;
}

export async function updateCollection(ctx: Context, id: string, input: CollectionChange): Promise<void> {
  const { row: collection } = await authorize(ctx, collections, id, 'admin');
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Collection', id);
    await tx.collection.update({
      where: { id },
      data: {
        ...(input.title != null && { title: input.title }),
        ...(input.description != null && { description: input.description }),
        ...(input.defaultLevel !== undefined && { defaultLevel: input.defaultLevel }),
      },
    });
    if (input.defaultLevel !== undefined) await refreshEffectiveLevels(tx, collection.organizationId);
    const changed = changedFields(collection, {
      title: input.title ?? undefined,
      description: input.description ?? undefined,
      defaultLevel: input.defaultLevel,
    });
    if (Object.keys(changed).length) {
      await recordEvents(tx, ctx, [
        collectionEvent('collection_updated', { ...collection, title: input.title ?? collection.title }, { changed }),
      ]);
    }
  });
}

/**
 * Deletes a collection and the collections below it; their spaces are soft-deleted (restorable). The caller must
 * administer every one of them, not only the collection.
 */
export async function deleteCollection(ctx: Context, id: string): Promise<void> {
  const { row: collection } = await authorize(ctx, collections, id, 'admin');
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Collection', id);
    const { collectionIds, spaceIds } = await authorizeSubtree(tx, ctx, id, 'admin');
    const deleted = await tx.$queryRaw<{ id: string; title: string }[]>`
      UPDATE "Space" SET "deletedAt" = ${ctx.clock.now()} WHERE id = ANY(${spaceIds}::text[]) AND "deletedAt" IS NULL RETURNING id, title`;
    await tx.collection.delete({ where: { id } });
    await refreshEffectiveLevels(tx, collection.organizationId);
    // The spaces deleted with it record theirs too: a webhook limited to a space hears of it.
    await recordEvents(tx, ctx, [
      collectionEvent('collection_deleted', collection, { collections: collectionIds, spaces: deleted.map((space) => space.id) }),
      ...deleted.map((space) => ({
        action: 'space_deleted',
        organizationId: collection.organizationId,
        target: { type: 'space', id: space.id, label: space.title },
        spaceId: space.id,
        payload: { collection: id },
      })),
    ]);
  });
}

export async function moveCollection(ctx: Context, id: string, input: MoveContent): Promise<void> {
  const { row: collection } = await authorize(ctx, collections, id, 'admin');
  const parentId = await moveTarget(ctx, collection, input.parent);
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Collection', id);
    if (parentId && (await collectionSubtree(tx, id)).includes(parentId)) {
      throw badRequest('Invalid "parent": a collection cannot be moved into itself or one of its descendants.');
    }
    const position = await positionFor(tx, collection.organizationId, parentId, id, input.position);
    await tx.collection.update({ where: { id }, data: { parentId, position } });
    await refreshEffectiveLevels(tx, collection.organizationId);
    await recordEvents(tx, ctx, [collectionEvent('collection_moved', collection, { parent: { from: collection.parentId, to: parentId } })]);
  });
}

/** Moves a collection, with everything below it (which the caller must administer), to the top level of another organization. */
export async function transferCollection(ctx: Context, id: string, input: CollectionTransfer): Promise<void> {
  const { row: collection } = await authorize(ctx, collections, id, 'admin');
  await authorizeTransfer(ctx, collection.organizationId, input.organization);
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Collection', id);
    const { collectionIds, spaceIds } = await authorizeSubtree(tx, ctx, id, 'admin');
    const position = await positionFor(tx, input.organization, null, id);
    await tx.collection.update({ where: { id }, data: { parentId: null, position } });
    await transferContent(tx, {
      from: collection.organizationId,
      to: input.organization,
      collectionIds,
      spaceIds,
    });
    // Both organizations' logs: the one it left and the one it joined.
    const transfer = {
      organization: { from: collection.organizationId, to: input.organization },
      collections: collectionIds,
      spaces: spaceIds,
    };
    await recordEvents(tx, ctx, [
      collectionEvent('collection_transferred', collection, transfer),
      collectionEvent('collection_transferred', { ...collection, organizationId: input.organization }, transfer),
    ]);
  });
}
