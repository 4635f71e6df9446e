// The API's description of itself: GET /openapi.json (OpenAPI 3.1, built from the route table by rest/openapi.ts)
// and GET /docs, a reference page (swagger-ui-dist) whose assets this service serves, so it works offline.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Koa from 'koa';
import type { CompiledRoute } from '../rest/compile.js';
import { openApiDocument } from '../rest/openapi.js';
import type { Config } from './config.js';
import { projectRoot } from './project-root.js';

const VERSION = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

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
  const document = openApiDocument(routes, {
    title: 'Docs platform management API',
    version: VERSION,
    description:
      "GitBook-compatible REST API of a self-hosted documentation platform. Every operation keeps GitBook's operationId; " +
      'GraphQL, the same data with more, is served at /graphql.',
  });
  const assetsDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const assets = new Map<string, Buffer>();
  const assetOf = (name: string) => {
    let content = assets.get(name);
    if (!content) {
      content = readFileSync(path.join(assetsDir, name));
      assets.set(name, content);
    }
    return content;
  };

  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/openapi.json') {
      ctx.state.route = ctx.path;
      // The server is the configured public URL, which may change after start-up (a port chosen by the system).
      ctx.body = { ...document, servers: [{ url: `${config.publicUrl}/v1` }] };
      return;
    }
    if (ctx.path === '/docs' || ctx.path === '/docs/') {
      ctx.state.route = '/docs';
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
      return;
    }
    const asset = ctx.path.startsWith('/docs/') ? ctx.path.slice('/docs/'.length) : undefined;
    if (asset && Object.hasOwn(ASSETS, asset)) {
      ctx.state.route = '/docs/:asset';
      ctx.type = ASSETS[asset];
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = assetOf(asset);
      return;
    }
    return next();
  };
}
