// An integration's assets (its script, icon and preview images) and where the product serves them. The bytes are kept
// in the content-addressed file storage (src/files/storage.ts), so an Integration row holds only their keys (lists
// stay light): `script` the key of the script, `icon` and each of `previewImages` `<key>.<extension>`.
//
// They are served outside /v1 and without a token, because published sites load them for anonymous visitors, under
// a versioned URL that carries a signature of the name and version (HMAC with a key derived from the instance secret):
//
//   GET <PUBLIC_URL>/integrations/<name>/v<version>/<signature>/script.js | icon.<ext> | preview-<n>.<ext>
//
// Whatever the visibility, the signature makes the URL unguessable, so a private integration's assets are reached
// only through the API (whose answers only its owner organization sees) or through pages that load them; a URL of a
// version since republished is not found. The script carries the integration's Content-Security-Policy; images a
// sandboxing one, since an SVG may hold scripts. The integration's public endpoint (`urls.publicEndpoint`) names where
// an integration runtime would answer: this server runs no integration code, and says so there (501).
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { openStoredFile, storeFiles } from '../files/storage.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Context, Services } from '../kernel/context.js';
import { type ImageExtension, imageExtensionOf } from './manifest.js';

type Integration = { name: string; version: number };
type AssetContext = Pick<Context, 'config' | 'secret'>;
type StoringContext = Pick<Context, 'files' | 'sql' | 'prisma' | 'clock' | 'config'>;

const keys = new WeakMap<Buffer, Buffer>();

/** The signing key of asset URLs, derived once per instance secret. */
function keyOf(secret: Buffer): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'integration-assets', 32));
    keys.set(secret, key);
  }
  return key;
}

const signatureOf = (secret: Buffer, name: string, version: number) =>
  createHmac('sha256', keyOf(secret)).update(`${name}\n${version}`).digest('base64url').slice(0, 22);

/** Where the assets of this version of the integration are, ending in `/`. */
export const assetsUrl = (ctx: AssetContext, integration: Integration) =>
  `${ctx.config.publicUrl}/integrations/${integration.name}/v${integration.version}/${signatureOf(ctx.secret, integration.name, integration.version)}/`;

export const scriptUrl = (ctx: AssetContext, integration: Integration) => `${assetsUrl(ctx, integration)}script.js`;

/** The URL of a stored image (`<key>.<ext>`) under a file name (`icon`, `preview-0`). */
export const imageUrl = (ctx: AssetContext, integration: Integration, stored: string, fileName: string) =>
  `${assetsUrl(ctx, integration)}${fileName}.${stored.split('.')[1]}`;

/** The endpoint an integration runtime would answer at (none here: 501). */
export const publicEndpoint = (ctx: AssetContext, name: string) => `${ctx.config.publicUrl}/integrations/${name}`;

/**
 * Stores the script and the base64 images already validated (manifest.ts imageRule), with one intent for them all;
 * answers what the row keeps: the script's key, and `<key>.<ext>` of each image.
 */
export async function storeAssets(
  ctx: StoringContext,
  assets: { script: string; icon?: string | null; previewImages?: string[] | null },
): Promise<{ script: string; icon: string | null; previewImages: string[] }> {
  const images = await Promise.all(
    [assets.icon, ...(assets.previewImages ?? [])].map(async (base64) => {
      if (!base64) return null;
      const bytes = Buffer.from(base64, 'base64');
      const extension = await imageExtensionOf(bytes);
      if (!extension) throw new Error('An image reached storage without being validated.');
      return { bytes, extension };
    }),
  );
  const present = images.filter((image) => image !== null);
  const [script, ...stored] = await storeFiles(ctx, [
    { bytes: Buffer.from(assets.script, 'utf8'), name: 'script.js', declaredType: 'text/javascript' },
    ...present.map((image) => ({ bytes: image.bytes, name: `image.${image.extension}` })),
  ]);
  let next = 0;
  const [icon, ...previewImages] = images.map((image) => image && `${stored[next++].storageKey}.${image.extension}`);
  return { script: script.storageKey, icon, previewImages: previewImages.filter((key) => key !== null) };
}

