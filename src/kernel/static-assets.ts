// Large bodies that stay the same while the process runs (GraphiQL's page, the API reference's scripts and document),
// compressed once and kept compressed: gzip and Brotli, made on the thread pool when first asked for, each sent to
// the clients that accept it (Accept-Encoding), and inflated as it goes out for a client that accepts neither. Each
// carries validators, an ETag (a hash of its bytes, one per encoding) and Last-Modified, so that a browser asks again
// with If-None-Match (or If-Modified-Since) and gets 304 with no body.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type Koa from 'koa';

export interface StaticAsset {
  type: string;
  /** A hash of the uncompressed bytes: the ETag, with the encoding appended for a compressed one. */
  hash: string;
  lastModified: Date;
  gzip: Buffer;
  br: Buffer;
}

const ENCODINGS = ['br', 'gzip'] as const;
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * The body compressed both ways. Brotli's quality 6 and gzip's level 6: GraphiQL's 8.5 MB page takes about a second
 * of one core each way; quality 11 would take 35 seconds to save another 10%.
 */
export async function staticAsset(body: string | Buffer, type: string, lastModified: Date): Promise<StaticAsset> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const [zipped, brotlied] = await Promise.all([
    gzip(bytes, { level: 6 }),
    brotli(bytes, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
  ]);
  // HTTP dates have whole seconds: a Last-Modified with milliseconds would never equal an If-Modified-Since.
  const seconds = new Date(Math.floor(lastModified.getTime() / 1000) * 1000);
  return { type, hash: createHash('sha256').update(bytes).digest('base64url'), lastModified: seconds, gzip: zipped, br: brotlied };
}

/**
 * Answers a GET or HEAD with the asset, Brotli to a client that accepts it (the smaller), else gzip, else as it is; or
 * 304 when the client's copy is current.
 */
export function sendStaticAsset(ctx: Koa.Context, asset: StaticAsset, cacheControl: string): void {
  const encoding = ENCODINGS.find((candidate) => ctx.acceptsEncodings(candidate) === candidate) ?? 'identity';
  ctx.status = 200;
  ctx.vary('Accept-Encoding');
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', encoding === 'identity' ? `"${asset.hash}"` : `"${asset.hash}-${encoding}"`);
  ctx.lastModified = asset.lastModified;
  ctx.type = asset.type;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  if (encoding === 'identity') {
    ctx.body = Readable.from([asset.gzip]).pipe(zlib.createGunzip());
    return;
  }
  ctx.set('Content-Encoding', encoding);
  ctx.body = encoding === 'br' ? asset.br : asset.gzip;
}
