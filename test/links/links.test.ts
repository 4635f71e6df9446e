// Links and backlinks through the API (spec 0.181), over content written through the API as authors write markdown:
// relative paths to pages and files (from the page's own file, `.md` optional, with anchors, a folder for its README,
// `/` for the space root) listed as links to them, once per target, read back as paths (format=markdown) and as
// references (format=document); a markdown read written back, a move (the links follow, nothing is rewritten) and a
// deletion (broken); an image file and its backlinks, external URLs (ok until checked), the status filter and stats,
// 404 across organizations, and statement counts constant in page size.
import { describe, expect, it } from 'vitest';
import { useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesDocument, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });

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

/** A 1×1 PNG, as a batch inserts it. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

async function openChangeRequest(spaceId: string) {
  const res = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: world.admin.token, body: { subject: 'Edit' } });
  expect(res.status, res.text).toBe(201);
  return res.body.number as number;
}

/** Writes a batch of changes through a change request of its own, and merges it. */
async function editAndMerge(spaceId: string, changes: unknown[]) {
  const cr = await openChangeRequest(spaceId);
  const edit = await t.request('POST', `${crPath(spaceId, cr)}/content`, { token: world.admin.token, body: { changes } });
  expect(edit.status, edit.text).toBe(200);
  const merged = await t.request('POST', `${crPath(spaceId, cr)}/merge`, { token: world.admin.token });
  expect(merged.body.result, merged.text).toBe('merge');
}

/** The space's pages: id by path, and the file's id. */
async function idsOf(spaceId: string): Promise<Record<string, string>> {
  const [pages, files] = [
    await t.request('GET', `/v1/spaces/${spaceId}/content/pages`, { token: world.admin.token }),
    await t.request('GET', `/v1/spaces/${spaceId}/content/files`, { token: world.admin.token }),
  ];
  const ids: Record<string, string> = {};
  const walk = (list: { id: string; path: string; pages?: unknown[] }[]) => {
    for (const page of list) {
      ids[page.path] = page.id;
      walk((page.pages ?? []) as typeof list);
    }
  };
  walk(pages.body.pages);
  for (const file of files.body.items) ids[file.name] = file.id;
  return ids;
}

