// Links and backlinks through the API (spec 0.181): pages linking each other, one broken once its target is deleted
// through a change request and merged, an image file and its backlinks, external URLs (ok until checked), the status
// filter and stats, 404 across organizations, and statement counts constant in page size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { file, page, publish } from '../revisions/content.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesDocument, gitbookClient } from '../support/openapi.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.prisma);
});
afterAll(async () => {
  await t?.close();
});

/**
 * GitBook's page schema cannot validate a document page without a body (the reference's note on that defect), and a
 * location's page has none: as test/revisions/content.ts does, each such page gets an empty document for its spec.
 */
function withEmptyBodies<T>(body: T): T {
  const fill = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(fill);
    if (!value || typeof value !== 'object') return value;
    const object = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, fill(inner)]));
    if (object.type === 'document' && object.kind === 'sheet' && !('markdown' in object) && !('document' in object)) {
      object.document = { object: 'document', data: {}, nodes: [] };
    }
    return object;
  };
  return fill(body) as T;
}

/** Validates a body against GitBook's spec 0.181 (pages given empty bodies) and against ours as it is. */
function expectLinksMatchSpec(path: string, body: unknown) {
  expectMatchesDocument('0181', 'get', path, 200, withEmptyBodies(body));
  expectMatchesDocument('ours', 'get', path, 200, body);
}

const crPath = (spaceId: string, cr: string | number) => `/v1/spaces/${spaceId}/change-requests/${cr}`;

/** A space: Guide links to Install (relative .md path), Missing, an image file and two URLs; Install links back. */
async function linkedSpace() {
  const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
  await publish(t.prisma, space.id, {
    pages: [
      page('guide', 'Guide', {
        markdown:
          '# Guide\n\nSee [install](./guide/install.md#linux), [missing](nowhere), [docs][ref] and <https://example.com/a>.\n\n' +
          '![diagram](images/diagram.png)\n\n[ref]: https://example.com/docs\n',
      }),
      page('install', 'Install', { parentId: 'guide', markdown: 'Back to [the guide](../guide) or [page-id](page-id:guide).\n' }),
    ],
    files: [file('diagram', 'diagram.png', { contentType: 'image/png' })],
  });
  return space;
}

async function openChangeRequest(spaceId: string) {
  const res = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: world.admin.token, body: { subject: 'Edit' } });
  expect(res.status, res.text).toBe(201);
  return res.body.number as number;
}

describe('links of a space', () => {
  it('lists targets with their status, the pages linking there and stats; follows deletions', async () => {
    const space = await linkedSpace();
    const api = gitbookClient('0181', t.url, world.admin.token);
    const { data } = await api.spaces.listSpaceLinks(space.id, {});
    expectLinksMatchSpec('/spaces/{spaceId}/links', data);
    const summary = (data.items as any[]).map((item) => [
      item.status,
      item.targetReference.kind === 'url'
        ? item.targetReference.url
        : item.targetReference.kind === 'page'
          ? item.targetReference.page.id
          : item.targetReference.file.id,
      item.locationReferences.map((location: any) => location.page.id),
    ]);
    expect(summary).toEqual([
      ['in-app', 'diagram', ['guide']],
      ['in-app', 'guide', ['install']],
      ['in-app', 'install', ['guide']],
      ['broken', 'nowhere', ['guide']],
      ['ok', 'https://example.com/a', ['guide']],
      ['ok', 'https://example.com/docs', ['guide']],
    ]);
    expect(data.stats).toEqual({ total: 6, broken: { total: 1 } });

    const broken = await api.spaces.listSpaceLinks(space.id, { status: 'broken' as never });
    expect(broken.data.items).toHaveLength(1);
    expect(broken.data.stats).toEqual({ total: 6, broken: { total: 1 } });

    // Deleting Install through a change request: after the merge the guide's link to it is broken.
    const cr = await openChangeRequest(space.id);
    const edit = await t.request('POST', `${crPath(space.id, cr)}/content`, {
      token: world.admin.token,
      body: { changes: [{ operation: 'delete_page', page: 'install' }] },
    });
    expect(edit.status, edit.text).toBe(200);
    const pageLinks = await t.request('GET', `${crPath(space.id, cr)}/content/page/guide/links`, { token: world.admin.token });
    expect(pageLinks.status, pageLinks.text).toBe(200);
    expectLinksMatchSpec('/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links', pageLinks.body);
    expect(pageLinks.body.stats).toEqual({ total: 5, broken: { total: 2 } });
    expect((await t.request('POST', `${crPath(space.id, cr)}/merge`, { token: world.admin.token })).body.result).toBe('merge');
    const after = await api.spaces.listSpaceLinks(space.id, { status: 'broken' as never });
    expect((after.data.items as any[]).map((item) => item.targetReference.url).sort()).toEqual(['./guide/install.md#linux', 'nowhere']);
    expect(after.data.stats).toEqual({ total: 5, broken: { total: 2 } });
  });

  it('lists the pages that show a file', async () => {
    const space = await linkedSpace();
    const cr = await openChangeRequest(space.id);
    const api = gitbookClient('0181', t.url, world.admin.token);
    const { data } = await api.spaces.listChangeRequestFileBacklinks(space.id, String(cr), 'diagram', {});
    expectLinksMatchSpec('/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks', data);
    expect((data.items as any[]).map((item) => [item.kind, item.page.id])).toEqual([['page', 'guide']]);
    const missing = await t.request('GET', `${crPath(space.id, cr)}/content/files/nofile/backlinks`, { token: world.admin.token });
    expect(missing.status).toBe(404);
  });

  it('keeps the links of a duplicated space', async () => {
    const space = await linkedSpace();
    const copy = await t.request('POST', `/v1/spaces/${space.id}/duplicate`, { token: world.admin.token });
    expect(copy.status, copy.text).toBe(201);
    const links = await t.request('GET', `/v1/spaces/${copy.body.id}/links`, { token: world.admin.token });
    expect(links.body.stats).toEqual({ total: 6, broken: { total: 1 } });
  });

  it('answers 401 without a token and 404 to another organization', async () => {
    const space = await linkedSpace();
    expect((await t.request('GET', `/v1/spaces/${space.id}/links`)).status).toBe(401);
    expect((await t.request('GET', `/v1/spaces/${space.id}/links`, { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('GET', `/v1/spaces/${space.id}/links?status=pending`, { token: world.admin.token })).status).toBe(400);
  });

  it('runs as many statements for one item as for a hundred', async () => {
    const space = await linkedSpace();
    const one = await t.counted('GET', `/v1/spaces/${space.id}/links?limit=1`, { token: world.admin.token });
    const all = await t.counted('GET', `/v1/spaces/${space.id}/links?limit=100`, { token: world.admin.token });
    expect(one.body.items).toHaveLength(1);
    expect(one.body.next.page).toBeTruthy();
    expect(all.body.items).toHaveLength(6);
    expect(all.statements).toBe(one.statements);
    const second = await t.request('GET', `/v1/spaces/${space.id}/links?limit=1&page=${one.body.next.page}`, { token: world.admin.token });
    expect(second.body.items[0]).toEqual(all.body.items[1]);
  });
});
