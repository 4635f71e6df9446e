// Logical backup and restore over one plain `pg` connection. pg_dump is not an option here: the embedded PostgreSQL
// ships none, and Debian's older pg_dump refuses a newer server.
//
// File format (version 2): gzip of
//   {"format":"docs-platform-backup","version":2,"createdAt":…,"migrations":[…],"tables":[{"name","columns"}…],
//    "sequences":[{"name","lastValue","isCalled"}…]}                         one header line
//   then for each table of the header, in its order:
//   {"table":"User"}                                                           one line
//   rows in COPY text format (one line per row)
//   \.                                                                         end of the table's rows
//   then for each key that the backed-up rows name (src/files/named.ts), in key order:
//   {"file":"<sha256 in hex>","size":N}                                        one line
//   the N stored bytes, raw (their SHA-256 is the key)
//   {"end":true,"rows":{"User":3,…},"files":2,"fileBytes":…,"missingFiles":[]} trailer: counts, known only now
// A version 1 backup (older services) has no files and a trailer of row counts alone; it restores the database, and
// its bytes come from a copy of the old instance's FILES_DIR.
// Tables come in foreign-key order (referenced tables first) as far as cycles allow; the restore re-creates, after the
// load, the few foreign keys that point forward in the file. The trailer proves the file complete, and its counts are
// checked against what each COPY loaded.
//
// Why "\." alone on a line cannot be a row: in COPY's text format a backslash in a value is always written doubled,
// newlines and carriage returns in values as \n and \r, and COPY TO writes only the escapes \\ \N \b \f \n \r \t \v,
// ending every row with a single "\n" (PostgreSQL docs, COPY, "File Formats: Text Format"). So every backslash COPY
// writes is followed by one of \ N b f n r t v, never by ".", and every line is exactly one row.
//
// Files come after the tables, so that a restore writes the bytes before the transaction that loaded the rows naming
// them commits (as any writer of bytes does), and rolls back the rows when a file is bad. The keys are read in the
// tables' snapshot, and the backup holds the sweep's lock shared from before the snapshot to its end: bytes those rows
// name cannot be swept while they are copied, even when a later transaction stops naming them.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline as pipelineCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { z } from 'zod';
import { applyMigrations, readMigrations } from '../db/migrations.js';
import { type Namer, namedKeysSql } from '../files/named.js';
import { STORAGE_KEY, SWEEP_LOCK } from '../files/storage.js';
import type { FileStore } from '../files/store.js';
import { AdminError } from './commands.js';

export interface BackupSummary {
  object: 'backup';
  file: string;
  tables: number;
  rows: number;
  migrations: number;
  /** Stored files copied into the backup, and their bytes. */
  files: number;
  fileBytes: number;
  /** Keys the rows name that the store lacked, backed up without their bytes (only with allowMissingFiles). */
  missingFiles: string[];
  /** The backup file's size. */
  bytes: number;
}

export interface BackupOptions {
  /**
   * Back up even when the store lacks bytes that rows name, recording their keys, rather than fail. For an instance
   * that has lost files: its database is still worth a backup.
   */
  allowMissingFiles?: boolean;
}

export interface RestoreSummary {
  object: 'restore';
  file: string;
  tables: number;
  rows: number;
  /** Files written to the store, and their bytes. */
  files: number;
  fileBytes: number;
  /** Keys the backup recorded as missing from the store it was made from: their files have no bytes here either. */
  missingFiles: string[];
  /** What a version 1 backup leaves to do. */
  note?: string;
}

/** A version 1 backup holds no bytes: the restore says where they come from. */
export const VERSION_1_NOTE =
  'This backup (format version 1) holds the database but no file bytes: copy the FILES_DIR of the instance it was made from ' +
  "into this instance's FILES_DIR (FILES_STORE=local), or upload each of its files <xx>/<key> as the object <S3_PREFIX><key> " +
  '(FILES_STORE=s3). A backup made now holds both.';

