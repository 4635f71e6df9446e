// Values of comments and replies computed for a page of them at once (one statement each, whatever the page size):
// the viewer's level on their space, their page as it stands now (in the space, or in their change request), their
// repliers, their reactions; and the body format a request asked for.
import type { Comment, CommentReply, Revision, Space } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { contentLevelAnnotation, type Resource, rowOf, rowsOfTable, spaces } from '../kernel/authorize.js';
import { type Level, policies } from '../kernel/permissions.js';
import { type PageNode, treeOf } from '../revisions/read.js';
import { MAIN } from '../revisions/store.js';

type Posted = Comment | CommentReply;

/**
 * The viewer's level on the space of each comment or reply (a reply's space is its comment's): the request's rows of
 * the space and the comment, so nothing is read for what the request reached through them.
 */
export const spaceLevelAnnotation = rowAnnotation<Posted, Level>('comment space level', async (ctx, rows) => {
  const spaceIds = await Promise.all(
    rows.map(async (row) => ('spaceId' in row ? row.spaceId : (await rowOf(ctx, comments, row.commentId))?.spaceId)),
  );
  const found = await Promise.all(spaceIds.map((id) => (id ? rowOf(ctx, spaces, id) : null)));
  await contentLevelAnnotation.annotate(
    ctx,
    found.filter((space): space is Space => space !== null),
  );
  return Promise.all(found.map((space) => (space ? contentLevelAnnotation.of(ctx, space) : null)));
});

/** Comments are judged by the viewer's level on their space and whether they wrote them (policies.comment). */
export const comments: Resource<Comment, typeof policies.comment> = {
  kind: 'Comment',
  policy: policies.comment,
  loadMany: rowsOfTable('Comment'),
  level: spaceLevelAnnotation,
  parentKey: 'spaceId',
  ownerOf: (comment) => comment.postedById,
};

export const replies: Resource<CommentReply, typeof policies.comment> = {
  kind: 'Comment reply',
  policy: policies.comment,
  loadMany: rowsOfTable('CommentReply'),
  level: spaceLevelAnnotation,
  parentKey: 'commentId',
  ownerOf: (reply) => reply.postedById,
};

export type BodyFormat = 'markdown' | 'document';

/** The format a request asked for the bodies in: markdown unless told. */
export const bodyFormatAnnotation = rowAnnotation<Posted, BodyFormat>('comment body format', async (_ctx, rows) =>
  rows.map(() => 'markdown'),
);

/** A comment's page in the current content (the space's, or its change request's), and whether it changed since. */
export interface CommentPage {
  id: string;
  /** Null when the page is no longer in that content. */
  node: PageNode | null;
  outdated: boolean;
}

export interface CommentFacts {
  /** The revision the comment was posted on (the current one, for a comment stored without it). */
  revisionId: string;
  page: CommentPage | null;
}

/** `v` holds at `seq`. */
const holds = (v: string, seq: Prisma.Sql) =>
  Prisma.sql`${Prisma.raw(v)}."validFrom" <= ${seq} AND (${Prisma.raw(v)}."validTo" IS NULL OR ${Prisma.raw(v)}."validTo" > ${seq})`;

/**
 * Where each comment's page stands: the current revision (the space's, or the change request's for a comment in one),
 * whether the page's version the comment was posted on is still the one there (one statement), and the page's head
 * and path in that revision's tree (one statement for all the revisions). On a change request's line, a version of
 * the primary line at its base holds unless the line has a row of its own for the page (as store.ts reads it).
 */
