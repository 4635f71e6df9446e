// The search index kept with the content: the revision store's statements that write the current pages of a primary
// line (src/revisions/store.ts) carry the index's rows in the same statement, through the store's hook
// (searchIndexHook, given at src/composition.ts), so indexing costs no round trip. A new page version brings its rows
// (PageSearch: the page's vector; PageSection: its sections), a closed one takes them away, a copy of a space copies
// them. Only current pages of primary lines are indexed: search reads nothing else.
import { Prisma } from '../generated/prisma/client.js';
import type { PageVersionHook } from '../revisions/hooks.js';
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
 * Common table expressions writing the index rows of page versions of a space (links and computed pages have none),
 * their vectors computed by PostgreSQL; null when there is nothing to index.
 */
function indexing(spaceId: string, versions: readonly IndexedVersion[]): Prisma.Sql | null {
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
    indexed_pages AS (
      INSERT INTO "PageSearch" ("pageVersionId", "spaceId", search)
      SELECT p."pageVersionId", ${spaceId}, ${vector(Prisma.sql`p.title`, 'A')} || ${vector(Prisma.sql`p.headings`, 'B')}
             || ${vector(Prisma.sql`p.description`, 'C')} || ${vector(Prisma.sql`p.body`, 'D')}
        FROM jsonb_to_recordset(${JSON.stringify(pages)}::jsonb)
             AS p("pageVersionId" text, title text, description text, headings text, body text)
      ON CONFLICT DO NOTHING
    ),
    indexed_sections AS (
      INSERT INTO "PageSection" ("pageVersionId", position, anchor, heading, body, search)
      SELECT s."pageVersionId", s.position, s.anchor, s.heading, s.body, ${vector(Prisma.sql`s.heading`, 'B')} || ${vector(Prisma.sql`s.body`, 'D')}
        FROM jsonb_to_recordset(${JSON.stringify(sections)}::jsonb)
             AS s("pageVersionId" text, position int, anchor text, heading text, body text)
      ON CONFLICT DO NOTHING
    )`;
}

/** One statement writing the index rows of page versions of a space (the backfill's); null when there is nothing to index. */
export function insertingIndex(spaceId: string, versions: readonly IndexedVersion[]): Prisma.Sql | null {
  const rows = indexing(spaceId, versions);
  return rows && Prisma.sql`WITH ${rows} SELECT 1`;
}

/**
 * The search index as the revision store's hook (src/revisions/hooks.ts): only the current pages of primary lines are
 * indexed. A closed version takes its rows away, a new one brings its rows, a copy of a space copies them: a copy of
 * current content is searchable at once.
 */
export const searchIndexHook: PageVersionHook = {
  closing: (line) =>
    line.primary
      ? {
          with: Prisma.sql`
            unindexed_pages AS (DELETE FROM "PageSearch" WHERE "pageVersionId" IN (SELECT id FROM closed)),
            unindexed_sections AS (DELETE FROM "PageSection" WHERE "pageVersionId" IN (SELECT id FROM closed))`,
        }
      : null,
  inserting: (line, versions) => {
    const rows = line.primary ? indexing(line.spaceId, versions) : null;
    return rows && { with: rows };
  },
  copying: (toSpaceId) => ({
    with: Prisma.sql`
      indexed_pages AS (
        INSERT INTO "PageSearch" ("pageVersionId", "spaceId", search)
        SELECT pairs.id, ${toSpaceId}, p.search FROM pairs JOIN "PageSearch" p ON p."pageVersionId" = pairs."sourceId"
      ),
      indexed_sections AS (
        INSERT INTO "PageSection" ("pageVersionId", position, anchor, heading, body, search)
        SELECT pairs.id, s.position, s.anchor, s.heading, s.body, s.search FROM pairs JOIN "PageSection" s ON s."pageVersionId" = pairs."sourceId"
      )`,
  }),
};
