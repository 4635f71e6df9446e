// The instance's admins: the users whose e-mail addresses INSTANCE_ADMINS names when the service starts. An address
// with no user then grants nothing, even once someone signs up with it, until the service starts again with it: an
// address is not a person until someone owns it.

import type { SqlRunner } from '../db/client.js';
import { Prisma } from '../generated/prisma/client.js';

export interface InstanceAdmins {
  /** Settles once the start-up read is done (read or failed): the service takes requests after it. */
  ready(): Promise<void>;
  /** Whether the user is an admin of the instance. */
  has(userId: string): Promise<boolean>;
}

declare module '../kernel/context.js' {
  interface Services {
    instanceAdmins: InstanceAdmins;
  }
}

/**
 * Reads the admins' ids at once (at start-up); a read that failed (the database not up yet) is tried again at the next
 * question, and then names the users of that moment.
 */
export function instanceAdminsOf(sql: SqlRunner, emails: readonly string[]): InstanceAdmins {
  const read = async () =>
    new Set(
      emails.length
        ? (await sql<{ id: string }>(Prisma.sql`SELECT id FROM "User" WHERE lower(email) = ANY(${[...emails]}::text[])`)).map(
            (row) => row.id,
          )
        : [],
    );
  let ids: Promise<ReadonlySet<string>> = read();
  // Nobody may be waiting when a read fails: the failure is kept for the next question, which reads again.
  ids.catch(() => {});
  return {
    ready: () =>
      ids.then(
        () => undefined,
        () => undefined,
      ),
    async has(userId) {
      try {
        return (await ids).has(userId);
      } catch {
        ids = read();
        return (await ids).has(userId);
      }
    },
  };
}
