// A node-postgres pool that counts every statement sent through it, and the rows they answer: how tests and the
// benchmark prove that a request's statement count does not grow with the size of a page, nor what an edit reads with
// the size of its space. Its own module, so that the benchmark's raw
// baseline can count the same way without loading Prisma.
import pg from 'pg';

export interface StatementCounter {
  count: number;
  /** The rows the statements answered. */
  rows: number;
}

/**
 * `onIdleError` hears of idle connections that the server closed (a restart, a failover, an administrator): the pool
 * drops them and opens new ones on demand. Without a listener, node-postgres would crash the process on them.
 */
export function countedPool(
  url: string,
  size: number,
  onIdleError: (error: Error) => void = () => {},
): { pool: pg.Pool; statements: StatementCounter } {
  const statements = { count: 0, rows: 0 };
  const pool = new pg.Pool({ connectionString: url, max: size });
  pool.on('error', onIdleError);
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      statements.count++;
      const result = query(...args) as Promise<{ rows?: unknown[] }> | undefined;
      // Counted beside the caller's promise, which stays the one node-postgres made.
      result?.then?.(
        (answer) => {
          statements.rows += answer?.rows?.length ?? 0;
        },
        () => {},
      );
      return result;
    }) as typeof client.query;
  });
  return { pool, statements };
}
