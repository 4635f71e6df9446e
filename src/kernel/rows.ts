// Model rows read with plain SQL when plugin-prisma's query for the selection asks for no relation. The tables'
// columns are the models' fields (enum values stored under their Prisma names: migration enum_values_as_named), so
// these rows are the ones Prisma returns (test/kernel/rows.test.ts), without its per-query and per-row cost.
import { Prisma } from '../generated/prisma/client.js';
import type { Context } from './context.js';

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
