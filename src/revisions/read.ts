// Reading a revision's content for the API: its page tree (with each page's path), one page's body, its files, a
// page of its files; and a document of the space by id. Each read of a revision is the store's own statement (captured
// from store.ts, never restated here) with a projection or a page around it, and the reads of every revision asked for
// in the same tick run as one statement, one UNION ALL branch per revision: a query over many spaces' contents costs
// what one costs.
import { type FileVersion, type PageVersion, Prisma, type Revision } from '../generated/prisma/client.js';
import { type Context, loaderFor } from '../kernel/context.js';
import { badRequest } from '../kernel/errors.js';
import type { ListPage } from '../kernel/lists.js';
import { parseLimit } from '../kernel/pagination.js';
import { pageColumns, rowsAt } from './store.js';

/**
 * Levels of pages a tree may have (top-level pages are the first). REST writes a tree to this depth (a GraphQL
 * selection cannot recurse), so whatever places pages keeps within it.
 */
export const PAGE_TREE_LEVELS = 10;

/** A page's row as the tree needs it: everything but the body, which only a read of that page with a format needs. */
export type PageHead = Omit<PageVersion, 'id' | 'spaceId' | 'line' | 'validFrom' | 'validTo' | 'deleted' | 'markdown' | 'document'>;
export type PageBody = Pick<PageVersion, 'markdown' | 'document'>;

/** A page's columns but its body, as a select list over `v`: what trees and lists read. */
export const PAGE_HEAD_COLUMNS = Prisma.raw(
  ['pageId', ...pageColumns.filter((column) => column !== 'markdown' && column !== 'document')].map((name) => `v."${name}"`).join(', '),
);

type Row = Record<string, unknown>;

/**
 * A read batched across revisions: the keys asked for in one tick become one statement, a UNION ALL of each key's
 * statement tagged with its place; `result` turns a key's rows into its value. A UNION ALL promises no order, so a
 * statement whose order matters numbers its rows (`__n`).
 */
function batchedRead<K, V>(name: string, cacheKey: (key: K) => string, statementFor: (key: K) => Prisma.Sql, result: (rows: Row[]) => V) {
  const loader = Symbol(name);
  return (ctx: Context, key: K): Promise<V> =>
    loaderFor<K, V, string>(
      ctx,
      loader,
      async (keys) => {
        const statements = keys.map(statementFor);
        const rows = await ctx.sql<Row & { __batch: number }>(
          Prisma.join(
            statements.map((statement, i) => Prisma.sql`SELECT ${i}::int AS "__batch", q.* FROM (${statement}) q`),
            ' UNION ALL ',
          ),
        );
        const byKey = keys.map((): Row[] => []);
        for (const { __batch, ...row } of rows) byKey[__batch].push(row);
        return byKey.map(result);
      },
      { cacheKeyFn: cacheKey },
    ).load(key);
}

// --- pages ---------------------------------------------------------------------------------------------------------

export interface PageNode {
  page: PageHead;
  /** The slugs of the page and its ancestors, `parent/child`; null for a link, which has no address of its own. */
  path: string | null;
  children: PageNode[];
}

export interface PageTree {
  roots: PageNode[];
  byId: ReadonlyMap<string, PageNode>;
  /** Documents and groups by path (the first in tree order where two share one). */
  byPath: ReadonlyMap<string, PageNode>;
}

const bySiblingOrder = (a: PageHead, b: PageHead) => a.position - b.position || (a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : 0);

/**
 * The tree of a revision's pages, siblings by position. A page whose parent is not in the revision is shown at the
 * top level rather than lost; a cycle of parents, which no edit can make, reaches no top-level page and is left out.
 */
export function buildTree(pages: readonly PageHead[]): PageTree {
  const ids = new Set(pages.map((page) => page.pageId));
  const childrenOf = new Map<string | null, PageHead[]>();
  for (const page of pages) {
    const parent = page.parentId !== null && ids.has(page.parentId) ? page.parentId : null;
    const siblings = childrenOf.get(parent);
    if (siblings) siblings.push(page);
    else childrenOf.set(parent, [page]);
  }
  const byId = new Map<string, PageNode>();
  const byPath = new Map<string, PageNode>();
  const nodesUnder = (parent: PageNode | null): PageNode[] =>
    (childrenOf.get(parent?.page.pageId ?? null) ?? []).sort(bySiblingOrder).map((page) => {
      const path = page.type === 'link' ? null : parent?.path ? `${parent.path}/${page.slug}` : page.slug;
      return { page, path, children: [] };
    });
  const roots = nodesUnder(null);
  // Breadth first, without recursion (depth costs no stack); within a level, nodes come in tree order, so the first
  // of two pages on one path is the first in the tree.
  const queue = [...roots];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    byId.set(node.page.pageId, node);
    if (node.path !== null && node.page.type !== 'computed' && !byPath.has(node.path)) byPath.set(node.path, node);
    node.children = nodesUnder(node);
    queue.push(...node.children);
  }
  return { roots, byId, byPath };
}

export interface RevisionTree extends PageTree {
  /**
   * Each page's documentId: the id of the page's version the revision holds, so that it names the page's document as
   * it stands there, stays the same while the page is unchanged, and finds it again in any later revision
   * (`documentOf`). A page is versioned whole, so a new title is a new document too.
   */
  documentIds: ReadonlyMap<string, string>;
}

