// The content of revisions: reading the pages and files of any revision in one statement, and writing a new revision
// in rows proportional to what it changes.
//
// A space's history has lines: its primary content ("main") and one per change request. Rows of PageVersion and
// FileVersion belong to a line and hold for a range of its revisions, [validFrom, validTo). A revision of the primary
// line is the rows of "main" valid at its seq. A change request's revision is its own line's rows valid at its seq
// (tombstones among them hide pages it deleted) over the primary line as it stood at the revision's baseSeq. A new
// revision closes the rows of what it changes and adds their new rows: nothing is copied, whatever the space's size.
// What other domains keep with page versions (the search index, the links) rides in these statements through the
// hooks the caller passes (hooks.ts), the services' pageVersionHooks.

import type { SqlRunner } from '../db/client.js';
import { type FileVersion, type PageVersion, Prisma, type Revision } from '../generated/prisma/client.js';
import { newId } from '../kernel/ids.js';
import type { PageVersionHook, StatementPart, WrittenLine } from './hooks.js';

export const MAIN = 'main';

/** Where a revision sits: its line, its seq in the line, and (for a change request's line) the primary seq below it. */
export type RevisionPoint = Pick<Revision, 'spaceId' | 'line' | 'seq' | 'baseSeq'>;

export type Versioned = 'PageVersion' | 'FileVersion';
const keyColumn = { PageVersion: 'pageId', FileVersion: 'fileId' } as const;

/** Some keys of a revision: one, a list, or the value of an expression (a column of an outer query, say). */
export type OnlyKeys = { key: string } | { keys: readonly string[] } | { keyIs: Prisma.Sql };

/**
 * The statement of the rows of `table` that make up the revision (tombstones excluded), for reads that build on it;
 * `only` some keys, read through the key's index.
 */
export function rowsAt(table: Versioned, at: RevisionPoint, only?: OnlyKeys): Prisma.Sql {
  const t = Prisma.raw(`"${table}"`);
  const key = Prisma.raw(`"${keyColumn[table]}"`);
  const one = !only
    ? Prisma.empty
    : 'key' in only
      ? Prisma.sql`AND v.${key} = ${only.key}`
      : 'keys' in only
        ? Prisma.sql`AND v.${key} = ANY(${only.keys}::text[])`
        : Prisma.sql`AND v.${key} = ${only.keyIs}`;
  const valid = (seq: number) => Prisma.sql`v."validFrom" <= ${seq} AND (v."validTo" IS NULL OR v."validTo" > ${seq})`;
  if (at.line === MAIN) {
    return Prisma.sql`SELECT v.* FROM ${t} v WHERE v."spaceId" = ${at.spaceId} AND v.line = ${MAIN} AND ${valid(at.seq)} ${one}`;
  }
  return Prisma.sql`
    WITH own AS (SELECT v.* FROM ${t} v WHERE v."spaceId" = ${at.spaceId} AND v.line = ${at.line} AND ${valid(at.seq)} ${one})
    SELECT * FROM own WHERE NOT deleted
    UNION ALL
    SELECT v.* FROM ${t} v
     WHERE v."spaceId" = ${at.spaceId} AND v.line = ${MAIN} AND ${valid(at.baseSeq ?? 0)} ${one}
       AND NOT EXISTS (SELECT 1 FROM own WHERE own.${key} = v.${key})`;
}

export const pagesAt = (sql: SqlRunner, at: RevisionPoint) => sql<PageVersion>(rowsAt('PageVersion', at));
export const filesAt = (sql: SqlRunner, at: RevisionPoint) => sql<FileVersion>(rowsAt('FileVersion', at));
export const pageAt = async (sql: SqlRunner, at: RevisionPoint, pageId: string) =>
  (await sql<PageVersion>(rowsAt('PageVersion', at, { key: pageId })))[0] ?? null;
export const fileAt = async (sql: SqlRunner, at: RevisionPoint, fileId: string) =>
  (await sql<FileVersion>(rowsAt('FileVersion', at, { key: fileId })))[0] ?? null;