const FORMAT = 'docs-platform-backup';
const VERSION = 2;
const NEWLINE = 0x0a;
const END_OF_DATA = Buffer.from('\\.\n');
const NEWLINE_THEN_END_OF_DATA = Buffer.from('\n\\.\n');
/** Longer than any header or trailer of a real backup; stops a garbage file from being read into memory whole. */
const MAX_JSON_LINE = 4 * 1024 * 1024;

const TableSchema = z.object({ name: z.string().min(1), columns: z.array(z.string().min(1)).min(1) });
const BackupHeader = z.object({
  format: z.literal(FORMAT),
  version: z.union([z.literal(1), z.literal(VERSION)]),
  createdAt: z.string(),
  migrations: z.array(z.string()),
  tables: z.array(TableSchema),
  // bigint values as text: JSON numbers lose precision beyond 2^53.
  sequences: z.array(z.object({ name: z.string().min(1), lastValue: z.string().regex(/^-?\d+$/), isCalled: z.boolean() })),
});
const TableStart = z.object({ table: z.string() });
const FileStart = z.object({ file: z.string().regex(STORAGE_KEY), size: z.number().int().nonnegative() });
const BackupEnd = z.object({
  end: z.literal(true),
  rows: z.record(z.string(), z.number().int().nonnegative()),
  // Absent from version 1.
  files: z.number().int().nonnegative().optional(),
  fileBytes: z.number().int().nonnegative().optional(),
  missingFiles: z.array(z.string().regex(STORAGE_KEY)).optional(),
});

type Table = z.infer<typeof TableSchema>;
type Header = z.infer<typeof BackupHeader>;

interface ForeignKey {
  name: string;
  table: string;
  referencedTable: string;
  /** As pg_get_constraintdef gives it, to re-create the constraint as it was. */
  definition: string;
}

const quote = (identifier: string) => pg.escapeIdentifier(identifier);
const qualified = (table: string) => `public.${quote(table)}`;
const columnList = (table: Table) => table.columns.map(quote).join(', ');

async function connect(databaseUrl: string, applicationName: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: applicationName });
  await client.connect();
  try {
    // COPY text is written and read under these settings, so pin them rather than inherit the server's: UTF-8 bytes,
    // ISO dates (the COPY docs advise it for portability), exact floats, and no timeout cutting a long COPY short.
    await client.query(`SET client_encoding = 'UTF8'; SET DateStyle = ISO; SET IntervalStyle = postgres;
      SET extra_float_digits = 3; SET statement_timeout = 0; SET lock_timeout = 0; SET idle_in_transaction_session_timeout = 0`);
  } catch (error) {
    await client.end();
    throw error;
  }
  return client;
}

/** The base tables of the public schema but Prisma's migration history, with their insertable columns. */
async function readTables(client: pg.Client): Promise<Table[]> {
  const { rows } = await client.query<Table>(`
    SELECT c.relname AS name, array_agg(a.attname::text ORDER BY a.attnum) AS columns
      FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.relname <> '_prisma_migrations'
       AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
     GROUP BY c.relname
     ORDER BY c.relname`);
  return rows;
}

async function readForeignKeys(client: pg.Client): Promise<ForeignKey[]> {
  const { rows } = await client.query<ForeignKey>(`
    SELECT con.conname AS name, child.relname AS "table", parent.relname AS "referencedTable",
           pg_get_constraintdef(con.oid) AS definition
      FROM pg_constraint con
      JOIN pg_class child ON child.oid = con.conrelid
      JOIN pg_class parent ON parent.oid = con.confrelid
     WHERE con.contype = 'f' AND child.relnamespace = 'public'::regnamespace AND parent.relnamespace = 'public'::regnamespace
     ORDER BY child.relname, con.conname`);
  return rows;
}

/** Names of the finished, not rolled back migrations; none when the history table does not exist. */
async function readAppliedMigrations(client: pg.Client): Promise<string[]> {
  const { rows: history } = await client.query<{ exists: boolean }>(
    `SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS exists`,
  );
  if (!history[0].exists) return [];
  const { rows } = await client.query<{ name: string }>(`
    SELECT migration_name AS name FROM public._prisma_migrations
     WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL
     ORDER BY migration_name`);
  return rows.map((row) => row.name);
}

