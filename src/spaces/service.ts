// What can be done to spaces, for the viewer of a Context: plain functions that check permissions through the
// kernel's authorize() and keep the tree's invariants (positions, effective levels, visibility) in one transaction.
import { RETENTION_DAYS, RETENTION_MS } from '../content/retention.js';
import { authorizeTransfer, transferContent } from '../content/transfer.js';
import { creationParent, type MoveContent, moveTarget, positionFor } from '../content/tree.js';
import type { Prisma, Space } from '../generated/prisma/client.js';
import { authorize, authorizeReference, collections, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { conflict } from '../kernel/errors.js';
import { lockIfMatch } from '../kernel/etags.js';
import { type ChangeEvent, changedFields, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { refreshEffectiveLevels } from '../kernel/permissions.js';
import { copyContent } from '../revisions/store.js';
import type { NewSpace, SpaceChange, SpaceTransfer } from './inputs.js';

/** An event about the space. */
const spaceEvent = (
  action: string,
  space: Pick<Space, 'id' | 'organizationId' | 'title'>,
  payload?: Record<string, unknown>,
): ChangeEvent => ({
  action,
  organizationId: space.organizationId,
  target: { type: 'space', id: space.id, label: space.title },
  spaceId: space.id,
  ...(payload && { payload }),
});

/** `in-collection` only exists for spaces in a collection: a space that leaves its collection becomes private. */
function visibilityUnder(parentId: string | null, visibility: Space['visibility']) {
  return !parentId && visibility === 'in_collection' ? 'private' : visibility;
}

/** Creates a space with its first (empty) revision. */
async function insertSpace(
  tx: Prisma.TransactionClient,
  data: Omit<Prisma.SpaceUncheckedCreateInput, 'revisionId'> & { id: string },
  createdById: string,
) {
  await tx.space.create({ data, select: { id: true } });
  const revision = await tx.revision.create({ data: { id: newId(), spaceId: data.id, createdById }, select: { id: true } });
  await tx.space.update({ where: { id: data.id }, data: { revisionId: revision.id }, select: { id: true } });
  return revision;
}

/** Returns the new space's id. */
export async function createSpace(ctx: Context, organizationId: string, input: NewSpace): Promise<string> {
  const parent = await creationParent(ctx, organizationId, input.parent);
  const id = newId();
  await ctx.prisma.$transaction(async (tx) => {
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
    await recordEvents(tx, ctx, [
      spaceEvent('space_created', { id, organizationId, title: input.title ?? '' }, { parent: parent?.id ?? null }),
    ]);
  });
  return id;
}

/** Title and emoji need `edit`; the settings (default level, edit mode, merge rules) need `admin`. */
export async function updateSpace(ctx: Context, id: string, input: SpaceChange): Promise<void> {
  const settings = input.defaultLevel !== undefined || input.editMode != null || input.mergeRules != null;
  const { row: space } = await authorize(ctx, spaces, id, settings ? 'admin' : 'edit');
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Space', id);
    await tx.space.update({
      where: { id },
      data: {
        ...(input.title != null && { title: input.title }),
        // null removes the emoji ("Remove icon or emoji" in GitBook's spec); the column holds '' for none.
        ...(input.emoji !== undefined && { emoji: input.emoji ?? '' }),
        ...(input.editMode != null && { editMode: input.editMode }),
        ...(input.defaultLevel !== undefined && { defaultLevel: input.defaultLevel }),
        ...(input.language !== undefined && { language: input.language }),
        ...(input.mergeRules != null && { mergeRules: input.mergeRules as Prisma.InputJsonValue }),
      },
      select: { id: true },
    });
    if (input.defaultLevel !== undefined) await refreshEffectiveLevels(tx, space.organizationId);
    const changed = changedFields(space, {
      title: input.title ?? undefined,
      emoji: input.emoji === undefined ? undefined : (input.emoji ?? ''),
      editMode: input.editMode ?? undefined,
      defaultLevel: input.defaultLevel,
      language: input.language,
      mergeRules: input.mergeRules ?? undefined,
    });
    if (Object.keys(changed).length) {
      await recordEvents(tx, ctx, [spaceEvent('space_updated', { ...space, title: input.title ?? space.title }, { changed })]);
    }
  });
}

