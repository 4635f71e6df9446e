// Reading links in a revision: each link's target resolved against the revision's pages and files by id, grouped by
// target with the pages that link there, filtered by status and counted, in one statement over the revision's page
// tree (itself one batched statement), whatever the page size.
// External URLs are `ok` until their check (checking.ts) finds them broken.
import { type FileVersion, Prisma, type Revision } from '../generated/prisma/client.js';
import type { Context } from '../kernel/context.js';
import { badRequest } from '../kernel/errors.js';
import { parseLimit } from '../kernel/pagination.js';
import { type PageTree, treeOf } from '../revisions/read.js';
import { rowsAt } from '../revisions/store.js';
import type { CheckStatus } from './checking.js';
import type { LinkKind } from './extract.js';

export type LinkStatus = 'ok' | 'broken' | 'in-app';

/** One target and the pages of the revision that link to it. */
export interface LinkUsage {
  kind: LinkKind;
  /** The resolved page or file id, or the URL; the stored target of a broken link. */
  key: string;
  status: LinkStatus;
  /** How one of its links wrote it (what a broken link shows). */
  href: string;
  sources: string[];
  /** A URL's last check (its status null until then); null for pages, files and URLs too long to check. */
  check: UrlCheck | null;
}

export interface UrlCheck {
  status: CheckStatus | null;
  httpStatus: number | null;
  error: string | null;
  checkedAt: Date | null;
}

type LinkUsageRow = Omit<LinkUsage, 'check'> & {
  tracked: boolean;
  checkStatus: CheckStatus | null;
  httpStatus: number | null;
  checkError: string | null;
  checkedAt: Date | null;
};

export interface LinkUsagePage {
  tree: PageTree;
  items: LinkUsage[];
  next?: { page: string };
  count: number;
  stats: { total: number; broken: { total: number } };
}

interface ListArgs {
  page?: string | null;
  limit?: number | null;
}

/** The revision's pages by `id:<pageId>`, for SQL: the page a stored page target resolves to in this tree. */
function pageKeys(tree: PageTree): Record<string, string> {
  return Object.fromEntries([...tree.byId.keys()].map((id) => [`id:${id}`, id]));
}

/**
 * The revision's links (of one page when given) with their resolved target: the statement the reads build on. Only
 * references resolve: a write stores a link to a page or a file of the space as one (src/revisions/addresses.ts), so
 * a path left in the markdown named nothing when it was written, and is broken.
 */
function resolvedLinks(revision: Revision, tree: PageTree, pageId?: string): Prisma.Sql {
  const onePage = pageId ? { key: pageId } : undefined;
  return Prisma.sql`
    WITH links AS (
      SELECT v."pageId" AS source, l.position, l.kind, l.target, l.href
        FROM (${rowsAt('PageVersion', revision, onePage)}) v JOIN "PageLink" l ON l."pageVersionId" = v.id
    ),
    files AS (SELECT 'id:' || f."fileId" AS target, f."fileId" FROM (${rowsAt('FileVersion', revision)}) f)
    SELECT links.*, CASE links.kind
             WHEN 'page' THEN ${JSON.stringify(pageKeys(tree))}::jsonb ->> links.target
             WHEN 'file' THEN (SELECT f."fileId" FROM files f WHERE f.target = links.target)
           END AS resolved
      FROM links`;
}

const decodeAfter = (ctx: Context, scope: string, page: string | null | undefined): string[] | null => {
  if (!page) return null;
  const values = ctx.pageTokens.decode(scope, page);
  if (values.length !== 2 || values.some((value) => typeof value !== 'string')) {
    throw badRequest('Invalid "page": not a page token of this list.');
  }
  return values as string[];
};

/**
 * A page of the revision's link targets (of one page's links when `pageId` is given), by kind then target, with
 * `status` filtering them and the totals of all (filter aside): one statement after the tree's.
 */