/** A page read through the API, in a format. */
async function pageIn(spaceId: string, pageId: string, format: 'markdown' | 'document') {
  const res = await t.request('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=${format}`, { token: world.admin.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const GUIDE =
  '# Guide\n\nSee [install](./install.md#linux), [install again](install), [missing](nowhere), [docs][ref] and <https://example.com/a>.\n\n' +
  '![diagram](../.gitbook/assets/diagram.png)\n\n[ref]: https://example.com/docs\n';
const INSTALL = '# Install\n\nBack to [the guide](./README.md), [the guide again](../guide/) or [home](/).\n';

/**
 * A space written through the API as authors write markdown, with links by relative path. Welcome is the readme
 * (README.md) and links to Guide (guide/README.md), which links to Install (guide/install.md) twice, to a path that
 * names nothing, to an image file of the batch (.gitbook/assets/diagram.png) and to two URLs; Install links back to
 * Guide twice and to Welcome. Usage (guide/usage.md) shows the image too, and keeps Guide a folder; Reference is
 * where Install moves.
 */
async function linkedSpace() {
  const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
  await editAndMerge(space.id, [
    { operation: 'insert_page', document: { markdown: '# Welcome\n\nStart with [the guide](guide/README.md).\n' } },
    { operation: 'insert_page', ref: 'guide', document: { markdown: GUIDE } },
    { operation: 'insert_page', into: 'guide', document: { markdown: INSTALL } },
    { operation: 'insert_page', into: 'guide', document: { markdown: '# Usage\n\n![diagram](../.gitbook/assets/diagram.png)\n' } },
    { operation: 'insert_page', document: { markdown: '# Reference\n\nText.\n' } },
    { operation: 'insert_files', files: [{ name: 'diagram.png', contentType: 'image/png', base64: PNG_BASE64 }] },
  ]);
  return { space, ids: await idsOf(space.id) };
}

/** The items of a links list as [status, target (page or file id, or URL), ids of the pages linking there]. */
const summaryOf = (items: any[]) =>
  items.map((item) => [
    item.status,
    item.targetReference.kind === 'url'
      ? item.targetReference.url
      : item.targetReference.kind === 'page'
        ? item.targetReference.page.id
        : item.targetReference.file.id,
    item.locationReferences.map((location: any) => location.page.id),
  ]);

const byTarget = (summary: unknown[][]) => [...summary].sort((a, b) => String(a[1]).localeCompare(String(b[1])));

describe('links as authors write them', () => {
  it('lists a relative path to a page or a file as a link to it, once per target, and reads it back as a path', async () => {
    const { space, ids } = await linkedSpace();
    const api = gitbookClient('0181', t.url, world.admin.token);
    const { data } = await api.spaces.listSpaceLinks(space.id, {});
    expectLinksMatchSpec('/spaces/{spaceId}/links', data);
    expect(byTarget(summaryOf(data.items as any[]))).toEqual(
      byTarget([
        ['in-app', ids['diagram.png'], [ids.guide, ids['guide/usage']].sort()],
        ['in-app', ids.guide, [ids['guide/install'], ids.welcome].sort()],
        ['in-app', ids['guide/install'], [ids.guide]],
        ['in-app', ids.welcome, [ids['guide/install']]],
        ['broken', 'nowhere', [ids.guide]],
        ['ok', 'https://example.com/a', [ids.guide]],
        ['ok', 'https://example.com/docs', [ids.guide]],
      ]),
    );
    expect(data.stats).toEqual({ total: 7, broken: { total: 1 } });

    // Stored as references to the pages and the file (GitBook's document shows them), read as paths from each page's
    // file: Guide is guide/README.md, Install guide/install.md.
    const document = JSON.stringify((await pageIn(space.id, ids.guide, 'document')).document);
    expect(document).toContain(JSON.stringify({ ref: { kind: 'anchor', page: ids['guide/install'], anchor: 'linux' } }));
    expect(document).toContain(JSON.stringify({ ref: { kind: 'page', page: ids['guide/install'] } }));
    expect(document).toContain(JSON.stringify({ ref: { kind: 'file', file: ids['diagram.png'] }, alt: 'diagram' }));
    expect((await pageIn(space.id, ids.guide, 'markdown')).markdown).toBe(
      '# Guide\n\nSee [install](install.md#linux), [install again](install.md), [missing](nowhere), [docs][ref] and <https://example.com/a>.\n\n' +
        '![diagram](../.gitbook/assets/diagram.png)\n\n[ref]: https://example.com/docs\n',
    );
    expect((await pageIn(space.id, ids['guide/install'], 'markdown')).markdown).toBe(
      '# Install\n\nBack to [the guide](README.md), [the guide again](README.md) or [home](../README.md).\n',
    );
    expect((await pageIn(space.id, ids.welcome, 'markdown')).markdown).toBe('# Welcome\n\nStart with [the guide](guide/README.md).\n');
  });

  it('keeps a page’s references when its markdown is read and written back', async () => {
    const { space, ids } = await linkedSpace();
    const pages = [ids.guide, ids['guide/usage']];
    const before = await Promise.all(pages.map((id) => pageIn(space.id, id, 'document')));
    expect(JSON.stringify(before[1].document)).toContain(`"ref":${JSON.stringify({ kind: 'file', file: ids['diagram.png'] })}`);
    const markdowns = await Promise.all(pages.map(async (id) => (await pageIn(space.id, id, 'markdown')).markdown));
    // Usage links to the file alone: the batch reads the files already there to resolve it.
    expect(markdowns[1]).toBe('# Usage\n\n![diagram](../.gitbook/assets/diagram.png)\n');
    await editAndMerge(
      space.id,
      pages.map((id, i) => ({ operation: 'update_page', page: id, document: { markdown: markdowns[i] } })),
    );
    expect((await Promise.all(pages.map((id) => pageIn(space.id, id, 'document')))).map((page) => page.document)).toEqual(
      before.map((page) => page.document),
    );
    expect((await t.request('GET', `/v1/spaces/${space.id}/links`, { token: world.admin.token })).body.stats).toEqual({
      total: 7,
      broken: { total: 1 },
    });
  });

  it('follows a move: the links stay in-app and read the new paths, and the pages that link there are not rewritten', async () => {
    const { space, ids } = await linkedSpace();
    const guide = await pageIn(space.id, ids.guide, 'markdown');
    await editAndMerge(space.id, [{ operation: 'update_page', page: ids['guide/install'], into: ids.reference }]);
    const moved = await idsOf(space.id);
    expect(moved['reference/install']).toBe(ids['guide/install']);
    const after = await pageIn(space.id, ids.guide, 'markdown');
    expect(after.updatedAt).toBe(guide.updatedAt);
    expect(after.markdown).toBe(
      guide.markdown
        .replace('](install.md#linux)', '](../reference/install.md#linux)')
        .replace('](install.md)', '](../reference/install.md)'),
    );
    // Install itself moved from guide/install.md to reference/install.md: its links read from there.
    expect((await pageIn(space.id, ids['guide/install'], 'markdown')).markdown).toBe(
      '# Install\n\nBack to [the guide](../guide/README.md), [the guide again](../guide/README.md) or [home](../README.md).\n',
    );
    const links = await t.request('GET', `/v1/spaces/${space.id}/links`, { token: world.admin.token });
    expect(links.body.stats).toEqual({ total: 7, broken: { total: 1 } });
    expect(summaryOf(links.body.items).find((item) => item[1] === ids['guide/install'])).toEqual([
      'in-app',
      ids['guide/install'],
      [ids.guide],
    ]);
  });
});

describe('links of a space', () => {
  it('lists targets with their status, the pages linking there and stats; follows deletions', async () => {
    const { space, ids } = await linkedSpace();
    const api = gitbookClient('0181', t.url, world.admin.token);
    const broken = await api.spaces.listSpaceLinks(space.id, { status: 'broken' as never });
    expect(summaryOf(broken.data.items as any[])).toEqual([['broken', 'nowhere', [ids.guide]]]);
    expect(broken.data.stats).toEqual({ total: 7, broken: { total: 1 } });

    // Deleting Install through a change request: both of Guide's links to it are one broken target.
    const cr = await openChangeRequest(space.id);
    const edit = await t.request('POST', `${crPath(space.id, cr)}/content`, {
      token: world.admin.token,
      body: { changes: [{ operation: 'delete_page', page: ids['guide/install'] }] },
    });
    expect(edit.status, edit.text).toBe(200);
    const pageLinks = await t.request('GET', `${crPath(space.id, cr)}/content/page/${ids.guide}/links`, { token: world.admin.token });
    expect(pageLinks.status, pageLinks.text).toBe(200);
    expectLinksMatchSpec('/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links', pageLinks.body);
    expect(pageLinks.body.stats).toEqual({ total: 5, broken: { total: 2 } });
    expect((await t.request('POST', `${crPath(space.id, cr)}/merge`, { token: world.admin.token })).body.result).toBe('merge');
    const after = await api.spaces.listSpaceLinks(space.id, { status: 'broken' as never });
    // A reference to a page that is gone shows as it is stored, in the listing and in the markdown.
    expect((after.data.items as any[]).map((item) => item.targetReference.url).sort()).toEqual([
      'nowhere',
      `page-id:${ids['guide/install']}`,
    ]);
    expect(after.data.stats).toEqual({ total: 6, broken: { total: 2 } });
    expect((await pageIn(space.id, ids.guide, 'markdown')).markdown).toContain(`[install](page-id:${ids['guide/install']}#linux)`);
  });

  it('lists the pages that show a file', async () => {
    const { space, ids } = await linkedSpace();
    const cr = await openChangeRequest(space.id);
    const api = gitbookClient('0181', t.url, world.admin.token);
    const { data } = await api.spaces.listChangeRequestFileBacklinks(space.id, String(cr), ids['diagram.png'], {});
    expectLinksMatchSpec('/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks', data);
    expect((data.items as any[]).map((item) => [item.kind, item.page.id])).toEqual(
      [ids.guide, ids['guide/usage']].sort().map((id) => ['page', id]),
    );
    const missing = await t.request('GET', `${crPath(space.id, cr)}/content/files/nofile/backlinks`, { token: world.admin.token });
    expect(missing.status).toBe(404);
  });

  it('keeps the links of a duplicated space', async () => {
    const { space } = await linkedSpace();
    const copy = await t.request('POST', `/v1/spaces/${space.id}/duplicate`, { token: world.admin.token });
    expect(copy.status, copy.text).toBe(201);
    const links = await t.request('GET', `/v1/spaces/${copy.body.id}/links`, { token: world.admin.token });
    expect(links.body.stats).toEqual({ total: 7, broken: { total: 1 } });
  });

  it('answers 401 without a token and 404 to another organization', async () => {
    const { space } = await linkedSpace();
    expect((await t.request('GET', `/v1/spaces/${space.id}/links`)).status).toBe(401);
    expect((await t.request('GET', `/v1/spaces/${space.id}/links`, { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('GET', `/v1/spaces/${space.id}/links?status=pending`, { token: world.admin.token })).status).toBe(400);
  });

  it('runs as many statements for one item as for a hundred', async () => {
    const { space } = await linkedSpace();
    const one = await t.counted('GET', `/v1/spaces/${space.id}/links?limit=1`, { token: world.admin.token });
    const all = await t.counted('GET', `/v1/spaces/${space.id}/links?limit=100`, { token: world.admin.token });
    expect(one.body.items).toHaveLength(1);
    expect(one.body.next.page).toBeTruthy();
    expect(all.body.items).toHaveLength(7);
    expect(all.statements).toBe(one.statements);
    const second = await t.request('GET', `/v1/spaces/${space.id}/links?limit=1&page=${one.body.next.page}`, { token: world.admin.token });
    expect(second.body.items[0]).toEqual(all.body.items[1]);
  });
});
