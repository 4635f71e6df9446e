// The OpenAPI specification endpoints: creating (201, pending, its processing queued), creating or replacing by slug
// (201 or 200), reading, listing (by slug, paged, statements constant in the page size), deleting (205, or 204 when
// there was none), and the versions (paged, newest first, statements constant in the page size; the latest; by id;
// content and raw content), through GitBook's 0.202.0 client and spec; limits; who may do what, across organizations.
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/app.js';
import { buildOrganization } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { buildSpec, petstore31 } from './fixtures.js';

const SPECS = '/orgs/{organizationId}/openapi';
const SPEC = `${SPECS}/{specSlug}`;

const { t, world } = useApi({ world: true });
let org: string;
beforeAll(() => {
  org = world.organizationId;
});

const specs = (organizationId = org) => `/v1/orgs/${organizationId}/openapi`;
const spec = (slug: string, organizationId = org) => `${specs(organizationId)}/${slug}`;
const source = { url: 'https://example.com/openapi.json' };

describe('creating, replacing and deleting specs', () => {
  it('creates a spec pending its processing, whose job is queued in its own queue', async () => {
    const api = gitbookClient('0202', t.url, world.creator.token);
    const res = await api.orgs.createOpenApiSpec(org, { slug: 'created', source });
    expect(res.status).toBe(201);
    expectMatchesSpec('0202', 'POST', SPECS, 201, res.data);
    expect(res.headers.get('location')).toBe(`${t.url}${spec('created')}`);
    expect(res.data).toMatchObject({
      object: 'openapi-spec',
      slug: 'created',
      sourceURL: source.url,
      visibility: 'private',
      processingState: 'pending',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true, delete: true },
      urls: { location: `${t.url}${spec('created')}`, app: `${t.url}/app/o/${org}/openapi/created` },
    });
    expect(res.data.createdAt).toBe(t.clock.now().toISOString());
    const jobs = await t.prisma.backgroundJob.findMany({ where: { kind: 'openapi-process', organizationId: org } });
    expect(jobs.map((job) => job.payload)).toContainEqual({ specId: res.data.id });
    const job = jobs.find((found) => (found.payload as { specId: string }).specId === res.data.id)!;
    const queue = await t.prisma.$queryRaw<{ queue_name: string }[]>`
      SELECT q.queue_name FROM graphile_worker._private_jobs j JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id
       WHERE j.payload->>'jobId' = ${job.id}`;
    expect(queue).toEqual([{ queue_name: `openapi-process:${res.data.id}` }]);

    const got = await api.orgs.getOpenApiSpecBySlug(org, 'created');
    expectMatchesSpec('0202', 'GET', SPEC, 200, got.data);
    expect(got.data).toEqual(res.data);
  });

  it('refuses a slug the organization has already: 409, and no job', async () => {
    await buildSpec(t.prisma, { organizationId: org, slug: 'taken' });
    const jobs = await t.prisma.backgroundJob.count();
    const res = await t.request('POST', specs(), { token: world.admin.token, body: { slug: 'taken', source } });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('An OpenAPI specification with the slug "taken" already exists in this organization.');
    expect(await t.prisma.backgroundJob.count()).toBe(jobs);
    expect(await t.prisma.auditEvent.count({ where: { organizationId: org, targetLabel: 'taken' } })).toBe(0);
    // Slugs are per organization.
    const elsewhere = await t.request('POST', specs(world.secondOrganizationId), {
      token: world.admin.token,
      body: { slug: 'taken', source },
    });
    expect(elsewhere.status).toBe(201);
  });

  it('creates a spec by slug (201), then replaces its source (200), keeping its versions', async () => {
    const api = gitbookClient('0202', t.url, world.admin.token);
    const created = await api.orgs.createOrUpdateOpenApiSpecBySlug(org, 'put', { source: { text: JSON.stringify(petstore31()) } });
    expect(created.status).toBe(201);
    expectMatchesSpec('0202', 'PUT', SPEC, 201, created.data);
    expect(created.headers.get('location')).toBe(`${t.url}${spec('put')}`);
    expect(created.data.sourceURL).toBeUndefined();

    await t.prisma.openAPISpec.update({ where: { id: created.data.id }, data: { processingState: 'complete' } });
    t.clock.advanceMs(60_000);
    const updated = await api.orgs.createOrUpdateOpenApiSpecBySlug(org, 'put', { source });
    expect(updated.status).toBe(200);
    expectMatchesSpec('0202', 'PUT', SPEC, 200, updated.data);
    expect(updated.headers.get('location')).toBeNull();
    expect(updated.data).toMatchObject({
      id: created.data.id,
      createdAt: created.data.createdAt,
      sourceURL: source.url,
      processingState: 'pending',
    });
    expect(updated.data.updatedAt).toBe(t.clock.now().toISOString());
    const row = await t.prisma.openAPISpec.findUniqueOrThrow({ where: { id: created.data.id } });
    expect(row.sourceText).toBeNull();
    expect(await t.prisma.backgroundJob.count({ where: { kind: 'openapi-process', payload: { equals: { specId: row.id } } } })).toBe(2);
    // Created, then given a new source: a text source is not copied into its event, a URL is named.
    const events = await t.prisma.auditEvent.findMany({ where: { targetId: row.id }, orderBy: { occurredAt: 'asc' } });
    expect(events).toMatchObject([
      {
        action: 'openapi_spec_created',
        organizationId: org,
        actorId: world.admin.userId,
        targetType: 'openapi-spec',
        targetLabel: 'put',
        payload: { source: 'text' },
      },
      { action: 'openapi_spec_updated', actorId: world.admin.userId, targetLabel: 'put', payload: { source: source.url } },
    ]);
  });

  it('deletes a spec and its versions (205), and answers 204 when there is none', async () => {
    const doomed = await buildSpec(t.prisma, { organizationId: org, slug: 'doomed', versions: 2 });
    const api = gitbookClient('0202', t.url, world.admin.token);
    const res = await api.orgs.deleteOpenApiSpecBySlug(org, 'doomed');
    expect(res.status).toBe(205);
    expect(await t.prisma.openAPISpecVersion.count({ where: { specId: doomed.id } })).toBe(0);
    expect((await t.request('GET', spec('doomed'), { token: world.admin.token })).status).toBe(404);
    const again = await t.request('DELETE', spec('doomed'), { token: world.admin.token });
    expect(again.status).toBe(204);
    expect(again.text).toBe('');
    // Deleting records once; deleting nothing records nothing.
    const events = await t.prisma.auditEvent.findMany({ where: { targetId: doomed.id } });
    expect(events).toMatchObject([{ action: 'openapi_spec_deleted', actorId: world.admin.userId, targetLabel: 'doomed' }]);
  });
});

