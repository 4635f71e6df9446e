// Full-text search over the current content of spaces, in one statement per search field whatever the page size and
// the number of parents: pages matched and ranked on their own vectors (PageSearch) in the spaces the viewer may see,
// filtered before anything is ranked or cut; for the page of results, paths, ancestors and best sections with excerpts.
// Queries go through websearch_to_tsquery (words, "phrases", or, -word): no query is a syntax error.
import { createHash } from 'node:crypto';
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { Prisma } from '../generated/prisma/client.js';
import { type Context, loaderFor } from '../kernel/context.js';
import { badRequest } from '../kernel/errors.js';
import { parseLimit } from '../kernel/pagination.js';
import { visibleToViewerSql } from '../kernel/permissions.js';
import { MAIN } from '../revisions/store.js';
import { SEARCH_CONFIG } from './indexing.js';

/** Matching sections listed per page, best first. */
export const SECTIONS_PER_PAGE = 5;
/** Characters of a section's text that its excerpt is taken from (ts_headline reads all it is given). */
const EXCERPT_SOURCE_CHARACTERS = 4_000;
/** Ancestors a path is walked up through at most: a page tree is 10 levels deep (read.ts), a cycle none can make stops here. */
const MAX_DEPTH = 32;

export interface SectionHit {
  anchor: string | null;
  heading: string;
  excerpt: string;
  score: number;
}

export interface PageHit {
  /** 1-based position in the whole ranked result. */
  rank: number;
  score: number;
  /** Whether the page matched on its own fields (title, description), rather than on a section only. */
  pageMatch: boolean;
  spaceId: string;
  spaceTitle: string;
  pageId: string;
  title: string;
  description: string | null;
  /** The slugs of the page and its ancestors, `parent/child`. */
  path: string;
  ancestors: { title: string }[];
  sections: SectionHit[];
}

export interface SearchPage {
  hits: PageHit[];
  /** Pages that match, across all pages of results. */
  total: number;
  next?: { page: string };
}

/** Where to search: the live spaces of an organization that the viewer can see, or one space (the viewer may view it). */
export type SearchScope = 'organization' | 'space';

export interface SearchArgs {
  query: string;
  page?: string | null;
  limit?: number | null;
}

/** The condition tying a space `t` to the scope's key `key`, with what the viewer may see of it. */
function spacesOf(ctx: Context, scope: SearchScope): Prisma.Sql {
  if (scope === 'space') return Prisma.sql`t.id = p.key`;
  return Prisma.sql`t."organizationId" = p.key AND t."deletedAt" IS NULL AND ${visibleToViewerSql(ctx.viewer)}`;
}

/** A page token is valid for the list it came from: the scope's key and the query (hashed, a query may be long). */
const tokenScope = (scope: SearchScope, key: string, query: string) =>
  `search:${scope}:${key}:${createHash('sha256').update(query).digest('base64url').slice(0, 22)}`;

function decodeOffset(ctx: Context, tokens: string, page: string | null | undefined): number {
  if (!page) return 0;
  const [value, ...rest] = ctx.pageTokens.decode(tokens, page);
  if (rest.length || typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw badRequest('Invalid "page": not a page token of this list.');
  }
  return value;
}

/** A row of the search statement: a hit, with the scope's key and the total, its rank as bigint text, no sections as null. */
type Row = Omit<PageHit, 'rank' | 'sections'> & { key: string; total: number; rank: string | null; sections: SectionHit[] | null };

/** A key per field of a query document: every parent that resolves that field in a request passes the same arguments. */
const fieldLoaders = new WeakMap<FieldNode, symbol>();

/**
 * One page of the ranked results of the scope's `key`, with the total. Every parent that resolves the same field in a
 * request (the spaces of a list, say) is searched in the same statement: one statement per search field, whatever the
 * number of parents and the page size.
 */
export function search(ctx: Context, info: GraphQLResolveInfo, scope: SearchScope, key: string, args: SearchArgs): Promise<SearchPage> {
  const node = info.fieldNodes[0];
  let loader = fieldLoaders.get(node);
  if (!loader) {
    loader = Symbol(`search ${node.name.value}`);
    fieldLoaders.set(node, loader);
  }
  return loaderFor<string, SearchPage>(ctx, loader, (keys) => searchAll(ctx, scope, [...keys], args)).load(key);
}

/**
 * The page of results of each key (an error for a key whose page token is not its own): one statement. A page matches
 * on the whole of it (title, description, headings, text); it is a `page` result when its title or description match,
 * and lists the sections whose own heading or text match. Scores are ts_rank_cd's with PostgreSQL's weights: a title
 * counts 1, a heading 0.4, a description 0.2, text 0.1. Ties go by page version id, bytewise, so pages are stable.
 */
