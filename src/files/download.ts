// Downloading a file's bytes: every File's `downloadURL` is a signed, expiring address served here, outside /v1 and
// without a token (the signature is the credential, as with GitBook's own file URLs):
//
//   GET <PUBLIC_URL>/files/<storageKey>?name=<file name>&type=<content type>&space=<space id>&expires=<epoch seconds>&signature=<HMAC>
//
// The signature (HMAC-SHA256 with a key derived from the instance secret for this purpose only) covers the key, name,
// type, space and expiry, so none of them can be changed. A link lives DOWNLOAD_LINK_MINUTES (minted per request, after
// the API's access check), and names the space the bytes were reached through: once that space is deleted, its links
// stop working. Refusals: 403 for a bad or expired signature, 404 for bytes that are not stored or a space deleted. The answer carries the bytes with their type and length, as an attachment unless the type is one a
// browser shows without running anything, and a sandboxing Content-Security-Policy either way. On the S3 backend with
// S3_PRESIGNED_DOWNLOADS=true, the answer is instead a redirect (302) to a presigned address of the object.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { Prisma } from '../generated/prisma/client.js';
import type { Context, Services } from '../kernel/context.js';
import { deriveKey } from '../kernel/secrets.js';
import { openStoredFile, STORAGE_KEY } from './storage.js';

const ROUTE = '/files/:storageKey';
const PATH = /^\/files\/([^/]+)$/;

const HOUR_MS = 60 * 60 * 1000;
/** How long a presigned address of the object store lives: long enough to follow a redirect. */
const PRESIGNED_SECONDS = 60;

/** Types shown inline: images, audio, video, PDF and plain text, which run nothing in the page that opens them. */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf|text\/plain)$/;

const keys = new WeakMap<Buffer, Buffer>();

/** The signing key of download URLs, derived once per instance secret. */
function keyOf(secret: Buffer): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = deriveKey(secret, 'file-download');
    keys.set(secret, key);
  }
  return key;
}

const signatureOf = (secret: Buffer, storageKey: string, name: string, type: string, space: string, expires: number) =>
  createHmac('sha256', keyOf(secret))
    .update(JSON.stringify([storageKey, name, type, space, expires]))
    .digest('base64url');

/**
 * When a link minted now for `lifetimeMs` expires, in epoch seconds. Links stay the same within a step (an hour, or a
 * twelfth of a shorter lifetime), so clients and caches can reuse them: a link works for its lifetime and at most one
 * step more.
 */
export function linkExpiry(ctx: Pick<Context, 'clock'>, lifetimeMs: number): number {
  const step = Math.min(HOUR_MS, lifetimeMs / 12);
  return Math.ceil((Math.floor(ctx.clock.now().getTime() / step) * step + lifetimeMs + step) / 1000);
}

/**
 * The signed download URL of a file's bytes reached through a space, valid for `lifetimeMs` from now at least
 * (DOWNLOAD_LINK_MINUTES unless told).
 */
export function downloadUrl(
  ctx: Pick<Context, 'config' | 'secret' | 'clock'>,
  file: { storageKey: string; name: string; contentType: string },
  spaceId: string,
  lifetimeMs = ctx.config.downloadLinkMinutes * 60_000,
): string {
  const expires = linkExpiry(ctx, lifetimeMs);
  const query = new URLSearchParams({
    name: file.name,
    type: file.contentType,
    space: spaceId,
    expires: String(expires),
    signature: signatureOf(ctx.secret, file.storageKey, file.name, file.contentType, spaceId, expires),
  });
  return `${ctx.config.publicUrl}/files/${file.storageKey}?${query}`;
}

class Refusal extends Error {
  constructor(
    readonly status: 403 | 404 | 405,
    message: string,
  ) {
    super(message);
  }
}

/** The signed fields of a request, or a refusal: 403 for a missing, bad or expired signature. */
function verified(services: Services, storageKey: string, query: Koa.Context['query']) {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
  const [name, type, space] = [text('name'), text('type'), text('space')];
  const [expiresText, signature] = [text('expires'), text('signature')];
  if (name === undefined || type === undefined || !space || !expiresText || !/^\d{1,12}$/.test(expiresText) || !signature) {
    throw new Refusal(403, 'This download link is incomplete.');
  }
  const expires = Number(expiresText);
  const expected = Buffer.from(signatureOf(services.secret, storageKey, name, type, space, expires));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new Refusal(403, 'This download link is not valid.');
  }
  if (expires * 1000 <= services.clock.now().getTime()) throw new Refusal(403, 'This download link has expired.');
  return { name, type, space, expires };
}

async function serve(services: Services, ctx: Koa.Context, storageKey: string) {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    ctx.set('Allow', 'GET, HEAD');
    throw new Refusal(405, `Method ${ctx.method} is not allowed here; use GET.`);
  }
  if (!STORAGE_KEY.test(storageKey)) throw new Refusal(404, 'File not found');
  const { name, type, space, expires } = verified(services, storageKey, ctx.query);
  const [live] = await services.sql<{ id: string }>(Prisma.sql`SELECT id FROM "Space" WHERE id = ${space} AND "deletedAt" IS NULL`);
  const stored = live && (await openStoredFile(services, storageKey));
  if (!stored) throw new Refusal(404, 'File not found');
  const inline = INLINE.test(type);
  // On S3 with presigned downloads, the client fetches the bytes from the store, by an address minted now, after the
  // checks above, that lives a minute.
  const presigned = await services.files.presignedUrl(storageKey, { name, contentType: type, inline, seconds: PRESIGNED_SECONDS });
  if (presigned) {
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(presigned);
    return;
  }
  ctx.status = 200;
  // Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266), through Koa's own helper.
  ctx.attachment(name, { type: inline ? 'inline' : 'attachment' });
  ctx.type = type;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  // The bytes under a key never change: the key is their ETag, and they may be kept until the link expires.
  ctx.set('ETag', `"${storageKey}"`);
  ctx.set('Cache-Control', `private, max-age=${Math.max(0, Math.floor(expires - services.clock.now().getTime() / 1000))}, immutable`);
  ctx.body = stored.stream();
  ctx.length = stored.size;
}

export function fileDownloads(services: Services): Koa.Middleware {
  return async (ctx, next) => {
    const match = PATH.exec(ctx.path);
    if (!match) return next();
    ctx.state.route = ROUTE;
    try {
      await serve(services, ctx, match[1]);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      ctx.status = error.status;
      ctx.body = { error: { code: error.status, message: error.message } };
    }
  };
}
