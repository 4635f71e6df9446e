// The ChangeRequest type, the query that returns one by id or number, the change requests lists of a space and of an
// organization, and who contributed to a change request.
import { z } from 'zod';
import { asksReviewOfSql } from '../change-request-reviews/access.js';
import type { ChangeRequest as ChangeRequestRow, Space as SpaceRow, User as UserRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { ChangeRequestStatus } from '../generated/prisma/enums.js';
import { authorize } from '../kernel/authorize.js';
import { builder, prismaEnum } from '../kernel/builder.js';
import { type Context, viewerMembershipSql, viewerRoleSql } from '../kernel/context.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource, OrderColumn } from '../kernel/lists.js';
import { visibleToViewerSql } from '../kernel/permissions.js';
import { batchedRowById } from '../kernel/rows.js';
import { apiUrl, appUrl } from '../kernel/urls.js';
import { rules } from '../kernel/validation.js';
import { Organization } from '../organizations/types.js';
import { Space } from '../spaces/types.js';
import { User } from '../users/types.js';
import { changeRequests } from './access.js';
import {
  type ChangeRequestContributor as ChangeRequestContributorValue,
  type ChangeRequestFacts,
  type ChangeRequestLink as ChangeRequestLinkValue,
  changeRequestContributorsAnnotation,
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
    etag: t.string(etagField(tagOf)),
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

const ChangeRequestOrderByEnum = builder.enumType('ChangeRequestOrderBy', {
  description: 'What change requests are listed by, newest first: their last update (default) or their creation.',
  values: ['updatedAt', 'createdAt'] as const,
});

/** The filters and the order both lists of change requests take: the space's and the organization's. */
interface ChangeRequestFilters {
  creator?: string | null;
  contributor?: string | null;
  requestedReviewer?: string | null;
  topic?: string | null;
  orderBy?: 'updatedAt' | 'createdAt' | null;
}

/**
 * The conditions on a change request `t` that both lists share. No change request is linked to a site topic here, so a
 * `topic` matches none, as it would match none of a space without topics.
 */
function filtersSql(statuses: readonly ChangeRequestStatus[], args: ChangeRequestFilters): Prisma.Sql {
  const creator = args.creator ? Prisma.sql`AND t."createdById" = ${args.creator}` : Prisma.empty;
  // A contributor wrote at least one revision of the change request's line.
  const contributor = args.contributor
    ? Prisma.sql`AND EXISTS (SELECT 1 FROM "Revision" r WHERE r."spaceId" = t."spaceId" AND r.line = t.id AND r."createdById" = ${args.contributor})`
    : Prisma.empty;
  const requested = args.requestedReviewer ? Prisma.sql`AND ${asksReviewOfSql(args.requestedReviewer)}` : Prisma.empty;
  const topic = args.topic ? Prisma.sql`AND FALSE` : Prisma.empty;
  return Prisma.sql`t.status = ANY(${statuses}::text[]::"ChangeRequestStatus"[]) ${creator} ${contributor} ${requested} ${topic}`;
}

/** The part of a page token's scope that the shared filters and the order make. */
const filtersScope = (args: ChangeRequestFilters) =>
  `${args.creator ?? ''}:${args.contributor ?? ''}:${args.requestedReviewer ?? ''}:${args.topic ?? ''}:${args.orderBy ?? 'updatedAt'}`;

/** Newest first by the time asked for (the last update by default); `tieBreak` orders those of one millisecond. */
const newestFirst = (args: ChangeRequestFilters, tieBreak: OrderColumn): OrderColumn[] => [
  { column: args.orderBy ?? 'updatedAt', type: 'timestamptz' },
  tieBreak,
];

const filterArgs = builder.args((t) => ({
  creator: t.id({ description: 'A user id: only the change requests they created.', validate: rules.id }),
  contributor: t.id({ description: 'A user id: only the change requests they wrote revisions of.', validate: rules.id }),
  requestedReviewer: t.id({
    description: 'A user id: only the change requests that ask them for a review (or a team of theirs).',
    validate: rules.id,
  }),
  topic: t.string({ description: 'A site topic: only the change requests linked to it. None is linked to a topic here.' }),
  orderBy: t.field({ type: ChangeRequestOrderByEnum, defaultValue: 'updatedAt', description: 'updatedAt (default) or createdAt.' }),
}));

/** A space's change requests of one status, newest first; of one millisecond, the highest number first. */
const spaceChangeRequests: ListSource<ChangeRequestRow, ChangeRequestFilters & { status?: ChangeRequestStatus | null }> = {
  table: 'ChangeRequest',
  parentColumn: 'spaceId',
  orderBy: (args) => newestFirst(args, { column: 'number', type: 'int4' }),
  descending: () => true,
  where: (_ctx, args) => filtersSql([args.status ?? 'open'], args),
  scope: (spaceId, args) => `change-requests:${spaceId}:${args.status ?? 'open'}:${filtersScope(args)}`,
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
      ...filterArgs,
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

interface OrganizationChangeRequestArgs extends ChangeRequestFilters {
  status?: readonly ChangeRequestStatus[] | null;
  space?: string | null;
  site?: string | null;
  styleguideRun?: string | null;
}

/**
 * The change requests of the organization's live spaces that the viewer can see (the spaces its list of spaces
 * shows), newest first; of one millisecond, by id. `site` keeps those of the spaces the site publishes, for whoever may
 * see the organization's sites (not a guest, for whom it matches none). No change request here was opened by a style
 * guide run, so `styleguideRun` matches none, nor from a triage finding, so `finding` changes nothing.
 */
const organizationChangeRequests: ListSource<ChangeRequestRow, OrganizationChangeRequestArgs> = {
  table: 'ChangeRequest',
  ofParent: (organizationId) => Prisma.sql`t."spaceId" IN (SELECT s.id FROM "Space" s WHERE s."organizationId" = ${organizationId})`,
  orderBy: (args) => newestFirst(args, { column: 'id', type: 'text' }),
  descending: () => true,
  where: (ctx, args, organizationId) => {
    const space = args.space ? Prisma.sql`AND t."spaceId" = ${args.space}` : Prisma.empty;
    const site = args.site
      ? Prisma.sql`AND t."spaceId" IN (SELECT ss."spaceId" FROM "SiteSpace" ss WHERE ss."siteId" = ${args.site})
          AND EXISTS (SELECT 1 FROM "Member" m
                       WHERE m."organizationId" = ${organizationId} AND ${viewerMembershipSql(ctx.viewer, 'm')} AND ${viewerRoleSql(ctx.viewer, 'm')} IS NOT NULL)`
      : Prisma.empty;
    const styleguideRun = args.styleguideRun ? Prisma.sql`AND FALSE` : Prisma.empty;
    const statuses = args.status?.length ? args.status : (['open'] as const);
    return Prisma.sql`EXISTS (SELECT 1 FROM "Space" s WHERE s.id = t."spaceId" AND s."deletedAt" IS NULL AND ${visibleToViewerSql(ctx.viewer, 's')})
      AND ${filtersSql(statuses, args)} ${space} ${site} ${styleguideRun}`;
  },
  scope: (organizationId, args) =>
    `org-change-requests:${organizationId}:${[...(args.status ?? ['open'])].sort()}:${args.space ?? ''}:${args.site ?? ''}:` +
    `${args.styleguideRun ?? ''}:${filtersScope(args)}`,
  annotations: [changeRequestFactsAnnotation],
};

const ChangeRequestFindingFilterEnum = builder.enumType('ChangeRequestFindingFilter', {
  description: 'Whether change requests opened from triage findings are included: none (default) or all. None is, here.',
  values: ['none', 'all'] as const,
});

// The organization's own resolver has checked that the viewer is a member; each change request is judged by its space.
builder.objectField(Organization, 'changeRequests', (t) =>
  t.field({
    type: ChangeRequestList,
    description: 'Change requests of the spaces of the organization that the viewer can see, deleted spaces excepted, newest first.',
    args: {
      ...listArgs,
      status: t.arg({
        type: [ChangeRequestStatusEnum],
        defaultValue: ['open'],
        description: 'Only change requests with one of these statuses (open by default).',
        validate: z.array(z.string()).min(1),
      }),
      ...filterArgs,
      space: t.arg.id({ description: 'A space id: only its change requests.', validate: rules.id }),
      site: t.arg.id({ description: 'A site id: only the change requests of the spaces it publishes.', validate: rules.id }),
      styleguideRun: t.arg.string({ description: 'A style guide check run: only the change requests it opened. None here.' }),
      finding: t.arg({ type: ChangeRequestFindingFilterEnum, defaultValue: 'none', description: 'none (default) or all: the same here.' }),
    },
    resolve: (org, args, ctx, info) => listPage(organizationChangeRequests, ctx, info, org.id, args),
  }),
);

const ChangeRequestContributionTypeEnum = builder.enumType('ChangeRequestContributionType', {
  description: 'edit: wrote revisions of the change request (created it, edited its content); comment: posted comments or replies in it.',
  values: ['edit', 'comment'] as const,
});

const ChangeRequestContributor = builder.objectRef<ChangeRequestContributorValue>('ChangeRequestContributor').implement({
  description: 'A user who contributed to a change request in one way, how many times and when last.',
  fields: (t) => ({
    user: t.field({ type: User, resolve: (contributor, _args, ctx) => batchedRowById<UserRow>(ctx, 'User', contributor.userId) }),
    actionType: t.field({ type: ChangeRequestContributionTypeEnum, resolve: (contributor) => contributor.actionType }),
    count: t.exposeInt('count', { description: 'Revisions written, or comments and replies posted.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the last of them was made.' }),
  }),
});

// Whoever sees the change request sees who worked on it. GitBook's operation pages nothing: the list is whole.
builder.objectField(ChangeRequest, 'contributors', (t) =>
  t.field({
    type: listOf('ChangeRequestContributor', ChangeRequestContributor),
    description: 'Who edited or commented the change request, once per user and kind of contribution, the most recent first.',
    resolve: async (changeRequest, _args, ctx) => {
      const items = await changeRequestContributorsAnnotation.of(ctx, changeRequest);
      return { items, count: items.length };
    },
  }),
);