describe('reading specs and versions', () => {
  it('lists the organization’s specs by slug, page by page, in statements that do not grow with the page', async () => {
    const listed = (await buildOrganization(t.prisma, { owner: world.admin })).organization.id;
    for (const slug of ['b-spec', 'a-spec', 'c-spec', 'a-spec-2', 'z']) await buildSpec(t.prisma, { organizationId: listed, slug });

    const api = gitbookClient('0202', t.url, world.admin.token);
    const first = await api.orgs.listOpenApiSpecs(listed, { limit: 2 });
    expectMatchesSpec('0202', 'GET', SPECS, 200, first.data);
    expect(first.data.items.map((item) => item.slug)).toEqual(['a-spec', 'a-spec-2']);
    expect(first.data.count).toBe(5);
    const rest = await api.orgs.listOpenApiSpecs(listed, { limit: 10, page: first.data.next!.page });
    expect(rest.data.items.map((item) => item.slug)).toEqual(['b-spec', 'c-spec', 'z']);
    expect(rest.data.next).toBeUndefined();

    const one = await t.counted('GET', `${specs(listed)}?limit=1`, { token: world.admin.token });
    const all = await t.counted('GET', `${specs(listed)}?limit=1000`, { token: world.admin.token });
    expect(one.body.items).toHaveLength(1);
    expect(all.body.items).toHaveLength(5);
    expect(all.statements).toBe(one.statements);
  });

  it('lists versions newest first, paged, in statements that do not grow with the page; reads each by id', async () => {
    const versioned = await buildSpec(t.prisma, { organizationId: org, slug: 'versioned', versions: 5 });
    const ids = (await t.prisma.openAPISpecVersion.findMany({ where: { specId: versioned.id }, orderBy: { createdAt: 'desc' } })).map(
      (v) => v.id,
    );
    const api = gitbookClient('0202', t.url, world.reader.token);
    const page = await api.orgs.listOpenApiSpecVersions(org, 'versioned', { limit: 3 });
    expectMatchesSpec('0202', 'GET', `${SPEC}/versions`, 200, page.data);
    expect(page.data.items.map((item) => item.id)).toEqual(ids.slice(0, 3));
    expect(page.data.count).toBe(5);
    const next = await api.orgs.listOpenApiSpecVersions(org, 'versioned', { page: page.data.next!.page });
    expect(next.data.items.map((item) => item.id)).toEqual(ids.slice(3));
    expect(page.data.items[0]).toEqual({
      object: 'openapi-spec-version',
      id: ids[0],
      createdAt: '2026-01-01T00:04:00.000Z',
      url: 'https://example.com/versioned.json',
      urls: { location: `${t.url}${spec('versioned')}/versions/${ids[0]}` },
    });

    const latest = await api.orgs.getLatestOpenApiSpecVersion(org, 'versioned');
    expect(latest.data).toEqual(page.data.items[0]);
    const old = await api.orgs.getOpenApiSpecVersionById(org, 'versioned', ids[4]);
    expectMatchesSpec('0202', 'GET', `${SPEC}/versions/{versionId}`, 200, old.data);
    expect(old.data.id).toBe(ids[4]);
    const content = await api.orgs.getOpenApiSpecVersionContentById(org, 'versioned', ids[4]);
    expectMatchesSpec('0202', 'GET', `${SPEC}/versions/{versionId}/content`, 200, content.data);
    expect(content.data.filesystem).toEqual({ 'versioned.json': petstore31('versioned 0') });
    const raw = await api.orgs.getLatestOpenApiSpecVersionContentRaw(org, 'versioned');
    expectMatchesSpec('0202', 'GET', `${SPEC}/versions/latest/content/raw`, 200, raw.data);
    expect(raw.data).toEqual({ text: JSON.stringify(petstore31('versioned 4')), format: 'json' });

    const one = await t.counted('GET', `${spec('versioned')}/versions?limit=1`, { token: world.admin.token });
    const all = await t.counted('GET', `${spec('versioned')}/versions?limit=1000`, { token: world.admin.token });
    expect(one.body.items).toHaveLength(1);
    expect(all.body.items).toHaveLength(5);
    expect(all.statements).toBe(one.statements);
  });

  it('answers 404 for a version of another spec, an unknown one, and the raw content of a version stored without it', async () => {
    const mine = await buildSpec(t.prisma, { organizationId: org, slug: 'mine' });
    const theirs = await buildSpec(t.prisma, { organizationId: org, slug: 'theirs' });
    const get = (path: string) => t.request('GET', path, { token: world.admin.token });
    const wrong = await get(`${spec('mine')}/versions/${theirs.lastVersionId}`);
    expect(wrong.status).toBe(404);
    expect(wrong.body.error.message).toBe('OpenAPI specification version not found');
    expect((await get(`${spec('mine')}/versions/${'x'.repeat(20)}/content`)).status).toBe(404);
    expect((await get(`${spec('mine')}/versions/not.an.id`)).status).toBe(404);
    await t.prisma.openAPISpecVersion.update({ where: { id: mine.lastVersionId! }, data: { rawText: null, rawFormat: null } });
    const raw = await get(`${spec('mine')}/versions/latest/content/raw`);
    expect(raw.status).toBe(404);
    expect(raw.body.error.message).toBe('No raw content is stored for this OpenAPI specification version.');
  });
});