/** The schema has none today (string ids), but any a later migration adds must survive a restore. */
async function readSequences(client: pg.Client): Promise<Header['sequences']> {
  const { rows: names } = await client.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'S' ORDER BY relname`,
  );
  const sequences: Header['sequences'] = [];
  for (const { name } of names) {
    const { rows } = await client.query<{ lastValue: string; isCalled: boolean }>(
      `SELECT last_value::text AS "lastValue", is_called AS "isCalled" FROM ${qualified(name)}`,
    );
    sequences.push({ name, ...rows[0] });
  }
  return sequences;
}

async function lockTables(client: pg.Client, tables: Table[], mode: string): Promise<void> {
  if (tables.length) await client.query(`LOCK TABLE ${tables.map((t) => qualified(t.name)).join(', ')} IN ${mode} MODE`);
}

/**
 * Tables with each one after the tables it references (self-references aside: one COPY checks them at its end).
 * Where tables reference each other in a cycle (this schema has two: Space and Revision, OpenAPISpec and
 * OpenAPISpecVersion) no such order exists; the cycle is broken at the table of the cycle that waits on the fewest
 * others, and the restore defers the foreign keys that then point forward.
 */
function loadingOrder(tables: Table[], foreignKeys: ForeignKey[]): Table[] {
  const references = new Map(tables.map((table) => [table.name, new Set<string>()]));
  for (const key of foreignKeys) {
    if (key.table !== key.referencedTable && references.has(key.referencedTable)) references.get(key.table)?.add(key.referencedTable);
  }
  const placed = new Set<string>();
  const waitsOn = (name: string) => [...references.get(name)!].filter((referenced) => !placed.has(referenced));
  const onCycle = (start: string) => {
    const seen = new Set<string>();
    const stack = waitsOn(start);
    while (stack.length) {
      const name = stack.pop()!;
      if (name === start) return true;
      if (!seen.has(name)) {
        seen.add(name);
        stack.push(...waitsOn(name));
      }
    }
    return false;
  };
  const order: Table[] = [];
  while (order.length < tables.length) {
    const pending = tables.filter((table) => !placed.has(table.name));
    // Every pending table waiting on another one means a cycle among them: one of them has to go first.
    const next =
      pending.find((table) => waitsOn(table.name).length === 0) ??
      pending.filter((table) => onCycle(table.name)).sort((a, b) => waitsOn(a.name).length - waitsOn(b.name).length)[0];
    order.push(next);
    placed.add(next.name);
  }
  return order;
}

/** Rows end with the only unescaped newline of COPY's text format. */
function countRows(chunk: Buffer): number {
  let rows = 0;
  for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) rows++;
  return rows;
}

const jsonLine = (value: unknown) => Buffer.from(`${JSON.stringify(value)}\n`);

/** What a backup counted as it wrote, for its trailer and its summary. */
interface BackupTally {
  rows: Record<string, number>;
  files: number;
  fileBytes: number;
  missingFiles: string[];
}

/** Keys fetched from the cursor at a time: the keys of a large instance are never all in memory. */
const KEY_BATCH = 1000;
/** Missing keys an error names; the rest are counted. */
const NAMED_MISSING = 20;

/**
 * The content addresses that the snapshot's rows name at `now`, in order, each with whether only a live intent names
 * it (a write in progress, whose bytes may not be stored yet). Read through a cursor of the backup's transaction.
 */
async function* namedKeys(client: pg.Client, tables: Table[], now: Date): AsyncGenerator<{ key: string; intentOnly: boolean }> {
  const named = namedKeysSql(now, new Set(tables.map((table) => table.name)));
  if (!named) return;
  await client.query(
    `DECLARE named_keys NO SCROLL CURSOR FOR
       SELECT key COLLATE "C" AS key, bool_and(namer = ${pg.escapeLiteral('intent' satisfies Namer)}) AS "intentOnly"
         FROM (${named.text}) named WHERE key ~ '^[0-9a-f]{64}$' GROUP BY 1 ORDER BY 1`,
    named.values,
  );
  for (;;) {
    const { rows } = await client.query<{ key: string; intentOnly: boolean }>(`FETCH ${KEY_BATCH} FROM named_keys`);
    yield* rows;
    if (rows.length < KEY_BATCH) break;
  }
  await client.query('CLOSE named_keys');
}

/** Each named key's stored bytes as a line `{"file","size"}` and the raw bytes, read one file at a time. */
async function* fileContent(client: pg.Client, files: FileStore, header: Header, tally: BackupTally): AsyncGenerator<Buffer> {
  // createdAt is now() cut to milliseconds: rounded up, an export whose link expires within that millisecond is not
  // counted (its bytes may be gone), rather than counted and then missing.
  const now = new Date(Date.parse(header.createdAt) + 1);
  for await (const { key, intentOnly } of namedKeys(client, header.tables, now)) {
    const stored = await files.open(key);
    if (!stored) {
      if (!intentOnly) tally.missingFiles.push(key);
      continue;
    }
    yield jsonLine({ file: key, size: stored.size });
    const hash = createHash('sha256');
    let read = 0;
    for await (const chunk of stored.stream()) {
      read += chunk.length;
      if (read > stored.size) break;
      hash.update(chunk);
      yield chunk;
    }
    // A restore would refuse the file; better to say so now, when the store can still be repaired.
    if (read !== stored.size || hash.digest('hex') !== key) {
      throw new AdminError(
        `The stored bytes of file ${key} are not those of its key: the file store is damaged there. No backup was written.`,
      );
    }
    tally.files++;
    tally.fileBytes += stored.size;
  }
}

function missingFilesError(files: FileStore, missing: string[]): AdminError {
  const named = missing.slice(0, NAMED_MISSING).join(', ');
  const more = missing.length > NAMED_MISSING ? ` and ${missing.length - NAMED_MISSING} more` : '';
  return new AdminError(
    `${missing.length} files that the database names are missing from the file store (FILES_STORE=${files.kind}): ${named}${more}. ` +
      'No backup was written. Put their bytes back, or back up without them with --allow-missing-files (the backup lists them).',
  );
}

async function* backupContent(
  client: pg.Client,
  files: FileStore,
  header: Header,
  tally: BackupTally,
  options: BackupOptions,
): AsyncGenerator<Buffer> {
  yield jsonLine(header);
  for (const table of header.tables) {
    yield jsonLine({ table: table.name });
    let rows = 0;
    for await (const chunk of client.query(copyTo(`COPY ${qualified(table.name)} (${columnList(table)}) TO STDOUT`))) {
      rows += countRows(chunk);
      yield chunk;
    }
    tally.rows[table.name] = rows;
    yield END_OF_DATA;
  }
  yield* fileContent(client, files, header, tally);
  if (tally.missingFiles.length && !options.allowMissingFiles) throw missingFilesError(files, tally.missingFiles);
  yield jsonLine({ end: true, rows: tally.rows, files: tally.files, fileBytes: tally.fileBytes, missingFiles: tally.missingFiles });
}

const alreadyExists = (file: string) => new AdminError(`${file} already exists; a backup never overwrites a file`);

/**
 * Writes a consistent backup of the database and of the files' bytes it names to `file` (which must not exist) while
 * the service keeps writing: every table, and the keys of the bytes, are read in one REPEATABLE READ snapshot.
 */
export async function backupDatabase(
  databaseUrl: string,
  files: FileStore,
  file: string,
  options: BackupOptions = {},
): Promise<BackupSummary> {
  const target = path.resolve(file);
  if (await stat(target).catch(() => undefined)) throw alreadyExists(file);
  // Beside the target, so that publishing it is a link within one file system.
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.partial`);
  const client = await connect(databaseUrl, 'docs-platform-backup');
  try {
    // Held by the session until it ends (whatever happens to the transaction), and taken before the snapshot: the
    // sweep (which takes it exclusively, never waiting) pauses, so no byte the snapshot names goes before it is copied.
    await client.query('SELECT pg_advisory_lock_shared($1::bigint)', [SWEEP_LOCK]);
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // The first statement takes the snapshot that every later one reads.
    const createdAt = (await client.query<{ now: Date }>('SELECT now()')).rows[0].now.toISOString();
    const tables = await readTables(client);
    // TRUNCATE and table rewrites (some ALTER TABLEs) are not MVCC-safe: a snapshot would see such a table empty or
    // changed. Holding ACCESS SHARE until the end makes them wait for the backup; ordinary writes go on.
    await lockTables(client, tables, 'ACCESS SHARE');
    const header: Header = {
      format: FORMAT,
      version: VERSION,
      createdAt,
      migrations: await readAppliedMigrations(client),
      tables: loadingOrder(tables, await readForeignKeys(client)),
      sequences: await readSequences(client),
    };
    const tally: BackupTally = { rows: {}, files: 0, fileBytes: 0, missingFiles: [] };
    // flush: the data is on disk before the file gets its name. Mode 0600: it holds every row, token hashes and sealed
    // secrets included (the published file is a link to this one, so it has the same mode).
    const output = createWriteStream(partial, { flags: 'wx', flush: true, mode: 0o600 });
    await pipeline(backupContent(client, files, header, tally, options), createGzip(), output);
    await client.query('COMMIT');
    // link, unlike rename, fails rather than replace a file created under that name since the check above.
    await link(partial, target).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EEXIST' ? alreadyExists(file) : error;
    });
    return {
      object: 'backup',
      file,
      tables: header.tables.length,
      rows: Object.values(tally.rows).reduce((sum, rows) => sum + rows, 0),
      migrations: header.migrations.length,
      files: tally.files,
      fileBytes: tally.fileBytes,
      missingFiles: tally.missingFiles,
      bytes: (await stat(target)).size,
    };
  } finally {
    await rm(partial, { force: true });
    await client.end();
  }
}