export async function deleteSpace(ctx: Context, id: string): Promise<void> {
  const { row: space } = await authorize(ctx, spaces, id, 'admin', { allowDeleted: true });
  if (space.deletedAt) return;
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Space', id);
    await tx.space.update({ where: { id }, data: { deletedAt: ctx.clock.now() }, select: { id: true } });
    await recordEvents(tx, ctx, [spaceEvent('space_deleted', space)]);
  });
}

export async function restoreSpace(ctx: Context, id: string): Promise<void> {
  const { row: space } = await authorize(ctx, spaces, id, 'admin', { allowDeleted: true });
  if (!space.deletedAt) throw conflict('The space is not deleted.');
  if (ctx.clock.now().getTime() - space.deletedAt.getTime() > RETENTION_MS) {
    throw conflict(`The space was deleted more than ${RETENTION_DAYS} days ago and can no longer be restored.`);
  }
  await ctx.prisma.$transaction(async (tx) => {
    // Its collection may have been deleted meanwhile: the space then comes back at the top level, last.
    const position = space.parentId ? space.position : await positionFor(tx, space.organizationId, null, id);
    await tx.space.update({
      where: { id },
      data: { deletedAt: null, position, visibility: visibilityUnder(space.parentId, space.visibility) },
    });
    await refreshEffectiveLevels(tx, space.organizationId);
    await recordEvents(tx, ctx, [spaceEvent('space_restored', space)]);
  });
}

/** Copies a space (settings and current content) next to the original; returns the copy's id. */
export async function duplicateSpace(ctx: Context, id: string): Promise<string> {
  const { row: space } = await authorize(ctx, spaces, id, 'view');
  if (space.deletedAt) throw conflict('The space is deleted; restore it first.');
  const parent = await creationParent(ctx, space.organizationId, space.parentId);
  const copyId = newId();
  await ctx.prisma.$transaction(async (tx) => {
    await insertSpace(
      tx,
      {
        id: copyId,
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
        position: await positionFor(tx, space.organizationId, parent?.id ?? null, copyId, { after: { type: 'space', space: space.id } }),
      },
      ctx.viewer.userId,
    );
    const current = await tx.revision.findUniqueOrThrow({ where: { id: space.revisionId! } });
    await copyContent(tx, ctx.pageVersionHooks, current, copyId);
    const copy = { id: copyId, organizationId: space.organizationId, title: `${space.title} (copy)`.slice(0, 50) };
    await recordEvents(tx, ctx, [spaceEvent('space_created', copy, { parent: parent?.id ?? null, duplicateOf: space.id })]);
  });
  return copyId;
}

export async function moveSpace(ctx: Context, id: string, input: MoveContent): Promise<void> {
  const { row: space } = await authorize(ctx, spaces, id, 'admin');
  const parentId = await moveTarget(ctx, space, input.parent);
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Space', id);
    const position = await positionFor(tx, space.organizationId, parentId, id, input.position);
    await tx.space.update({ where: { id }, data: { parentId, position, visibility: visibilityUnder(parentId, space.visibility) } });
    await refreshEffectiveLevels(tx, space.organizationId);
    await recordEvents(tx, ctx, [spaceEvent('space_moved', space, { parent: { from: space.parentId, to: parentId } })]);
  });
}

/** Moves a space to another organization, at its top level or into one of its collections. */
export async function transferSpace(ctx: Context, id: string, input: SpaceTransfer): Promise<void> {
  const { row: space } = await authorize(ctx, spaces, id, 'admin');
  await authorizeTransfer(ctx, space.organizationId, input.organization);
  const parent = input.collection
    ? (
        await authorizeReference(
          ctx,
          collections,
          { id: input.collection, field: 'collection', organizationId: input.organization },
          'create',
        )
      ).row
    : null;
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Space', id);
    const parentId = parent?.id ?? null;
    const position = await positionFor(tx, input.organization, parentId, id);
    await tx.space.update({ where: { id }, data: { parentId, position, visibility: visibilityUnder(parentId, space.visibility) } });
    await transferContent(tx, { from: space.organizationId, to: input.organization, collectionIds: [], spaceIds: [id] });
    // Both organizations' logs: the one it left and the one it joined.
    const transfer = { organization: { from: space.organizationId, to: input.organization }, parent: parentId };
    await recordEvents(tx, ctx, [
      spaceEvent('space_transferred', space, transfer),
      spaceEvent('space_transferred', { ...space, organizationId: input.organization }, transfer),
    ]);
  });
}
