// The links of page versions kept with the content: the revision store (src/revisions/store.ts) writes a version's
// PageLink rows in the statement that writes the version, through the store's hook (pageLinksHook, given at
// src/composition.ts), on every line. The same statement marks the external URLs it links due for a check and
// enqueues one (checking.ts). A copy of a space copies the rows with the copied versions.
import { Prisma } from '../generated/prisma/client.js';
import type { PageVersionHook } from '../revisions/hooks.js';
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
 * Common table expressions that insert the rows, mark due the URLs among them never checked or last checked more
 * than a day ago (`fresh`), and enqueue their check (`queued`, which the statement's end must read: checking.ts).
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

/** A statement of its own writing the versions' links (the backfill's), or null when they link nowhere. */
export function insertingLinks(versions: readonly LinkedVersion[]): Prisma.Sql | null {
  const rows = rowsOf(versions);
  return rows.length ? Prisma.sql`WITH ${writingRows(rows)} SELECT count(*) FROM queued` : null;
}

/** The links as the revision store's hook (src/revisions/hooks.ts): a version's rows are written and copied with it. */
export const pageLinksHook: PageVersionHook = {
  inserting: (_line, versions) => {
    const rows = rowsOf(versions);
    return rows.length ? { with: writingRows(rows), read: 'queued' } : null;
  },
  copying: () => ({
    with: Prisma.sql`
      links AS (
        INSERT INTO "PageLink" ("pageVersionId", position, kind, target, href, anchor)
        SELECT pairs.id, l.position, l.kind, l.target, l.href, l.anchor FROM pairs JOIN "PageLink" l ON l."pageVersionId" = pairs."sourceId"
      )`,
  }),
};