/** The keys of pages and of files, by table. */
export interface ChangedKeys {
  pages: string[];
  files: string[];
}

/**
 * The pages and files where a change request's revision `line`, or the primary content at `mainSeq`, may differ from
 * the primary content at the line's base, `baseSeq`: the line's own rows at its seq (its tombstones included), and the
 * primary rows that began or ended after `baseSeq`. Every other key holds the same row in all three, so a merge reads
 * and writes these alone. One statement, through the indexes on where rows begin and end.
 */
export async function changedKeys(sql: SqlRunner, line: RevisionPoint, baseSeq: number, mainSeq: number): Promise<ChangedKeys> {
  const of = (table: Versioned) => {
    const t = Prisma.raw(`"${table}"`);
    const key = Prisma.raw(`"${keyColumn[table]}"`);
    const name = Prisma.raw(`'${table}'`);
    const where = Prisma.sql`"spaceId" = ${line.spaceId} AND line =`;
    return Prisma.sql`
      SELECT ${name} AS "table", ${key} AS key FROM ${t}
       WHERE ${where} ${line.line} AND "validFrom" <= ${line.seq} AND ("validTo" IS NULL OR "validTo" > ${line.seq})
      UNION SELECT ${name}, ${key} FROM ${t} WHERE ${where} ${MAIN} AND "validFrom" > ${baseSeq} AND "validFrom" <= ${mainSeq}
      UNION SELECT ${name}, ${key} FROM ${t} WHERE ${where} ${MAIN} AND "validTo" > ${baseSeq} AND "validTo" <= ${mainSeq}`;
  };
  const rows = await sql<{ table: Versioned; key: string }>(Prisma.sql`${of('PageVersion')} UNION ${of('FileVersion')}`);
  return {
    pages: rows.filter((row) => row.table === 'PageVersion').map((row) => row.key),
    files: rows.filter((row) => row.table === 'FileVersion').map((row) => row.key),
  };
}

/** A page's content as a revision writes it (everything but where and when it holds). */
export type PageContent = Omit<PageVersion, 'id' | 'spaceId' | 'line' | 'validFrom' | 'validTo' | 'deleted'>;
export type FileContent = Omit<FileVersion, 'id' | 'spaceId' | 'line' | 'validFrom' | 'validTo' | 'deleted'>;

/** A page's content from what sets it apart; every other column takes its default (a top-level document, no body). */
export function pageContent(
  fields: Pick<PageContent, 'pageId' | 'title' | 'slug' | 'createdAt' | 'updatedAt'> & Partial<PageContent>,
): PageContent {
  return {
    parentId: null,
    type: 'document',
    emoji: null,
    icon: null,
    description: null,
    document: null,
    markdown: null,
    target: null,
    layout: null,
    cover: null,
    computed: null,
    hidden: false,
    noIndex: false,
    noRobotsIndex: false,
    position: 0,
    gitOid: null,
    gitPath: null,
    ...fields,
  };
}

export interface RevisionChanges {
  /** Pages added or changed, whole. */
  pages?: readonly PageContent[];
  deletedPages?: readonly string[];
  /** On a change request's line: pages whose own rows end, so that the primary content shows through again. */
  restoredPages?: readonly string[];
  files?: readonly FileContent[];
  deletedFiles?: readonly string[];
  restoredFiles?: readonly string[];
}

export interface NewRevision {
  spaceId: string;
  line: string;
  /** The revision it follows on its line, or for the first revision of a change request, the one it starts from. */
  parent: RevisionPoint & { id: string };
  /** For a change request's line: the primary seq below the new revision (default: the parent's). */
  baseSeq?: number;
  type: Revision['type'];
  createdById: string | null;
  /** More parents (a merge's other side). */
  otherParents?: string[];
}

type Tx = Pick<Prisma.TransactionClient, '$executeRaw' | '$queryRaw'>;

