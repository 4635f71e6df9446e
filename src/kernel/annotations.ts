// Values computed for many rows at once (the viewer's level, counters) and read by field resolvers without a promise
// each: the list engine annotates a page's rows in one batch, authorize() annotates the row it loaded, and a row that
// arrives any other way is computed through a per-request DataLoader, batched with its siblings. An annotation is named
// for the value it gives a row, with the suffix `Annotation` (`contentLevelAnnotation.of(ctx, space)`), whatever it
// holds: a level, counters, several facts at once.
import { type Context, loaderFor } from './context.js';

export interface RowAnnotation<Row extends object, T> {
  /** Computes the value for every row that lacks it, in one batch. */
  annotate(ctx: Context, rows: readonly Row[]): Promise<void>;
  /** Records a value already known (no computation). */
  set(row: Row, value: T): void;
  /** The value: at once when annotated, otherwise batched with the other rows asked for in the same tick. */
  of(ctx: Context, row: Row): T | Promise<T>;
}

export function rowAnnotation<Row extends object, T>(
  name: string,
  compute: (ctx: Context, rows: readonly Row[]) => Promise<readonly T[]>,
): RowAnnotation<Row, T> {
  // Kept on the row itself under a symbol: rows are per-request objects, and nothing enumerates symbol keys.
  const key = Symbol(name);
  const read = (row: Row) => (row as Record<symbol, T>)[key];
  const set = (row: Row, value: T) => {
    (row as Record<symbol, T>)[key] = value;
  };
  const loader = Symbol(`${name} loader`);
  return {
    set,
    async annotate(ctx, rows) {
      const missing = rows.filter((row) => !(key in row));
      if (!missing.length) return;
      const values = await compute(ctx, missing);
      for (const [i, row] of missing.entries()) set(row, values[i]);
    },
    of(ctx, row) {
      if (key in row) return read(row);
      return loaderFor<Row, T>(ctx, loader, async (rows) => {
        const values = await compute(ctx, rows);
        for (const [i, row] of rows.entries()) set(row, values[i]);
        return values;
      }).load(row);
    },
  };
}
