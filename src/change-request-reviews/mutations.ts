// Submitting reviews of change requests, and asking for them: inputs (with their validation) and mutations.
import { z } from 'zod';
import { changeRequestDescription, changeRequestSubject } from '../change-requests/mutations.js';
import { bodyDescription, commentBody } from '../comments/mutations.js';
import type { BodyInput } from '../comments/service.js';
import { builder } from '../kernel/builder.js';
import { rules } from '../kernel/validation.js';
import type { JsonDocument } from '../revisions/document.js';
import * as service from './service.js';
import { ChangeRequestRequestedReviewer, ChangeRequestReview, ChangeRequestReviewStatusEnum } from './types.js';

const SubmitChangeRequestReviewInput = builder.inputType('SubmitChangeRequestReviewInput', {
  fields: (t) => ({
    status: t.field({ type: ChangeRequestReviewStatusEnum, required: true }),
    comment: t.field({
      type: 'JSON',
      description: `The comment the review is given with: ${bodyDescription} {} is none.`,
      // GitBook's Document may also be empty.
      validate: z.union([z.object({}).strict(), commentBody]),
    }),
  }),
});

/** The most reviewers one request asks for, users and teams each. */
const MAX_REVIEWERS = 100;

const RequestChangeRequestReviewersInput = builder.inputType('RequestChangeRequestReviewersInput', {
  validate: z
    .any()
    .refine((input: { users?: unknown[] | null; teams?: unknown[] | null }) => !!input.users?.length || !!input.teams?.length, {
      message: 'must name at least one user',
      path: ['users'],
    }),
  fields: (t) => ({
    users: t.idList({
      required: true,
      description: `Ids of the users asked for a review (at most ${MAX_REVIEWERS}): members who may review the change request, not its author.`,
      validate: z.array(rules.id).max(MAX_REVIEWERS),
    }),
    teams: t.idList({
      description: `Ids of teams of the organization asked for a review (at most ${MAX_REVIEWERS}): any member may answer. An extension of GitBook's body.`,
      validate: z.array(rules.id).max(MAX_REVIEWERS),
    }),
    subject: t.string({ description: 'Also sets the change request’s subject (at most 100 characters).', validate: changeRequestSubject }),
    description: t.field({
      type: 'JSON',
      description: 'Also sets the change request’s description: GitBook’s JSON document ({object: "document", data, nodes}).',
      validate: changeRequestDescription,
    }),
  }),
});

const RequestedReviewers = builder.objectRef<service.RequestedReviewers>('ChangeRequestReviewersRequested').implement({
  description: 'The reviews a request asked for: of users, and of teams.',
  fields: (t) => ({
    users: t.field({ type: [ChangeRequestRequestedReviewer], resolve: (requested) => requested.users }),
    teams: t.field({ type: [ChangeRequestRequestedReviewer], resolve: (requested) => requested.teams }),
  }),
});

const changeRequestKey = builder.args((t) => ({
  spaceId: t.id({ required: true }),
  changeRequestId: t.id({ required: true, description: 'The change request’s id, or its number in the space.' }),
}));

builder.mutationFields((t) => ({
  submitChangeRequestReview: t.field({
    type: ChangeRequestReview,
    description: 'Reviews the change request’s current revision (needs `review`; never its author’s).',
    args: { ...changeRequestKey, input: t.arg({ type: SubmitChangeRequestReviewInput, required: true }) },
    resolve: (_root, args, ctx) =>
      service.submitReview(ctx, args, { status: args.input.status, comment: args.input.comment as BodyInput | null | undefined }),
  }),
  requestChangeRequestReviewers: t.field({
    type: RequestedReviewers,
    description: 'Asks users (and teams) for a review of the change request (needs `edit`); asking again renews a request.',
    args: { ...changeRequestKey, input: t.arg({ type: RequestChangeRequestReviewersInput, required: true }) },
    resolve: (_root, args, ctx) =>
      service.requestReviewers(ctx, args, { ...args.input, description: args.input.description as JsonDocument | null | undefined }),
  }),
  removeChangeRequestRequestedReviewer: t.boolean({
    description: 'Takes back the request of a review from a user; false when there was none.',
    args: { ...changeRequestKey, userId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => service.removeRequestedReviewer(ctx, args, { userId: args.userId }),
  }),
  removeChangeRequestRequestedTeamReviewer: t.boolean({
    description: 'Takes back the request of a review from a team; false when there was none.',
    args: { ...changeRequestKey, teamId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => service.removeRequestedReviewer(ctx, args, { teamId: args.teamId }),
  }),
}));
