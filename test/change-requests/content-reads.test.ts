// A change request's content: its current revision with its page tree and files, the page tree alone, files a page at a
// time, one file, one page by id or by (nested) path with its body; through GitBook's client, matching its published
// spec; who may read it; what it costs. And a merge revision's `mergedFrom`, the change request it merged.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Space } from '../../src/generated/prisma/client.js';
import { expectPagesMatchSpec, file, page, publish } from '../revisions/content.js';
import { useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let space: Space;
/** Change request 1 of `space`: Install retitled and rewritten, Changelog added under Guide, a file added. */
let changeRequest: { id: string; number: number };
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEUlEQVR4nGP8z8DwnwEJMDIAAEnUBgFMO5kZAAAAAElFTkSuQmCC', 'base64');

const SPEC = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';
const crBase = (spaceId: string, cr: string | number) => `/v1/spaces/${spaceId}/change-requests/${cr}`;

/** Opens a change request on the space as the admin and applies the changes to it; returns it. */
async function changeRequestWith(spaceId: string, changes: unknown[]): Promise<{ id: string; number: number }> {
  const created = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: world.admin.token, body: { subject: 'Edit' } });
  expect(created.status, created.text).toBe(201);
  const edited = await t.request('POST', `${crBase(spaceId, created.body.id)}/content`, { token: world.admin.token, body: { changes } });
  expect(edited.status, edited.text).toBe(200);
  return { id: created.body.id, number: created.body.number };
}

beforeAll(async () => {
  space = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Handbook' });
  await publish(t.prisma, space.id, {
    pages: [
      page('guide', 'Guide', { position: 0 }),
      page('install', 'Install', { parentId: 'guide', position: 0 }),
      page('linux', 'Linux', { parentId: 'install', markdown: '## Steps\n\n1. Download\n2. Run\n' }),
      page('faq', 'FAQ', { position: 1 }),
    ],
    files: [file('logo', 'logo.png', { contentType: 'image/png', size: 120, width: 64, height: 32 })],
  });
  changeRequest = await changeRequestWith(space.id, [
    { operation: 'update_page', page: 'install', title: 'Installing', slug: 'installing', document: { markdown: 'Run the installer.\n' } },
    { operation: 'insert_page', into: 'guide', title: 'Changelog', document: { markdown: 'What changed.\n' } },
    { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG.toString('base64') }] },
  ]);
});

