// Entity tags and If-Match (README, "No lost updates"). An object's tag versions its own stored state: the row's
// `rowVersion`, which a trigger adds one to on every UPDATE that changes a column of the object's representation
// (migration row_versions). It is exact where a time is not (two writes in one millisecond, a fixed test clock) and
// costs nothing to read: it comes with the row, however the row is read (plain SQL's `SELECT *`, Prisma), so a GET
// pays no statement for its tag and no hash of its body. What is derived from other rows or from the viewer (counts,
// permissions, URLs) does not change it: a colleague's comment never turns your PATCH into a 412. The row's id is part
// of the tag, so an object deleted and made again under the same address (a name, a slug) never answers the old tag.
//
// If-Match is a REST guarantee: the REST engine puts the request's tags on the Context (`ifMatch`), and each covered
// write checks them inside its transaction, against the row locked there (`lockIfMatch`, or `assertIfMatch` on a row
// the write already holds locked), so that of concurrent writers holding one tag exactly one gets through. No If-Match
// (or `*`), no check and no statement.
import { Prisma } from '../generated/prisma/client.js';
import { ApiError } from './errors.js';

/** What a covered write reads of the request: the opaque tags of its If-Match; undefined for none, or for `*`. */
export interface Preconditions {
  ifMatch?: readonly string[];
}

/** A row whose table carries a version (migration row_versions). */
export interface VersionedRow {
  id: string;
  rowVersion: number;
}

/** The tag of a versioned object: its identity (its id, or its key and creation for a row without one) and version. */
export const rowTag = (identity: string, rowVersion: number) => `${identity}.${rowVersion}`;

/** The tag of a row with an id of its own. */
export const tagOf = (row: VersionedRow) => rowTag(row.id, row.rowVersion);

export const preconditionFailed = (kind: string) =>
  new ApiError(412, `The ${kind.toLowerCase()} has changed since the version If-Match names: read it again, then retry.`);

/** The options of a type's `etag` field (the REST engine answers it as the ETag header, rest/etags.ts). */
export const etagField = <Row>(tag: (row: Row) => string) => ({
  description: 'Strong entity tag of this version of the object (REST: the ETag header; If-Match takes it).',
  resolve: tag,
});

/** 412 unless the request's If-Match names `tag`, the current tag of a row the caller holds locked. */
export function assertIfMatch(ctx: Preconditions, kind: string, tag: string): void {
  if (ctx.ifMatch && !ctx.ifMatch.includes(tag)) throw preconditionFailed(kind);
}

type Tx = Pick<Prisma.TransactionClient, '$queryRaw'>;

/**
 * Locks the row of `table` with this id in the write's transaction and checks If-Match against its tag: a concurrent
 * writer waits for this transaction, then finds the version it changed. One statement, only when If-Match is sent. No
 * row, no check: the write finds nothing either, and answers 404 as without If-Match.
 */
export function lockIfMatch(tx: Tx, ctx: Preconditions, table: string, id: string, kind = table): Promise<void> {
  return lockIfMatchBy(
    tx,
    ctx,
    kind,
    Prisma.sql`SELECT id, "rowVersion" FROM ${Prisma.raw(`"${table}"`)} WHERE id = ${id} FOR UPDATE`,
    tagOf,
  );
}

/** lockIfMatch for a row without an id of its own: `select` reads it FOR UPDATE, `tag` is its tag. */
export async function lockIfMatchBy<Row>(tx: Tx, ctx: Preconditions, kind: string, select: Prisma.Sql, tag: (row: Row) => string) {
  if (!ctx.ifMatch) return;
  const [row] = await tx.$queryRaw<Row[]>(select);
  if (row) assertIfMatch(ctx, kind, tag(row));
}
