// Safe retries: the `Idempotency-Key` header (IETF draft-ietf-httpapi-idempotency-key-header) on the requests that are
// not idempotent of themselves: every POST, and a PUT whose own status is 201 (it creates an object each time:
// GitBook's createOrganizationTeam). The engine reads the key, fingerprints the request, captures what it answered
// and replays a kept answer; where keys are kept, and whose they are, is the service's: an `IdempotencyStore`.
import { createHash } from 'node:crypto';
import type { Context as KoaContext } from 'koa';
import { RestError } from './errors.js';
import type { RouteDefinition } from './route.js';

/** What a request was answered, as its retries get it again. */
export interface KeptAnswer {
  status: number;
  /** The headers that belong to the answer (KEPT_HEADERS present), by lower-case name. */
  headers: Record<string, string>;
  /** null: no body (204). */
  body: string | null;
}

/** Where a key stands once a request has asked for it. */
export type KeyClaim =
  /** The request holds the key: it runs, then keeps its answer, or releases the key when it failed (5xx). */
  | { state: 'claimed'; keep(answer: KeptAnswer): Promise<void>; release(): Promise<void> }
  /** A request like it ran: its answer. */
  | { state: 'answered'; answer: KeptAnswer }
  /** A request like it holds the key and is still running. */
  | { state: 'running' }
  /** The key was used for another request (method, path or body). */
  | { state: 'other-request' };

/** The keys of the requests of `C`, the context the service creates for a request (which knows its caller). */
export interface IdempotencyStore<C> {
  /** Claims `key` for the caller, for the request of `fingerprint`, unless a live claim of it exists. */
  claim(context: C, key: string, fingerprint: Buffer): Promise<KeyClaim>;
}

/** 1 to 255 printable ASCII characters (spaces around it are trimmed by Node before it gets here). */
const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;

/** The headers of an answer that a replay gives again; others (X-Request-Id, rate limits) are the retry's own. */
const KEPT_HEADERS = ['content-type', 'location', 'preference-applied', 'etag'];

/** Whether a route's requests take a key: those that are not idempotent of themselves. */
export const takesIdempotencyKey = ({ method, status }: RouteDefinition): boolean =>
  method === 'POST' || (method === 'PUT' && status === 201);

/** The request's key, when it sends one; a 400 when it is out of shape. */
export function idempotencyKeyOf(ctx: KoaContext): string | undefined {
  const key = ctx.get('idempotency-key');
  if (!key && ctx.headers['idempotency-key'] === undefined) return undefined;
  if (!KEY_SHAPE.test(key)) throw new RestError(400, 'Invalid "Idempotency-Key": must be 1 to 255 printable ASCII characters.');
  return key;
}

/** What makes two requests the same: method, path with query, and body bytes. */
export function fingerprintOf(ctx: KoaContext, body: Buffer | undefined): Buffer {
  return createHash('sha256')
    .update(`${ctx.method} ${ctx.url}\n`)
    .update(body ?? Buffer.alloc(0))
    .digest();
}

/** The refusal of a claim that is not the request's. */
export function refusal(ctx: KoaContext, state: 'running' | 'other-request'): RestError {
  if (state === 'other-request') {
    return new RestError(
      422,
      'This Idempotency-Key was used for another request (method, path or body); send a new key with a new request.',
    );
  }
  ctx.set('Retry-After', '1');
  return new RestError(409, 'A request with this Idempotency-Key is still running; retry once it has finished.');
}

/**
 * Whether an answer is kept for retries: that of any request that ran, 4xx included, but a server error, and 401 and
 * 429, which say the request did not run yet: its retry may.
 */
export const isKept = (status: number): boolean => status < 500 && status !== 401 && status !== 429;

/** The answer the engine wrote, as it is kept; the body becomes the text kept, so that the first answer is a replay's. */
export function answerOf(ctx: KoaContext): KeptAnswer {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = ctx.response.get(name);
    if (value) headers[name] = String(value);
  }
  const { body } = ctx;
  const text = body === null || body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
  if (text !== null) ctx.body = text;
  return { status: ctx.status, headers, body: text };
}

/** Answers again what a request like this one was answered, saying so (`Idempotent-Replayed`). */
export function replay(ctx: KoaContext, { status, headers, body }: KeptAnswer): void {
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
  ctx.set('Idempotent-Replayed', 'true');
  ctx.status = status;
  ctx.body = body;
}
