// The one list engine: every list of the API, at the root or hanging off a parent (an organization's spaces, a
// collection's spaces, ...), paged by keyset and N+1-free at any nesting depth. Its GraphQL side (the list fields'
// loader, envelopes and arguments) is list-fields.ts: this file loads no Pothos, so that a domain's access code can
// declare its list sources without the schema builder.
//
// All parents that resolve the same list field in one request are served together, in one statement whatever the
// number of parents or the page size: per parent, its total (counted over the requested parents only) and its page,
// through a LATERAL subquery keyset-ordered with LIMIT, so each page reads only its own rows through the
// (parent, order...) index however large the table. When the selection needs no relation, that statement returns
// the rows themselves; otherwise it returns their ids, and Prisma reads them with plugin-prisma's query (one more).
// Then the source's annotations (levels, counters) are computed for the page's rows, one batch each.
// (Prisma's own nested `take` fetches every child and slices in memory, and its filtered `_count` aggregates the
// whole child table: both grow with the table, which is why lists do not use them.)
import { Prisma } from '../generated/prisma/client.js';
import type { RowAnnotation } from './annotations.js';
import type { Context } from './context.js';
import { badRequest } from './errors.js';
import { parseLimit, type SortValue } from './pagination.js';
import { needsPrisma } from './rows.js';

export interface ListPage<T> {
  items: T[];
  next?: { page: string };
  count: number;
}

/** A column of the keyset order, with the SQL type its page-token value is cast to. */
export interface OrderColumn {
  column: string;
  type: 'float8' | 'int4' | 'text' | 'timestamptz';
  /** What to order by instead of `t.<column>`: a nullable column made total, or a value of another table. */
  expression?: Prisma.Sql;
}

export interface ListSource<Row extends object, Args = Record<string, unknown>> {
  /** The table; the subqueries alias it `t`. */
  table: string;
  /** The column holding the parent's key; absent for a root list, whose one parent is the viewer (`where` says how). */
  parentColumn?: string;
  /** Instead of `parentColumn`: the condition tying a row `t` to its parent's key `parent` (a composite key, say). */
  ofParent?(parent: Prisma.Sql): Prisma.Sql;
  /** The column that identifies a row within its parent's list (default `id`). */
  idColumn?: string;
  /** The keyset order, ascending unless `descending`; the last column must be unique within a parent's list. */
  orderBy: readonly OrderColumn[] | ((args: Args) => readonly OrderColumn[]);
  /** True when these arguments ask for the order reversed. */
  descending?(args: Args): boolean;
  /**
   * Condition on `t` for the rows the viewer may list with these arguments (deleted rows, visibility, filters);
   * `parent` is the parent's key, for a condition that depends on it (a level on the parent, say).
   */
  where(ctx: Context, args: Args, parent: Prisma.Sql): Prisma.Sql;
  /**
   * Values computed in the page statement beside the row's columns, by name (the level of the parent's subject on
   * the row, say); they stay on the row. Only for an item type that is not a Prisma object (no `fetch`).
   */
  computed?(parent: Prisma.Sql, ctx: Context): Record<string, Prisma.Sql>;
  /** The page-token scope of one parent's list with these arguments: a token is valid only where it was issued. */
  scope(parentKey: string, args: Args): string;
  /**
   * The rows with these ids, with plugin-prisma's `query` for a selection that includes relations (in any order).
   * Absent for an item type that is not a Prisma object, whose rows the page statement always returns whole.
   */
  fetch?(ctx: Context, query: object, ids: string[]): Promise<Row[]>;
  /** Computed for every page's rows, one batch each, before any field reads them. */
  annotations?: readonly RowAnnotation<Row, unknown>[];
}

export interface PageArgs {
  page?: string | null;
  limit?: number | null;
}

function decodeCursor(orderBy: readonly OrderColumn[], values: SortValue[]): SortValue[] {
  const valid =
    Array.isArray(values) &&
    values.length === orderBy.length &&
    orderBy.every((column, i) => typeof values[i] === (column.type === 'float8' || column.type === 'int4' ? 'number' : 'string'));
  if (!valid) throw badRequest('Invalid "page": not a page token of this list.');
  return values;
}

const sortValue = (value: unknown): SortValue => (value instanceof Date ? value.toISOString() : (value as SortValue));

/**
 * The pages of one list under each of these parents, in one statement (see the header), in the parents' order; a
 * parent whose page token is not of its list gets the error instead. `query` is plugin-prisma's query of the selected
 * items, for a source that fetches Prisma objects (list-fields.ts reads it from the GraphQL selection).
 */
