// The Prisma client over a node-postgres pool. Every SQL statement sent through the pool is counted, in total and
// per scope (a request, a test), which is how tests prove that a request's statement count does not grow with the
// size of a page.
import { AsyncLocalStorage } from 'node:async_hooks';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';

export interface StatementCounter {
  count: number;
}

const statementScope = new AsyncLocalStorage<StatementCounter>();

/** Runs `fn`, counting the SQL statements it sends (including those of concurrent work it starts). */
export async function countStatements<T>(fn: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const counter = { count: 0 };
  const result = await statementScope.run(counter, fn);
  return { result, statements: counter.count };
}

export interface Database {
  prisma: PrismaClient;
  pool: pg.Pool;
  /** Statements sent since the pool was created. */
  statements: StatementCounter;
  close(): Promise<void>;
}

export function connectDatabase(url: string, poolSize = 10): Database {
  const statements = { count: 0 };
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      statements.count++;
      const scope = statementScope.getStore();
      if (scope) scope.count++;
      return query(...args);
    }) as typeof client.query;
  });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    statements,
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
