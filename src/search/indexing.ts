// The search index kept with the content: the revision store's statements that write the current pages of a primary
// line (src/revisions/store.ts) carry the index's rows in the same statement, so indexing costs no round trip. A new
// page version brings its rows (PageSearch: the page's vector; PageSection: its sections), a closed one takes them
// away, a copy of a space copies them. Only current pages of primary lines are indexed: search reads nothing else.
import { Prisma } from '../generated/prisma/client.js';
import { markdownOfPage, pageTextOf, SEARCHED_PAGE_TYPES, sectionsOf } from './sections.js';

/**
 * The text search configuration of the index and of queries: 'english' stems words (a search for "installing" finds
 * "install") and leaves out stop words. 'simple' would match words as written only; unaccent is not installed.
 */
export const SEARCH_CONFIG = Prisma.sql`'english'::regconfig`;

/** A page version as the index reads it. */
export interface IndexedVersion {
  id: string;
  pageId: string;
  type: string;
  title: string;
  description: string | null;
  markdown: string | null;
  document: unknown;
}

const vector = (text: Prisma.Sql, weight: 'A' | 'B' | 'C' | 'D') =>
  Prisma.sql`setweight(to_tsvector(${SEARCH_CONFIG}, ${text}), ${Prisma.raw(`'${weight}'`)})`;

/**
 * One statement writing the index rows of page versions of a space (links and computed pages have none), their
 * vectors computed by PostgreSQL, after `before` (a statement of the same transaction's work, run first in it); null
 * when there is nothing to index.
 */
export function insertingIndex(spaceId: string, versions: readonly IndexedVersion[], before?: Prisma.Sql): Prisma.Sql | null {
  const searched = versions.filter((version) => (SEARCHED_PAGE_TYPES as readonly string[]).includes(version.type));
  if (!searched.length) return null;
  const pages = [];
  const sections = [];
  for (const version of searched) {
    const cut = sectionsOf(markdownOfPage(version), version.title);
    pages.push({ pageVersionId: version.id, title: version.title, description: version.description ?? '', ...pageTextOf(cut) });
    sections.push(...cut.map(({ position, anchor, heading, body }) => ({ pageVersionId: version.id, position, anchor, heading, body })));
  }
  return Prisma.sql`
    WITH ${before ? Prisma.sql`versions AS (${before}),` : Prisma.empty} pages AS (
      INSERT INTO "PageSearch" ("pageVersionId", "spaceId", search)
      SELECT p."pageVersionId", ${spaceId}, ${vector(Prisma.sql`p.title`, 'A')} || ${vector(Prisma.sql`p.headings`, 'B')}
             || ${vector(Prisma.sql`p.description`, 'C')} || ${vector(Prisma.sql`p.body`, 'D')}
        FROM jsonb_to_recordset(${JSON.stringify(pages)}::jsonb)
             AS p("pageVersionId" text, title text, description text, headings text, body text)
      ON CONFLICT DO NOTHING
    )
    INSERT INTO "PageSection" ("pageVersionId", position, anchor, heading, body, search)
    SELECT s."pageVersionId", s.position, s.anchor, s.heading, s.body, ${vector(Prisma.sql`s.heading`, 'B')} || ${vector(Prisma.sql`s.body`, 'D')}
      FROM jsonb_to_recordset(${JSON.stringify(sections)}::jsonb)
           AS s("pageVersionId" text, position int, anchor text, heading text, body text)
    ON CONFLICT DO NOTHING`;
}

/** The statement `insert` (of new current page versions of a space's primary line), writing their index rows too. */
export const insertingWithIndex = (insert: Prisma.Sql, spaceId: string, versions: readonly IndexedVersion[]): Prisma.Sql =>
  insertingIndex(spaceId, versions, insert) ?? insert;

/** The statement `close` (an UPDATE that ends current page versions of a primary line), dropping their index rows too. */
export const closingWithIndex = (close: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`
    WITH closed AS (${close} RETURNING id),
         pages AS (DELETE FROM "PageSearch" WHERE "pageVersionId" IN (SELECT id FROM closed))
    DELETE FROM "PageSection" WHERE "pageVersionId" IN (SELECT id FROM closed)`;

/**
 * The statement `copy` (an INSERT of page versions into the primary line of `toSpaceId`, from the versions `source`
 * selects) copying the index rows of those versions too: a copy of current content is searchable at once.
 */
export const copyingWithIndex = (copy: Prisma.Sql, source: Prisma.Sql, toSpaceId: string): Prisma.Sql =>
  Prisma.sql`
    WITH copied AS (${copy} RETURNING id, "pageId"),
         pairs AS (SELECT copied.id, src.id AS "sourceId" FROM copied JOIN (${source}) src ON src."pageId" = copied."pageId"),
         pages AS (
           INSERT INTO "PageSearch" ("pageVersionId", "spaceId", search)
           SELECT pairs.id, ${toSpaceId}, p.search FROM pairs JOIN "PageSearch" p ON p."pageVersionId" = pairs."sourceId"
         )
    INSERT INTO "PageSection" ("pageVersionId", position, anchor, heading, body, search)
    SELECT pairs.id, s.position, s.anchor, s.heading, s.body, s.search FROM pairs JOIN "PageSection" s ON s."pageVersionId" = pairs."sourceId"`;
