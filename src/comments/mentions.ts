// Mentions of members in the bodies of comments and replies: `@` and the user's id in the body's text (the markdown
// twin of GitBook's document mention, which refers to a user by id), read from the markdown's syntax tree, so that
// code and link addresses never mention anyone. A mention is recorded for a member of the space's organization other
// than the author; any other `@...` stays text. Editing a body replaces its mentions, keeping when those still there
// were first made. The mentioned user lists them with the root field `mentions`.
import type { Comment, CommentMention, CommentReply } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import type { Context } from '../kernel/context.js';
import { newId } from '../kernel/ids.js';
import { mentionsOf } from '../revisions/markdown.js';

/** The body a mention is in: a comment's, or one of its replies'. */
export interface MentionSite {
  commentId: string;
  replyId: string | null;
}

/** The members of the organization a markdown body mentions, the viewer left out: no statement when it names none. */
export async function mentionedMembers(ctx: Context, organizationId: string, markdown: string): Promise<string[]> {
  const ids = mentionsOf(markdown).filter((id) => id !== ctx.viewer.userId);
  if (!ids.length) return [];
  const members = await ctx.sql<{ userId: string }>(Prisma.sql`
    SELECT "userId" FROM "Member" WHERE "organizationId" = ${organizationId} AND "userId" = ANY(${ids}::text[])`);
  const found = new Set(members.map((member) => member.userId));
  return ids.filter((id) => found.has(id));
}

/**
 * The writes that make `users` the mentions of a body, for a transaction with the body's own write: a batch of
 * ctx.prisma's (the default), or an interactive transaction's own client.
 */
export function mentionWrites(
  ctx: Context,
  site: MentionSite,
  users: readonly string[],
  replacing: boolean,
  db: Pick<Prisma.TransactionClient, '$executeRaw'> = ctx.prisma,
): Prisma.PrismaPromise<number>[] {
  const ofSite = Prisma.sql`"commentId" = ${site.commentId} AND "replyId" IS NOT DISTINCT FROM ${site.replyId}::text`;
  const writes: Prisma.PrismaPromise<number>[] = [];
  if (replacing) {
    writes.push(db.$executeRaw`DELETE FROM "CommentMention" WHERE ${ofSite} AND "userId" <> ALL(${users}::text[])`);
  }
  if (users.length) {
    writes.push(db.$executeRaw`
      INSERT INTO "CommentMention" (id, "commentId", "replyId", "userId", "mentionedAt")
      SELECT m.id, ${site.commentId}, ${site.replyId}, m.user, ${ctx.clock.now()}
        FROM unnest(${users.map(() => newId())}::text[], ${users}::text[]) AS m(id, "user")
       WHERE NOT EXISTS (SELECT 1 FROM "CommentMention" WHERE ${ofSite} AND "userId" = m.user)`);
  }
  return writes;
}

/** The users each comment's or reply's own body mentions, the earliest mentioned first: one statement. */
export const postMentionsAnnotation = rowAnnotation<Comment | CommentReply, string[]>('post mentions', async (ctx, rows) => {
  const isComment = (row: Comment | CommentReply): row is Comment => 'spaceId' in row;
  const found = await ctx.sql<Pick<CommentMention, 'commentId' | 'replyId' | 'userId'>>(Prisma.sql`
    SELECT "commentId", "replyId", "userId" FROM "CommentMention"
     WHERE ("replyId" IS NULL AND "commentId" = ANY(${rows.filter(isComment).map((row) => row.id)}::text[]))
        OR "replyId" = ANY(${rows.filter((row) => !isComment(row)).map((row) => row.id)}::text[])
     ORDER BY "mentionedAt", id`);
  const byPost = new Map<string, string[]>();
  for (const mention of found) {
    const post = mention.replyId ?? mention.commentId;
    byPost.set(post, [...(byPost.get(post) ?? []), mention.userId]);
  }
  return rows.map((row) => byPost.get(row.id) ?? []);
});