const base = () => `${crBase(space.id, changeRequest.id)}/content`;
const outline = (pages: any[]): unknown[] => pages.map((p) => [p.title, p.path ?? null, outline(p.pages ?? [])]);

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', () => {
  it('answers the change request’s current revision, by id or number, through the official client, matching the spec', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data, status } = await api.spaces.getRevisionOfChangeRequestById(space.id, changeRequest.id);
    expect(status).toBe(200);
    expectPagesMatchSpec(SPEC, data);
    const row = await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
    const revision = await t.prisma.revision.findUniqueOrThrow({ where: { id: row.revisionId } });
    expect(data).toMatchObject({
      object: 'revision',
      id: row.revisionId,
      parents: revision.parents,
      type: 'edits',
      urls: { app: `${t.url}/app/s/${space.id}/~/revisions/${row.revisionId}` },
    });
    expect(data).not.toHaveProperty('mergedFrom');
    expect(outline(data.pages)).toEqual([
      [
        'Guide',
        'guide',
        [
          ['Installing', 'guide/installing', [['Linux', 'guide/installing/linux', []]]],
          ['Changelog', 'guide/changelog', []],
        ],
      ],
      ['FAQ', 'faq', []],
    ]);
    // Pages of a change request's revision are addressed inside that revision in the app.
    expect((data.pages[0] as any).urls.app).toBe(`${t.url}/app/s/${space.id}/~/revisions/${row.revisionId}/guide`);
    expect(data.files.map((f) => f.name)).toEqual(['dot.png', 'logo.png']);
    const byNumber = await api.spaces.getRevisionOfChangeRequestById(space.id, String(changeRequest.number));
    expect(byNumber.data).toEqual(data);
    // The space's own content is unchanged.
    const current = await api.spaces.getCurrentRevision(space.id);
    expect(outline(current.data.pages)[0]).toEqual([
      'Guide',
      'guide',
      [['Install', 'guide/install', [['Linux', 'guide/install/linux', []]]]],
    ]);
  });

  it('leaves git metadata out with metadata=false, and refuses a bad value', async () => {
    await t.prisma.pageVersion.updateMany({ where: { spaceId: space.id, pageId: 'faq' }, data: { gitOid: 'f00', gitPath: 'faq.md' } });
    const withGit = await t.request('GET', base(), { token: world.reader.token });
    expect(withGit.body.pages[1].git).toEqual({ oid: 'f00', path: 'faq.md' });
    const without = await t.request('GET', `${base()}?metadata=false&computed=false`, { token: world.reader.token });
    expect(without.body.pages[1].git).toBeUndefined();
    const bad = await t.request('GET', `${base()}?metadata=maybe`, { token: world.reader.token });
    expect([bad.status, bad.body.error.message]).toEqual([400, 'Invalid "metadata": must be true or false.']);
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages', () => {
  it('answers the page tree alone, matching the spec', async () => {
    const { data } = await gitbookClient('0202', t.url, world.reader.token).spaces.listPagesInChangeRequest(space.id, changeRequest.id);
    expectPagesMatchSpec(`${SPEC}/pages`, data);
    expect(Object.keys(data)).toEqual(['pages']);
    expect(data.pages).toEqual((await t.request('GET', base(), { token: world.reader.token })).body.pages);
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}', () => {
  it('answers a page with its body as markdown or as GitBook’s document, matching the spec', async () => {
    const api = gitbookClient('0202', t.url, world.commenter.token);
    const { data } = await api.spaces.getPageInChangeRequestById(space.id, changeRequest.id, 'install', { format: 'markdown' });
    expectPagesMatchSpec(`${SPEC}/page/{pageId}`, data);
    expect(data).toMatchObject({ id: 'install', title: 'Installing', path: 'guide/installing', markdown: 'Run the installer.\n' });
    expect((data as any).pages).toMatchObject([{ id: 'linux' }]);
    const { data: document } = await api.spaces.getPageInChangeRequestById(space.id, changeRequest.id, 'install');
    expectPagesMatchSpec(`${SPEC}/page/{pageId}`, document);
    expect((document as any).document.nodes[0]).toMatchObject({ type: 'paragraph' });
    // The space keeps its own version of the page.
    const spacePage = await t.request('GET', `/v1/spaces/${space.id}/content/page/install?format=markdown`, { token: world.reader.token });
    expect(spacePage.body).toMatchObject({ title: 'Install', markdown: '# Install\n\nAbout Install.\n' });
  });

  it('answers 404 for a page that is not in the change request, 400 for an unknown format', async () => {
    const missing = await t.request('GET', `${base()}/page/nothing`, { token: world.reader.token });
    expect([missing.status, missing.body.error.message]).toEqual([404, 'Page not found']);
    const format = await t.request('GET', `${base()}/page/install?format=html`, { token: world.reader.token });
    expect([format.status, format.body.error.message]).toEqual([400, 'Invalid "format": must be one of "document", "markdown".']);
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{pagePath}', () => {
  it('finds a nested page by a path the official client sends unencoded, and by an encoded one', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data } = await api.spaces.getPageInChangeRequestByPath(space.id, changeRequest.id, 'guide/installing/linux', {
      format: 'markdown',
    });
    expectPagesMatchSpec(`${SPEC}/path/{pagePath}`, data);
    expect(data).toMatchObject({ id: 'linux', path: 'guide/installing/linux', markdown: '## Steps\n\n1. Download\n2. Run\n' });
    const encoded = await api.spaces.getPageInChangeRequestByPath(space.id, changeRequest.id, encodeURIComponent('guide/changelog'));
    expectPagesMatchSpec(`${SPEC}/path/{pagePath}`, encoded.data);
    expect(encoded.data).toMatchObject({ id: expect.any(String), title: 'Changelog', path: 'guide/changelog' });
    const slashed = await t.request('GET', `${base()}/path//guide/installing/`, { token: world.reader.token });
    expect(slashed.body).toMatchObject({ id: 'install' });
  });

  it('answers 404 for a path that is only the space’s, or nowhere', async () => {
    for (const path of ['guide/install', 'guide/install/linux', 'guide/nowhere', 'linux']) {
      const res = await t.request('GET', `${base()}/path/${path}`, { token: world.reader.token });
      expect([res.status, res.body.error.message], path).toEqual([404, 'Page not found']);
    }
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files', () => {
  it('lists the change request’s files by name a page at a time, matching the spec', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const seen: string[] = [];
    let next: string | undefined;
    do {
      const { data } = await api.spaces.listFilesInChangeRequestById(space.id, changeRequest.id, { limit: 1, page: next });
      expectMatchesSpec('0202', 'get', `${SPEC}/files`, 200, data);
      expect([data.count, data.items.length]).toEqual([2, 1]);
      seen.push(...data.items.map((f) => f.name));
      next = data.next?.page;
    } while (next);
    expect(seen).toEqual(['dot.png', 'logo.png']);
  });

  it('costs the same statements whatever the page size, and refuses a page token of the space’s list', async () => {
    const small = await t.counted('GET', `${base()}/files?limit=1`, { token: world.reader.token });
    const large = await t.counted('GET', `${base()}/files?limit=1000`, { token: world.reader.token });
    expect([small.body.items.length, large.body.items.length]).toEqual([1, 2]);
    expect(small.statements).toBe(large.statements);
    const spaceList = await t.request('GET', `/v1/spaces/${space.id}/content/files?limit=1`, { token: world.reader.token });
    const foreign = await t.request('GET', `${base()}/files?page=${spaceList.body.next?.page ?? 'x'}`, { token: world.reader.token });
    expect(foreign.status).toBe(400);
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}', () => {
  it('answers one file of the change request, matching the spec', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data: list } = await api.spaces.listFilesInChangeRequestById(space.id, changeRequest.id);
    const dot = list.items.find((f) => f.name === 'dot.png')!;
    const { data } = await api.spaces.getFileInChangeRequestById(space.id, changeRequest.id, dot.id);
    expectMatchesSpec('0202', 'get', `${SPEC}/files/{fileId}`, 200, data);
    expect(data).toMatchObject({
      id: dot.id,
      name: 'dot.png',
      contentType: 'image/png',
      size: PNG.length,
      dimensions: { width: 2, height: 3 },
    });
    const download = await fetch(data.downloadURL);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);
    // Not in the space until merged.
    expect((await t.request('GET', `/v1/spaces/${space.id}/content/files/${dot.id}`, { token: world.reader.token })).status).toBe(404);
    const missing = await t.request('GET', `${base()}/files/nothing`, { token: world.reader.token });
    expect([missing.status, missing.body.error.message]).toEqual([404, 'File not found']);
  });
});

