// Comments on a space's content, their replies and reactions: who may post, edit, resolve and delete, and the writes.
// Comments are the space's own or one change request's (the scope), always reached through the space's permissions:
// 404 for a space the viewer cannot see and for a comment that is not in the scope named; posting, editing, resolving and reacting need `comment` on the space; a
// body is edited by its author only; a comment or reply is deleted by its author or an admin of the space.

import { changeRequests } from '../change-requests/access.js';
import type { ChangeRequest, Comment, CommentReply, Revision, Space } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { authorize, authorizeRow, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, notFound } from '../kernel/errors.js';
import { lockIfMatch } from '../kernel/etags.js';
import { recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import type { ActionOf, Level, policies } from '../kernel/permissions.js';
import { documentToMarkdown } from '../revisions/document.js';
import { pageAt } from '../revisions/store.js';
import { commentEvent, replyEvent } from './events.js';
import { comments, replies, spaceLevelAnnotation } from './facts.js';
import { mentionedMembers, mentionWrites } from './mentions.js';

/** A comment's or a reply's body as stored: markdown. */
export interface StoredBody {
  markdown: string;
}

/** A body as a request sends it: markdown, or GitBook's JSON document (stored as markdown). */
export interface BodyInput {
  markdown?: string;
  document?: unknown;
}

const markdownOf = (body: BodyInput): string => body.markdown ?? documentToMarkdown(body.document);

type SpaceAction = ActionOf<typeof policies.space>;

/** Where a request names its comments: the space's own, or those of one of its change requests (by id or number). */
export interface CommentLocation {
  spaceId: string;
  changeRequestId?: string | null;
}

/** Where comments are, found: the space, the viewer's level on it, and the change request when they are its. */
export interface CommentScope {
  space: Space;
  level: Level;
  changeRequest: ChangeRequest | null;
}

/** The scope a request names, after checking `action` on the space: 404 for a change request not in it. */
export async function scopeOf(ctx: Context, location: CommentLocation, action: SpaceAction): Promise<CommentScope> {
  const { row: space, level } = await authorize(ctx, spaces, location.spaceId, action);
  const changeRequest = location.changeRequestId
    ? (await authorize(ctx, changeRequests, { id: location.changeRequestId, parent: space.id }, 'view')).row
    : null;
  return { space, level, changeRequest };
}

/** The condition on comment `c` of being in the scope. */
const inScope = (scope: CommentScope) =>
  Prisma.sql`c."spaceId" = ${scope.space.id} AND c."changeRequestId" IS NOT DISTINCT FROM ${scope.changeRequest?.id ?? null}::text`;

/** The comment of the scope (404 for one of the space's other change requests, or of the space itself). */
export async function commentAt(ctx: Context, scope: CommentScope, commentId: string): Promise<Comment> {
  const [comment] = await ctx.sql<Comment>(Prisma.sql`SELECT * FROM "Comment" c WHERE id = ${commentId} AND ${inScope(scope)}`);
  if (!comment) throw notFound('Comment');
  spaceLevelAnnotation.set(comment, scope.level);
  return comment;
}

/** A reply to a comment already found (its space's level recorded on it). */
export async function replyAt(ctx: Context, comment: Comment, replyId: string): Promise<CommentReply> {
  const [reply] = await ctx.sql<CommentReply>(Prisma.sql`
    SELECT * FROM "CommentReply" WHERE id = ${replyId} AND "commentId" = ${comment.id}`);
  if (!reply) throw notFound('Comment reply');
  spaceLevelAnnotation.set(reply, await spaceLevelAnnotation.of(ctx, comment));
  return reply;
}

/** A comment where the request names it, after checking `action` on the space. */
async function commentIn(ctx: Context, location: CommentLocation, commentId: string, action: SpaceAction) {
  const scope = await scopeOf(ctx, location, action);
  return { comment: await commentAt(ctx, scope, commentId), level: scope.level, space: scope.space };
}

/** A reply to a comment where the request names it, after checking `action` on the space: one statement for both. */
async function replyIn(ctx: Context, location: CommentLocation, commentId: string, replyId: string, action: SpaceAction) {
  const scope = await scopeOf(ctx, location, action);
  const [reply] = await ctx.sql<CommentReply>(Prisma.sql`
    SELECT r.* FROM "CommentReply" r JOIN "Comment" c ON c.id = r."commentId"
     WHERE r.id = ${replyId} AND r."commentId" = ${commentId} AND ${inScope(scope)}`);
  if (!reply) throw notFound('Comment reply');
  spaceLevelAnnotation.set(reply, scope.level);
  return { reply, level: scope.level, space: scope.space, changeRequestId: scope.changeRequest?.id ?? null };
}

/** A cell of a table on the comment's page: its record (row) and its definition (column). */
export interface TableCell {
  record: string;
  definition: string;
}

export interface NewComment {
  body: BodyInput;
  page?: string | null;
  node?: string | null;
  tableCell?: TableCell | null;
}

/**
 * Posts a comment on the space or in a change request, on a page (and a node of it) of the current content when
 * `page` is given: the space's, or the change request's own.
 */
export async function postComment(ctx: Context, location: CommentLocation, input: NewComment): Promise<Comment> {
  const { space, level, changeRequest } = await scopeOf(ctx, location, 'comment');
  if (input.node && !input.page) throw badRequest('Invalid "node": a node is on a page; give "page" too.');
  if (input.tableCell && !input.page) throw badRequest('Invalid "tableCell": a table is on a page; give "page" too.');
  const body: StoredBody = { markdown: markdownOf(input.body) };
  const mentioned = await mentionedMembers(ctx, space.organizationId, body.markdown);
  const revisionId = changeRequest?.revisionId ?? space.revisionId;
  // The page's version now: what `outdated` compares the page as it will stand with.
  let pageVersionId: string | null = null;
  if (input.page) {
    const [revision] = await ctx.sql<Revision>(Prisma.sql`SELECT * FROM "Revision" WHERE id = ${revisionId}`);
    const version = revision && (await pageAt(ctx.sql, revision, input.page));
    const where = changeRequest ? 'the change request’s' : 'the space’s';
    if (!version) throw badRequest(`Invalid "page": no such page in ${where} current content.`);
    pageVersionId = version.id;
  }
  const id = newId();
  const comment = await ctx.prisma.$transaction(async (tx) => {
    const created = await tx.comment.create({
      data: {
        id,
        spaceId: space.id,
        changeRequestId: changeRequest?.id ?? null,
        pageId: input.page ?? null,
        nodeId: input.node ?? null,
        tableCell: input.tableCell ? { record: input.tableCell.record, definition: input.tableCell.definition } : Prisma.DbNull,
        revisionId,
        pageVersionId,
        postedById: ctx.viewer.userId,
        body: body as unknown as Prisma.InputJsonObject,
        postedAt: ctx.clock.now(),
      },
    });
    for (const write of mentionWrites(ctx, { commentId: id, replyId: null }, mentioned, false, tx)) await write;
    await recordEvents(tx, ctx, [commentEvent('comment_created', space, created)]);
    return created;
  });
  spaceLevelAnnotation.set(comment, level);
  return comment;
}

/** What a review's comment belongs to: the review, its change request, and the change request's space. */
export interface ReviewCommentSite {
  reviewId: string;
  changeRequest: ChangeRequest;
  organizationId: string;
}

/**
 * Writes the comment a review is given with, in the review's own transaction: a comment of its change request (on no
 * page), posted by the reviewer, whose target names the review, with its mentions. Its `comment_created` event is
 * recorded by the review (submitReview), in one statement with the review's own.
 */
export async function postReviewComment(
  tx: Prisma.TransactionClient,
  ctx: Context,
  site: ReviewCommentSite,
  input: BodyInput,
): Promise<Comment> {
  const body: StoredBody = { markdown: markdownOf(input) };
  const mentioned = await mentionedMembers(ctx, site.organizationId, body.markdown);
  const comment = await tx.comment.create({
    data: {
      id: newId(),
      spaceId: site.changeRequest.spaceId,
      changeRequestId: site.changeRequest.id,
      reviewId: site.reviewId,
      revisionId: site.changeRequest.revisionId,
      postedById: ctx.viewer.userId,
      body: body as unknown as Prisma.InputJsonObject,
      postedAt: ctx.clock.now(),
    },
  });
  for (const write of mentionWrites(ctx, { commentId: comment.id, replyId: null }, mentioned, false, tx)) await write;
  return comment;
}

export interface ReactionsChange {
  addedReactions?: string[] | null;
  removedReactions?: string[] | null;
}

export interface CommentChange extends ReactionsChange {
  body?: BodyInput | null;
  resolved?: boolean | null;
}

type ReactionTable = 'CommentReaction' | 'ReplyReaction';

/**
 * The viewer's reactions added and removed, idempotently: a reaction is a (object, emoji, user) key, so adding one
 * twice, or by many users at once, keeps exactly one row per user. An emoji both added and removed is removed.
 */
function reactionWrites(
  ctx: Context,
  db: Prisma.TransactionClient,
  table: ReactionTable,
  ownerId: string,
  change: ReactionsChange,
): Prisma.PrismaPromise<number>[] {
  const owner = Prisma.raw(table === 'CommentReaction' ? '"commentId"' : '"replyId"');
  const name = Prisma.raw(`"${table}"`);
  const removed = [...new Set(change.removedReactions ?? [])];
  const added = [...new Set(change.addedReactions ?? [])].filter((emoji) => !removed.includes(emoji));
  const writes: Prisma.PrismaPromise<number>[] = [];
  if (added.length) {
    writes.push(db.$executeRaw`
      INSERT INTO ${name} (${owner}, emoji, "userId", "reactedAt")
      SELECT ${ownerId}, e.emoji, ${ctx.viewer.userId}, ${ctx.clock.now()} FROM unnest(${added}::text[]) AS e(emoji)
      ON CONFLICT DO NOTHING`);
  }
  if (removed.length) {
    writes.push(db.$executeRaw`
      DELETE FROM ${name} WHERE ${owner} = ${ownerId} AND "userId" = ${ctx.viewer.userId} AND emoji = ANY(${removed}::text[])`);
  }
  return writes;
}

/** Edits the body (author only), resolves or reopens, and reacts; returns the comment as it now stands. */
export async function updateComment(ctx: Context, location: CommentLocation, commentId: string, change: CommentChange): Promise<Comment> {
  const { comment, level, space } = await commentIn(ctx, location, commentId, 'comment');
  if (change.body) await authorizeRow(ctx, comments, comment, 'edit');
  const now = ctx.clock.now();
  const body = change.body && { ...(comment.body as unknown as StoredBody), markdown: markdownOf(change.body) };
  const mentioned = body ? await mentionedMembers(ctx, space.organizationId, body.markdown) : null;
  const mentions = (tx: Prisma.TransactionClient) =>
    mentioned ? mentionWrites(ctx, { commentId, replyId: null }, mentioned, true, tx) : [];
  const resolution =
    change.resolved === true
      ? Prisma.sql`status = 'resolved', "resolvedAt" = CASE WHEN status = 'resolved' THEN "resolvedAt" ELSE ${now} END,
                   "resolvedById" = CASE WHEN status = 'resolved' THEN "resolvedById" ELSE ${ctx.viewer.userId} END`
      : change.resolved === false
        ? Prisma.sql`status = 'open', "resolvedAt" = NULL, "resolvedById" = NULL`
        : Prisma.sql`status = status`;
  const edit = body ? Prisma.sql`, body = ${JSON.stringify(body)}::jsonb, "editedAt" = ${now}` : Prisma.empty;
  const updated = await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Comment', commentId);
    for (const write of [...reactionWrites(ctx, tx, 'CommentReaction', commentId, change), ...mentions(tx)]) await write;
    const [row] = await tx.$queryRaw<Comment[]>`UPDATE "Comment" SET ${resolution} ${edit} WHERE id = ${commentId} RETURNING *`;
    if (!row) throw notFound('Comment');
    const events = [
      ...(body ? [commentEvent('comment_updated', space, row)] : []),
      ...(row.status !== comment.status
        ? [commentEvent(row.status === 'resolved' ? 'comment_resolved' : 'comment_reopened', space, row)]
        : []),
    ];
    await recordEvents(tx, ctx, events);
    return row;
  });
  spaceLevelAnnotation.set(updated, level);
  return updated;
}

