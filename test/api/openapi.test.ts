// GET /openapi.json (the service's OpenAPI 3.1 document, built from the route table) and GET /docs (its offline
// reference page). Response bodies are checked against the document in every domain's tests too: expectMatchesSpec
// validates each body against GitBook's spec and ours (test/support/openapi.ts).
import { compileErrors, validate } from '@readme/openapi-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { restModules } from '../../src/schema.js';
import { useApi } from '../support/app.js';

const { t } = useApi();
let document: any;
beforeAll(async () => {
  const res = await t.request('GET', '/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  document = res.body;
});

const routes = restModules.flatMap((module) => module.routes);
const specPath = (path: string) => path.replace(/^\/v1/, '').replace(/:(\w+)/g, '{$1}') || '/';

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, served without a token, whose server is this service’s /v1', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: `${t.url}/v1` }]);
    const result = await validate(structuredClone(document));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('lists exactly the routes of the route table, under their GitBook operationIds', () => {
    const documented = Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      ([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`),
    );
    expect(documented.sort()).toEqual(routes.map((r) => `${r.method} ${specPath(r.path)} ${r.name}`).sort());
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    'describes %s: its parameters, body, success and errors',
    (_, route) => {
      const operation = document.paths[specPath(route.path)][route.method.toLowerCase()];
      const pathParameters = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const inPath = (operation.parameters ?? []).filter((p: { in: string }) => p.in === 'path');
      expect(inPath.map((p: { name: string }) => p.name).sort()).toEqual(pathParameters.sort());
      for (const parameter of inPath) expect(parameter.required).toBe(true);
      expect(Boolean(operation.requestBody)).toBe(Boolean(route.field?.includes('$body')));
      expect(Object.keys(operation.responses)).toContain(String(route.status));
      expect(operation.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
      if (pathParameters.length) expect(operation.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
      const success = operation.responses[String(route.status)];
      if (route.status === 204 || route.status === 205) expect(success.content).toBeUndefined();
      else expect(success.content['application/json'].schema).toBeDefined();
    },
  );

  it('spells enums and names fields as REST does, and requires what the writer always writes', () => {
    const { schemas } = document.components;
    expect(schemas.Space.properties.visibility.enum).toContain('in-collection');
    expect(schemas.Space.properties.organization).toMatchObject({ type: 'string' });
    expect(schemas.Space.required).toEqual(expect.arrayContaining(['object', 'id', 'title', 'visibility', 'urls']));
    expect(schemas.Space.additionalProperties).toBe(false);
    expect(schemas.CreateSpaceInput.properties).toHaveProperty('title');
  });

  it('describes the rate-limit headers, 429 and the error shape', () => {
    expect(document.components.responses.TooManyRequests.headers).toHaveProperty('Retry-After');
    expect(document.components.schemas.Error.required).toEqual(['error']);
    expect(document.security).toEqual([{ bearerAuth: [] }]);
  });
});

describe('GET /docs', () => {
  it('is a reference page whose scripts and styles this service serves', async () => {
    const page = await t.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/docs\//);
      const res = await t.request('GET', asset);
      expect(res.status, asset).toBe(200);
      expect(Number(res.headers.get('content-length'))).toBeGreaterThan(100);
    }
    expect(page.text).toContain("url: '/openapi.json'");
    expect((await t.request('GET', '/docs/../package.json')).status).toBe(404);
    expect((await t.request('GET', '/docs/index.html')).status).toBe(404);
  });
});
