// The API's description of itself: GET /openapi.json (OpenAPI 3.1, built from the route table by rest/openapi.ts)
// and GET /docs, a reference page (swagger-ui-dist) whose assets this service serves, so it works offline. Each is
// made on its first request, not at start-up, and served compressed with validators (src/kernel/static-assets.ts).
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Koa from 'koa';
import type { CompiledRoute } from '../rest/compile.js';
import { openApiDocument } from '../rest/openapi.js';
import type { Config } from './config.js';
import { type StaticAsset, sendStaticAsset, staticAsset } from './kernel/static-assets.js';
import { projectRoot } from './project-root.js';

const VERSION = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

const INFO = {
  title: 'Docs platform management API',
  version: VERSION,
  description:
    "GitBook-compatible REST API of a self-hosted documentation platform. Every operation keeps GitBook's operationId; " +
    'GraphQL, the same data with more, is served at /graphql.',
};

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Docs platform management API: reference</title>
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" />
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script>
      window.ui = SwaggerUIBundle({
        url: '/openapi.json',
        dom_id: '#swagger-ui',
        deepLinking: true,
        // The token stays in the page: this origin also serves tenants' integration scripts, which could read
        // whatever it left in localStorage.
        persistAuthorization: false,
        // The public validator would be a request to another host.
        validatorUrl: null,
      });
    </script>
  </body>
</html>
`;

export function apiReference(config: Config, routes: readonly CompiledRoute[]): Koa.Middleware {
  const assetsDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  /** Each made on its first request (the document from the route table, the files read) and kept compressed. */
  const made = new Map<string, Promise<StaticAsset>>();
  const asset = (key: string, make: () => Promise<StaticAsset>) => {
    let found = made.get(key);
    if (!found) {
      found = make();
      made.set(key, found);
      found.catch(() => made.delete(key));
    }
    return found;
  };
  // The document's server is the configured public URL, which may change after start-up (a port chosen by the system):
  // a document made for another URL is made again.
  let documentUrl = '';
  const document = () => {
    if (documentUrl !== config.publicUrl) made.delete('openapi.json');
    documentUrl = config.publicUrl;
    return asset('openapi.json', () => {
      const built = openApiDocument(routes, INFO);
      const body = JSON.stringify({ ...built, servers: [{ url: `${documentUrl}/v1` }] });
      return staticAsset(body, 'application/json; charset=utf-8', new Date());
    });
  };

  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/openapi.json') {
      ctx.state.route = ctx.path;
      // Asked again each time (no-cache), and answered 304 while it is the same.
      sendStaticAsset(ctx, await document(), 'no-cache');
      return;
    }
    if (ctx.path === '/docs' || ctx.path === '/docs/') {
      ctx.state.route = '/docs';
      sendStaticAsset(ctx, await asset('/docs', () => staticAsset(PAGE, 'text/html; charset=utf-8', new Date())), 'no-cache');
      return;
    }
    const name = ctx.path.startsWith('/docs/') ? ctx.path.slice('/docs/'.length) : undefined;
    if (name && Object.hasOwn(ASSETS, name)) {
      ctx.state.route = '/docs/:asset';
      const file = path.join(assetsDir, name);
      const read = async () => staticAsset(await readFile(file), ASSETS[name], (await stat(file)).mtime);
      sendStaticAsset(ctx, await asset(name, read), 'public, max-age=86400');
      return;
    }
    return next();
  };
}
