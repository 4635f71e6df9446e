// How a request reaches a change request's reviews and requested reviewers: through the change request, and so its
// space (policies.changeRequestReview). A review is outdated once the change request's revision moves on from the one
// it was given on, or once its reviewer reviews the change request again; every read computes that in its statement.
import { changeRequests } from '../change-requests/access.js';
import type { ChangeRequest, ChangeRequestRequestedReviewer, ChangeRequestReview, Comment } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { childResource } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import type { ListSource } from '../kernel/lists.js';
import { policies } from '../kernel/permissions.js';

/** A review as every read answers it: with whether it is outdated. */
export type Review = ChangeRequestReview & { outdated: boolean };

/** Reviews are read with their `outdated` (reviewAt, the list), never by id alone: the resource loads no rows. */
export const changeRequestReviews = childResource<Review, typeof policies.changeRequestReview, ChangeRequest>(changeRequests, {
  kind: 'Change request review',
  policy: policies.changeRequestReview,
  parentKey: 'changeRequestId',
});

/** Whether review `alias` is outdated: its change request's revision moved on, or its reviewer reviewed it again since. */
export function outdatedSql(alias: string): Prisma.Sql {
  const r = Prisma.raw(alias);
  return Prisma.sql`(${r}."revisionId" <> (SELECT cr."revisionId" FROM "ChangeRequest" cr WHERE cr.id = ${r}."changeRequestId")
    OR EXISTS (SELECT 1 FROM "ChangeRequestReview" newer
                WHERE newer."changeRequestId" = ${r}."changeRequestId" AND newer."reviewerId" = ${r}."reviewerId" AND newer.seq > ${r}.seq))`;
}

/** The review of the change request with this id (404 for a review of another one). */
export async function reviewAt(ctx: Context, changeRequest: ChangeRequest, reviewId: string): Promise<Review> {
  const [review] = await ctx.sql<Review>(Prisma.sql`
    SELECT r.*, ${outdatedSql('r')} AS outdated FROM "ChangeRequestReview" r
     WHERE r.id = ${reviewId} AND r."changeRequestId" = ${changeRequest.id}`);
  if (!review) throw notFound('Change request review');
  return review;
}

export interface ReviewListArgs {
  outdated?: boolean | null;
}

/** A change request's reviews in the order they were submitted, outdated or current ones only when asked. */
export const changeRequestReviewList: ListSource<Review, ReviewListArgs> = {
  table: 'ChangeRequestReview',
  parentColumn: 'changeRequestId',
  orderBy: [{ column: 'seq', type: 'int4' }],
  where: (_ctx, args) => (args.outdated == null ? Prisma.sql`TRUE` : Prisma.sql`${outdatedSql('t')} = ${args.outdated}::boolean`),
  computed: () => ({ outdated: outdatedSql('t') }),
  scope: (changeRequestId, args) => `change-request-reviews:${changeRequestId}:${args.outdated ?? ''}`,
};

/** A change request's requested reviewers, in the order they were (last) asked. */
export const requestedReviewerList: ListSource<ChangeRequestRequestedReviewer> = {
  table: 'ChangeRequestRequestedReviewer',
  parentColumn: 'changeRequestId',
  orderBy: [
    { column: 'createdAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  where: () => Prisma.sql`TRUE`,
  scope: (changeRequestId) => `change-request-requested-reviewers:${changeRequestId}`,
};

/** Change request `t` asks this user for a review: directly, or through a team of theirs. */
export const asksReviewOfSql = (userId: string) => Prisma.sql`EXISTS (SELECT 1 FROM "ChangeRequestRequestedReviewer" q
   WHERE q."changeRequestId" = t.id
     AND (q."userId" = ${userId} OR q."teamId" IN (SELECT tm."teamId" FROM "TeamMember" tm WHERE tm."userId" = ${userId})))`;

/** The comment each review was given with, if any: one statement for a page of reviews. */
export const reviewCommentAnnotation = rowAnnotation<Review, Comment | null>('review comment', async (ctx, rows) => {
  const found = await ctx.sql<Comment>(Prisma.sql`
    SELECT * FROM "Comment" WHERE "reviewId" = ANY(${rows.map((row) => row.id)}::text[])`);
  const byReview = new Map(found.map((comment) => [comment.reviewId, comment]));
  return rows.map((row) => byReview.get(row.id) ?? null);
});
