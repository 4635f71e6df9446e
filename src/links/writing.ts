// The links of page versions kept with the content: the revision store (src/revisions/store.ts) writes a version's
// PageLink rows with it. On a change request's line they ride in the versions' own INSERT; on the primary line that
// statement is the search index's (a data-modifying WITH cannot nest in another), so they take one statement of their
// own, only when the written pages link anywhere. The same statement marks the external URLs it links due for a check
// and enqueues one (checking.ts). A copy of a space copies its rows with the copy's files.
import { Prisma } from '../generated/prisma/client.js';
import { markdownOfPage } from '../search/sections.js';
import { enqueueingCheckOfFresh, MAX_CHECKED_URL, RECHECK_ON_WRITE_MS } from './checking.js';
import { linksOf } from './extract.js';

/** A page version as extraction reads it. */
export interface LinkedVersion {
  id: string;
  markdown: string | null;
  document: unknown;
  deleted?: boolean;
}

function rowsOf(versions: readonly LinkedVersion[]) {
  return versions.flatMap((version) =>
    version.deleted ? [] : linksOf(markdownOfPage(version)).map((link) => ({ pageVersionId: version.id, ...link })),
  );
}

/**
 * Common table expressions that insert the rows and mark due the URLs among them never checked or last checked more
 * than a day ago (`fresh`), then the statement's end, which enqueues their check (checking.ts): what follows `WITH`.
 */
function writingRows(rows: ReturnType<typeof rowsOf>): Prisma.Sql {
  // Sorted, so that concurrent writes of the same URLs take their rows' locks in one order.
  const urls = [...new Set(rows.flatMap((row) => (row.kind === 'url' && row.target.length <= MAX_CHECKED_URL ? [row.target] : [])))].sort();
  const now = new Date();
  return Prisma.sql`
    links AS (
      INSERT INTO "PageLink" ("pageVersionId", position, kind, target, href, anchor)
      SELECT l."pageVersionId", l.position, l.kind, l.target, l.href, l.anchor
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
             AS l("pageVersionId" text, position int, kind text, target text, href text, anchor text)
    ),
    fresh AS (
      INSERT INTO "LinkCheck" AS c (url, "dueAt") SELECT unnest(${urls}::text[]), ${now}
      ON CONFLICT (url) DO UPDATE SET "dueAt" = excluded."dueAt"
       WHERE c."dueAt" IS NULL AND c."checkedAt" < ${new Date(now.getTime() - RECHECK_ON_WRITE_MS)}
      RETURNING url
    ),
    ${enqueueingCheckOfFresh()}`;
}

/** The statement `insert` (a plain INSERT of page versions) writing the versions' links too. */
export function insertingWithLinks(insert: Prisma.Sql, versions: readonly LinkedVersion[]): Prisma.Sql {
  const rows = rowsOf(versions);
  return rows.length ? Prisma.sql`WITH versions AS (${insert}), ${writingRows(rows)}` : insert;
}

/** A statement of its own writing the versions' links (run after their INSERT), or null when they link nowhere. */
export function insertingLinks(versions: readonly LinkedVersion[]): Prisma.Sql | null {
  const rows = rowsOf(versions);
  return rows.length ? Prisma.sql`WITH ${writingRows(rows)}` : null;
}

/**
 * The statement `copy` (a plain INSERT, run after the page versions of `toSpaceId`'s first revision were copied from
 * the versions `source` selects) copying those versions' links too.
 */
export const copyingLinks = (copy: Prisma.Sql, source: Prisma.Sql, toSpaceId: string): Prisma.Sql =>
  Prisma.sql`
    WITH links AS (
      INSERT INTO "PageLink" ("pageVersionId", position, kind, target, href, anchor)
      SELECT copied.id, l.position, l.kind, l.target, l.href, l.anchor
        FROM "PageVersion" copied
        JOIN (${source}) src ON src."pageId" = copied."pageId"
        JOIN "PageLink" l ON l."pageVersionId" = src.id
       WHERE copied."spaceId" = ${toSpaceId} AND copied.line = 'main' AND copied."validFrom" = 1 AND copied."validTo" IS NULL
    )
    ${copy}`;
