// Model rows read with plain SQL when plugin-prisma's query for the selection asks for no relation. The tables'
// columns are the models' fields (enum values stored under their Prisma names: migration enum_values_as_named), so
// these rows are the ones Prisma returns (test/kernel/rows.test.ts), without its per-query and per-row cost.
import { Prisma } from '../generated/prisma/client.js';
import { type Context, loaderFor } from './context.js';
import { notFound } from './errors.js';

/** True when plugin-prisma's query for a selection asks for relations, which plain SQL does not read. */
export const needsPrisma = (query: object | undefined) => query !== undefined && Object.keys(query).length > 0;
const table = (name: string) => Prisma.raw(`"${name}"`);

/** The row of `tableName` with this id, or null; `viaPrisma` reads it when the query needs relations. */
export async function rowById<Row>(
  ctx: Context,
  tableName: string,
  id: string,
  query: object | undefined,
  viaPrisma: () => Promise<Row | null>,
) {
  if (needsPrisma(query)) return viaPrisma();
  const [row] = await ctx.sql<Row>(Prisma.sql`SELECT * FROM ${table(tableName)} WHERE id = ${id}`);
  return row ?? null;
}

const batchLoaders = new Map<string, symbol>();

/**
 * The row of `tableName` with this id, read with every other row of the table asked for in the same tick: one
 * statement for a page's worth of references (a member's user, a membership's team). 404 when there is none.
 */
export async function batchedRowById<Row extends { id: string }>(ctx: Context, tableName: string, id: string): Promise<Row> {
  let key = batchLoaders.get(tableName);
  if (!key) {
    key = Symbol(`${tableName} rows by id`);
    batchLoaders.set(tableName, key);
  }
  const row = await loaderFor<string, Row | undefined>(ctx, key, async (ids) => {
    const rows = await ctx.sql<Row>(Prisma.sql`SELECT * FROM ${table(tableName)} WHERE id = ANY(${[...ids]}::text[])`);
    const byId = new Map(rows.map((found) => [found.id, found]));
    return ids.map((wanted) => byId.get(wanted));
  }).load(id);
  if (!row) throw notFound(tableName);
  return row;
}
