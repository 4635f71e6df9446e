// Lists that hang off a parent (an organization's spaces, a collection's spaces, ...), N+1-free at any nesting depth.
//
// All parents that resolve the same list field in one request are served together, in two statements whatever the
// number of parents or the page size:
// 1. the ids of each parent's page, through a LATERAL subquery per parent, keyset-ordered with LIMIT, so each page
//    reads only its own rows through the (parent, position, id) index, however large the table; and, in the same
//    statement, each parent's total, counted over the requested parents only;
// 2. those rows, with the selection the GraphQL query asks for (plugin-prisma's queryFromInfo).
// (Prisma's own nested `take` fetches every child and slices in memory, and its filtered `_count` aggregates the
// whole child table: both grow with the table, which is why lists do not use them.)
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { Prisma } from '../generated/prisma/client.js';
import { type Context, loaderFor } from './context.js';
import { badRequest } from './errors.js';
import { type ListPage, parseLimit } from './pagination.js';

export interface ChildListSource<Row extends { id: string }> {
  /** Quoted table name, e.g. `"Space"`; the subqueries alias it `t`. */
  table: Prisma.Sql;
  /** Quoted column holding the parent id, e.g. `"parentId"`. */
  parentColumn: Prisma.Sql;
  /** Condition on `t` for the rows the viewer may list (deleted rows, visibility, filters). */
  where(ctx: Context): Prisma.Sql;
  /** The page-token scope of one parent's list. */
  scope(parentId: string): string;
  /** The rows with these ids, selected as the query asks (in any order). */
  fetch(ctx: Context, info: GraphQLResolveInfo, ids: string[]): Promise<Row[]>;
}

/** A number per field of a document, so that the same field under every parent shares one loader. */
const fieldIds = new WeakMap<FieldNode, number>();
let nextFieldId = 0;

function fieldId(info: GraphQLResolveInfo): number {
  const node = info.fieldNodes[0];
  let id = fieldIds.get(node);
  if (id === undefined) fieldIds.set(node, (id = nextFieldId++));
  return id;
}

interface PageArgs {
  page?: string | null;
  limit?: number | null;
}

/** One parent's page of the list; batched with every other parent of the same field in this request. */
export function childPage<Row extends { id: string }>(
  source: ChildListSource<Row>,
  ctx: Context,
  info: GraphQLResolveInfo,
  parentId: string,
  args: PageArgs,
): Promise<ListPage<Row>> {
  const take = parseLimit(args.limit);
  const key = `child-list:${fieldId(info)}:${take}:${args.page ?? ''}`;
  return loaderFor<string, ListPage<Row>>(ctx, key, (parentIds) => loadPages(source, ctx, info, [...parentIds], take, args.page)).load(parentId);
}

async function loadPages<Row extends { id: string }>(
  source: ChildListSource<Row>,
  ctx: Context,
  info: GraphQLResolveInfo,
  parentIds: string[],
  take: number,
  page: string | null | undefined,
): Promise<(ListPage<Row> | Error)[]> {
  // A page token belongs to one parent's list: under any other parent it is an error.
  const cursors = new Map<string, (string | number)[] | Error>();
  for (const parentId of parentIds) {
    try {
      cursors.set(parentId, page ? ctx.pageTokens.decode(source.scope(parentId), page) : []);
    } catch (error) {
      cursors.set(parentId, error as Error);
    }
  }
  const valid = parentIds.filter((id) => !(cursors.get(id) instanceof Error));
  const cursor = valid.length ? (cursors.get(valid[0]) as (string | number)[]) : [];
  if (cursor.length && (cursor.length !== 2 || typeof cursor[0] !== 'number' || typeof cursor[1] !== 'string')) {
    throw badRequest('Invalid "page": not a page token of this list.');
  }
  const where = source.where(ctx);
  const after = cursor.length ? Prisma.sql`AND (t.position, t.id) > (${cursor[0]}::float8, ${cursor[1]})` : Prisma.empty;
  // Pages and totals in one round trip: page rows carry an id, total rows only a count.
  const combined = await ctx.prisma.$queryRaw<{ parent: string; id: string | null; position: number | null; count: number | null }[]>`
    SELECT p.parent, t.id, t.position, NULL::int AS count FROM unnest(${valid}::text[]) AS p(parent)
    CROSS JOIN LATERAL (
      SELECT t.id, t.position FROM ${source.table} t
       WHERE t.${source.parentColumn} = p.parent AND ${where} ${after}
       ORDER BY t.position, t.id LIMIT ${take + 1}
    ) t
    UNION ALL
    SELECT t.${source.parentColumn}, NULL, NULL, count(*)::int FROM ${source.table} t
     WHERE t.${source.parentColumn} = ANY(${valid}::text[]) AND ${where} GROUP BY 1`;
  const pageRows = combined.filter((r): r is { parent: string; id: string; position: number; count: null } => r.id !== null);
  const counts = combined.filter((r) => r.id === null) as { parent: string; count: number }[];
  const rows = pageRows.length ? await source.fetch(ctx, info, pageRows.map((r) => r.id)) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const countOf = new Map(counts.map((c) => [c.parent, c.count]));
  const pageOf = new Map<string, typeof pageRows>();
  for (const row of pageRows) pageOf.set(row.parent, [...(pageOf.get(row.parent) ?? []), row]);
  return parentIds.map((parentId) => {
    const problem = cursors.get(parentId);
    if (problem instanceof Error) return problem;
    const mine = pageOf.get(parentId) ?? [];
    const items = mine.slice(0, take).map((r) => byId.get(r.id)!).filter(Boolean);
    const last = mine[take - 1];
    const next = mine.length > take && last ? { page: ctx.pageTokens.encode(source.scope(parentId), [last.position, last.id]) } : undefined;
    return { items, next, count: countOf.get(parentId) ?? 0 };
  });
}