/**
 * A statement of the store (`plain`) with what the hooks add to it: the store's own common table expressions (`own`,
 * what the hooks read), then each hook's, then an end that reads what must be read. The statement alone when no hook
 * adds anything.
 */
function hooked(plain: Prisma.Sql, own: Prisma.Sql, parts: readonly (StatementPart | null | undefined)[]): Prisma.Sql {
  const added = parts.filter((part): part is StatementPart => !!part);
  if (!added.length) return plain;
  const reads = added.flatMap((part) => (part.read ? [Prisma.sql`(SELECT count(*) FROM ${Prisma.raw(part.read)})`] : []));
  return Prisma.sql`WITH ${own}, ${Prisma.join(
    added.map((part) => part.with),
    ', ',
  )} SELECT ${reads.length ? Prisma.join(reads) : Prisma.sql`1`}`;
}

/**
 * Writes a revision after `parent` on `line` with these changes: closes the changed rows of the line, adds their new
 * rows, and hides what a change request deletes with tombstones; the hooks' rows ride in the same statements. Returns
 * the revision; its statements do not grow with the space, and its rows grow with the changes only.
 */
export async function writeRevision(
  tx: Tx,
  hooks: readonly PageVersionHook[],
  revision: NewRevision,
  changes: RevisionChanges,
): Promise<Revision> {
  const seq = revision.parent.line === revision.line ? revision.parent.seq + 1 : 1;
  const baseSeq =
    revision.line === MAIN ? null : (revision.baseSeq ?? (revision.parent.line === MAIN ? revision.parent.seq : revision.parent.baseSeq));
  const id = newId();
  const [row] = await tx.$queryRaw<Revision[]>`
    INSERT INTO "Revision" (id, "spaceId", line, seq, "baseSeq", type, parents, "createdById")
    VALUES (${id}, ${revision.spaceId}, ${revision.line}, ${seq}, ${baseSeq}, ${revision.type}::"RevisionType",
            ${[revision.parent.id, ...(revision.otherParents ?? [])]}::text[], ${revision.createdById})
    RETURNING *`;
  const at = { spaceId: revision.spaceId, line: revision.line, seq };
  await writeVersions(tx, hooks, 'PageVersion', at, changes.pages ?? [], changes.deletedPages ?? [], changes.restoredPages ?? []);
  await writeVersions(tx, hooks, 'FileVersion', at, changes.files ?? [], changes.deletedFiles ?? [], changes.restoredFiles ?? []);
  return row;
}

/** The columns of a page's content (what a revision writes of it), and of a file's. */
export const pageColumns = [
  'parentId',
  'type',
  'title',
  'emoji',
  'icon',
  'slug',
  'description',
  'document',
  'markdown',
  'target',
  'layout',
  'cover',
  'computed',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'position',
  'gitOid',
  'gitPath',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof PageContent)[];
export const fileColumns = [
  'name',
  'contentType',
  'size',
  'width',
  'height',
  'storageKey',
  'gitOid',
  'gitPath',
  'createdAt',
] as const satisfies readonly (keyof FileContent)[];

/**
 * Whether two column values are equal: primitives and dates directly, JSON documents by their text. Merges and edits
 * compare every page of a revision this way, so the common case stays cheap.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b || (a == null && b == null)) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Whether two rows hold the same values in these columns (absent rows are equal only to each other). */
export const sameColumns = (a: object | null | undefined, b: object | null | undefined, columns: readonly string[]) =>
  !a || !b
    ? !a === !b
    : columns.every((column) => sameValue((a as Record<string, unknown>)[column], (b as Record<string, unknown>)[column]));

/** What a tombstone needs besides its key: the table's required columns, which nothing reads. */
const tombstoneOf = {
  PageVersion: { type: 'document', title: '', slug: '', hidden: false, noIndex: false, noRobotsIndex: false, position: 0 },
  FileVersion: { name: '', contentType: '', size: 0, storageKey: '' },
};