describe('limits', () => {
  const post = (body: unknown) => t.request('POST', specs(), { token: world.admin.token, body });
  const put = (slug: string, body: unknown) => t.request('PUT', spec(slug), { token: world.admin.token, body });

  it.each([
    ['an empty slug', { slug: '', source }, 'Invalid "slug": must be at least 1 characters.'],
    ['a slug of 101 characters', { slug: 'a'.repeat(101), source }, 'Invalid "slug": must be at most 100 characters.'],
    [
      'a slug with capitals',
      { slug: 'Upper', source },
      'Invalid "slug": must be lowercase letters and digits, with single hyphens between them.',
    ],
    [
      'a slug with a double hyphen',
      { slug: 'double--hyphen', source },
      'Invalid "slug": must be lowercase letters and digits, with single hyphens between them.',
    ],
    [
      'a slug starting with a hyphen',
      { slug: '-edge', source },
      'Invalid "slug": must be lowercase letters and digits, with single hyphens between them.',
    ],
    ['no slug', { source }, 'Invalid "slug": required.'],
    ['no source', { slug: 'ok' }, 'Invalid "source": required.'],
    ['a source with neither url nor text', { slug: 'ok', source: {} }, 'Invalid "source": must have exactly one of "url" and "text".'],
    [
      'a source with both url and text',
      { slug: 'ok', source: { url: source.url, text: 'x' } },
      'Invalid "source": must have exactly one of "url" and "text".',
    ],
    ['an ftp URL', { slug: 'ok', source: { url: 'ftp://example.com/a.json' } }, 'Invalid "source.url": must be an http or https URL.'],
    [
      'a URL of over 2048 characters',
      { slug: 'ok', source: { url: `https://example.com/${'a'.repeat(2040)}` } },
      'Invalid "source.url": must be at most 2048 characters.',
    ],
    [
      'a URL with credentials',
      { slug: 'ok', source: { url: 'https://user:secret@example.com/a.json' } },
      'Invalid "source.url": must not contain credentials.',
    ],
    ['an empty text', { slug: 'ok', source: { text: '' } }, 'Invalid "source.text": must be at least 1 characters.'],
    ['a text that is not a string', { slug: 'ok', source: { text: 7 } }, 'Invalid "source.text": expected a string.'],
  ])('refuses %s with 400', async (_label, body, message) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message } });
  });

  // Issue 22: a source URL that does not parse reached the credentials check, whose `new URL` threw: a 500.
  it.each([
    ['no source', undefined, 'Invalid "source": required.'],
    ['an empty string', '', 'Invalid "source": must be an object.'],
    ['a URL as a string', source.url, 'Invalid "source": must be an object.'],
    ['an empty object', {}, 'Invalid "source": must have exactly one of "url" and "text".'],
    ['an empty text', { text: '' }, 'Invalid "source.text": must be at least 1 characters.'],
    ['an empty URL', { url: '' }, 'Invalid "source.url": must be an http or https URL.'],
    ['a URL that is not one', { url: 'not a url' }, 'Invalid "source.url": must be an http or https URL.'],
    ['a URL without a host', { url: 'https://' }, 'Invalid "source.url": must be an http or https URL.'],
  ])('answers a source that is %s with a 400 naming it, on POST, PUT, the official client and GraphQL', async (_label, given, message) => {
    const refused = { error: { code: 400, message } };
    expect(await post({ slug: 'malformed', source: given })).toMatchObject({ status: 400, body: refused });
    expect(await put('malformed', { source: given })).toMatchObject({ status: 400, body: refused });

    const api = gitbookClient('0202', t.url, world.admin.token);
    const sent = { source: given } as { source: { url: string } };
    for (const call of [
      () => api.orgs.createOpenApiSpec(org, { slug: 'malformed', ...sent }),
      () => api.orgs.createOrUpdateOpenApiSpecBySlug(org, 'malformed', sent),
    ]) {
      const error = await call().then(
        () => undefined,
        (thrown: { code: number; errorMessage: string }) => thrown,
      );
      expect(error).toMatchObject({ code: 400, errorMessage: message });
    }

    const query =
      'mutation ($org: ID!, $source: OpenAPISpecSourceInput!) { putOpenAPISpec(organizationId: $org, slug: "malformed", input: { source: $source }) { created } }';
    // GraphQL's own coercion answers a source that is not an object; the API's validation answers the others, as REST does.
    if (typeof given === 'object') {
      const graphql = await t.request('POST', '/graphql', { token: world.admin.token, body: { query, variables: { org, source: given } } });
      expect(graphql.body.errors).toMatchObject([{ message, extensions: { code: 'BAD_REQUEST' } }]);
    }
    expect(await t.prisma.openAPISpec.count({ where: { slug: 'malformed' } })).toBe(0);
  });

  it('refuses a bad slug in the path of PUT, a bad source, and a bad page size', async () => {
    const badSlug = await put('Not_A_Slug', { source });
    expect(badSlug.status).toBe(400);
    expect(badSlug.body.error.message).toBe('Invalid "slug": must be lowercase letters and digits, with single hyphens between them.');
    expect((await put('fine', { source: { text: '' } })).status).toBe(400);
    expect((await put('fine', {})).body.error.message).toBe('Invalid "source": required.');
    const limit = await t.request('GET', `${specs()}?limit=1001`, { token: world.admin.token });
    expect(limit.status).toBe(400);
    expect(limit.body.error.message).toBe('Invalid "limit": must be an integer from 0 to 1000.');
  });

  it('takes a text source of up to a million characters', async () => {
    const long = JSON.stringify({ ...petstore31(), info: { title: 'x'.repeat(999_700), version: '1' } });
    expect(long.length).toBeLessThanOrEqual(1_000_000);
    expect((await put('long-text', { source: { text: long } })).status).toBe(201);
    const tooLong = await put('long-text', { source: { text: `${long}${' '.repeat(1_000_001 - long.length)}` } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toBe('Invalid "source.text": must be at most 1000000 characters.');
  });
});