const notABackup = (file: string, reason: string) => new AdminError(`${file} is not a valid backup: ${reason}`);
const truncated = (file: string, reason: string) => new AdminError(`${file} is truncated: ${reason}`);

/** Reads a backup file as a stream: its JSON lines, and each table's COPY data without ever holding a table. */
class BackupReader {
  private readonly chunks: AsyncIterator<Buffer>;
  /** Read but not yet consumed. */
  private buffer: Buffer = Buffer.alloc(0);
  private readHeader = false;

  constructor(
    chunks: AsyncIterable<Buffer>,
    private readonly file: string,
  ) {
    this.chunks = chunks[Symbol.asyncIterator]();
  }

  /** Appends the next decompressed chunk to the buffer; false at the end of the file. */
  private async read(): Promise<boolean> {
    let next: IteratorResult<Buffer>;
    try {
      next = await this.chunks.next();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'Z_BUF_ERROR') throw truncated(this.file, 'the compressed data ends early');
      if (code.startsWith('Z_')) throw notABackup(this.file, `not gzip data, or corrupt (${(error as Error).message})`);
      throw error;
    }
    if (next.done) return false;
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, next.value]) : next.value;
    return true;
  }

  async readJsonLine(): Promise<unknown> {
    const pieces: Buffer[] = [];
    let length = 0;
    for (;;) {
      const newline = this.buffer.indexOf(NEWLINE);
      if (newline !== -1) {
        pieces.push(this.buffer.subarray(0, newline));
        this.buffer = this.buffer.subarray(newline + 1);
        break;
      }
      pieces.push(this.buffer);
      length += this.buffer.length;
      this.buffer = Buffer.alloc(0);
      if (length > MAX_JSON_LINE) throw notABackup(this.file, 'a header line is too long');
      if (!(await this.read())) {
        throw this.readHeader
          ? truncated(this.file, 'it ends before the end of the backup')
          : notABackup(this.file, 'it does not start with a backup header');
      }
    }
    try {
      return JSON.parse(Buffer.concat(pieces).toString('utf8'));
    } catch {
      throw notABackup(this.file, this.readHeader ? 'a line that should be JSON is not' : 'it does not start with a backup header');
    }
  }

  async readHeaderLine(): Promise<Header> {
    const value = await this.readJsonLine();
    const header = BackupHeader.safeParse(value);
    if (!header.success) {
      const { format, version } = (value ?? {}) as { format?: unknown; version?: unknown };
      if (format === FORMAT && version !== VERSION) {
        throw new AdminError(`${this.file} is a backup of format version ${String(version)}; this service reads versions 1 to ${VERSION}`);
      }
      throw notABackup(this.file, `its header is not a ${FORMAT} header`);
    }
    this.readHeader = true;
    return header.data;
  }

  /** Where the end-of-data line starts in the buffer, or -1. */
  private endOfData(atLineStart: boolean): number {
    if (atLineStart && this.buffer.subarray(0, END_OF_DATA.length).equals(END_OF_DATA)) return 0;
    const newline = this.buffer.indexOf(NEWLINE_THEN_END_OF_DATA);
    return newline === -1 ? -1 : newline + 1;
  }

  /** The COPY data of one table, in pieces, up to its end-of-data line (consumed, not included). */
  async *tableData(table: string): AsyncGenerator<Buffer> {
    let atLineStart = true;
    for (;;) {
      const end = this.endOfData(atLineStart);
      if (end !== -1) {
        if (end > 0) yield this.buffer.subarray(0, end);
        this.buffer = this.buffer.subarray(end + END_OF_DATA.length);
        return;
      }
      // The last bytes could begin the end-of-data line: they wait for the next chunk.
      const ready = Math.max(0, this.buffer.length - (NEWLINE_THEN_END_OF_DATA.length - 1));
      if (ready > 0) {
        atLineStart = this.buffer[ready - 1] === NEWLINE;
        yield this.buffer.subarray(0, ready);
        this.buffer = this.buffer.subarray(ready);
      }
      if (!(await this.read())) throw truncated(this.file, `it ends in the rows of table "${table}"`);
    }
  }

  /** The `size` raw bytes of a file, in pieces, up to the line after them. */
  async *fileData(key: string, size: number): AsyncGenerator<Buffer> {
    let left = size;
    while (left > 0) {
      if (!this.buffer.length && !(await this.read())) throw truncated(this.file, `it ends in the bytes of file ${key}`);
      const piece = this.buffer.subarray(0, left);
      this.buffer = this.buffer.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
  }

  /** Reading to the end also makes gunzip check the file's CRC and length. */
  async expectEnd(): Promise<void> {
    do {
      if (this.buffer.length) throw notABackup(this.file, 'there is data after its end');
    } while (await this.read());
  }
}

