// What can be done to change requests: create one (a new line of history starting at the space's current revision),
// change its subject, description, links and status. Content edits, update and merge find theirs through
// `changeRequests` (access.ts).
import { isDeepStrictEqual } from 'node:util';
import { type ChangeRequest, type ChangeRequestStatus, Prisma, type Revision } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { authorize, rowOf, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { conflict, notFound } from '../kernel/errors.js';
import { lockIfMatch } from '../kernel/etags.js';
import { changedFields, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { invalidInput } from '../kernel/validation.js';
import type { JsonDocument } from '../revisions/document.js';
import { writeRevision } from '../revisions/store.js';
import { changeRequests } from './access.js';
import { changeRequestEvent } from './events.js';

/** A change request's values computed for a page of them at once. */
export interface ChangeRequestFacts {
  /** Comments on the change request still open. */
  openComments: number;
  /** The space's current revision is not the one the change request builds on (never for a merged one). */
  outdated: boolean;
}

/** Open comments and whether each is outdated, compared with its space's current revision: one statement per batch. */
export const changeRequestFactsAnnotation = rowAnnotation<ChangeRequest, ChangeRequestFacts>('change request facts', async (ctx, rows) => {
  const found = await ctx.sql<ChangeRequestFacts & { id: string }>(Prisma.sql`
    SELECT cr.id,
           (SELECT count(*)::int FROM "Comment" c WHERE c."changeRequestId" = cr.id AND c.status = 'open') AS "openComments",
           cr.status <> 'merged' AND own."baseSeq" IS DISTINCT FROM main.seq AS outdated
      FROM unnest(${rows.map((row) => row.id)}::text[], ${rows.map((row) => row.revisionId)}::text[],
                  ${rows.map((row) => row.spaceId)}::text[], ${rows.map((row) => row.status)}::text[]) AS cr(id, "revisionId", "spaceId", status)
      JOIN "Revision" own ON own.id = cr."revisionId"
      JOIN "Space" s ON s.id = cr."spaceId"
      JOIN "Revision" main ON main.id = s."revisionId"`);
  const byId = new Map(found.map((row) => [row.id, row]));
  return rows.map((row) => byId.get(row.id) ?? { openComments: 0, outdated: false });
});

type Tx = Parameters<Parameters<Context['prisma']['$transaction']>[0]>[0];

/** A user's contributions of one kind to a change request, as GitBook's UserContributor counts them. */
export interface ChangeRequestContributor {
  userId: string;
  /** edit: revisions of the change request's line they wrote; comment: comments and replies they posted in it. */
  actionType: 'edit' | 'comment';
  count: number;
  /** When the last of them was made. */
  updatedAt: Date;
}

/**
 * Who contributed to each change request: one item per user and kind of contribution, so that a user who edited and
 * commented is listed twice, once with each count. The first revision of the line is its creation, so its creator has
 * edited. Most recent contribution first; of one moment, edits first, then by user id. One statement per batch.
 */
export const changeRequestContributorsAnnotation = rowAnnotation<ChangeRequest, ChangeRequestContributor[]>(
  'change request contributors',
  async (ctx, rows) => {
    const ids = rows.map((row) => row.id);
    const found = await ctx.sql<ChangeRequestContributor & { changeRequestId: string }>(Prisma.sql`
      SELECT x."changeRequestId", x."userId", x."actionType", count(*)::int AS count, max(x.at) AS "updatedAt"
        FROM (SELECT cr.id AS "changeRequestId", r."createdById" AS "userId", 'edit' AS "actionType", r."createdAt" AS at
                FROM unnest(${ids}::text[], ${rows.map((row) => row.spaceId)}::text[]) AS cr(id, "spaceId")
                JOIN "Revision" r ON r."spaceId" = cr."spaceId" AND r.line = cr.id
               WHERE r."createdById" IS NOT NULL
              UNION ALL
              SELECT c."changeRequestId", c."postedById", 'comment', c."postedAt" FROM "Comment" c
               WHERE c."changeRequestId" = ANY(${ids}::text[])
              UNION ALL
              SELECT c."changeRequestId", reply."postedById", 'comment', reply."postedAt" FROM "CommentReply" reply
                JOIN "Comment" c ON c.id = reply."commentId"
               WHERE c."changeRequestId" = ANY(${ids}::text[])) x
       GROUP BY x."changeRequestId", x."userId", x."actionType"
       ORDER BY max(x.at) DESC, x."actionType" DESC, x."userId"`);
    const byChangeRequest = new Map<string, ChangeRequestContributor[]>(ids.map((id) => [id, []]));
    for (const { changeRequestId, ...contributor } of found) byChangeRequest.get(changeRequestId)?.push(contributor);
    return ids.map((id) => byChangeRequest.get(id) ?? []);
  },
);

/**
 * Opens a change request on the space's current revision: the first revision of its own line, and the next number of
 * the space. A new change request is a draft, as GitBook's spec describes it ("a draft working copy"); opening it asks
 * for review. `within` runs the caller's own statements in the transaction (an import run of the change request).
 */
export async function createChangeRequest(
  ctx: Context,
  spaceId: string,
  input: { subject?: string | null },
  within?: (tx: Tx, created: ChangeRequest) => Promise<void>,
): Promise<ChangeRequest> {
  const { row: space } = await authorize(ctx, spaces, spaceId, 'edit');
  const id = newId();
  const now = ctx.clock.now();
  const created = await ctx.prisma.$transaction(async (tx) => {
    // The space's row stays locked by this update until the transaction ends: concurrent creations take turns, and a
    // creation that fails gives its number back, so numbers are unique and without gaps. The current revision is read
    // after the lock, in a statement of its own, so that it is the one a merge that ran meanwhile left.
    const [next] = await tx.$queryRaw<{ number: number; revisionId: string }[]>`
      UPDATE "Space" SET "changeRequestSeq" = "changeRequestSeq" + 1 WHERE id = ${spaceId}
      RETURNING "changeRequestSeq" AS number, "revisionId"`;
    const [parent] = await tx.$queryRaw<Revision[]>`SELECT * FROM "Revision" WHERE id = ${next.revisionId}`;
    const revision = await writeRevision(
      tx,
      ctx.pageVersionHooks,
      { spaceId, line: id, parent, type: 'edits', createdById: ctx.viewer.userId },
      {},
    );
    const [row] = await tx.$queryRaw<ChangeRequest[]>`
      INSERT INTO "ChangeRequest" (id, "spaceId", number, status, subject, "createdById", "revisionId", "revisionInitialId",
                                   "createdAt", "updatedAt")
      VALUES (${id}, ${spaceId}, ${next.number}, 'draft', ${input.subject ?? ''}, ${ctx.viewer.userId}, ${revision.id}, ${parent.id},
              ${now}, ${now})
      RETURNING *`;
    await within?.(tx, row);
    await recordEvents(tx, ctx, [changeRequestEvent('change_request_created', space, row)]);
    return row;
  });
  // Built on the current revision a moment ago, and nobody has commented yet.
  changeRequestFactsAnnotation.set(created, { openComments: 0, outdated: false });
  return created;
}

/** The statuses a change request may take from each status through an update; merging is its own operation. */
const NEXT_STATUSES: Record<ChangeRequestStatus, readonly ChangeRequestStatus[]> = {
  draft: ['open', 'archived'],
  open: ['draft', 'archived'],
  archived: ['open'],
  merged: [],
};

/** An external link of a change request (a ticket, say), as stored in its `links` and answered. */
export interface ChangeRequestLink {
  id: string;
  ref: { kind: 'url'; url: string };
  title?: string;
}

/** A link as an update gives it: the id of one of the change request's links keeps that link; none adds one. */
export interface ChangeRequestLinkInput {
  id?: string | null;
  ref: { url: string };
  title?: string | null;
}

export interface ChangeRequestUpdate {
  subject?: string | null;
  status?: ChangeRequestStatus | null;
  description?: JsonDocument | null;
  /** Replaces the whole set. */
  links?: readonly ChangeRequestLinkInput[] | null;
}

export const linksOf = (row: ChangeRequest): ChangeRequestLink[] => row.links as unknown as ChangeRequestLink[];

/** 409 for a status the change request cannot go to from its own, or a new subject or description for a merged one. */
function checkUpdate(current: ChangeRequest, update: ChangeRequestUpdate): void {
  const status = update.status;
  if (status && status !== current.status && !NEXT_STATUSES[current.status].includes(status)) {
    throw conflict(`A change request cannot go from "${current.status}" to "${status}".`);
  }
  if (current.status !== 'merged') return;
  if (update.subject != null && update.subject !== current.subject) {
    throw conflict('The change request is merged; its subject can no longer change.');
  }
  if (update.description != null && !isDeepStrictEqual(update.description, current.description)) {
    throw conflict('The change request is merged; its description can no longer change.');
  }
}

/**
 * The links that replace the change request's: a given id must be one of its links (it keeps that link's id, given
 * once); a link without one is new.
 */
function replacedLinks(current: readonly ChangeRequestLink[], given: readonly ChangeRequestLinkInput[]): ChangeRequestLink[] {
  const known = new Set(current.map((link) => link.id));
  const kept = new Set<string>();
  return given.map((link, index) => {
    if (link.id != null) {
      if (!known.has(link.id)) throw invalidInput(['links', index, 'id'], 'is not the id of a link of this change request');
      if (kept.has(link.id)) throw invalidInput(['links', index, 'id'], 'names a link given before it');
      kept.add(link.id);
    }
    return { id: link.id ?? newId(), ref: { kind: 'url', url: link.ref.url }, ...(link.title != null && { title: link.title }) };
  });
}

/**
 * The event of an update: archiving and reopening are their own actions. It keeps the subject, status and links that
 * changed, and whether the description did (not the document itself).
 */
async function updateEvent(ctx: Context, before: ChangeRequest, after: ChangeRequest) {
  const space = (await rowOf(ctx, spaces, after.spaceId))!;
  const action =
    after.status === before.status
      ? 'change_request_updated'
      : after.status === 'archived'
        ? 'change_request_archived'
        : before.status === 'archived'
          ? 'change_request_reopened'
          : 'change_request_updated';
  const changed = changedFields(
    { subject: before.subject, status: before.status, links: before.links },
    { subject: after.subject, status: after.status, links: after.links },
  );
  const described = !isDeepStrictEqual(before.description, after.description);
  return changeRequestEvent(action, space, after, { changed, ...(described && { descriptionChanged: true }) });
}

/**
 * Changes the subject, description, links and status; returns the row, updated (and its updatedAt moved) only if
 * something changed.
 */
export async function updateChangeRequest(
  ctx: Context,
  spaceId: string,
  idOrNumber: string,
  update: ChangeRequestUpdate,
): Promise<ChangeRequest> {
  let { row: current } = await authorize(ctx, changeRequests, { id: idOrNumber, parent: spaceId }, 'edit');
  // Written only if the status is still the one judged: a change request merged meanwhile is judged again, as it is now.
  for (;;) {
    checkUpdate(current, update);
    const links = update.links ? replacedLinks(linksOf(current), update.links) : null;
    const changes =
      (update.subject != null && update.subject !== current.subject) ||
      (update.status != null && update.status !== current.status) ||
      (update.description != null && !isDeepStrictEqual(update.description, current.description)) ||
      (links !== null && !isDeepStrictEqual(links, linksOf(current)));
    if (!changes) return current;
    const json = (value: unknown) => (value == null ? null : JSON.stringify(value));
    const updated = await ctx.prisma.$transaction(async (tx) => {
      await lockIfMatch(tx, ctx, 'ChangeRequest', current.id, 'Change request');
      const [row] = await tx.$queryRaw<ChangeRequest[]>`
        UPDATE "ChangeRequest"
           SET subject = coalesce(${update.subject ?? null}, subject),
               status = coalesce(${update.status ?? null}::"ChangeRequestStatus", status),
               description = coalesce(${json(update.description)}::jsonb, description),
               links = coalesce(${json(links)}::jsonb, links), "updatedAt" = ${ctx.clock.now()}
         WHERE id = ${current.id} AND status = ${current.status}::"ChangeRequestStatus"
        RETURNING *`;
      if (row) await recordEvents(tx, ctx, [await updateEvent(ctx, current, row)]);
      return row;
    });
    if (updated) return updated;
    const [fresh] = await ctx.sql<ChangeRequest>(Prisma.sql`SELECT * FROM "ChangeRequest" WHERE id = ${current.id}`);
    if (!fresh) throw notFound('Change request');
    current = fresh;
  }
}