describe('who may do what', () => {
  let guarded: string;
  beforeAll(async () => {
    guarded = (await buildSpec(t.prisma, { organizationId: org, slug: 'guarded' })).id;
  });
  const routes = (slug: string, organizationId = org) => [
    ['GET', specs(organizationId)],
    ['GET', spec(slug, organizationId)],
    ['GET', `${spec(slug, organizationId)}/versions`],
    ['GET', `${spec(slug, organizationId)}/versions/latest`],
    ['GET', `${spec(slug, organizationId)}/versions/latest/content`],
    ['GET', `${spec(slug, organizationId)}/versions/latest/content/raw`],
  ];

  it('asks for a token', async () => {
    for (const [method, path] of [...routes('guarded'), ['POST', specs()], ['PUT', spec('guarded')], ['DELETE', spec('guarded')]]) {
      const res = await t.request(method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : { slug: 'x', source } });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('lets every member with a role read, and tells them what they may do; a guest reads none', async () => {
    for (const [method, path] of routes('guarded')) {
      expect((await t.request(method, path, { token: world.guest.token })).status, `${method} ${path}`).toBe(403);
    }
    for (const [person, edit] of [
      [world.reader, false],
      [world.editor, false],
      [world.reviewer, false],
      [world.creator, true],
      [world.admin, true],
    ] as const) {
      for (const [method, path] of routes('guarded')) {
        expect((await t.request(method, path, { token: person.token })).status, `${method} ${path}`).toBe(200);
      }
      const res = await t.request('GET', spec('guarded'), { token: person.token });
      expect(res.body.permissions).toEqual({ view: true, edit, delete: edit });
    }
  });

  it('lets creators and admins write; others get 403', async () => {
    for (const person of [world.guest, world.reader, world.editor, world.reviewer]) {
      const created = await t.request('POST', specs(), { token: person.token, body: { slug: 'forbidden', source } });
      expect(created.status).toBe(403);
      expect(created.body.error.message).toBe('You do not have the "edit" permission on this openapi specification.');
      expect((await t.request('PUT', spec('guarded'), { token: person.token, body: { source } })).status).toBe(403);
      expect((await t.request('DELETE', spec('guarded'), { token: person.token })).status).toBe(403);
    }
    expect(await t.prisma.openAPISpec.findUnique({ where: { id: guarded } })).not.toBeNull();
  });

  it('shows nothing of an organization to those outside it: 404, never 403', async () => {
    for (const [method, path] of [...routes('guarded'), ['POST', specs()], ['PUT', spec('guarded')], ['DELETE', spec('guarded')]]) {
      const res = await t.request(method, path, {
        token: world.outsider.token,
        body: method === 'POST' || method === 'PUT' ? { slug: 'x', source } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.message).toBe('Organization not found');
    }
    // A spec of one organization is not found through another, even by an admin of both.
    for (const [method, path] of routes('guarded', world.secondOrganizationId).slice(1)) {
      expect((await t.request(method, path, { token: world.admin.token })).status, `${method} ${path}`).toBe(404);
    }
    expect((await t.request('DELETE', spec('guarded', world.secondOrganizationId), { token: world.admin.token })).status).toBe(204);
    expect(await t.prisma.openAPISpec.findUnique({ where: { id: guarded } })).not.toBeNull();
  });
});