/** The page tree of a revision: one statement (with every other revision's asked for in the same tick). */
export const treeOf = batchedRead<Revision, RevisionTree>(
  'page trees',
  (revision) => revision.id,
  (revision) => Prisma.sql`SELECT ${PAGE_HEAD_COLUMNS}, v.id AS "__version" FROM (${rowsAt('PageVersion', revision)}) v`,
  (rows) => {
    const documentIds = new Map<string, string>();
    const heads = rows.map(({ __version, ...page }) => {
      documentIds.set(page.pageId as string, __version as string);
      return page as unknown as PageHead;
    });
    return { ...buildTree(heads), documentIds };
  },
);

/** The body of one page of a revision, null when the page is not in it. */
export const bodyOf = batchedRead<{ revision: Revision; pageId: string }, PageBody | null>(
  'page bodies',
  ({ revision, pageId }) => `${revision.id}:${pageId}`,
  ({ revision, pageId }) => Prisma.sql`SELECT v.markdown, v.document FROM (${rowsAt('PageVersion', revision, { key: pageId })}) v`,
  ([row]) => (row as PageBody | undefined) ?? null,
);

/**
 * A document of the space by its documentId (the id of a page's version: see RevisionTree), whatever revision or line
 * holds it; null when no document page of the space has it.
 */
export const documentOf = batchedRead<{ spaceId: string; documentId: string }, (PageBody & { title: string }) | null>(
  'documents',
  ({ spaceId, documentId }) => `${spaceId}:${documentId}`,
  ({ spaceId, documentId }) => Prisma.sql`
    SELECT v.title, v.markdown, v.document FROM "PageVersion" v
     WHERE v.id = ${documentId} AND v."spaceId" = ${spaceId} AND v.type = 'document' AND NOT v.deleted`,
  ([row]) => (row as (PageBody & { title: string }) | undefined) ?? null,
);

// --- files ---------------------------------------------------------------------------------------------------------

/** Files in the order lists show them: by name, then id. */
const FILE_ORDER = Prisma.sql`v.name, v."fileId"`;

const inOrder = (rows: Row[]) => rows.sort((a, b) => Number(a.__n) - Number(b.__n)).map(({ __n, ...file }) => file as FileVersion);

/** Every file of a revision, by name. */
export const filesOf = batchedRead<Revision, FileVersion[]>(
  'revision files',
  (revision) => revision.id,
  (revision) => Prisma.sql`SELECT v.*, row_number() OVER (ORDER BY ${FILE_ORDER}) AS "__n" FROM (${rowsAt('FileVersion', revision)}) v`,
  inOrder,
);

/** One file of a revision, null when it is not in it. */
export const fileOf = batchedRead<{ revision: Revision; fileId: string }, FileVersion | null>(
  'revision file',
  ({ revision, fileId }) => `${revision.id}:${fileId}`,
  ({ revision, fileId }) => Prisma.sql`SELECT v.* FROM (${rowsAt('FileVersion', revision, { key: fileId })}) v`,
  ([row]) => (row as FileVersion | undefined) ?? null,
);

interface FilePageKey {
  revision: Revision;
  /** The name and id of the last file of the previous page. */
  after: [string, string] | null;
  take: number;
  page: string | null;
}

const fileListScope = (revision: Revision) => `revisions/${revision.id}/files`;

/** A page of a revision's files by name, with their total: one statement, keyset-paged over the store's read. */
const filePageOf = batchedRead<FilePageKey, { rows: FileVersion[]; total: number }>(
  'revision file pages',
  ({ revision, page, take }) => `${revision.id}:${take}:${page ?? ''}`,
  ({ revision, after, take }) => {
    const keyset = after ? Prisma.sql`WHERE (${FILE_ORDER}) > (${after[0]}::text, ${after[1]}::text)` : Prisma.empty;
    return Prisma.sql`
      WITH files AS (${rowsAt('FileVersion', revision)})
      SELECT page.*, total."__total" FROM (SELECT count(*)::int AS "__total" FROM files) total
      LEFT JOIN LATERAL (
        SELECT v.*, row_number() OVER (ORDER BY ${FILE_ORDER}) AS "__n" FROM files v ${keyset} ORDER BY ${FILE_ORDER} LIMIT ${take + 1}
      ) page ON TRUE`;
  },
  (rows) => ({
    total: Number(rows[0]?.__total ?? 0),
    rows: inOrder(rows.filter((row) => row.fileId !== null).map(({ __total, ...row }) => row)),
  }),
);

/** A page of the files list (the list envelope): `page` is the token of the previous page's `next`. */
export async function fileList(
  ctx: Context,
  revision: Revision,
  args: { page?: string | null; limit?: number | null },
): Promise<ListPage<FileVersion>> {
  const take = parseLimit(args.limit);
  let after: [string, string] | null = null;
  if (args.page) {
    const values = ctx.pageTokens.decode(fileListScope(revision), args.page);
    if (values.length !== 2 || values.some((value) => typeof value !== 'string')) {
      throw badRequest('Invalid "page": not a page token of this list.');
    }
    after = values as [string, string];
  }
  const { rows, total } = await filePageOf(ctx, { revision, after, take, page: args.page ?? null });
  const items = rows.slice(0, take);
  const last = items.at(-1);
  const next = rows.length > take && last ? { page: ctx.pageTokens.encode(fileListScope(revision), [last.name, last.fileId]) } : undefined;
  return { items, next, count: total };
}