const CONTENT_TYPES: Record<ImageExtension | 'js', string> = {
  js: 'text/javascript; charset=utf-8',
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

const ASSET = /^\/integrations\/([^/]+)\/v(\d{1,9})\/([\w-]{22})\/(script\.js|icon\.(\w+)|preview-(\d)\.(\w+))$/;
const ENDPOINT = /^\/integrations\/[^/]+(?:\/installations\/[^/]+)?\/?$/;

interface Row {
  version: number;
  script: string;
  icon: string | null;
  previewImages: string[] | null;
  contentSecurityPolicy: string | null;
}

class Refusal extends Error {
  constructor(
    readonly status: 404 | 405 | 501,
    message: string,
  ) {
    super(message);
  }
}

/** The stored asset a matched path names: `<key>` or `<key>.<ext>` of the row, when the name asks for that. */
function storedAsset(row: Row, match: RegExpExecArray): { key: string; type: string } | null {
  const [, , , , file, iconExtension, preview, previewExtension] = match;
  if (file === 'script.js') return { key: row.script, type: CONTENT_TYPES.js };
  const stored = iconExtension ? row.icon : (row.previewImages ?? [])[Number(preview)];
  const [key, extension] = stored?.split('.') ?? [];
  if (!key || extension !== (iconExtension ?? previewExtension)) return null;
  return { key, type: CONTENT_TYPES[extension as ImageExtension] };
}

async function serve(services: Services, ctx: Koa.Context, match: RegExpExecArray) {
  // Names are URL-safe as they are (manifest.ts nameRule): the path segment is the name.
  const [, name, versionText, signature] = match;
  const version = Number(versionText);
  const expected = Buffer.from(signatureOf(services.secret, name, version));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Refusal(404, 'Asset not found');
  const [row] = await services.sql<Row>(
    Prisma.sql`SELECT version, script, icon, "previewImages", "contentSecurityPolicy" FROM "Integration" WHERE name = ${name}`,
  );
  if (!row || row.version !== version) throw new Refusal(404, 'Asset not found');
  const asset = storedAsset(row, match);
  const stored = asset && (await openStoredFile(services, asset.key));
  if (!asset || !stored) throw new Refusal(404, 'Asset not found');
  ctx.status = 200;
  ctx.type = asset.type;
  ctx.set('X-Content-Type-Options', 'nosniff');
  // Published sites of any origin load them.
  ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  ctx.set('Access-Control-Allow-Origin', '*');
  if (asset.type === CONTENT_TYPES.js) {
    if (row.contentSecurityPolicy) ctx.set('Content-Security-Policy', row.contentSecurityPolicy);
  } else {
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  }
  // A versioned URL's bytes never change.
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.set('ETag', `"${asset.key}"`);
  ctx.body = stored.stream();
  ctx.length = stored.size;
}

/** The Koa middleware serving integrations' assets (and answering their public endpoints with 501). */
export function integrationAssets(services: Services): Koa.Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/integrations/')) return next();
    const match = ASSET.exec(ctx.path);
    if (!match && !ENDPOINT.test(ctx.path)) return next();
    ctx.state.route = match ? '/integrations/:name/v:version/:signature/:file' : '/integrations/:name';
    try {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && match) {
        ctx.set('Allow', 'GET, HEAD');
        throw new Refusal(405, `Method ${ctx.method} is not allowed here; use GET.`);
      }
      if (!match) throw new Refusal(501, 'This server runs no integration code: only integrations’ assets are served.');
      await serve(services, ctx, match);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      ctx.status = error.status;
      ctx.body = { error: { code: error.status, message: error.message } };
    }
  };
}