describe('who may read a change request’s content', () => {
  const paths = (spaceId: string, cr: string) => {
    const at = `${crBase(spaceId, cr)}/content`;
    return [at, `${at}/pages`, `${at}/files`, `${at}/files/logo`, `${at}/page/faq`, `${at}/path/guide/installing`];
  };

  // The change request is judged by its space: in a space the caller cannot see, it is not found like one that is not there.
  it('needs a token and view on the space: 404 for who cannot see it, here or in another organization', async () => {
    for (const path of paths(space.id, changeRequest.id)) {
      expect((await t.request('GET', path)).status, path).toBe(401);
      for (const reader of [world.reader, world.commenter]) {
        expect((await t.request('GET', path, { token: reader.token })).status, path).toBe(200);
      }
      for (const stranger of [world.outsider, world.guest]) {
        const res = await t.request('GET', path, { token: stranger.token });
        expect([res.status, res.body.error.message], path).toEqual([404, 'Change request not found']);
      }
    }
  });

  it('answers 404 for an unknown change request, and for another space’s', async () => {
    const other = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const elsewhere = await changeRequestWith(other.id, [{ operation: 'insert_page', title: 'Elsewhere', document: {} }]);
    for (const path of [...paths(space.id, 'nothing'), ...paths(space.id, '99'), ...paths(space.id, elsewhere.id)]) {
      const res = await t.request('GET', path, { token: world.admin.token });
      expect([res.status, res.body.error.message], path).toEqual([404, 'Change request not found']);
    }
  });
});

