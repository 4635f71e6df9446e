// Request bodies under a limit, for /v1 and /graphql alike. A limit belongs to an operation: it is declared once, on
// the GraphQL field the operation runs (`...bodyLimit(bytes)` among the field's options), and a field that declares
// none takes DEFAULT_BODY_LIMIT. A REST route's limit is that of its operation's root fields (their smallest);
// /graphql works out the limit of the document it is sent (src/graphql.ts).
//
// Past a limit the answer is a 413 in the error shape, and the client must be able to read it: a body announced
// larger (Content-Length) is refused before any of it is read; either way the client may still be sending, so up to
// DISCARD_LIMIT more bytes (for at most DISCARD_MS) are read and thrown away while the 413 goes out with
// `Connection: close`, and only then is the connection closed. Closing at once would reset a connection the client
// is still writing to, and the client would see ECONNRESET or EPIPE instead of the answer.
import type { DocumentNode, GraphQLField, GraphQLSchema, SelectionSetNode } from 'graphql';
import { Kind } from 'graphql';
import type { Context as KoaContext } from 'koa';
import getRawBody from 'raw-body';
import { RestError } from './errors.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The limit of an operation whose fields declare none. */
export const DEFAULT_BODY_LIMIT = MiB;
/** What is read and thrown away past a limit, so that a client still sending reads the 413 before the close. */
export const DISCARD_LIMIT = MiB;
/** How long the rest of a refused body is waited for before the connection is closed anyway. */
export const DISCARD_MS = 10_000;

/** Field option: the request body of an operation running this field may be up to `bytes` (more than the default). */
export const bodyLimit = (bytes: number) => ({ extensions: { bodyLimit: bytes } }) as const;

/** `16 MiB`, `64 KiB`, or bytes. */
export function bytesText(bytes: number): string {
  if (bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes < MiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}

export class BodyTooLarge extends RestError {
  constructor(readonly limit: number) {
    super(413, `Request bodies are limited to ${bytesText(limit)} here.`);
  }
}

/** The limit of one field: declared, or the default. */
export const fieldBodyLimit = (field: GraphQLField<unknown, unknown> | undefined): number =>
  (field?.extensions as { bodyLimit?: number } | undefined)?.bodyLimit ?? DEFAULT_BODY_LIMIT;

/**
 * The limit of a document: the smallest of its root fields' limits, over every operation (fragments spread at the
 * root included), so that a large body is allowed only when everything the document may run allows it.
 */
export function documentBodyLimit(schema: GraphQLSchema, document: DocumentNode): number {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  let limit = Number.POSITIVE_INFINITY;
  const visit = (set: SelectionSetNode, fields: Record<string, GraphQLField<unknown, unknown>>, spread: Set<string>) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        limit = Math.min(limit, fieldBodyLimit(fields[selection.name.value]));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet, fields, spread);
      } else if (!spread.has(selection.name.value)) {
        spread.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet, fields, spread);
      }
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = schema.getRootType(definition.operation);
    visit(definition.selectionSet, root?.getFields() ?? {}, new Set());
  }
  return Number.isFinite(limit) ? limit : DEFAULT_BODY_LIMIT;
}

/** The largest limit any operation of the schema has. */
export function largestBodyLimit(schema: GraphQLSchema): number {
  const roots = [schema.getQueryType(), schema.getMutationType()].flatMap((type) => (type ? Object.values(type.getFields()) : []));
  return Math.max(DEFAULT_BODY_LIMIT, ...roots.map(fieldBodyLimit));
}

/** Whether the request carries a body (RFC 9112 §6.3: a Content-Length above 0, or a Transfer-Encoding). */
export const hasBody = (ctx: KoaContext): boolean => ctx.get('transfer-encoding') !== '' || (ctx.request.length ?? 0) > 0;

/** Refuses, before reading anything, a body whose Content-Length is above the limit. */
export function refuseAnnounced(ctx: KoaContext, limit: number): void {
  if ((ctx.request.length ?? 0) > limit) throw new BodyTooLarge(limit);
}

/** The whole body, at most `limit` bytes: BodyTooLarge past it, a 400 when it cannot be read (cut short, say). */
export async function readBody(ctx: KoaContext, limit: number): Promise<Buffer> {
  try {
    return await getRawBody(ctx.req, { limit, length: ctx.request.length });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw new BodyTooLarge(limit);
    throw new RestError(400, `Request body could not be read: ${(error as Error).message}.`);
  }
}

/**
 * Answers the 413 so that the client reads it: Koa does not write this response; it is written here, whole, and
 * when the body is not all read yet, the rest is read and thrown away (up to DISCARD_LIMIT, within DISCARD_MS) before
 * the connection is closed (`Connection: close`).
 */
export function answerTooLarge(ctx: KoaContext, error: BodyTooLarge): void {
  const body = JSON.stringify({ error: { code: 413, message: error.message } });
  const { req, res } = ctx;
  // Koa leaves the response alone; its status still goes into the request's log line and metrics.
  ctx.status = 413;
  ctx.respond = false;
  const unread = !req.complete;
  res.writeHead(413, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...(unread && { Connection: 'close' }),
  });
  if (!unread) {
    res.end(body);
    return;
  }
  res.write(body);
  let discarded = 0;
  const finish = (closeNow: boolean) => {
    clearTimeout(timer);
    req.off('data', onData).off('end', onEnd).off('close', onEnd);
    res.end();
    if (closeNow) req.socket.destroy();
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT) finish(true);
  };
  const onEnd = () => finish(false);
  const timer = setTimeout(() => finish(true), DISCARD_MS);
  req.on('data', onData).on('end', onEnd).on('close', onEnd);
  req.resume();
}
