// Processing OpenAPI specifications in the background: sources served by a web server run by the test (loopback
// allowed) go pending -> progress -> complete; a valid OpenAPI 3.1 JSON, 3.0 YAML or Swagger 2.0 document becomes a
// version whose filesystem holds every file its external $refs reach; an invalid one, a slow one, a too large one and
// a missing one fail with PARSE_ERROR, FETCH_TIMEOUT, FETCH_ERROR and FETCH_ERROR, keeping the latest version (a TCP
// server that accepts and never answers, or stalls its body, is a FETCH_TIMEOUT too; one that hangs up a FETCH_ERROR); a
// refresh creates a version only when the content changed; the scheduler refreshes URL sources an hour after their last
// processing; text sources work the same, without a URL to resolve relative references against.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshOpenAPISpecs } from '../../src/openapi/processing.js';
import { processingLimits } from '../../src/openapi/source.js';
import { useApi } from '../support/app.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { until } from '../support/until.js';
import { petstore31 } from './fixtures.js';

const PETSTORE_30_YAML = `openapi: 3.0.3
info:
  title: Petstore YAML
  version: '2'
paths:
  /pets/{petId}:
    get:
      parameters:
        - name: petId
          in: path
          required: true
          schema: { type: string }
      responses:
        '200':
          description: A pet
`;

const SWAGGER_20 = {
  swagger: '2.0',
  info: { title: 'Old petstore', version: '1' },
  basePath: '/v1',
  paths: { '/pets': { get: { responses: { '200': { description: 'ok' } } } } },
};

/** The entry file of a spec in three files: its schema in schemas/, which takes a type from a file beside it. */
const MULTI_MAIN = `openapi: 3.0.3
info: { title: Multi, version: '1' }
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: 'schemas/pet.yaml#/Pet' }
`;
const MULTI_PET = `Pet:
  type: object
  properties:
    id: { $ref: 'common.json#/Id' }
    name: { type: string }
`;
const MULTI_COMMON = '{"Id": {"type": "integer", "format": "int64"}}';

/** What /mutable.json serves: changed by the tests. */
let mutable = JSON.stringify(petstore31('Mutable 1'));

const files: Record<string, () => { type: string; body: string }> = {
  '/petstore-3.1.json': () => ({ type: 'application/json', body: JSON.stringify(petstore31()) }),
  '/petstore-3.0.yaml': () => ({ type: 'application/yaml', body: PETSTORE_30_YAML }),
  '/swagger-2.0.json': () => ({ type: 'application/json', body: JSON.stringify(SWAGGER_20) }),
  '/invalid.yaml': () => ({ type: 'application/yaml', body: 'openapi: 3.1.0\npaths: {}\n' }),
  '/not-a-spec.html': () => ({ type: 'text/html', body: '<html><body>Hello</body></html>' }),
  '/multi/main.yaml': () => ({ type: 'application/yaml', body: MULTI_MAIN }),
  '/multi/schemas/pet.yaml': () => ({ type: 'application/yaml', body: MULTI_PET }),
  '/multi/schemas/common.json': () => ({ type: 'application/json', body: MULTI_COMMON }),
  '/mutable.json': () => ({ type: 'application/json', body: mutable }),
};

let server: http.Server;
let origin: string;
const requested: string[] = [];