export async function linkUsages(
  ctx: Context,
  revision: Revision,
  args: ListArgs & { status?: LinkStatus | null; pageId?: string },
): Promise<LinkUsagePage> {
  const take = parseLimit(args.limit);
  const scope = `revisions/${revision.id}/links/${args.pageId ?? ''}/${args.status ?? ''}`;
  const after = decodeAfter(ctx, scope, args.page);
  const tree = await treeOf(ctx, revision);
  const status = args.status ? Prisma.sql`AND u.status = ${args.status}` : Prisma.empty;
  const keyset = after ? Prisma.sql`AND (u.kind, u.key) > (${after[0]}::text, ${after[1]}::text)` : Prisma.empty;
  const rows = await ctx.sql<LinkUsageRow & { total: number; broken: number; filtered: number }>(Prisma.sql`
    WITH targets AS (
      SELECT r.kind, coalesce(r.resolved, r.target) AS key, r.resolved IS NULL AS unresolved,
             min(r.href) AS href, array_agg(DISTINCT r.source ORDER BY r.source) AS sources
        FROM (${resolvedLinks(revision, tree, args.pageId)}) r
       GROUP BY 1, 2, 3
    ),
    usages AS (
      SELECT t.kind, t.key, t.href, t.sources,
             CASE WHEN t.kind = 'url' THEN CASE WHEN c.status = 'broken' THEN 'broken' ELSE 'ok' END
                  WHEN t.unresolved THEN 'broken' ELSE 'in-app' END AS status,
             c.url IS NOT NULL AS tracked, c.status AS "checkStatus", c."httpStatus", c.error AS "checkError", c."checkedAt"
        FROM targets t LEFT JOIN "LinkCheck" c ON t.kind = 'url' AND c.url = t.key
    ),
    stats AS (
      SELECT count(*)::int AS total, (count(*) FILTER (WHERE status = 'broken'))::int AS broken,
             (count(*) FILTER (WHERE TRUE ${args.status ? Prisma.sql`AND status = ${args.status}` : Prisma.empty}))::int AS filtered
        FROM usages
    )
    SELECT stats.*, page.* FROM stats LEFT JOIN LATERAL (
      SELECT u.* FROM usages u WHERE TRUE ${status} ${keyset} ORDER BY u.kind, u.key LIMIT ${take + 1}
    ) page ON TRUE`);
  const stats = rows[0] ?? { total: 0, broken: 0, filtered: 0 };
  const found = rows.filter((row) => row.key !== null);
  const items = found
    .slice(0, take)
    .map(({ kind, key, status, href, sources, tracked, checkStatus, httpStatus, checkError, checkedAt }) => ({
      kind,
      key,
      status,
      href,
      sources,
      check: tracked ? { status: checkStatus, httpStatus, error: checkError, checkedAt } : null,
    }));
  const last = items.at(-1);
  const next = found.length > take && last ? { page: ctx.pageTokens.encode(scope, [last.kind, last.key]) } : undefined;
  return { tree, items, next, count: stats.filtered, stats: { total: stats.total, broken: { total: stats.broken } } };
}

export interface BacklinkPage {
  tree: PageTree;
  items: string[];
  next?: { page: string };
  count: number;
}

/** A page of the revision's pages that link to the file (by page id), with their number: one statement after the tree's. */
export async function fileBacklinks(ctx: Context, revision: Revision, file: FileVersion, args: ListArgs): Promise<BacklinkPage> {
  const take = parseLimit(args.limit);
  const scope = `revisions/${revision.id}/files/${file.fileId}/backlinks`;
  const after = decodeAfter(ctx, scope, args.page ? args.page : null);
  const tree = await treeOf(ctx, revision);
  const keyset = after ? Prisma.sql`AND s.source > ${after[1]}` : Prisma.empty;
  const rows = await ctx.sql<{ source: string | null; total: number }>(Prisma.sql`
    WITH sources AS (
      SELECT DISTINCT r.source FROM (${resolvedLinks(revision, tree)}) r WHERE r.kind = 'file' AND r.resolved = ${file.fileId}
    )
    SELECT total.total, page.source FROM (SELECT count(*)::int AS total FROM sources) total LEFT JOIN LATERAL (
      SELECT s.source FROM sources s WHERE TRUE ${keyset} ORDER BY s.source LIMIT ${take + 1}
    ) page ON TRUE`);
  const found = rows.flatMap((row) => (row.source === null ? [] : [row.source]));
  const items = found.slice(0, take);
  const last = items.at(-1);
  const next = found.length > take && last ? { page: ctx.pageTokens.encode(scope, ['file', last]) } : undefined;
  return { tree, items, next, count: rows[0]?.total ?? 0 };
}