/** Refuses a database in which any table has rows: a restore never merges. */
async function assertNoRows(client: pg.Client, tables: Table[]): Promise<void> {
  for (const table of tables) {
    const { rows } = await client.query<{ used: boolean }>(`SELECT EXISTS (SELECT FROM ${qualified(table.name)}) AS used`);
    if (rows[0].used) {
      throw new AdminError(`The database is not empty: table "${table.name}" has rows. Restore only into an empty database.`);
    }
  }
}

function assertSameMigrations(inBackup: string[], inDatabase: string[], database: string): void {
  const missing = inBackup.filter((name) => !inDatabase.includes(name));
  const extra = inDatabase.filter((name) => !inBackup.includes(name));
  if (!missing.length && !extra.length) return;
  const differences = [
    missing.length ? `migrations of the backup that ${database} lacks: ${missing.join(', ')}` : '',
    extra.length ? `migrations of ${database} that the backup lacks: ${extra.join(', ')}` : '',
  ];
  throw new AdminError(`The backup is of another schema version (${differences.filter(Boolean).join('; ')})`);
}

function assertSameTables(inBackup: Table[], inDatabase: Table[]): void {
  const describe = (tables: Table[]) => new Set(tables.map((table) => `${table.name}(${[...table.columns].sort().join(', ')})`));
  const backup = describe(inBackup);
  const database = describe(inDatabase);
  const missing = [...backup].filter((table) => !database.has(table));
  const extra = [...database].filter((table) => !backup.has(table));
  if (missing.length || extra.length) {
    throw new AdminError(
      `The backup's tables differ from the database's despite the same migrations: only in the backup ${missing.join(' ') || 'none'}; only in the database ${extra.join(' ') || 'none'}`,
    );
  }
}

