// What names stored bytes: the one list of the rows that keep a key's bytes alive, read by the sweep (bytes no row
// names go) and by a backup (bytes the backed-up rows name are copied into it). A new kind of row that names bytes
// goes here, or the sweep removes its bytes and backups lose them.
import { Prisma } from '../generated/prisma/client.js';

/** Who names a key: a row that needs its bytes, or a write in progress that may not have stored them yet. */
export type Namer = 'row' | 'intent';

/**
 * Any version of any file of any space (history and change requests included, deleted spaces until purged), an
 * integration's assets (`<key>.<ext>` for icons and previews), an exported PDF until its link expires, and a live
 * intent (src/files/storage.ts); each with the table it reads, since a backup may read a database of an older schema.
 */
const NAMERS: { table: string; sql: (now: Date) => Prisma.Sql }[] = [
  { table: 'FileVersion', sql: () => Prisma.sql`SELECT "storageKey" AS key, 'row' AS namer FROM "FileVersion"` },
  { table: 'FileExport', sql: (now) => Prisma.sql`SELECT "storageKey", 'row' FROM "FileExport" WHERE "expiresAt" > ${now}` },
  { table: 'Integration', sql: () => Prisma.sql`SELECT script, 'row' FROM "Integration"` },
  { table: 'Integration', sql: () => Prisma.sql`SELECT split_part(icon, '.', 1), 'row' FROM "Integration" WHERE icon IS NOT NULL` },
  {
    table: 'Integration',
    sql: () => Prisma.sql`SELECT split_part(image, '.', 1), 'row' FROM "Integration", unnest("previewImages") AS image`,
  },
  { table: 'FileIntent', sql: (now) => Prisma.sql`SELECT "storageKey", 'intent' FROM "FileIntent" WHERE "expiresAt" > ${now}` },
];

/**
 * `(key, namer)` for every key named at `now`, a key possibly more than once; from the given tables only (those that
 * exist), or null when none of them names bytes.
 */
export function namedKeysSql(now: Date, tables?: ReadonlySet<string>): Prisma.Sql | null {
  const namers = NAMERS.filter((namer) => !tables || tables.has(namer.table));
  return namers.length
    ? Prisma.join(
        namers.map((namer) => namer.sql(now)),
        ' UNION ALL ',
      )
    : null;
}
