// Whether PostgreSQL keeps what it acknowledges: with `fsync` or `synchronous_commit` off, a crash of the machine (or
// of PostgreSQL, for synchronous_commit) loses commits the API already answered. The service says so at start; it
// does not refuse to run, since a throwaway cluster (tests, a demo) may choose speed.
import { Prisma } from '../generated/prisma/client.js';
import type { SqlRunner } from './client.js';

/** A sentence per setting that loses acknowledged writes; none when both are on. */
export async function durabilityWarnings(sql: SqlRunner): Promise<string[]> {
  const [settings] = await sql<{ fsync: string; synchronous_commit: string }>(
    Prisma.sql`SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS synchronous_commit`,
  );
  const warnings: string[] = [];
  if (settings.fsync !== 'on')
    warnings.push('PostgreSQL runs with fsync off: a crash of the machine can lose or corrupt acknowledged writes.');
  if (settings.synchronous_commit === 'off') {
    warnings.push('PostgreSQL runs with synchronous_commit off: a crash can lose the last acknowledged writes.');
  }
  return warnings;
}