/**
 * Restores a backup into an empty database (migrating it first to the backup's version when it has no migrations),
 * in one transaction: all of it or nothing.
 */
/** Why a restored copy's webhooks are paused. */
export const RESTORED_WEBHOOK_REASON = 'Paused by a restore from a backup: resume it (active: true) where it should deliver.';

/** Why a delivery that was pending in the backup was not sent by the restored copy. */
export const RESTORED_DELIVERY_ERROR = 'Not sent: pending when the backup was made. Redeliver it where it should be sent.';

/**
 * A restored copy starts with its webhooks paused, so that a copy (a staging instance, a test of the backup) never
 * fires at production's receivers; an admin resumes them. The deliveries that were pending fail with the reason (the
 * backup holds no job queue to send them; the original may have sent them since), listed for an admin to redeliver. A
 * backup older than webhooks has none.
 */
async function pauseWebhooks(client: pg.Client): Promise<void> {
  const { rows } = await client.query(`SELECT to_regclass('public."Webhook"') IS NOT NULL AS present`);
  if (!rows[0].present) return;
  await client.query(`UPDATE public."Webhook" SET active = false, "disabledReason" = $1 WHERE active`, [RESTORED_WEBHOOK_REASON]);
  await client.query(
    `UPDATE public."WebhookDelivery" SET status = 'failed', "lastError" = $1, "nextAttemptAt" = NULL WHERE status = 'pending'`,
    [RESTORED_DELIVERY_ERROR],
  );
}