/**
 * Closes the line's current rows of the changed, deleted and restored keys at `seq`, then inserts the new rows (from JSON, one
 * statement whatever their number) and, on a change request's line, tombstones for the deleted keys: two statements,
 * with what the hooks add to each of a page's.
 */
async function writeVersions(
  tx: Tx,
  hooks: readonly PageVersionHook[],
  table: Versioned,
  at: { spaceId: string; line: string; seq: number },
  rows: readonly (PageContent | FileContent)[],
  deleted: readonly string[],
  restored: readonly string[],
): Promise<void> {
  const key = keyColumn[table];
  const keys = [...rows.map((row) => (row as Record<string, unknown>)[key] as string), ...deleted, ...restored];
  if (!keys.length) return;
  const t = Prisma.raw(`"${table}"`);
  const keyName = Prisma.raw(`"${key}"`);
  const line: WrittenLine = { spaceId: at.spaceId, line: at.line, primary: at.line === MAIN };
  // The hooks follow page versions; files have none.
  const following = table === 'PageVersion' ? hooks : [];
  const close = Prisma.sql`
    UPDATE ${t} SET "validTo" = ${at.seq}
     WHERE "spaceId" = ${at.spaceId} AND line = ${at.line} AND ${keyName} = ANY(${keys}::text[]) AND "validTo" IS NULL`;
  await tx.$executeRaw(
    hooked(
      close,
      Prisma.sql`closed AS (${close} RETURNING id)`,
      following.map((hook) => hook.closing?.(line)),
    ),
  );
  const columns = table === 'PageVersion' ? pageColumns : fileColumns;
  const tombstones = at.line === MAIN ? [] : deleted;
  const now = new Date();
  const records = [
    ...rows.map((row) => ({ ...row, id: newId(), deleted: false })),
    // A tombstone holds the key and what the table requires; readers skip it.
    ...tombstones.map((id) => ({ ...tombstoneOf[table], [key]: id, id: newId(), deleted: true, createdAt: now, updatedAt: now })),
  ];
  if (!records.length) return;
  const names = Prisma.join(['id', key, 'deleted', ...columns].map((c) => Prisma.raw(`"${c}"`)));
  const insert = Prisma.sql`
    INSERT INTO ${t} ("spaceId", line, "validFrom", ${names})
    SELECT ${at.spaceId}, ${at.line}, ${at.seq}, ${names} FROM jsonb_populate_recordset(NULL::${t}, ${JSON.stringify(records)}::jsonb)`;
  await tx.$executeRaw(
    hooked(
      insert,
      Prisma.sql`versions AS (${insert})`,
      following.map((hook) => hook.inserting?.(line, records as PageVersion[])),
    ),
  );
}

/**
 * Copies the content of a revision into the first revision of another space's primary line: two statements, the
 * pages' with what the hooks copy of theirs.
 */
export async function copyContent(tx: Tx, hooks: readonly PageVersionHook[], from: RevisionPoint, toSpaceId: string): Promise<void> {
  const copyOf = (table: Versioned, columns: readonly string[]) => {
    const names = Prisma.join([keyColumn[table], ...columns].map((c) => Prisma.raw(`"${c}"`)));
    return Prisma.sql`
      INSERT INTO ${Prisma.raw(`"${table}"`)} (id, "spaceId", line, "validFrom", deleted, ${names})
      SELECT md5(gen_random_uuid()::text), ${toSpaceId}, ${MAIN}, 1, false, ${names} FROM (${rowsAt(table, from)}) source`;
  };
  const pages = copyOf('PageVersion', pageColumns);
  await tx.$executeRaw(
    hooked(
      pages,
      Prisma.sql`copied AS (${pages} RETURNING id, "pageId"),
        pairs AS (SELECT copied.id, src.id AS "sourceId" FROM copied JOIN (${rowsAt('PageVersion', from)}) src ON src."pageId" = copied."pageId")`,
      hooks.map((hook) => hook.copying?.(toSpaceId)),
    ),
  );
  await tx.$executeRaw(copyOf('FileVersion', fileColumns));
}
