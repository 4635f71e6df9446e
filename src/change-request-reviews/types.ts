// The ChangeRequestReview and ChangeRequestRequestedReviewer types, and what a change request lists of them: its
// reviews (all, outdated or current ones), one review by id, and the reviews it asks for.

import { changeRequests } from '../change-requests/access.js';
import { ChangeRequest } from '../change-requests/types.js';
import { type BodyFormat, bodyFormatAnnotation } from '../comments/facts.js';
import { Comment, formatArg } from '../comments/types.js';
import type { ChangeRequestRequestedReviewer as RequestRow, Team as TeamRow, User as UserRow } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { rowOf } from '../kernel/authorize.js';
import { builder, restEnum } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import { batchedRowById } from '../kernel/rows.js';
import { apiUrl } from '../kernel/urls.js';
import { Team } from '../teams/types.js';
import { User } from '../users/types.js';
import {
  changeRequestReviewList,
  changeRequestReviews,
  type Review,
  requestedReviewerList,
  reviewAt,
  reviewCommentAnnotation,
} from './access.js';

export const ChangeRequestReviewStatusEnum = restEnum(
  'ChangeRequestReviewStatus',
  { approved: 'approved', changes_requested: 'changes-requested' },
  'approved, or changes-requested.',
);

const ChangeRequestReviewUrls = builder.objectRef<{ location: string }>('ChangeRequestReviewUrls').implement({
  fields: (t) => ({ location: t.exposeString('location', { description: 'URL of the review in the API.' }) }),
});

/** The review's API address: under its change request, whose row the request already holds (it reached the review through it). */
async function reviewUrls(review: Review, _args: unknown, ctx: Context) {
  const changeRequest = await rowOf(ctx, changeRequests, review.changeRequestId);
  if (!changeRequest) throw notFound('Change request');
  return { location: apiUrl(ctx, `spaces/${changeRequest.spaceId}/change-requests/${changeRequest.id}/reviews/${review.id}`) };
}

/** The body format a request asked for the reviews' comments (markdown unless told). */
const commentFormatAnnotation = rowAnnotation<Review, BodyFormat>('review comment format', async (_ctx, rows) =>
  rows.map(() => 'markdown'),
);

/** The reviews, their comments to be shown in this format. */
function inFormat(reviews: Review[], format: BodyFormat | null | undefined): Review[] {
  for (const review of reviews) commentFormatAnnotation.set(review, format ?? 'markdown');
  return reviews;
}

export const ChangeRequestReview = builder.objectRef<Review>('ChangeRequestReview').implement({
  access: changeRequestReviews,
  description: 'A review of a change request: approved, or changes requested, on the revision it was given on.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'change-request-review' }),
    id: t.exposeID('id'),
    revisionId: t.exposeID('revisionId', { description: 'The change request’s revision the review was given on.' }),
    reviewer: t.field({ type: User, resolve: (review, _args, ctx) => batchedRowById<UserRow>(ctx, 'User', review.reviewerId) }),
    requestedBy: t.field({
      type: User,
      nullable: true,
      description: 'Who asked the reviewer for this review; null for a review nobody asked for.',
      resolve: (review, _args, ctx) => (review.requestedById ? batchedRowById<UserRow>(ctx, 'User', review.requestedById) : null),
    }),
    status: t.field({ type: ChangeRequestReviewStatusEnum, resolve: (review) => review.status }),
    outdated: t.exposeBoolean('outdated', {
      description: 'The change request’s revision moved on since, or its reviewer reviewed it again.',
    }),
    comment: t.field({
      type: Comment,
      nullable: true,
      description: 'The comment the review was given with (a comment of the change request).',
      resolve: async (review, _args, ctx) => {
        const comment = await reviewCommentAnnotation.of(ctx, review);
        if (comment) bodyFormatAnnotation.set(comment, await commentFormatAnnotation.of(ctx, review));
        return comment;
      },
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    urls: t.field({ type: ChangeRequestReviewUrls, resolve: reviewUrls }),
  }),
});
export const ChangeRequestReviewList = listOf('ChangeRequestReview', ChangeRequestReview);

const RequestedReviewerKindEnum = builder.enumType('ChangeRequestRequestedReviewerKind', {
  description: 'Who is asked for a review: a user, or a team (any of its members may answer).',
  values: ['user', 'team'] as const,
});

export const ChangeRequestRequestedReviewer = builder.objectRef<RequestRow>('ChangeRequestRequestedReviewer').implement({
  description: 'A review a change request asks of a user or a team.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'change-request-requested-reviewer' }),
    kind: t.field({ type: RequestedReviewerKindEnum, resolve: (request) => (request.userId ? 'user' : 'team') }),
    user: t.field({
      type: User,
      nullable: true,
      resolve: (request, _args, ctx) => (request.userId ? batchedRowById<UserRow>(ctx, 'User', request.userId) : null),
    }),
    team: t.field({
      type: Team,
      nullable: true,
      description: 'The team asked; null too for a viewer who may not see the organization’s teams (a guest).',
      resolve: (request, _args, ctx) => (request.teamId ? batchedRowById<TeamRow>(ctx, 'Team', request.teamId) : null),
    }),
    revisionId: t.exposeID('revisionId', { description: 'The change request’s revision when the review was asked for.' }),
    requestedBy: t.field({ type: User, resolve: (request, _args, ctx) => batchedRowById<UserRow>(ctx, 'User', request.requestedById) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the review was (last) asked for.' }),
  }),
});
export const ChangeRequestRequestedReviewerList = listOf('ChangeRequestRequestedReviewer', ChangeRequestRequestedReviewer);

// The change request's own resolver has checked that the viewer can see it: whoever sees it sees its reviews.
builder.objectFields(ChangeRequest, (t) => ({
  reviews: t.field({
    type: ChangeRequestReviewList,
    description: 'Reviews of the change request, in the order they were submitted.',
    args: {
      ...listArgs,
      ...formatArg,
      outdated: t.arg.boolean({ description: 'Only outdated reviews (true), or only current ones (false).' }),
    },
    resolve: async (changeRequest, args, ctx, info) => {
      const page = await listPage(changeRequestReviewList, ctx, info, changeRequest.id, args);
      return { ...page, items: inFormat(page.items, args.format) };
    },
  }),
  review: t.field({
    type: ChangeRequestReview,
    args: { id: t.arg.id({ required: true }), ...formatArg },
    resolve: async (changeRequest, args, ctx) => inFormat([await reviewAt(ctx, changeRequest, args.id)], args.format)[0],
  }),
  requestedReviewers: t.field({
    type: ChangeRequestRequestedReviewerList,
    description: 'The reviews the change request asks for, in the order they were (last) asked for.',
    args: listArgs,
    resolve: (changeRequest, args, ctx, info) => listPage(requestedReviewerList, ctx, info, changeRequest.id, args),
  }),
}));
