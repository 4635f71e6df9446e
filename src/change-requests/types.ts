// The ChangeRequest type, the query that returns one by id or number, and the change requests list of a space.

import { asksReviewOfSql } from '../change-request-reviews/access.js';
import type { ChangeRequest as ChangeRequestRow, Space as SpaceRow, User as UserRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { ChangeRequestStatus } from '../generated/prisma/enums.js';
import { authorize } from '../kernel/authorize.js';
import { builder, prismaEnum } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { batchedRowById } from '../kernel/rows.js';
import { apiUrl, appUrl } from '../kernel/urls.js';
import { rules } from '../kernel/validation.js';
import { Space } from '../spaces/types.js';
import { User } from '../users/types.js';
import { changeRequests } from './access.js';
import {
  type ChangeRequestFacts,
  type ChangeRequestLink as ChangeRequestLinkValue,
  changeRequestFactsAnnotation,
  linksOf,
} from './service.js';

export const ChangeRequestStatusEnum = prismaEnum(
  'ChangeRequestStatus',
  ChangeRequestStatus,
  'draft (new), open (for review), archived, merged (final).',
);

const ChangeRequestUrls = builder.objectRef<{ location: string; app: string }>('ChangeRequestUrls').implement({
  fields: (t) => ({ location: t.exposeString('location'), app: t.exposeString('app') }),
});

const ChangeRequestLinkRef = builder.objectRef<ChangeRequestLinkValue['ref']>('ChangeRequestLinkRef').implement({
  description: 'Where a link leads: a URL (GitBook’s ContentRefURL).',
  fields: (t) => ({ kind: t.exposeString('kind'), url: t.exposeString('url') }),
});

const ChangeRequestLink = builder.objectRef<ChangeRequestLinkValue>('ChangeRequestLink').implement({
  description: 'An external link of a change request (a ticket, say).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Given back in an update, it keeps the link.' }),
    ref: t.field({ type: ChangeRequestLinkRef, resolve: (link) => link.ref }),
    title: t.exposeString('title', { nullable: true }),
  }),
});

const fact =
  <K extends keyof ChangeRequestFacts>(key: K) =>
  (row: ChangeRequestRow, _args: unknown, ctx: Context): ChangeRequestFacts[K] | Promise<ChangeRequestFacts[K]> => {
    const facts = changeRequestFactsAnnotation.of(ctx, row);
    return facts instanceof Promise ? facts.then((known) => known[key]) : facts[key];
  };

export const ChangeRequest = builder.objectRef<ChangeRequestRow>('ChangeRequest').implement({
  access: changeRequests,
  description: 'Proposed changes to a space’s content, on a line of revisions of their own, until merged into the space.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'change-request' }),
    id: t.exposeID('id'),
    number: t.exposeInt('number', { description: 'Incremental identifier within the space, from 1.' }),
    status: t.expose('status', { type: ChangeRequestStatusEnum }),
    subject: t.exposeString('subject'),
    description: t.field({
      type: 'JSON',
      nullable: true,
      description: 'GitBook’s JSON document; null until one is set.',
      resolve: (cr) => cr.description,
    }),
    links: t.field({ type: [ChangeRequestLink], description: 'External links, at most 10.', resolve: linksOf }),
    createdBy: t.field({ type: User, resolve: (cr, _args, ctx) => batchedRowById<UserRow>(ctx, 'User', cr.createdById) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    mergedAt: t.expose('mergedAt', { type: 'DateTime', nullable: true }),
    spaceId: t.exposeID('spaceId'),
    // Whoever sees the change request sees its space.
    space: t.field({ type: Space, resolve: (cr, _args, ctx) => batchedRowById<SpaceRow>(ctx, 'Space', cr.spaceId) }),
    revisionId: t.exposeID('revisionId', { description: 'The active revision: the last of the change request’s line.' }),
    revisionInitialId: t.exposeID('revisionInitialId', { description: 'The space’s revision the change request was created from.' }),
    revisionMergedAncestorId: t.exposeID('revisionMergedAncestorId', {
      nullable: true,
      description: 'The space’s revision it was last updated from.',
    }),
    revisionMergedId: t.exposeID('revisionMergedId', { nullable: true, description: 'Once merged: the space’s revision the merge made.' }),
    openCommentCount: t.int({ description: 'Open comments on the change request.', resolve: fact('openComments') }),
    outdated: t.boolean({
      description: 'The space’s content moved on since the change request was created or last updated from it.',
      resolve: fact('outdated'),
    }),
    urls: t.field({
      type: ChangeRequestUrls,
      resolve: (cr, _args, ctx) => ({
        location: apiUrl(ctx, `spaces/${cr.spaceId}/change-requests/${cr.id}`),
        app: appUrl(ctx, `s/${cr.spaceId}/~/changes/${cr.number}`),
      }),
    }),
  }),
});