describe('what reading a change request’s content costs', () => {
  it('reads a change request over 1,000 pages in as many statements as one over a single page', async () => {
    const big = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Big' });
    // A hundred chains of ten pages: each page under the one before, ten levels deep.
    await publish(t.prisma, big.id, {
      pages: Array.from({ length: 1000 }, (_, i) =>
        page(`p${i}`, `Page ${i}`, { parentId: i % 10 === 0 ? null : `p${i - 1}`, position: i }),
      ),
      files: [file('bigFile', 'big.png')],
    });
    const small = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Small' });
    await publish(t.prisma, small.id, { pages: [page('p0', 'Page 0')], files: [file('smallFile', 'small.png')] });
    const edit = [{ operation: 'update_page', page: 'p0', document: { markdown: 'Edited.\n' } }];
    const [bigCr, smallCr] = [await changeRequestWith(big.id, edit), await changeRequestWith(small.id, edit)];
    const deepPath = Array.from({ length: 10 }, (_, i) => `page-${i}`).join('/');
    for (const [suffix, bigSuffix] of [
      ['', ''],
      ['/pages', '/pages'],
      ['/files', '/files'],
      ['/files/smallFile', '/files/bigFile'],
      ['/page/p0', '/page/p9'],
      ['/path/page-0', `/path/${deepPath}`],
    ]) {
      const one = await t.counted('GET', `${crBase(small.id, smallCr.id)}/content${suffix}`, { token: world.reader.token });
      const many = await t.counted('GET', `${crBase(big.id, bigCr.id)}/content${bigSuffix}`, { token: world.reader.token });
      expect([one.status, many.status], suffix).toEqual([200, 200]);
      expect(many.statements, suffix).toBe(one.statements);
    }
    const deepest = await t.request('GET', `${crBase(big.id, bigCr.number)}/content/path/${deepPath}`, { token: world.reader.token });
    expect(deepest.body).toMatchObject({ id: 'p9', path: deepPath });
  });
});

describe('mergedFrom', () => {
  it('names the change request a merge revision merged, as GitBook’s spec requires of merge revisions', async () => {
    const merged = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Merged' });
    const cr = await changeRequestWith(merged.id, [{ operation: 'insert_page', title: 'Merged page', document: { markdown: 'Text.\n' } }]);
    const merge = await t.request('POST', `${crBase(merged.id, cr.id)}/merge`, { token: world.admin.token });
    expect(merge.body.result).toBe('merge');
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data } = await api.spaces.getCurrentRevision(merged.id);
    expectPagesMatchSpec('/spaces/{spaceId}/content', data);
    const { data: changeRequestRead } = await api.spaces.getChangeRequestById(merged.id, cr.id);
    expect(data).toMatchObject({ id: merge.body.revision, type: 'merge', mergedFrom: changeRequestRead });
    expect(changeRequestRead).toMatchObject({ status: 'merged', revisionMerged: merge.body.revision });
    // The merged change request's own content stays readable: its last revision.
    const own = await api.spaces.getRevisionOfChangeRequestById(merged.id, cr.id);
    expectPagesMatchSpec(SPEC, own.data);
    expect(own.data).toMatchObject({ type: 'edits', id: changeRequestRead.revision });
  });

  it('is read for the merge revisions of many spaces in GraphQL in as many statements as for one', async () => {
    const mergedSpace = async () => {
      const created = await buildSpace(t.prisma, { organizationId: world.secondOrganizationId, title: 'Batch' });
      const cr = await changeRequestWith(created.id, [{ operation: 'insert_page', title: 'Batch page', document: {} }]);
      expect((await t.request('POST', `${crBase(created.id, cr.id)}/merge`, { token: world.admin.token })).body.result).toBe('merge');
      return cr;
    };
    const query = `query($id: ID!) { organization(id: $id) { spaces(limit: 1000) { items { content {
      type mergedFrom { id number status subject createdBy { displayName } openCommentCount outdated space { title } }
    } } } } }`;
    const run = () =>
      t.counted('POST', '/graphql', { token: world.admin.token, body: { query, variables: { id: world.secondOrganizationId } } });
    const crs = [await mergedSpace(), await mergedSpace()];
    const before = await run();
    expect(before.body.errors).toBeUndefined();
    crs.push(await mergedSpace());
    const after = await run();
    expect(after.body.errors).toBeUndefined();
    const contents = after.body.data.organization.spaces.items.map((item: any) => item.content);
    expect(contents.map((content: any) => content.mergedFrom.id).sort()).toEqual(crs.map((cr) => cr.id).sort());
    expect(contents[0]).toMatchObject({
      type: 'merge',
      mergedFrom: { number: 1, status: 'merged', createdBy: { displayName: 'Admin' }, outdated: false, space: { title: 'Batch' } },
    });
    expect(after.statements).toBe(before.statements);
  });
});
