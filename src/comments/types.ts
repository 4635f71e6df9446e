// The Comment and CommentReply types, the lists of a space's comments, a change request's, and a comment's replies, and
// the lists of who commented in a space and in a change request.

import { z } from 'zod';
import { ChangeRequest } from '../change-requests/types.js';
import type {
  Comment as CommentRow,
  Member as MemberRow,
  CommentMention as MentionRow,
  CommentReply as ReplyRow,
  User as UserRow,
} from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { CommentStatus } from '../generated/prisma/enums.js';
import { authorize, contentLevelAnnotation, organizations, spaces } from '../kernel/authorize.js';
import { builder, permissionsFor, permissionsType, prismaEnum } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { type Level, policies, visibleToViewerSql } from '../kernel/permissions.js';
import { batchedRowById } from '../kernel/rows.js';
import { apiUrl } from '../kernel/urls.js';
import { byMemberName } from '../members/access.js';
import { MemberList } from '../members/types.js';
import { markdownToDocument } from '../revisions/document.js';
import { Space } from '../spaces/types.js';
import { User } from '../users/types.js';
import {
  type BodyFormat,
  bodyFormatAnnotation,
  type CommentPage,
  commentFactsAnnotation,
  commentReactionsAnnotation,
  commentRepliesAnnotation,
  comments,
  type ReactionGroup,
  type Replier,
  replies,
  replyReactionsAnnotation,
  spaceLevelAnnotation,
} from './facts.js';
import { postMentionsAnnotation } from './mentions.js';
import { commentAt, replyAt, type StoredBody, type TableCell } from './service.js';

export const CommentStatusEnum = prismaEnum('CommentStatus', CommentStatus, 'open, or resolved (with resolvedAt and resolvedBy).');
const CommentStatusFilterEnum = builder.enumType('CommentStatusFilter', { values: ['all', 'open', 'resolved'] as const });
const CommentOrderEnum = builder.enumType('CommentOrder', {
  description: 'By the time comments were posted: newest first (desc) or oldest first (asc).',
  values: ['asc', 'desc'] as const,
});
const CommentBodyFormatEnum = builder.enumType('CommentBodyFormat', {
  description: 'The format of a comment’s body: markdown, or GitBook’s JSON document.',
  values: ['markdown', 'document'] as const,
});

export const formatArg = builder.args((t) => ({
  format: t.field({ type: CommentBodyFormatEnum, description: 'The format of the bodies (default markdown).' }),
}));

type Posted = CommentRow | ReplyRow;

/** `{markdown}` or `{document}` (its mentions as mention inlines), as the request asked. */
function bodyIn(row: Posted, _args: unknown, ctx: Context) {
  const { markdown } = row.body as unknown as StoredBody;
  const format = bodyFormatAnnotation.of(ctx, row);
  const shown = async (known: BodyFormat) =>
    known === 'document'
      ? { document: markdownToDocument(markdown, undefined, new Set(await postMentionsAnnotation.of(ctx, row))) }
      : { markdown };
  return format instanceof Promise || format === 'document' ? Promise.resolve(format).then(shown) : { markdown };
}

/** The members a comment's or reply's own body mentions. */
const mentionsOf = async (row: Posted, _args: unknown, ctx: Context) =>
  Promise.all((await postMentionsAnnotation.of(ctx, row)).map((userId) => batchedRowById<UserRow>(ctx, 'User', userId)));

const CommentPermissions = permissionsType('CommentPermissions', policies.comment);

/** A comment's path in the API: under its space, or under its change request. */
const commentPath = (comment: CommentRow) =>
  comment.changeRequestId
    ? `spaces/${comment.spaceId}/change-requests/${comment.changeRequestId}/comments/${comment.id}`
    : `spaces/${comment.spaceId}/comments/${comment.id}`;

const permissionsOf = (row: Posted, _args: unknown, ctx: Context) =>
  permissionsFor(ctx, policies.comment, spaceLevelAnnotation.of(ctx, row), row.postedById === ctx.viewer.userId);

const CommentUrls = builder.objectRef<{ location: string }>('CommentUrls').implement({
  fields: (t) => ({ location: t.exposeString('location', { description: 'URL of the comment or reply in the API.' }) }),
});