export const commentFactsAnnotation = rowAnnotation<Comment, CommentFacts>('comment facts', async (ctx, rows) => {
  const found = await ctx.sql<Revision & { comment: string; current: boolean }>(Prisma.sql`
    SELECT c.id AS comment, r.*, EXISTS (
             SELECT 1 FROM "PageVersion" v
              WHERE v.id = c.version AND v."spaceId" = r."spaceId"
                AND (v.line = r.line AND ${holds('v', Prisma.sql`r.seq`)}
                     OR r.line <> ${MAIN} AND v.line = ${MAIN} AND ${holds('v', Prisma.sql`coalesce(r."baseSeq", 0)`)}
                        AND NOT EXISTS (SELECT 1 FROM "PageVersion" own
                                         WHERE own."spaceId" = r."spaceId" AND own.line = r.line AND own."pageId" = v."pageId"
                                           AND ${holds('own', Prisma.sql`r.seq`)}))) AS current
      FROM unnest(${rows.map((row) => row.id)}::text[], ${rows.map((row) => row.spaceId)}::text[],
                  ${rows.map((row) => row.changeRequestId)}::text[], ${rows.map((row) => row.pageVersionId)}::text[])
           AS c(id, space, "changeRequest", version)
      JOIN "Space" s ON s.id = c.space
      LEFT JOIN "ChangeRequest" cr ON cr.id = c."changeRequest"
      JOIN "Revision" r ON r.id = coalesce(cr."revisionId", s."revisionId")`);
  const byComment = new Map(found.map(({ comment, current, ...revision }) => [comment, { current, revision: revision as Revision }]));
  return Promise.all(
    rows.map(async (row): Promise<CommentFacts> => {
      const now = byComment.get(row.id);
      const revisionId = row.revisionId ?? now?.revision.id ?? '';
      if (!row.pageId || !now) return { revisionId, page: null };
      const tree = await treeOf(ctx, now.revision);
      const node = tree.byId.get(row.pageId) ?? null;
      return { revisionId, page: { id: row.pageId, node, outdated: !node || !now.current } };
    }),
  );
});

export interface Replier {
  userId: string;
  count: number;
  updatedAt: Date;
}

/** Each comment's replies and who wrote them (with how many and their last), most recent first: one statement. */
export const commentRepliesAnnotation = rowAnnotation<Comment, { count: number; repliers: Replier[] }>(
  'comment replies',
  async (ctx, rows) => {
    const found = await ctx.sql<Replier & { commentId: string }>(Prisma.sql`
    SELECT "commentId", "postedById" AS "userId", count(*)::int AS count, max("postedAt") AS "updatedAt" FROM "CommentReply"
     WHERE "commentId" = ANY(${rows.map((row) => row.id)}::text[])
     GROUP BY 1, 2 ORDER BY 1, 4 DESC, 2`);
    const byComment = new Map<string, Replier[]>();
    for (const { commentId, ...replier } of found) byComment.set(commentId, [...(byComment.get(commentId) ?? []), replier]);
    return rows.map((row) => {
      const repliers = byComment.get(row.id) ?? [];
      return { count: repliers.reduce((sum, replier) => sum + replier.count, 0), repliers };
    });
  },
);

export interface ReactionGroup {
  emoji: string;
  users: { userId: string; reactedAt: Date }[];
}

/** The reactions of comments or replies grouped by emoji, in the order each emoji was first used; users in order too. */
function reactionsOf<Row extends { id: string }>(name: string, table: 'CommentReaction' | 'ReplyReaction', column: string) {
  return rowAnnotation<Row, ReactionGroup[]>(name, async (ctx, rows) => {
    const found = await ctx.sql<{ owner: string; emoji: string; userId: string; reactedAt: Date }>(Prisma.sql`
      SELECT ${Prisma.raw(`"${column}"`)} AS owner, emoji, "userId", "reactedAt" FROM ${Prisma.raw(`"${table}"`)}
       WHERE ${Prisma.raw(`"${column}"`)} = ANY(${rows.map((row) => row.id)}::text[])
       ORDER BY 1, "reactedAt", "userId"`);
    const byOwner = new Map<string, Map<string, ReactionGroup>>();
    for (const reaction of found) {
      const groups = byOwner.get(reaction.owner) ?? new Map<string, ReactionGroup>();
      byOwner.set(reaction.owner, groups);
      const group = groups.get(reaction.emoji) ?? { emoji: reaction.emoji, users: [] };
      groups.set(reaction.emoji, group);
      group.users.push({ userId: reaction.userId, reactedAt: reaction.reactedAt });
    }
    return rows.map((row) => [...(byOwner.get(row.id)?.values() ?? [])]);
  });
}

export const commentReactionsAnnotation = reactionsOf<Comment>('comment reactions', 'CommentReaction', 'commentId');
export const replyReactionsAnnotation = reactionsOf<CommentReply>('reply reactions', 'ReplyReaction', 'replyId');
