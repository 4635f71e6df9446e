// Merging a change request into its space, and updating it from the space's current content (three-way merges:
// src/revisions/merge.ts). Both run in one transaction that locks what they change: a merge locks the space (two
// merges into one space take turns, the second merging from the first one's result), an update locks the change
// request. Reads go through the same transaction, so a merge sees the content it replaces.

import { enforceMergeRules } from '../change-request-reviews/merge-rules.js';
import type { SqlRunner } from '../db/client.js';
import type { ChangeRequest, Revision } from '../generated/prisma/client.js';
import { authorize, rowOf, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { conflict, notFound } from '../kernel/errors.js';
import { assertIfMatch, tagOf } from '../kernel/etags.js';
import { recordEvents } from '../kernel/events.js';
import { type MergeConflict, mergeIntoMain, updateFromMain } from '../revisions/merge.js';
import { changeRequests } from './access.js';
import { changeRequestEvent, spaceContentUpdatedEvent } from './events.js';

type Tx = Parameters<Parameters<Context['prisma']['$transaction']>[0]>[0];

export interface WorkflowOutcome {
  result: 'merge' | 'update' | 'conflicts';
  revision: string;
  conflicts: MergeConflict[];
}

/** Plain SQL on the transaction's connection. */
export const sqlOf =
  (tx: Tx): SqlRunner =>
  (query) =>
    tx.$queryRaw(query);

/** The change request's row, locked, refused when its status allows no change (409 naming it). */
export async function lockedChangeRequest(tx: Tx, id: string): Promise<ChangeRequest> {
  const [row] = await tx.$queryRaw<ChangeRequest[]>`SELECT * FROM "ChangeRequest" WHERE id = ${id} FOR UPDATE`;
  if (!row) throw notFound('Change request');
  if (row.status === 'merged' || row.status === 'archived') throw conflict(`The change request is ${row.status}: it can no longer change.`);
  return row;
}

/** The space's row, locked; refused while the space is locked (editMode `locked`): its content does not change. */
async function lockedSpace(tx: Tx, spaceId: string): Promise<{ revisionId: string }> {
  const [space] = await tx.$queryRaw<{ revisionId: string; editMode: string | null }[]>`
    SELECT "revisionId", "editMode" FROM "Space" WHERE id = ${spaceId} FOR UPDATE`;
  if (space.editMode === 'locked') throw conflict('The space is locked: set its editMode to live to change its content.');
  return space;
}

const revision = async (tx: Tx, id: string) => (await tx.$queryRaw<Revision[]>`SELECT * FROM "Revision" WHERE id = ${id}`)[0];

/**
 * Merges the change request into its space; `conflicts` leaves both unchanged. Needs `merge` on the space, and the
 * change request must meet the space's merge rules (409 naming the rule it breaks). A merge records itself and GitBook's
 * `space_content_updated` (spaceId, revisionId, updatedBy); conflicts record nothing.
 */
export async function mergeChangeRequest(ctx: Context, spaceId: string, idOrNumber: string): Promise<WorkflowOutcome> {
  const { row: found } = await authorize(ctx, changeRequests, { id: idOrNumber, parent: spaceId }, 'merge');
  const target = (await rowOf(ctx, spaces, spaceId))!;
  return ctx.prisma.$transaction(async (tx) => {
    const space = await lockedSpace(tx, spaceId);
    const changeRequest = await lockedChangeRequest(tx, found.id);
    assertIfMatch(ctx, 'Change request', tagOf(changeRequest));
    await enforceMergeRules(sqlOf(tx), changeRequest, ctx.viewer.userId);
    const [main, theirs] = [await revision(tx, space.revisionId), await revision(tx, changeRequest.revisionId)];
    const outcome = await mergeIntoMain(tx, sqlOf(tx), ctx.pageVersionHooks, main, theirs, ctx.viewer.userId);
    if (outcome.result === 'merge') {
      const now = ctx.clock.now();
      await tx.$executeRaw`UPDATE "Space" SET "revisionId" = ${outcome.revision.id}, "updatedAt" = ${now} WHERE id = ${spaceId}`;
      await tx.$executeRaw`
        UPDATE "ChangeRequest" SET status = 'merged', "revisionMergedId" = ${outcome.revision.id}, "mergedAt" = ${now}, "updatedAt" = ${now}
         WHERE id = ${changeRequest.id}`;
      const revisionId = outcome.revision.id;
      await recordEvents(tx, ctx, [
        changeRequestEvent('change_request_merged', target, changeRequest, { revisionId }),
        spaceContentUpdatedEvent(target, revisionId, ctx.viewer.userId, { changeRequestId: changeRequest.id }),
      ]);
    }
    return { result: outcome.result, revision: outcome.revision.id, conflicts: outcome.conflicts };
  });
}

/**
 * Brings the space's current content into the change request; conflicts are kept in it, marked. Needs `edit`. A new
 * revision is recorded as a content update from the space.
 */
export async function updateFromSpace(ctx: Context, spaceId: string, idOrNumber: string): Promise<WorkflowOutcome> {
  const { row: found } = await authorize(ctx, changeRequests, { id: idOrNumber, parent: spaceId }, 'edit');
  const target = (await rowOf(ctx, spaces, spaceId))!;
  return ctx.prisma.$transaction(async (tx) => {
    const changeRequest = await lockedChangeRequest(tx, found.id);
    assertIfMatch(ctx, 'Change request', tagOf(changeRequest));
    const [space] = await tx.$queryRaw<{ revisionId: string }[]>`SELECT "revisionId" FROM "Space" WHERE id = ${spaceId}`;
    const [ours, main] = [await revision(tx, changeRequest.revisionId), await revision(tx, space.revisionId)];
    const outcome = await updateFromMain(tx, sqlOf(tx), ctx.pageVersionHooks, ours, main, ctx.viewer.userId);
    if (outcome.revision.id !== ours.id) {
      await tx.$executeRaw`
        UPDATE "ChangeRequest" SET "revisionId" = ${outcome.revision.id}, "revisionMergedAncestorId" = ${main.id}, "updatedAt" = ${ctx.clock.now()}
         WHERE id = ${changeRequest.id}`;
      const from = { revisionId: outcome.revision.id, fromSpaceRevisionId: main.id, conflicts: outcome.conflicts.length };
      await recordEvents(tx, ctx, [changeRequestEvent('change_request_content_updated', target, changeRequest, from)]);
    }
    return { result: outcome.result, revision: outcome.revision.id, conflicts: outcome.conflicts };
  });
}