async function searchAll(ctx: Context, scope: SearchScope, keys: string[], args: SearchArgs): Promise<(SearchPage | Error)[]> {
  const take = parseLimit(args.limit);
  const offsets = new Map<string, number | Error>();
  for (const key of keys) {
    try {
      offsets.set(key, decodeOffset(ctx, tokenScope(scope, key, args.query), args.page));
    } catch (error) {
      offsets.set(key, error as Error);
    }
  }
  const valid = keys.filter((key) => typeof offsets.get(key) === 'number');
  // A subquery, so that a generic plan of the prepared statement computes it once, not once per row.
  const query = Prisma.sql`(SELECT websearch_to_tsquery(${SEARCH_CONFIG}, ${args.query}))`;
  const rows = valid.length
    ? await ctx.sql<Row>(Prisma.sql`
    WITH RECURSIVE scopes AS (
      SELECT * FROM unnest(${valid}::text[], ${valid.map((key) => offsets.get(key) as number)}::int[]) AS p(key, "offset")
    ), spaces AS (
      SELECT p.key, t.id, t.title FROM scopes p JOIN "Space" t ON ${spacesOf(ctx, scope)}
    ), hits AS MATERIALIZED (
      SELECT sp.key, s."pageVersionId", s."spaceId", ts_rank_cd(s.search, ${query}) AS score
        FROM "PageSearch" s JOIN spaces sp ON sp.id = s."spaceId"
       WHERE s.search @@ ${query}
    ), cut AS (
      -- The best offset + take + 1 of each key's hits: a bounded sort, however many match. Ties go by id, bytewise.
      SELECT top.* FROM scopes p CROSS JOIN LATERAL (
        SELECT best.*, row_number() OVER (ORDER BY best.score DESC, best."pageVersionId" COLLATE "C") AS rank
          FROM (SELECT h.* FROM hits h WHERE h.key = p.key
                 ORDER BY h.score DESC, h."pageVersionId" COLLATE "C" LIMIT p."offset" + ${take + 1}) best
      ) top
       WHERE top.rank > p."offset"
    ), up AS (
      SELECT c."pageVersionId" AS hit, 0 AS depth, v."spaceId", v."parentId", v.slug, v.title
        FROM cut c JOIN "PageVersion" v ON v.id = c."pageVersionId"
      UNION ALL
      SELECT up.hit, up.depth + 1, a."spaceId", a."parentId", a.slug, a.title
        FROM up JOIN "PageVersion" a ON a."spaceId" = up."spaceId" AND a.line = ${MAIN} AND a."pageId" = up."parentId"
                                     AND a."validTo" IS NULL
       WHERE up.depth < ${MAX_DEPTH}
    ), paths AS MATERIALIZED (
      SELECT hit, string_agg(slug, '/' ORDER BY depth DESC) AS path,
             coalesce(jsonb_agg(jsonb_build_object('title', title) ORDER BY depth DESC) FILTER (WHERE depth > 0), '[]') AS ancestors
        FROM up GROUP BY hit
    ), matched AS MATERIALIZED (
      SELECT s."pageVersionId", s.position, s.anchor, s.heading, s.body, ts_rank_cd(s.search, ${query}) AS score,
             row_number() OVER (PARTITION BY s."pageVersionId" ORDER BY ts_rank_cd(s.search, ${query}) DESC, s.position) AS n
        FROM "PageSection" s
       WHERE s."pageVersionId" IN (SELECT "pageVersionId" FROM cut) AND s.search @@ ${query}
    ), sections AS MATERIALIZED (
      SELECT m."pageVersionId", jsonb_agg(jsonb_build_object(
               'anchor', m.anchor, 'heading', m.heading, 'score', m.score,
               'excerpt', btrim(regexp_replace(ts_headline(${SEARCH_CONFIG}, left(m.body, ${EXCERPT_SOURCE_CHARACTERS}::int), ${query},
                                                     'MaxWords=35, MinWords=15, StartSel="", StopSel=""'), ${'\\s+'}, ' ', 'g'))
             ) ORDER BY m.n) AS sections
        FROM matched m WHERE m.n <= ${SECTIONS_PER_PAGE} GROUP BY m."pageVersionId"
    ), counts AS (
      SELECT key, count(*)::int AS total FROM hits GROUP BY key
    ), totals AS (
      SELECT p.key, coalesce(counts.total, 0) AS total FROM scopes p LEFT JOIN counts ON counts.key = p.key
    )
    SELECT totals.key, totals.total, c.rank, c.score, ts_filter(i.search, '{a,c}') @@ ${query} AS "pageMatch", c."spaceId", sp.title AS "spaceTitle", v."pageId", v.title,
           v.description, pt.path, pt.ancestors, sc.sections
      FROM totals
      LEFT JOIN cut c ON c.key = totals.key
      LEFT JOIN spaces sp ON sp.key = c.key AND sp.id = c."spaceId"
      LEFT JOIN "PageVersion" v ON v.id = c."pageVersionId"
      LEFT JOIN paths pt ON pt.hit = c."pageVersionId"
      LEFT JOIN sections sc ON sc."pageVersionId" = c."pageVersionId"
      LEFT JOIN "PageSearch" i ON i."pageVersionId" = c."pageVersionId"
     ORDER BY totals.key, c.rank`)
    : [];
  const byKey = new Map<string, Row[]>();
  for (const row of rows) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row]);
  return keys.map((key) => {
    const offset = offsets.get(key)!;
    if (offset instanceof Error) return offset;
    const mine = byKey.get(key) ?? [];
    const found = mine.filter((row) => row.rank !== null);
    const hits = found.slice(0, take).map(
      (row): PageHit => ({
        rank: Number(row.rank),
        score: row.score,
        pageMatch: row.pageMatch,
        spaceId: row.spaceId,
        spaceTitle: row.spaceTitle,
        pageId: row.pageId,
        title: row.title,
        description: row.description,
        path: row.path,
        ancestors: row.ancestors,
        sections: row.sections ?? [],
      }),
    );
    // A page of no hits (limit 0) starts nothing: it answers the total alone, as a list's page of no items does.
    const next =
      hits.length > 0 && found.length > take
        ? { page: ctx.pageTokens.encode(tokenScope(scope, key, args.query), [offset + take]) }
        : undefined;
    return { hits, total: mine[0]?.total ?? 0, next };
  });
}