/**
 * Writes one file of the backup through the store (any backend), once its bytes are known to be those of its key:
 * they are spooled to `scratch` while hashed, so that a store never receives wrong bytes under a key (a store keeps
 * what it has under a key, and an interrupted upload may leave part of one behind), and never all of a file in memory.
 */
async function restoreFile(
  reader: BackupReader,
  files: FileStore,
  scratch: string,
  file: string,
  key: string,
  size: number,
): Promise<void> {
  const spooled = path.join(scratch, key);
  const hash = createHash('sha256');
  async function* hashed(pieces: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const piece of pieces) {
      hash.update(piece);
      yield piece;
    }
  }
  try {
    await pipeline(hashed(reader.fileData(key, size)), createWriteStream(spooled, { flags: 'wx', mode: 0o600 }));
    if (hash.digest('hex') !== key) {
      throw notABackup(file, `the bytes of file ${key} are not those of its key (SHA-256); nothing was restored`);
    }
    // Bytes the store already has (an earlier restore into the same store) are not written again.
    if (await files.open(key)) return;
    await files.putStream(key, createReadStream(spooled), size).catch((error: Error) => {
      throw new Error(`Writing file ${key} to the file store (FILES_STORE=${files.kind}) failed: ${error.message}`, { cause: error });
    });
  } finally {
    await rm(spooled, { force: true });
  }
}