const ReactionUser = builder.objectRef<ReactionGroup['users'][number]>('CommentReactionUser').implement({
  fields: (t) => ({
    user: t.field({ type: User, resolve: (reaction, _args, ctx) => batchedRowById<UserRow>(ctx, 'User', reaction.userId) }),
    reactedAt: t.expose('reactedAt', { type: 'DateTime' }),
  }),
});

const Reaction = builder.objectRef<ReactionGroup>('CommentReaction').implement({
  description: 'An emoji and the users who reacted with it, in the order they did.',
  fields: (t) => ({
    emoji: t.exposeString('emoji'),
    count: t.int({ resolve: (group) => group.users.length }),
    users: t.field({ type: [ReactionUser], resolve: (group) => group.users }),
  }),
});

const CommentReplier = builder.objectRef<Replier>('CommentReplier').implement({
  description: 'A user who replied to a comment: how many replies, and when the last.',
  fields: (t) => ({
    user: t.field({ type: User, resolve: (replier, _args, ctx) => batchedRowById<UserRow>(ctx, 'User', replier.userId) }),
    count: t.exposeInt('count'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const TargetNode = builder.objectRef<{ id: string }>('CommentTargetNode').implement({
  fields: (t) => ({ id: t.exposeString('id') }),
});

const TargetTableCell = builder.objectRef<TableCell>('CommentTargetTableCell').implement({
  description: 'A cell of a table on the comment’s page.',
  fields: (t) => ({
    record: t.exposeString('record', { description: 'The record (row) of the cell.' }),
    definition: t.exposeString('definition', { description: 'The definition (column) of the cell.' }),
  }),
});

const TargetPage = builder.objectRef<CommentPage>('CommentTargetPage').implement({
  description: 'The page a comment is on, as it stands in the current content: the space’s, or its change request’s.',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.string({ nullable: true, resolve: (page) => page.node?.page.title ?? null }),
    emoji: t.string({ nullable: true, resolve: (page) => page.node?.page.emoji ?? null }),
    icon: t.string({ nullable: true, resolve: (page) => page.node?.page.icon ?? null }),
    createdAt: t.field({ type: 'DateTime', nullable: true, resolve: (page) => page.node?.page.createdAt ?? null }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, resolve: (page) => page.node?.page.updatedAt ?? null }),
    path: t.string({ nullable: true, resolve: (page) => page.node?.path ?? null }),
    outdated: t.exposeBoolean('outdated', {
      description: 'The page changed (or left the space) since the comment was posted on it.',
    }),
  }),
});

const CommentTarget = builder.objectRef<CommentRow>('CommentTarget').implement({
  fields: (t) => ({
    node: t.field({ type: TargetNode, nullable: true, resolve: (comment) => (comment.nodeId ? { id: comment.nodeId } : null) }),
    tableCell: t.field({
      type: TargetTableCell,
      nullable: true,
      resolve: (comment) => comment.tableCell as unknown as TableCell | null,
    }),
    page: t.field({
      type: TargetPage,
      nullable: true,
      resolve: async (comment, _args, ctx) => (await commentFactsAnnotation.of(ctx, comment)).page,
    }),
    space: t.exposeID('spaceId'),
    changeRequest: t.exposeID('changeRequestId', { nullable: true, description: 'The change request the comment is in, if any.' }),
    review: t.exposeID('reviewId', { nullable: true, description: 'The review the comment was given with, if any.' }),
    revision: t.id({
      description: 'The revision the comment was posted on.',
      resolve: async (comment, _args, ctx) => (await commentFactsAnnotation.of(ctx, comment)).revisionId,
    }),
  }),
});

export const Comment = builder.objectRef<CommentRow>('Comment').implement({
  access: comments,
  description: 'A comment on a space, or on a page (and a node of it) of its content.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'comment' }),
    id: t.exposeID('id'),
    etag: t.string(etagField(tagOf)),
    postedBy: t.field({ type: User, resolve: (comment, _args, ctx) => batchedRowById<UserRow>(ctx, 'User', comment.postedById) }),
    postedAt: t.expose('postedAt', { type: 'DateTime' }),
    editedAt: t.expose('editedAt', { type: 'DateTime', nullable: true }),
    reactions: t.field({ type: [Reaction], resolve: (comment, _args, ctx) => commentReactionsAnnotation.of(ctx, comment) }),
    replyCount: t.int({ resolve: async (comment, _args, ctx) => (await commentRepliesAnnotation.of(ctx, comment)).count }),
    repliers: t.field({
      type: [CommentReplier],
      description: 'Who replied, the most recent first.',
      resolve: async (comment, _args, ctx) => (await commentRepliesAnnotation.of(ctx, comment)).repliers,
    }),
    body: t.field({ type: 'JSON', description: '`{markdown}` or `{document}`, as asked.', resolve: bodyIn }),
    mentions: t.field({ type: [User], description: 'The members its body mentions (`@` and their id).', resolve: mentionsOf }),
    target: t.field({ type: CommentTarget, resolve: (comment) => comment }),
    urls: t.field({
      type: CommentUrls,
      resolve: (comment, _args, ctx) => ({ location: apiUrl(ctx, commentPath(comment)) }),
    }),
    permissions: t.field({ type: CommentPermissions, resolve: permissionsOf }),
    status: t.expose('status', { type: CommentStatusEnum }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
    resolvedBy: t.field({
      type: User,
      nullable: true,
      resolve: (comment, _args, ctx) => (comment.resolvedById ? batchedRowById<UserRow>(ctx, 'User', comment.resolvedById) : null),
    }),
  }),
});
export const CommentList = listOf('Comment', Comment);

export const CommentReply = builder.objectRef<ReplyRow>('CommentReply').implement({
  access: replies,
  description: 'A reply to a comment.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'comment-reply' }),
    id: t.exposeID('id'),
    postedBy: t.field({ type: User, resolve: (reply, _args, ctx) => batchedRowById<UserRow>(ctx, 'User', reply.postedById) }),
    postedAt: t.expose('postedAt', { type: 'DateTime' }),
    editedAt: t.expose('editedAt', { type: 'DateTime', nullable: true }),
    reactions: t.field({ type: [Reaction], resolve: (reply, _args, ctx) => replyReactionsAnnotation.of(ctx, reply) }),
    body: t.field({ type: 'JSON', description: '`{markdown}` or `{document}`, as asked.', resolve: bodyIn }),
    mentions: t.field({ type: [User], description: 'The members its body mentions (`@` and their id).', resolve: mentionsOf }),
    urls: t.field({
      type: CommentUrls,
      // The reply's own row does not hold the space or the change request: its comment's does.
      resolve: async (reply, _args, ctx) => {
        const comment = await batchedRowById<CommentRow>(ctx, 'Comment', reply.commentId);
        return { location: apiUrl(ctx, `${commentPath(comment)}/replies/${reply.id}`) };
      },
    }),
    permissions: t.field({ type: CommentPermissions, resolve: permissionsOf }),
  }),
});
export const CommentReplyList = listOf('CommentReply', CommentReply);