/** Deletes a comment with its replies and reactions (by cascade): its author, or an admin of the space. */
export async function deleteComment(ctx: Context, location: CommentLocation, commentId: string): Promise<void> {
  const { comment, space } = await commentIn(ctx, location, commentId, 'comment');
  await authorizeRow(ctx, comments, comment, 'delete');
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Comment', commentId);
    await tx.$executeRaw`DELETE FROM "Comment" WHERE id = ${commentId}`;
    await recordEvents(tx, ctx, [commentEvent('comment_deleted', space, comment)]);
  });
}

export async function postReply(
  ctx: Context,
  location: CommentLocation,
  commentId: string,
  input: { body: BodyInput },
): Promise<CommentReply> {
  const { comment, level, space } = await commentIn(ctx, location, commentId, 'comment');
  const body: StoredBody = { markdown: markdownOf(input.body) };
  const mentioned = await mentionedMembers(ctx, space.organizationId, body.markdown);
  const id = newId();
  const reply = await ctx.prisma.$transaction(async (tx) => {
    const created = await tx.commentReply.create({
      data: { id, commentId, postedById: ctx.viewer.userId, body: body as unknown as Prisma.InputJsonObject, postedAt: ctx.clock.now() },
    });
    for (const write of mentionWrites(ctx, { commentId, replyId: id }, mentioned, false, tx)) await write;
    await recordEvents(tx, ctx, [replyEvent('comment_reply_created', space, created, comment.changeRequestId)]);
    return created;
  });
  spaceLevelAnnotation.set(reply, level);
  return reply;
}