export async function restoreDatabase(databaseUrl: string, files: FileStore, file: string): Promise<RestoreSummary> {
  const stats = await stat(file).catch(() => undefined);
  if (!stats?.isFile()) throw new AdminError(`No backup file at ${file}`);
  if (stats.size === 0) throw notABackup(file, 'the file is empty');
  // Errors of the file stream surface through the gunzip stream, where the reader turns them into messages.
  const content = pipelineCallback(createReadStream(file), createGunzip(), () => {});
  // Where each file's bytes wait while checked (TMPDIR): private, and removed whatever happens.
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'docs-platform-restore-'));
  try {
    const reader = new BackupReader(content, file);
    // Before touching the database: a file that is no backup changes nothing.
    const header = await reader.readHeaderLine();
    const client = await connect(databaseUrl, 'docs-platform-restore');
    try {
      // Bytes are written before the transaction that names them commits: the sweep of a service already running on
      // this database waits for the restore rather than take them for leftovers.
      await client.query('SELECT pg_advisory_lock_shared($1::bigint)', [SWEEP_LOCK]);
      await assertNoRows(client, await readTables(client));
      const applied = await readAppliedMigrations(client);
      if (applied.length) {
        assertSameMigrations(header.migrations, applied, 'the database');
      } else {
        // A backup of this version, or of an older one: the database is migrated to the backup's version, and the
        // next start of the service applies the newer migrations to the restored data, as to any older database.
        const known = readMigrations();
        const atBackup = known.slice(0, header.migrations.length);
        assertSameMigrations(
          header.migrations,
          atBackup.map((migration) => migration.name),
          'this version of the service',
        );
        await applyMigrations(databaseUrl, atBackup);
      }
      const tables = await readTables(client);
      assertSameTables(header.tables, tables);
      const foreignKeys = await readForeignKeys(client);

      await client.query('BEGIN');
      try {
        // Nobody writes meanwhile, and the emptiness checked above still holds.
        await lockTables(client, tables, 'EXCLUSIVE');
        await assertNoRows(client, tables);
        const position = new Map(header.tables.map((table, index) => [table.name, index]));
        const forward = foreignKeys.filter((key) => position.get(key.referencedTable)! > position.get(key.table)!);
        // A foreign key to a table loaded later would fail its check: drop it, and re-create it once everything is in.
        for (const key of forward) await client.query(`ALTER TABLE ${qualified(key.table)} DROP CONSTRAINT ${quote(key.name)}`);

        const loaded: Record<string, number> = {};
        for (const table of header.tables) {
          const start = TableStart.safeParse(await reader.readJsonLine());
          if (!start.success || start.data.table !== table.name) {
            throw notABackup(file, `the rows of table "${table.name}" are not where the header says`);
          }
          const copy = client.query(copyFrom(`COPY ${qualified(table.name)} (${columnList(table)}) FROM STDIN`));
          try {
            await pipeline(reader.tableData(table.name), copy);
          } catch (error) {
            if (error instanceof AdminError) throw error;
            throw new Error(`Restoring table "${table.name}" failed: ${(error as Error).message}`, { cause: error });
          }
          loaded[table.name] = copy.rowCount;
        }
        const restored = { files: 0, fileBytes: 0 };
        let line = await reader.readJsonLine();
        while (header.version >= 2 && typeof line === 'object' && line !== null && 'file' in line) {
          const start = FileStart.safeParse(line);
          if (!start.success) throw notABackup(file, `a file's line is not {"file":<SHA-256 in hex>,"size":<bytes>}`);
          await restoreFile(reader, files, scratch, file, start.data.file, start.data.size);
          restored.files++;
          restored.fileBytes += start.data.size;
          line = await reader.readJsonLine();
        }
        const end = BackupEnd.safeParse(line);
        if (!end.success) throw notABackup(file, 'its end marker is missing');
        await reader.expectEnd();
        if (header.version >= 2 && (end.data.files !== restored.files || end.data.fileBytes !== restored.fileBytes)) {
          throw notABackup(
            file,
            `its trailer counts ${end.data.files ?? 'no'} files of ${end.data.fileBytes ?? 'no'} bytes, its data ${restored.files} of ${restored.fileBytes}`,
          );
        }
        for (const table of header.tables) {
          if (end.data.rows[table.name] !== loaded[table.name]) {
            throw notABackup(
              file,
              `table "${table.name}" has ${end.data.rows[table.name] ?? 'no'} rows in the backup's trailer, ${loaded[table.name]} in its data`,
            );
          }
        }

        // Validates every row against the re-created constraint.
        for (const key of forward) {
          await client.query(`ALTER TABLE ${qualified(key.table)} ADD CONSTRAINT ${quote(key.name)} ${key.definition}`);
        }
        await pauseWebhooks(client);
        // setval is not transactional: last, so that a failure before it leaves the sequences as they were.
        for (const sequence of header.sequences) {
          await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [
            qualified(sequence.name),
            sequence.lastValue,
            sequence.isCalled,
          ]);
        }
        await client.query('COMMIT');
        return {
          object: 'restore',
          file,
          tables: header.tables.length,
          rows: Object.values(loaded).reduce((sum, rows) => sum + rows, 0),
          ...restored,
          missingFiles: end.data.missingFiles ?? [],
          ...(header.version === 1 && { note: VERSION_1_NOTE }),
        };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    } finally {
      await client.end();
    }
  } finally {
    content.destroy();
    await rm(scratch, { recursive: true, force: true });
  }
}
