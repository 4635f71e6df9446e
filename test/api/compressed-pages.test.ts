// GraphiQL's page (~9 MB) and the API reference (its page, Swagger UI's script and styles, /openapi.json) are served
// compressed, Brotli or gzip as the client accepts, and as they are to a client that accepts neither, with an ETag and
// Last-Modified: a client whose copy is current gets 304 and no body. Read with node's own HTTP client, which shows the
// bytes as they travel (fetch would decompress them).
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useApi } from '../support/app.js';
import { rawRequest } from '../support/raw-http.js';

const { t } = useApi();

const PAGES: { name: string; path: string; headers: Record<string, string>; type: string; holds: string }[] = [
  { name: "GraphiQL's page", path: '/graphql', headers: { accept: 'text/html' }, type: 'text/html; charset=utf-8', holds: 'GraphiQL' },
  { name: 'the API reference', path: '/docs', headers: {}, type: 'text/html; charset=utf-8', holds: 'SwaggerUIBundle' },
  {
    name: "Swagger UI's script",
    path: '/docs/swagger-ui-bundle.js',
    headers: {},
    type: 'text/javascript; charset=utf-8',
    holds: 'SwaggerUIBundle',
  },
  { name: "Swagger UI's styles", path: '/docs/swagger-ui.css', headers: {}, type: 'text/css; charset=utf-8', holds: '.swagger-ui' },
  { name: 'the OpenAPI document', path: '/openapi.json', headers: {}, type: 'application/json; charset=utf-8', holds: '"openapi":"3.1.0"' },
];

describe.each(PAGES)('$name', ({ path, headers, type, holds }) => {
  const get = (extra: Record<string, string> = {}) => rawRequest(t.url, { method: 'GET', path, headers: { ...headers, ...extra } });

  it('is Brotli or gzip to a client that accepts it, and as it is to one that does not, each with its ETag', async () => {
    const plain = await get();
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe(type);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toContain(holds);

    const brotli = await get({ 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.bytes).equals(plain.bytes)).toBe(true);
    expect(Number(brotli.headers['content-length'])).toBe(brotli.bytes.length);

    const gzip = await get({ 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.bytes).equals(plain.bytes)).toBe(true);

    for (const answer of [plain, brotli, gzip]) {
      expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
      expect(answer.headers['last-modified']).toBe(plain.headers['last-modified']);
      expect(new Date(answer.headers['last-modified']!).getTime()).toBeLessThanOrEqual(Date.now());
    }
    // One representation, one ETag; the same again on the next request (it was made once and kept).
    expect(new Set([plain, brotli, gzip].map((answer) => answer.headers.etag)).size).toBe(3);
    expect((await get({ 'accept-encoding': 'br' })).headers.etag).toBe(brotli.headers.etag);
  });

  it('answers 304 without a body to a client whose copy is current, and the whole body otherwise', async () => {
    const first = await get({ 'accept-encoding': 'br' });
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const current = await get({ 'accept-encoding': 'br', 'if-none-match': etag });
    expect(current.status).toBe(304);
    expect(current.bytes.length).toBe(0);
    expect(current.headers.etag).toBe(etag);

    const byDate = await get({ 'accept-encoding': 'br', 'if-modified-since': first.headers['last-modified']! });
    expect(byDate.status).toBe(304);

    const stale = await get({ 'accept-encoding': 'br', 'if-none-match': '"another"' });
    expect(stale.status).toBe(200);
    expect(stale.bytes.equals(first.bytes)).toBe(true);
    // The gzip copy's ETag is not the Brotli copy's: a cache holding one is not sent 304 for the other.
    expect((await get({ 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(200);
  });
});

it("GraphiQL's page travels at under a third of its size", async () => {
  const plain = await rawRequest(t.url, { method: 'GET', path: '/graphql', headers: { accept: 'text/html' } });
  const brotli = await rawRequest(t.url, { method: 'GET', path: '/graphql', headers: { accept: 'text/html', 'accept-encoding': 'br' } });
  expect(plain.bytes.length).toBeGreaterThan(5_000_000);
  expect(brotli.bytes.length).toBeLessThan(plain.bytes.length / 3);
});

it('names the public URL of the moment as the OpenAPI document’s server', async () => {
  const document = await rawRequest(t.url, { method: 'GET', path: '/openapi.json' });
  expect(document.body.servers).toEqual([{ url: `${t.url}/v1` }]);
});