export const ChangeRequestList = listOf('ChangeRequest', ChangeRequest);

interface ChangeRequestListArgs {
  status?: ChangeRequestStatus | null;
  creator?: string | null;
  contributor?: string | null;
  requestedReviewer?: string | null;
}

/** A space's change requests of one status, newest (highest number) first, read through (spaceId, status, number). */
const spaceChangeRequests: ListSource<ChangeRequestRow, ChangeRequestListArgs> = {
  table: 'ChangeRequest',
  parentColumn: 'spaceId',
  orderBy: [{ column: 'number', type: 'int4' }],
  descending: () => true,
  where: (_ctx, args) => {
    const creator = args.creator ? Prisma.sql`AND t."createdById" = ${args.creator}` : Prisma.empty;
    // A contributor wrote at least one revision of the change request's line.
    const contributor = args.contributor
      ? Prisma.sql`AND EXISTS (SELECT 1 FROM "Revision" r WHERE r."spaceId" = t."spaceId" AND r.line = t.id AND r."createdById" = ${args.contributor})`
      : Prisma.empty;
    const requested = args.requestedReviewer ? Prisma.sql`AND ${asksReviewOfSql(args.requestedReviewer)}` : Prisma.empty;
    return Prisma.sql`t.status = ${args.status ?? 'open'}::"ChangeRequestStatus" ${creator} ${contributor} ${requested}`;
  },
  scope: (spaceId, args) =>
    `change-requests:${spaceId}:${args.status ?? 'open'}:${args.creator ?? ''}:${args.contributor ?? ''}:${args.requestedReviewer ?? ''}`,
  annotations: [changeRequestFactsAnnotation],
};

// The space's own resolver has checked that the viewer can see it: whoever sees a space sees its change requests.
builder.objectField(Space, 'changeRequests', (t) =>
  t.field({
    type: ChangeRequestList,
    description: 'Change requests of the space with one status (open by default), newest first.',
    args: {
      ...listArgs,
      status: t.arg({ type: ChangeRequestStatusEnum, defaultValue: 'open', description: 'Only change requests with this status.' }),
      creator: t.arg.id({ description: 'A user id: only the change requests they created.', validate: rules.id }),
      contributor: t.arg.id({ description: 'A user id: only the change requests they wrote revisions of.', validate: rules.id }),
      requestedReviewer: t.arg.id({
        description: 'A user id: only the change requests that ask them for a review (or a team of theirs).',
        validate: rules.id,
      }),
    },
    resolve: (space, args, ctx, info) => listPage(spaceChangeRequests, ctx, info, space.id, args),
  }),
);

builder.queryFields((t) => ({
  changeRequest: t.field({
    type: ChangeRequest,
    description: 'A change request of a space, by its id or its number in the space.',
    args: {
      spaceId: t.arg.id({ required: true }),
      id: t.arg.id({ required: true, description: 'The change request’s id, or its number in the space.' }),
    },
    resolve: async (_root, args, ctx) => (await authorize(ctx, changeRequests, { id: args.id, parent: args.spaceId }, 'view')).row,
  }),
}));
