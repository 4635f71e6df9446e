// Comments on a space's content, their replies and reactions: who may post, edit, resolve and delete, and the writes.
// A comment is reached through its space's permissions: 404 for a space the viewer cannot see and for a comment that
// is not in it (or is a change request's); posting, editing, resolving and reacting need `comment` on the space; a
// body is edited by its author only; a comment or reply is deleted by its author or an admin of the space.
import type { Comment, CommentReply, Revision } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { authorize, forbidden, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { type ActionOf, commentPermissions, type policies } from '../kernel/permissions.js';
import { documentToMarkdown } from '../revisions/document.js';
import { pageAt } from '../revisions/store.js';
import { spaceLevels } from './facts.js';

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

/** A comment of the space, after checking `action` on the space; the viewer's level on the space is recorded on it. */
export async function commentIn(ctx: Context, spaceId: string, commentId: string, action: SpaceAction) {
  const { level } = await authorize(ctx, spaces, spaceId, action);
  const [comment] = await ctx.sql<Comment>(Prisma.sql`
    SELECT * FROM "Comment" WHERE id = ${commentId} AND "spaceId" = ${spaceId} AND "changeRequestId" IS NULL`);
  if (!comment) throw notFound('Comment');
  spaceLevels.set(comment, level);
  return { comment, level };
}

/** A reply to a comment of the space, after checking `action` on the space. */
export async function replyIn(ctx: Context, spaceId: string, commentId: string, replyId: string, action: SpaceAction) {
  const { level } = await authorize(ctx, spaces, spaceId, action);
  const [reply] = await ctx.sql<CommentReply>(Prisma.sql`
    SELECT r.* FROM "CommentReply" r JOIN "Comment" c ON c.id = r."commentId"
     WHERE r.id = ${replyId} AND r."commentId" = ${commentId} AND c."spaceId" = ${spaceId} AND c."changeRequestId" IS NULL`);
  if (!reply) throw notFound('Comment reply');
  spaceLevels.set(reply, level);
  return { reply, level };
}

export interface NewComment {
  body: BodyInput;
  page?: string | null;
  node?: string | null;
}

/** Posts a comment on the space, on one of its current pages (and a node of it) when `page` is given. */
export async function postComment(ctx: Context, spaceId: string, input: NewComment): Promise<Comment> {
  const { row: space, level } = await authorize(ctx, spaces, spaceId, 'comment');
  if (input.node && !input.page) throw badRequest('Invalid "node": a node is on a page; give "page" too.');
  const body: StoredBody = { markdown: markdownOf(input.body) };
  // The page's version now: what `outdated` compares the page as it will stand with.
  let pageVersionId: string | null = null;
  if (input.page) {
    const [revision] = await ctx.sql<Revision>(Prisma.sql`SELECT * FROM "Revision" WHERE id = ${space.revisionId}`);
    const version = revision && (await pageAt(ctx.sql, revision, input.page));
    if (!version) throw badRequest('Invalid "page": no such page in the space’s current content.');
    pageVersionId = version.id;
  }
  const comment = await ctx.prisma.comment.create({
    data: {
      id: newId(),
      spaceId,
      pageId: input.page ?? null,
      nodeId: input.node ?? null,
      revisionId: space.revisionId,
      pageVersionId,
      postedById: ctx.viewer.userId,
      body: body as unknown as Prisma.InputJsonObject,
      postedAt: ctx.clock.now(),
    },
  });
  spaceLevels.set(comment, level);
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
function reactionWrites(ctx: Context, table: ReactionTable, ownerId: string, change: ReactionsChange): Prisma.PrismaPromise<number>[] {
  const owner = Prisma.raw(table === 'CommentReaction' ? '"commentId"' : '"replyId"');
  const name = Prisma.raw(`"${table}"`);
  const removed = [...new Set(change.removedReactions ?? [])];
  const added = [...new Set(change.addedReactions ?? [])].filter((emoji) => !removed.includes(emoji));
  const writes: Prisma.PrismaPromise<number>[] = [];
  if (added.length) {
    writes.push(ctx.prisma.$executeRaw`
      INSERT INTO ${name} (${owner}, emoji, "userId", "reactedAt")
      SELECT ${ownerId}, e.emoji, ${ctx.viewer.userId}, ${ctx.clock.now()} FROM unnest(${added}::text[]) AS e(emoji)
      ON CONFLICT DO NOTHING`);
  }
  if (removed.length) {
    writes.push(ctx.prisma.$executeRaw`
      DELETE FROM ${name} WHERE ${owner} = ${ownerId} AND "userId" = ${ctx.viewer.userId} AND emoji = ANY(${removed}::text[])`);
  }
  return writes;
}

/** Edits the body (author only), resolves or reopens, and reacts; returns the comment as it now stands. */
export async function updateComment(ctx: Context, spaceId: string, commentId: string, change: CommentChange): Promise<Comment> {
  const { comment, level } = await commentIn(ctx, spaceId, commentId, 'comment');
  if (change.body && comment.postedById !== ctx.viewer.userId) throw forbidden('edit', 'Comment');
  const now = ctx.clock.now();
  const body = change.body && { ...(comment.body as unknown as StoredBody), markdown: markdownOf(change.body) };
  const resolution =
    change.resolved === true
      ? Prisma.sql`status = 'resolved', "resolvedAt" = CASE WHEN status = 'resolved' THEN "resolvedAt" ELSE ${now} END,
                   "resolvedById" = CASE WHEN status = 'resolved' THEN "resolvedById" ELSE ${ctx.viewer.userId} END`
      : change.resolved === false
        ? Prisma.sql`status = 'open', "resolvedAt" = NULL, "resolvedById" = NULL`
        : Prisma.sql`status = status`;
  const edit = body ? Prisma.sql`, body = ${JSON.stringify(body)}::jsonb, "editedAt" = ${now}` : Prisma.empty;
  const results = await ctx.prisma.$transaction([
    ...reactionWrites(ctx, 'CommentReaction', commentId, change),
    ctx.prisma.$queryRaw<Comment[]>`UPDATE "Comment" SET ${resolution} ${edit} WHERE id = ${commentId} RETURNING *`,
  ]);
  const [updated] = results.at(-1) as Comment[];
  if (!updated) throw notFound('Comment');
  spaceLevels.set(updated, level);
  return updated;
}

/** Deletes a comment with its replies and reactions (by cascade): its author, or an admin of the space. */
export async function deleteComment(ctx: Context, spaceId: string, commentId: string): Promise<void> {
  const { comment, level } = await commentIn(ctx, spaceId, commentId, 'comment');
  if (!commentPermissions(level, comment.postedById, ctx.viewer.userId).delete) throw forbidden('delete', 'Comment');
  await ctx.prisma.$executeRaw`DELETE FROM "Comment" WHERE id = ${commentId}`;
}

export async function postReply(ctx: Context, spaceId: string, commentId: string, input: { body: BodyInput }): Promise<CommentReply> {
  const { level } = await commentIn(ctx, spaceId, commentId, 'comment');
  const body: StoredBody = { markdown: markdownOf(input.body) };
  const reply = await ctx.prisma.commentReply.create({
    data: {
      id: newId(),
      commentId,
      postedById: ctx.viewer.userId,
      body: body as unknown as Prisma.InputJsonObject,
      postedAt: ctx.clock.now(),
    },
  });
  spaceLevels.set(reply, level);
  return reply;
}

export interface ReplyChange extends ReactionsChange {
  body?: BodyInput | null;
}

export async function updateReply(
  ctx: Context,
  spaceId: string,
  commentId: string,
  replyId: string,
  change: ReplyChange,
): Promise<CommentReply> {
  const { reply, level } = await replyIn(ctx, spaceId, commentId, replyId, 'comment');
  if (change.body && reply.postedById !== ctx.viewer.userId) throw forbidden('edit', 'Comment reply');
  const now = ctx.clock.now();
  const edit = change.body
    ? Prisma.sql`body = ${JSON.stringify({ markdown: markdownOf(change.body) })}::jsonb, "editedAt" = ${now}`
    : Prisma.sql`id = id`;
  const results = await ctx.prisma.$transaction([
    ...reactionWrites(ctx, 'ReplyReaction', replyId, change),
    ctx.prisma.$queryRaw<CommentReply[]>`UPDATE "CommentReply" SET ${edit} WHERE id = ${replyId} RETURNING *`,
  ]);
  const [updated] = results.at(-1) as CommentReply[];
  if (!updated) throw notFound('Comment reply');
  spaceLevels.set(updated, level);
  return updated;
}

/** Deletes a reply with its reactions: its author, or an admin of the space. */
export async function deleteReply(ctx: Context, spaceId: string, commentId: string, replyId: string): Promise<void> {
  const { reply, level } = await replyIn(ctx, spaceId, commentId, replyId, 'comment');
  if (!commentPermissions(level, reply.postedById, ctx.viewer.userId).delete) throw forbidden('delete', 'Comment reply');
  await ctx.prisma.$executeRaw`DELETE FROM "CommentReply" WHERE id = ${replyId}`;
}
