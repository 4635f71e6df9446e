// Reviews of change requests, and the reviews asked for. Reviewing needs `review` on the space (roles review and up)
// and is never the change request's author's: whoever wrote the work does not approve it. A review is given on the
// change request's revision of the time, with an optional comment (a comment of the change request that names the
// review); it answers the request that asked its reviewer for it, directly or through a team. Asking for reviews needs
// `edit`: of members who may review the change request (review and up on its space), or of its organization's teams.
import { changeRequests } from '../change-requests/access.js';
import { changeRequestEvent } from '../change-requests/events.js';
import { type ChangeRequestUpdate, updateChangeRequest } from '../change-requests/service.js';
import { commentEvent } from '../comments/events.js';
import { type BodyInput, postReviewComment } from '../comments/service.js';
import type { ChangeRequest, ChangeRequestRequestedReviewer, ChangeRequestReviewStatus, Comment } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { authorize, authorizeReference, rowOf, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { ApiError, conflict, notFound } from '../kernel/errors.js';
import { type ChangeEvent, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { atLeast, memberLevelSql, type Role } from '../kernel/permissions.js';
import { invalidInput } from '../kernel/validation.js';
import { teams } from '../teams/access.js';
import { type Review, reviewCommentAnnotation } from './access.js';

/** Where a request names a change request: its space, and its id or number there. */
export interface ChangeRequestLocation {
  spaceId: string;
  changeRequestId: string;
}

export interface ReviewInput {
  status: ChangeRequestReviewStatus;
  /** Absent, or `{}` (GitBook's empty Document): no comment. */
  comment?: BodyInput | null;
}

/** The change request, locked against a merge while a review is given on it; 409 once merged or archived. */
async function reviewable(tx: Prisma.TransactionClient, id: string): Promise<ChangeRequest> {
  const [row] = await tx.$queryRaw<ChangeRequest[]>`SELECT * FROM "ChangeRequest" WHERE id = ${id} FOR SHARE`;
  if (!row) throw notFound('Change request');
  if (row.status === 'merged' || row.status === 'archived')
    throw conflict(`The change request is ${row.status}: it can no longer be reviewed.`);
  return row;
}

/**
 * Submits the viewer's review of the change request's current revision. Needs `review`; 403 for its author; 409 once
 * it is merged or archived. The review answers the latest request that asked the viewer for it (their own first).
 */
export async function submitReview(ctx: Context, location: ChangeRequestLocation, input: ReviewInput): Promise<Review> {
  const target = { id: location.changeRequestId, parent: location.spaceId };
  const { row: found } = await authorize(ctx, changeRequests, target, 'review');
  if (found.createdById === ctx.viewer.userId) throw new ApiError(403, 'The author of a change request cannot review it.');
  const space = await rowOf(ctx, spaces, found.spaceId);
  if (!space) throw notFound('Space');
  const reviewer = ctx.viewer.userId;
  const now = ctx.clock.now();
  const commentBody = input.comment?.markdown !== undefined || input.comment?.document !== undefined ? input.comment : null;
  let comment: Comment | null = null;
  const review = await ctx.prisma.$transaction(async (tx) => {
    const changeRequest = await reviewable(tx, found.id);
    const [created] = await tx.$queryRaw<Review[]>`
      INSERT INTO "ChangeRequestReview" (id, "changeRequestId", "reviewerId", "revisionId", "requestedById", status, "createdAt", "updatedAt")
      SELECT ${newId()}, ${changeRequest.id}, ${reviewer}, ${changeRequest.revisionId},
             (SELECT q."requestedById" FROM "ChangeRequestRequestedReviewer" q
               WHERE q."changeRequestId" = ${changeRequest.id}
                 AND (q."userId" = ${reviewer} OR q."teamId" IN (SELECT tm."teamId" FROM "TeamMember" tm WHERE tm."userId" = ${reviewer}))
               ORDER BY q."userId" IS NULL, q."createdAt" DESC LIMIT 1),
             ${input.status}::"ChangeRequestReviewStatus", ${now}, ${now}
      RETURNING *, false AS outdated`;
    const events: ChangeEvent[] = [
      changeRequestEvent('change_request_review_submitted', space, changeRequest, { reviewId: created.id, status: input.status }),
    ];
    if (commentBody) {
      const site = { reviewId: created.id, changeRequest, organizationId: space.organizationId };
      comment = await postReviewComment(tx, ctx, site, commentBody);
      events.push(commentEvent('comment_created', space, comment));
    }
    await recordEvents(tx, ctx, events);
    return created;
  });
  reviewCommentAnnotation.set(review, comment);
  return review;
}

export interface ReviewersRequest {
  users?: readonly string[] | null;
  teams?: readonly string[] | null;
  subject?: string | null;
  description?: ChangeRequestUpdate['description'];
}

export interface RequestedReviewers {
  users: ChangeRequestRequestedReviewer[];
  teams: ChangeRequestRequestedReviewer[];
}

/**
 * 400 naming the first user who may not be asked: the author, or anyone who is not a member that may review the
 * change request (unknown, outside its organization, or below `review` on its space: one message for all, so that it
 * tells no more than a 404 would).
 */
async function checkReviewers(ctx: Context, changeRequest: ChangeRequest, users: readonly string[]): Promise<void> {
  if (!users.length) return;
  const levels = await ctx.sql<{ userId: string; level: Role | null }>(Prisma.sql`
    SELECT m."userId", ${memberLevelSql('m', Prisma.sql`s.id`, Prisma.sql`s."effectiveLevel"`)}::text AS level
      FROM "Space" s JOIN "Member" m ON m."organizationId" = s."organizationId"
     WHERE s.id = ${changeRequest.spaceId} AND m."userId" = ANY(${[...users]}::text[])`);
  const reviewers = new Set(levels.filter((row) => atLeast(row.level, 'review')).map((row) => row.userId));
  for (const [index, userId] of users.entries()) {
    if (userId === changeRequest.createdById) throw invalidInput(['users', index], 'the author of a change request cannot review it');
    if (!reviewers.has(userId)) throw invalidInput(['users', index], 'no member who may review this change request has this id');
  }
}

/**
 * Asks users (and teams) for a review of the change request; asking again renews a request. Optionally sets the
 * change request's subject and description too. Needs `edit`; 409 once it is merged or archived.
 */
export async function requestReviewers(
  ctx: Context,
  location: ChangeRequestLocation,
  input: ReviewersRequest,
): Promise<RequestedReviewers> {
  const target = { id: location.changeRequestId, parent: location.spaceId };
  const { row: changeRequest } = await authorize(ctx, changeRequests, target, 'edit');
  if (changeRequest.status === 'merged' || changeRequest.status === 'archived') {
    throw conflict(`The change request is ${changeRequest.status}: reviews can no longer be asked for.`);
  }
  const users = [...new Set(input.users ?? [])];
  const teamIds = [...new Set(input.teams ?? [])];
  await checkReviewers(ctx, changeRequest, users);
  const space = await rowOf(ctx, spaces, changeRequest.spaceId);
  if (!space) throw notFound('Space');
  const organizationId = space.organizationId;
  await Promise.all(teamIds.map((id, index) => authorizeReference(ctx, teams, { id, field: `teams.${index}`, organizationId }, 'view')));
  if (input.subject != null || input.description != null) {
    await updateChangeRequest(ctx, location.spaceId, changeRequest.id, { subject: input.subject, description: input.description });
  }
  const now = ctx.clock.now();
  /** One upsert per kind of reviewer: each has its own unique key within the change request. */
  const upsert = async (tx: Prisma.TransactionClient, column: 'userId' | 'teamId', ids: readonly string[]) => {
    if (!ids.length) return [];
    const key = Prisma.raw(`"${column}"`);
    const rows = await tx.$queryRaw<ChangeRequestRequestedReviewer[]>(Prisma.sql`
      INSERT INTO "ChangeRequestRequestedReviewer" (id, "changeRequestId", ${key}, "revisionId", "requestedById", "createdAt")
      SELECT r.id, cr.id, r.reviewer, cr."revisionId", ${ctx.viewer.userId}, ${now}
        FROM unnest(${ids.map(() => newId())}::text[], ${[...ids]}::text[]) AS r(id, reviewer)
        JOIN "ChangeRequest" cr ON cr.id = ${changeRequest.id}
      ON CONFLICT ("changeRequestId", ${key}) DO UPDATE
        SET "revisionId" = excluded."revisionId", "requestedById" = excluded."requestedById", "createdAt" = excluded."createdAt"
      RETURNING *`);
    return ids.map((id) => rows.find((row) => row[column] === id)!);
  };
  if (!users.length && !teamIds.length) return { users: [], teams: [] };
  return ctx.prisma.$transaction(async (tx) => {
    const requested = { users: await upsert(tx, 'userId', users), teams: await upsert(tx, 'teamId', teamIds) };
    await recordEvents(tx, ctx, [
      changeRequestEvent('change_request_reviewers_requested', space, changeRequest, { users, teams: teamIds }),
    ]);
    return requested;
  });
}

/** Takes back the request of a review from a user or a team; false when there was none. Needs `edit`. */
export async function removeRequestedReviewer(
  ctx: Context,
  location: ChangeRequestLocation,
  reviewer: { userId: string } | { teamId: string },
): Promise<boolean> {
  const target = { id: location.changeRequestId, parent: location.spaceId };
  const { row: changeRequest } = await authorize(ctx, changeRequests, target, 'edit');
  const space = (await rowOf(ctx, spaces, changeRequest.spaceId))!;
  const who = 'userId' in reviewer ? Prisma.sql`"userId" = ${reviewer.userId}` : Prisma.sql`"teamId" = ${reviewer.teamId}`;
  return ctx.prisma.$transaction(async (tx) => {
    const removed = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
      DELETE FROM "ChangeRequestRequestedReviewer" WHERE "changeRequestId" = ${changeRequest.id} AND ${who} RETURNING id`);
    if (!removed.length) return false;
    await recordEvents(tx, ctx, [changeRequestEvent('change_request_reviewer_removed', space, changeRequest, reviewer)]);
    return true;
  });
}