/** Raw TCP servers that answer a request badly, by how: their base URLs, and every socket they accepted. */
const tcpSockets = new Set<net.Socket>();
const tcpServers: net.Server[] = [];
const tcpOrigins: Record<'silent' | 'stalling' | 'hangingUp', string> = { silent: '', stalling: '', hangingUp: '' };
async function tcpServer(name: keyof typeof tcpOrigins, onRequest: (socket: net.Socket) => void) {
  const tcp = net.createServer((socket) => {
    tcpSockets.add(socket);
    socket.once('data', () => onRequest(socket));
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  tcpServers.push(tcp);
  tcpOrigins[name] = `http://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://test').pathname;
    requested.push(path);
    const file = files[path]?.();
    if (file) return res.writeHead(200, { 'content-type': file.type }).end(file.body);
    if (path === '/moved.json') return res.writeHead(302, { location: '/petstore-3.1.json' }).end();
    if (path === '/slow.json') return; // never answers
    if (path === '/large.json') {
      // Just over the cap, announced: refused before the body is read.
      const size = processingLimits.maxBytes + 1;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': size });
      return res.end(Buffer.alloc(size, ' '));
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await tcpServer('silent', () => {});
  await tcpServer('stalling', (socket) =>
    socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"openapi": "3.1.0",'),
  );
  await tcpServer('hangingUp', (socket) => socket.destroy());
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  for (const socket of tcpSockets) socket.destroy();
  for (const tcp of tcpServers) tcp.close();
});

describe('processing OpenAPI specifications', () => {
  const { t, world } = useApi({ world: true, jobs: 1, env: { ALLOW_PRIVATE_NETWORK: 'true', FETCH_IDLE_TIMEOUT_SECONDS: '1' } });
  let org: string;
  const defaultTimeout = processingLimits.fetchTimeoutMs;

  beforeAll(() => {
    processingLimits.fetchTimeoutMs = 500;
    org = world.organizationId;
  });
  afterAll(() => {
    processingLimits.fetchTimeoutMs = defaultTimeout;
  });

  const client = () => gitbookClient('0202', t.url, world.admin.token);
  const specPath = (slug: string) => `/v1/orgs/${org}/openapi/${slug}`;
  const get = (path: string) => t.request('GET', path, { token: world.admin.token });
  /** The spec once its processing is complete. */
  const processed = async (slug: string) => {
    const res = await until(
      () => get(specPath(slug)),
      (r) => r.body?.processingState === 'complete',
    );
    expect(res.body.processingState, res.text).toBe('complete');
    return res.body;
  };
  const create = async (slug: string, source: { url: string } | { text: string }) => {
    const res = await client().orgs.createOpenApiSpec(org, { slug, source });
    expect(res.status).toBe(201);
    expectMatchesSpec('0202', 'POST', '/orgs/{organizationId}/openapi', 201, res.data);
    expect(res.data.processingState).toBe('pending');
    return res.data;
  };

  it('turns a valid OpenAPI 3.1 JSON source into a version: pending, then complete, with its content and raw text', async () => {
    const url = `${origin}/petstore-3.1.json`;
    const created = await create('petstore', { url });
    expect(created.lastVersion).toBeUndefined();
    expect(created.sourceURL).toBe(url);

    const spec = await processed('petstore');
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(spec.lastProcessedErrorCount).toBe(0);
    expect(spec.lastProcessedAt).toBe(t.clock.now().toISOString());
    expect(spec.lastVersion).toEqual(expect.any(String));

    const api = client();
    const latest = await api.orgs.getLatestOpenApiSpecVersion(org, 'petstore');
    expectMatchesSpec('0202', 'GET', '/orgs/{organizationId}/openapi/{specSlug}/versions/latest', 200, latest.data);
    expect(latest.data).toMatchObject({ object: 'openapi-spec-version', id: spec.lastVersion, url });
    expect(latest.data.urls.location).toBe(`${t.url}${specPath('petstore')}/versions/${spec.lastVersion}`);

    const content = await api.orgs.getLatestOpenApiSpecVersionContent(org, 'petstore');
    expectMatchesSpec('0202', 'GET', '/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content', 200, content.data);
    expect(content.data).toEqual({ filesystem: { 'petstore-3.1.json': petstore31() }, urls: { source: url, public: null } });

    const raw = await api.orgs.getLatestOpenApiSpecVersionContentRaw(org, 'petstore');
    expectMatchesDocument0202Raw(raw.data);
    expect(raw.data).toEqual({ text: JSON.stringify(petstore31()), format: 'json' });

    const byId = await api.orgs.getOpenApiSpecVersionById(org, 'petstore', spec.lastVersion);
    expectMatchesSpec('0202', 'GET', '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}', 200, byId.data);
    expect(byId.data).toEqual(latest.data);
    const contentById = await api.orgs.getOpenApiSpecVersionContentById(org, 'petstore', spec.lastVersion);
    expectMatchesSpec('0202', 'GET', '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content', 200, contentById.data);
    expect(contentById.data).toEqual(content.data);
  });

  function expectMatchesDocument0202Raw(body: unknown) {
    expectMatchesSpec('0202', 'GET', '/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content/raw', 200, body);
  }

  it('reads OpenAPI 3.0 YAML and Swagger 2.0, and follows redirects to the source', async () => {
    await create('yaml', { url: `${origin}/petstore-3.0.yaml` });
    await create('swagger', { url: `${origin}/swagger-2.0.json` });
    await create('moved', { url: `${origin}/moved.json` });
    for (const slug of ['yaml', 'swagger', 'moved']) expect((await processed(slug)).lastProcessErrorCode).toBeUndefined();

    const raw = await get(`${specPath('yaml')}/versions/latest/content/raw`);
    expect(raw.body).toEqual({ text: PETSTORE_30_YAML, format: 'yaml' });
    const yaml = await get(`${specPath('yaml')}/versions/latest/content`);
    expect(yaml.body.filesystem['petstore-3.0.yaml'].info).toEqual({ title: 'Petstore YAML', version: '2' });
    const swagger = await get(`${specPath('swagger')}/versions/latest/content`);
    expect(swagger.body.filesystem).toEqual({ 'swagger-2.0.json': SWAGGER_20 });
    // Named after the file that answered, against which its references resolve.
    const moved = await get(`${specPath('moved')}/versions/latest/content`);
    expect(moved.body).toEqual({
      filesystem: { 'petstore-3.1.json': petstore31() },
      urls: { source: `${origin}/moved.json`, public: null },
    });
  });

  it('resolves external $refs relative to the file that holds them, every file in the filesystem', async () => {
    await create('multi', { url: `${origin}/multi/main.yaml` });
    expect((await processed('multi')).lastProcessErrorCode).toBeUndefined();
    const content = await get(`${specPath('multi')}/versions/latest/content`);
    expect(Object.keys(content.body.filesystem).sort()).toEqual(['main.yaml', 'schemas/common.json', 'schemas/pet.yaml']);
    expect(content.body.filesystem['schemas/pet.yaml'].Pet.properties.id).toEqual({ $ref: 'common.json#/Id' });
    expect(content.body.filesystem['schemas/common.json']).toEqual(JSON.parse(MULTI_COMMON));
    // The raw content is the entry file's.
    expect((await get(`${specPath('multi')}/versions/latest/content/raw`)).body).toEqual({ text: MULTI_MAIN, format: 'yaml' });
  });

  it.each([
    ['invalid', '/invalid.yaml', 'PARSE_ERROR', /info/],
    ['html', '/not-a-spec.html', 'PARSE_ERROR', /not valid JSON or YAML|not a JSON or YAML object/],
    ['slow', '/slow.json', 'FETCH_TIMEOUT', /^TIMEOUT: .* did not answer within 500 ms/],
    ['large', '/large.json', 'FETCH_ERROR', /^TOO_LARGE: /],
    ['missing', '/missing.json', 'FETCH_ERROR', /^HTTP_STATUS: .* answered 404/],
  ])('fails a %s source with %s, and no version', async (slug, path, code, message) => {
    await create(slug, { url: `${origin}${path}` });
    const spec = await processed(slug);
    expect(spec.lastProcessErrorCode).toBe(code);
    expect(spec.lastProcessedErrorCount).toBeGreaterThanOrEqual(1);
    expect(spec.lastProcessedErrors[0].message).toMatch(message);
    expect(spec.lastVersion).toBeUndefined();
    expectMatchesSpec('0202', 'GET', '/orgs/{organizationId}/openapi/{specSlug}', 200, spec);
    const latest = await get(`${specPath(slug)}/versions/latest`);
    expect(latest.status).toBe(404);
    expect(latest.body.error.message).toBe('OpenAPI specification version not found');
    expect((await get(`${specPath(slug)}/versions`)).body).toEqual({ items: [], count: 0 });
  });

  it('fails a source that accepts and never answers, or stalls its body, with FETCH_TIMEOUT; one that hangs up with FETCH_ERROR', async () => {
    // The processing's own timeout is the longer here: the fetcher's idle timeout (FETCH_IDLE_TIMEOUT_SECONDS=1) ends
    // each wait first, as it does with the defaults (10 s idle, 15 s a file).
    processingLimits.fetchTimeoutMs = 60_000;
    try {
      for (const [slug, name, code, message] of [
        ['never-answers', 'silent', 'FETCH_TIMEOUT', /^TIMEOUT: http:\/\/127\.0\.0\.1:\d+ did not answer within 1000 ms\.$/],
        ['stalls', 'stalling', 'FETCH_TIMEOUT', /^TIMEOUT: http:\/\/127\.0\.0\.1:\d+ sent nothing more for 1000 ms\.$/],
        ['hangs-up', 'hangingUp', 'FETCH_ERROR', /^NETWORK: http:\/\/127\.0\.0\.1:\d+ could not be reached/],
      ] as const) {
        await create(slug, { url: `${tcpOrigins[name]}/openapi.json` });
        const spec = await processed(slug);
        expectMatchesSpec('0202', 'GET', '/orgs/{organizationId}/openapi/{specSlug}', 200, spec);
        expect(spec.lastProcessErrorCode, slug).toBe(code);
        expect(spec.lastProcessedErrors[0].message, slug).toMatch(message);
      }
    } finally {
      processingLimits.fetchTimeoutMs = 500;
    }
  });

  it('fails a spec whose $ref leads to a missing file with FETCH_ERROR', async () => {
    const text = JSON.stringify({
      ...petstore31(),
      components: { schemas: { Pet: { $ref: `${origin}/gone.json#/Pet` } } },
    });
    await create('dangling', { text });
    const spec = await processed('dangling');
    expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR');
  });

  it('creates a version only when the content changed, and keeps the latest when a refresh fails', async () => {
    const url = `${origin}/mutable.json`;
    const put = (status: number) =>
      client()
        .orgs.createOrUpdateOpenApiSpecBySlug(org, 'mutable', { source: { url } })
        .then((res) => {
          expect(res.status).toBe(status);
          expectMatchesSpec('0202', 'PUT', '/orgs/{organizationId}/openapi/{specSlug}', status, res.data);
          return res.data;
        });
    const created = await put(201);
    expect(created.processingState).toBe('pending');
    const first = (await processed('mutable')).lastVersion;

    t.clock.advanceMs(60_000);
    expect((await put(200)).processingState).toBe('pending');
    const unchanged = await processed('mutable');
    expect(unchanged.lastVersion).toBe(first);
    expect(unchanged.lastProcessedAt).toBe(t.clock.now().toISOString());

    mutable = JSON.stringify(petstore31('Mutable 2'));
    t.clock.advanceMs(60_000);
    await put(200);
    const changed = await processed('mutable');
    expect(changed.lastVersion).not.toBe(first);

    mutable = '{"openapi": "3.1.0"';
    t.clock.advanceMs(60_000);
    await put(200);
    const failed = await processed('mutable');
    expect(failed.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(failed.lastVersion).toBe(changed.lastVersion);
    const content = await get(`${specPath('mutable')}/versions/latest/content`);
    expect(content.body.filesystem['mutable.json'].info.title).toBe('Mutable 2');

    const versions = await client().orgs.listOpenApiSpecVersions(org, 'mutable');
    expectMatchesSpec('0202', 'GET', '/orgs/{organizationId}/openapi/{specSlug}/versions', 200, versions.data);
    expect(versions.data.items.map((version) => version.id)).toEqual([changed.lastVersion, first]);
    expect(versions.data.count).toBe(2);
    // Each new version is recorded by the job, as the system; the unchanged and failed runs record none.
    const recorded = await t.prisma.auditEvent.findMany({
      where: { targetId: created.id, action: 'openapi_spec_version_created' },
      orderBy: { occurredAt: 'asc' },
    });
    expect(recorded.map((event) => [event.actorType, event.source, (event.payload as { versionId: string }).versionId])).toEqual([
      ['system', 'workflow', first],
      ['system', 'workflow', changed.lastVersion],
    ]);
  });

  it('refreshes URL sources on the scheduler’s tick once processed over an hour ago, text sources never', async () => {
    mutable = JSON.stringify(petstore31('Scheduled 1'));
    await create('scheduled', { url: `${origin}/mutable.json` });
    await create('scheduled-text', { text: JSON.stringify(petstore31('Text')) });
    const before = await processed('scheduled');
    await processed('scheduled-text');

    mutable = JSON.stringify(petstore31('Scheduled 2'));
    const jobs = () => t.prisma.backgroundJob.count({ where: { kind: 'openapi-process' } });
    const queued = await jobs();
    await refreshOpenAPISpecs(t.app.services);
    expect(await jobs()).toBe(queued);
    expect((await get(specPath('scheduled'))).body.processingState).toBe('complete');

    t.clock.advanceMs(61 * 60_000);
    const fetched = requested.length;
    await refreshOpenAPISpecs(t.app.services);
    const refreshed = await processed('scheduled');
    expect(refreshed.lastProcessedAt).toBe(t.clock.now().toISOString());
    expect(refreshed.lastVersion).not.toBe(before.lastVersion);
    expect(requested.slice(fetched)).toContain('/mutable.json');
    const text = (await get(specPath('scheduled-text'))).body;
    expect(text.lastProcessedAt).not.toBe(t.clock.now().toISOString());
  });

  it('processes a text source, whose version URL is its content in the API; relative and file $refs are refused', async () => {
    await create('text-yaml', { text: PETSTORE_30_YAML });
    const spec = await processed('text-yaml');
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(spec.sourceURL).toBeUndefined();
    const latest = await get(`${specPath('text-yaml')}/versions/latest`);
    expect(latest.body.url).toBe(`${t.url}${specPath('text-yaml')}/versions/${spec.lastVersion}/content`);
    const content = await get(`${specPath('text-yaml')}/versions/latest/content`);
    expect(Object.keys(content.body.filesystem)).toEqual(['openapi.yaml']);
    expect(content.body.urls.source).toBe(latest.body.url);
    expect((await get(`${specPath('text-yaml')}/versions/latest/content/raw`)).body).toEqual({ text: PETSTORE_30_YAML, format: 'yaml' });

    const local = JSON.stringify({ ...petstore31(), components: { schemas: { Secret: { $ref: 'file:///etc/passwd' } } } });
    await create('text-file', { text: local });
    const file = await processed('text-file');
    expect(file.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(file.lastProcessedErrors[0].message).toMatch(/not an http or https reference/);

    await create('text-relative', { text: MULTI_MAIN });
    const relative = await processed('text-relative');
    expect(relative.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(relative.lastProcessedErrors[0].message).toMatch(/relative/);
  });
});