export async function loadPages<Row extends object, Args>(
  source: ListSource<Row, Args>,
  ctx: Context,
  parentKeys: string[],
  args: Args & PageArgs,
  query: object,
): Promise<(ListPage<Row> | Error)[]> {
  const take = parseLimit(args.limit);
  const orderBy = typeof source.orderBy === 'function' ? source.orderBy(args) : source.orderBy;
  const descending = source.descending?.(args) ?? false;
  const idColumn = source.idColumn ?? 'id';
  // A page token belongs to one parent's list: under any other parent it is an error.
  const cursors = new Map<string, SortValue[] | Error>();
  for (const parent of parentKeys) {
    try {
      cursors.set(parent, args.page ? decodeCursor(orderBy, ctx.pageTokens.decode(source.scope(parent, args), args.page)) : []);
    } catch (error) {
      cursors.set(parent, error as Error);
    }
  }
  const valid = parentKeys.filter((parent) => !(cursors.get(parent) instanceof Error));
  const cursor = valid.length ? (cursors.get(valid[0]) as SortValue[]) : [];

  const table = Prisma.raw(`"${source.table}"`);
  const orderValues = orderBy.map((c) => c.expression ?? Prisma.raw(`t."${c.column}"`));
  const orderList = Prisma.join(orderValues);
  const direction = Prisma.raw(descending ? ' DESC' : '');
  const orderClause = Prisma.join(
    orderValues.map((value) => Prisma.sql`${value}${direction}`),
    ', ',
  );
  // The page and the order both read the order values by these names (the subquery's columns outside it).
  const orderNames = orderBy.map((_, i) => Prisma.raw(`"__order${i}"`));
  const after = cursor.length
    ? Prisma.sql`AND (${orderList}) ${Prisma.raw(descending ? '<' : '>')} (${Prisma.join(cursor.map((value, i) => Prisma.sql`${value}::${Prisma.raw(orderBy[i].type)}`))})`
    : Prisma.empty;
  const parentKey = Prisma.sql`p.parent`;
  const where = source.where(ctx, args, parentKey);
  const ofParent = source.ofParent
    ? source.ofParent(parentKey)
    : source.parentColumn
      ? Prisma.sql`t.${Prisma.raw(`"${source.parentColumn}"`)} = p.parent`
      : Prisma.sql`TRUE`;
  // Without relations in the selection, the page statement returns the rows themselves (all the table's columns,
  // which are the model's fields: see rows.ts); otherwise their ids and order columns, for Prisma to read.
  // A list of plain objects (no fetch) is always read whole: plugin-prisma knows nothing of its item type.
  const whole = !source.fetch || !needsPrisma(query);
  const computed = Object.entries(source.computed?.(parentKey, ctx) ?? {}).map(
    ([name, value]) => Prisma.sql`${value} AS ${Prisma.raw(`"${name}"`)}`,
  );
  const columns = Prisma.join([
    whole ? Prisma.sql`t.*` : Prisma.raw(`t."${idColumn}"`),
    ...computed,
    ...orderValues.map((value, i) => Prisma.sql`${value} AS ${orderNames[i]}`),
  ]);
  // One round trip: per parent its total, and its page (LIMIT n+1 tells whether a next page exists), in order. A parent
  // with an empty page still yields one row, with its total and a null id. The bookkeeping columns come last.
  const found = valid.length
    ? await ctx.sql<Record<string, unknown> & { id: string | null }>(Prisma.sql`
      SELECT t.*, p.parent AS "__parent", c.total AS "__total" FROM unnest(${valid}::text[]) WITH ORDINALITY AS p(parent, n)
      CROSS JOIN LATERAL (SELECT count(*)::int AS total FROM ${table} t WHERE ${ofParent} AND ${where}) c
      LEFT JOIN LATERAL (
        SELECT ${columns} FROM ${table} t WHERE ${ofParent} AND ${where} ${after} ORDER BY ${orderClause} LIMIT ${take + 1}
      ) t ON TRUE
      ORDER BY p.n, ${Prisma.join(
        orderNames.map((name) => Prisma.sql`${name}${direction}`),
        ', ',
      )}`)
    : [];
  const totals = new Map<string, number>();
  const pageOf = new Map<string, Record<string, unknown>[]>();
  const cursorOf = new Map<Record<string, unknown>, SortValue[]>();
  for (const row of found) {
    const parent = row.__parent as string;
    totals.set(parent, row.__total as number);
    // Removed in reverse order of addition, so that the row keeps the shape of a model row.
    delete row.__total;
    delete row.__parent;
    if (row[idColumn] === null) continue;
    const list = pageOf.get(parent);
    // Only the last row of a full page starts the next one: its order values become the next page's token.
    if ((list?.length ?? 0) === take - 1)
      cursorOf.set(
        row,
        orderBy.map((_, i) => sortValue(row[`__order${i}`])),
      );
    for (let i = orderBy.length - 1; i >= 0; i--) delete row[`__order${i}`];
    if (list) list.push(row);
    else pageOf.set(parent, [row]);
  }
  // The row past a full page only tells that a next page exists: it is neither fetched nor annotated.
  const pageRows = [...pageOf.values()].flatMap((rows) => rows.slice(0, take));
  const ids = pageRows.map((row) => row[idColumn] as string);
  const rows = whole ? (pageRows as Row[]) : ids.length ? await source.fetch!(ctx, query, ids) : [];
  await Promise.all((source.annotations ?? []).map((annotation) => annotation.annotate(ctx, rows)));
  const byId = whole ? undefined : new Map(rows.map((row) => [(row as Record<string, unknown>)[idColumn] as string, row]));
  return parentKeys.map((parent) => {
    const problem = cursors.get(parent);
    if (problem instanceof Error) return problem;
    const mine = pageOf.get(parent) ?? [];
    const items = mine.slice(0, take).flatMap((r) => (byId ? (byId.get(r[idColumn] as string) ?? []) : [r as Row]));
    const last = mine[take - 1];
    const next = mine.length > take && last ? { page: ctx.pageTokens.encode(source.scope(parent, args), cursorOf.get(last)!) } : undefined;
    return { items, next, count: totals.get(parent) ?? 0 };
  });
}

/** The ILIKE pattern of a "contains" filter: `_`, `%` and `\` are LIKE's own characters, so a search for them finds them. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
