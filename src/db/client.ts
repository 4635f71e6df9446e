// The Prisma client, and plain SQL, over one counted node-postgres pool (counted-pool.ts).

import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { type Prisma, PrismaClient } from '../generated/prisma/client.js';
import { countedPool, type StatementCounter } from './counted-pool.js';

/** Runs one SQL statement on the pool, outside Prisma: for the hot reads that need no model mapping. */
export type SqlRunner = <T>(query: Prisma.Sql) => Promise<T[]>;

export interface Database {
  prisma: PrismaClient;
  pool: pg.Pool;
  sql: SqlRunner;
  /** Statements sent since the pool was created. */
  statements: StatementCounter;
  close(): Promise<void>;
}

const statementNames = new Map<string, string>();

/**
 * A name per statement text: named statements are prepared once per connection, so PostgreSQL plans them once there
 * rather than on every execution (planning the list statements cost more than running them). The texts are the
 * code's templates with their values as parameters, so they are few.
 */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `s${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * The mark of a statement that runs through Prisma (in an interactive transaction, say) and is worth preparing: one
 * every write runs whose plan costs more than its execution (recordEvents). Prisma's other statements stay unnamed:
 * their texts vary with their arguments (IN lists), and each name holds a prepared statement per connection.
 */
export const PREPARED = '/* prepared */ ';

export function connectDatabase(url: string, poolSize = 10, onIdleError?: (error: Error) => void): Database {
  const { pool, statements } = countedPool(url, poolSize, onIdleError);
  const adapter = new PrismaPg(pool, {
    // An unnamed statement where the generator answers undefined (node-postgres' default), whatever its type says.
    statementNameGenerator: (query) => (query.sql.startsWith(PREPARED) ? statementName(query.sql) : (undefined as unknown as string)),
  });
  const prisma = new PrismaClient({ adapter });
  return {
    prisma,
    pool,
    sql: async <T>(query: Prisma.Sql) =>
      (await pool.query({ name: statementName(query.text), text: query.text, values: query.values })).rows as T[],
    statements,
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