/** Bodies in the asked format, and the viewer's level on the space (known from the parent) recorded on each row. */
function shown<Row extends Posted>(rows: Row[], format: BodyFormat | null | undefined, level?: Level) {
  for (const row of rows) {
    bodyFormatAnnotation.set(row, format ?? 'markdown');
    if (level !== undefined) spaceLevelAnnotation.set(row, level);
  }
  return rows;
}

interface CommentListArgs {
  order?: 'asc' | 'desc' | null;
  status?: 'all' | 'open' | 'resolved' | null;
  targetPage?: string | null;
  authors?: readonly string[] | null;
}

/**
 * The comments of a space (its own, not its change requests') or of a change request, newest first unless asked, read
 * through (spaceId, postedAt, id) or changeRequestId.
 */
function commentsOf(parent: 'space' | 'changeRequest'): ListSource<CommentRow, CommentListArgs> {
  return {
    table: 'Comment',
    parentColumn: parent === 'space' ? 'spaceId' : 'changeRequestId',
    orderBy: [
      { column: 'postedAt', type: 'timestamptz' },
      { column: 'id', type: 'text' },
    ],
    descending: (args) => args.order !== 'asc',
    where: (_ctx, args) => {
      const own = parent === 'space' ? Prisma.sql`t."changeRequestId" IS NULL` : Prisma.sql`TRUE`;
      const status = args.status && args.status !== 'all' ? Prisma.sql`AND t.status = ${args.status}::"CommentStatus"` : Prisma.empty;
      const page = args.targetPage ? Prisma.sql`AND t."pageId" = ${args.targetPage}` : Prisma.empty;
      const authors = args.authors?.length ? Prisma.sql`AND t."postedById" = ANY(${args.authors}::text[])` : Prisma.empty;
      return Prisma.sql`${own} ${status} ${page} ${authors}`;
    },
    scope: (parentKey, args) =>
      `comments:${parent}:${parentKey}:${args.order ?? 'desc'}:${args.status ?? 'all'}:${args.targetPage ?? ''}:${[...(args.authors ?? [])].sort()}`,
    annotations: [commentFactsAnnotation, commentRepliesAnnotation, commentReactionsAnnotation],
  };
}
const spaceComments = commentsOf('space');
const changeRequestComments = commentsOf('changeRequest');