export interface ReplyChange extends ReactionsChange {
  body?: BodyInput | null;
}

export async function updateReply(
  ctx: Context,
  location: CommentLocation,
  commentId: string,
  replyId: string,
  change: ReplyChange,
): Promise<CommentReply> {
  const { reply, level, space, changeRequestId } = await replyIn(ctx, location, commentId, replyId, 'comment');
  if (change.body) await authorizeRow(ctx, replies, reply, 'edit');
  const now = ctx.clock.now();
  const markdown = change.body && markdownOf(change.body);
  const edit = markdown ? Prisma.sql`body = ${JSON.stringify({ markdown })}::jsonb, "editedAt" = ${now}` : Prisma.sql`id = id`;
  const mentioned = markdown ? await mentionedMembers(ctx, space.organizationId, markdown) : null;
  const updated = await ctx.prisma.$transaction(async (tx) => {
    const mentions = mentioned ? mentionWrites(ctx, { commentId, replyId }, mentioned, true, tx) : [];
    for (const write of [...reactionWrites(ctx, tx, 'ReplyReaction', replyId, change), ...mentions]) await write;
    const [row] = await tx.$queryRaw<CommentReply[]>`UPDATE "CommentReply" SET ${edit} WHERE id = ${replyId} RETURNING *`;
    if (!row) throw notFound('Comment reply');
    if (markdown) await recordEvents(tx, ctx, [replyEvent('comment_reply_updated', space, row, changeRequestId)]);
    return row;
  });
  spaceLevelAnnotation.set(updated, level);
  return updated;
}

/** Deletes a reply with its reactions: its author, or an admin of the space. */
export async function deleteReply(ctx: Context, location: CommentLocation, commentId: string, replyId: string): Promise<void> {
  const { reply, space, changeRequestId } = await replyIn(ctx, location, commentId, replyId, 'comment');
  await authorizeRow(ctx, replies, reply, 'delete');
  await ctx.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`DELETE FROM "CommentReply" WHERE id = ${replyId}`;
    await recordEvents(tx, ctx, [replyEvent('comment_reply_deleted', space, reply, changeRequestId)]);
  });
}