const commentReplyList: ListSource<ReplyRow> = {
  table: 'CommentReply',
  parentColumn: 'commentId',
  orderBy: [
    { column: 'postedAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  where: () => Prisma.sql`TRUE`,
  scope: (commentId) => `comment-replies:${commentId}`,
  annotations: [replyReactionsAnnotation],
};

const commentListArgs = builder.args((t) => ({
  ...listArgs,
  ...formatArg,
  order: t.field({ type: CommentOrderEnum, defaultValue: 'desc' }),
  status: t.field({ type: CommentStatusFilterEnum, defaultValue: 'all', description: 'Only comments with this status.' }),
  targetPage: t.string({ description: 'A page id: only the comments on that page.' }),
  authors: t.idList({
    description: 'User ids: only the comments these users posted (at most 100).',
    validate: z.array(z.string()).max(100),
  }),
}));

// The space's own resolver has checked that the viewer can see it: whoever sees a space sees its comments.
builder.objectFields(Space, (t) => ({
  comments: t.field({
    type: CommentList,
    description: 'Comments on the space (not those in its change requests), newest first unless asked.',
    args: commentListArgs,
    resolve: async (space, args, ctx, info) => {
      const page = await listPage(spaceComments, ctx, info, space.id, args);
      return { ...page, items: shown(page.items, args.format, await contentLevelAnnotation.of(ctx, space)) };
    },
  }),
  comment: t.field({
    type: Comment,
    args: { id: t.arg.id({ required: true }), ...formatArg },
    resolve: async (space, args, ctx) => {
      const scope = { space, level: await contentLevelAnnotation.of(ctx, space), changeRequest: null };
      return shown([await commentAt(ctx, scope, args.id)], args.format)[0];
    },
  }),
}));

// The change request's own resolver has checked that the viewer can see its space; the level is the space's.
builder.objectFields(ChangeRequest, (t) => ({
  comments: t.field({
    type: CommentList,
    description: 'Comments in the change request, newest first unless asked.',
    args: commentListArgs,
    resolve: async (changeRequest, args, ctx, info) => {
      const page = await listPage(changeRequestComments, ctx, info, changeRequest.id, args);
      return { ...page, items: shown(page.items, args.format) };
    },
  }),
  comment: t.field({
    type: Comment,
    args: { id: t.arg.id({ required: true }), ...formatArg },
    resolve: async (changeRequest, args, ctx) => {
      const { row: space, level } = await authorize(ctx, spaces, changeRequest.spaceId, 'view');
      return shown([await commentAt(ctx, { space, level, changeRequest }, args.id)], args.format)[0];
    },
  }),
}));

builder.objectFields(Comment, (t) => ({
  replies: t.field({
    type: CommentReplyList,
    description: 'Replies to the comment, oldest first.',
    args: { ...listArgs, ...formatArg },
    resolve: async (comment, args, ctx, info) => {
      const page = await listPage(commentReplyList, ctx, info, comment.id, args);
      return { ...page, items: shown(page.items, args.format, await spaceLevelAnnotation.of(ctx, comment)) };
    },
  }),
  reply: t.field({
    type: CommentReply,
    args: { id: t.arg.id({ required: true }), ...formatArg },
    resolve: async (comment, args, ctx) => shown([await replyAt(ctx, comment, args.id)], args.format)[0],
  }),
}));

const Mention = builder.objectRef<MentionRow>('CommentMention').implement({
  description: 'A mention of the viewer in the body of a comment, or of one of its replies (`reply`).',
  fields: (t) => ({
    id: t.exposeID('id'),
    mentionedAt: t.expose('mentionedAt', { type: 'DateTime' }),
    comment: t.field({ type: Comment, resolve: (mention, _args, ctx) => batchedRowById<CommentRow>(ctx, 'Comment', mention.commentId) }),
    reply: t.field({
      type: CommentReply,
      nullable: true,
      resolve: (mention, _args, ctx) => (mention.replyId ? batchedRowById<ReplyRow>(ctx, 'CommentReply', mention.replyId) : null),
    }),
  }),
});
const MentionList = listOf('CommentMention', Mention);

/** The viewer's mentions, newest first, in the spaces (and their change requests) the viewer can see now. */
const viewerMentions: ListSource<MentionRow> = {
  table: 'CommentMention',
  parentColumn: 'userId',
  orderBy: [
    { column: 'mentionedAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  descending: () => true,
  where: (ctx) => Prisma.sql`t."commentId" IN (SELECT c.id FROM "Comment" c JOIN "Space" t ON t.id = c."spaceId"
     WHERE t."deletedAt" IS NULL AND ${visibleToViewerSql(ctx.viewer)})`,
  scope: (userId) => `mentions:${userId}`,
};

builder.queryFields((t) => ({
  mentions: t.field({
    type: MentionList,
    description: 'Where the viewer is mentioned in comments and replies, newest first: only in spaces the viewer can see.',
    args: listArgs,
    resolve: (_root, args, ctx, info) => listPage(viewerMentions, ctx, info, ctx.viewer.userId, args),
  }),
}));

/**
 * The members who posted comments or replies in a space (anywhere in it, its change requests' included) or in a change
 * request, by name. A commenter who is no longer a member of the organization is left out: the items are memberships.
 */
function commentersOf(parent: 'space' | 'changeRequest'): ListSource<MemberRow> {
  const column = Prisma.raw(parent === 'space' ? '"spaceId"' : '"changeRequestId"');
  return {
    table: 'Member',
    ofParent: (key) =>
      parent === 'space'
        ? Prisma.sql`t."organizationId" = (SELECT s."organizationId" FROM "Space" s WHERE s.id = ${key})`
        : Prisma.sql`t."organizationId" = (SELECT s."organizationId" FROM "ChangeRequest" cr JOIN "Space" s ON s.id = cr."spaceId"
                                            WHERE cr.id = ${key})`,
    idColumn: 'userId',
    orderBy: byMemberName,
    where: (_ctx, _args, key) => Prisma.sql`t."userId" IN (
      SELECT c."postedById" FROM "Comment" c WHERE c.${column} = ${key}
      UNION SELECT reply."postedById" FROM "CommentReply" reply JOIN "Comment" c ON c.id = reply."commentId" WHERE c.${column} = ${key})`,
    scope: (key) => `commenters:${parent}:${key}`,
  };
}
const spaceCommenters = commentersOf('space');
const changeRequestCommenters = commentersOf('changeRequest');

// Whoever sees the space sees its comments and their authors; their memberships are the organization's people, for
// its members with a role (listMembers), not for a guest granted the space.
const listCommenters = (ctx: Context, organizationId: string) => authorize(ctx, organizations, organizationId, 'listMembers');

builder.objectField(Space, 'commenters', (t) =>
  t.field({
    type: MemberList,
    description: 'Members who posted comments or replies anywhere in the space (its change requests included), by name.',
    args: listArgs,
    resolve: async (space, args, ctx, info) => {
      await listCommenters(ctx, space.organizationId);
      return listPage(spaceCommenters, ctx, info, space.id, args);
    },
  }),
);

builder.objectField(ChangeRequest, 'commenters', (t) =>
  t.field({
    type: MemberList,
    description: 'Members who posted comments or replies in the change request, by name.',
    args: listArgs,
    resolve: async (changeRequest, args, ctx, info) => {
      const { row: space } = await authorize(ctx, spaces, changeRequest.spaceId, 'view');
      await listCommenters(ctx, space.organizationId);
      return listPage(changeRequestCommenters, ctx, info, changeRequest.id, args);
    },
  }),
);
