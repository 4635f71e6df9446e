// Any revision of a space, read by id: the revisions a merge and an update answer, a change request's initial, merged
// and current revisions and every revision's parents open with the revision routes, through GitBook's client and
// matching its spec; a past revision shows its past content; its semantic changes against its first parent; documents
// by documentId in any revision; pages' meta links; who may read them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Space } from '../../src/generated/prisma/client.js';
import { useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesDocument, expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { expectPagesMatchSpec, page, publish } from './content.js';

const { t, world } = useApi({ world: true });
const api = () => gitbookClient('0202', t.url, world.reader.token);

let space: Space;
/** The change requests of the story, as REST answered them when they were done with. */
let first: { id: string; revision: string; revisionInitial: string; revisionMerged: string };
let second: { id: string; revisionInitial: string; revisionMerged: string };
/** What the merges and the update answered. */
let merged: { first: string; third: string; second: string };
let updated: string;
let guide: string;
let install: string;

const admin = (method: string, path: string, body?: unknown) => t.request(method, path, { token: world.admin.token, body });
async function ok(method: string, path: string, body?: unknown) {
  const res = await admin(method, path, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
}
const changeRequests = () => `/v1/spaces/${space.id}/change-requests`;
const revisions = () => `/v1/spaces/${space.id}/revisions`;

// The story: a first change request adds Guide, Install under it and a file, and is merged. A second, opened then,
// renames Guide and rewrites it; meanwhile a third rewrites Install and is merged; the second is updated from the space
// (an update revision), then merged.
beforeAll(async () => {
  space = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'History' });
  const a = await ok('POST', changeRequests(), { subject: 'First pages' });
  await ok('POST', `${changeRequests()}/${a.id}/content`, {
    changes: [
      { operation: 'insert_page', ref: 'guide', document: { markdown: '# Guide\n\nFirst words.\n' } },
      { operation: 'insert_page', into: 'guide', title: 'Install', document: { markdown: 'Steps.\n' } },
      { operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: 'bm90ZXM=' }] },
    ],
  });
  const firstMerge = await ok('POST', `${changeRequests()}/${a.id}/merge`);
  first = await ok('GET', `${changeRequests()}/${a.id}`);
  const pages = await ok('GET', `${revisions()}/${firstMerge.revision}/pages`);
  guide = pages.pages[0].id;
  install = pages.pages[0].pages[0].id;

  const b = await ok('POST', changeRequests(), { subject: 'Rename' });
  await ok('POST', `${changeRequests()}/${b.id}/content`, {
    changes: [{ operation: 'update_page', page: guide, title: 'Welcome', document: { markdown: '# Welcome\n\nNew words.\n' } }],
  });
  const c = await ok('POST', changeRequests(), { subject: 'Steps' });
  await ok('POST', `${changeRequests()}/${c.id}/content`, {
    changes: [{ operation: 'update_page', page: install, document: { markdown: 'More steps.\n' } }],
  });
  const thirdMerge = await ok('POST', `${changeRequests()}/${c.id}/merge`);
  const update = await ok('POST', `${changeRequests()}/${b.id}/update`);
  expect(update.result).toBe('update');
  updated = update.revision;
  const secondMerge = await ok('POST', `${changeRequests()}/${b.id}/merge`);
  second = await ok('GET', `${changeRequests()}/${b.id}`);
  merged = { first: firstMerge.revision, third: thirdMerge.revision, second: secondMerge.revision };
});

describe('GET /v1/spaces/{spaceId}/revisions/{revisionId}', () => {
  it('opens the revisions a merge and an update answer, a change request’s, and every parent, matching the spec', async () => {
    const start = [
      merged.first,
      merged.second,
      updated,
      first.revisionInitial,
      first.revisionMerged,
      first.revision,
      second.revisionInitial,
    ];
    const opened = new Map<string, { type: string; parents: string[] }>();
    const queue = [...start];
    while (queue.length) {
      const id = queue.shift()!;
      if (opened.has(id)) continue;
      const { data, status } = await api().spaces.getRevisionById(space.id, id);
      expect(status).toBe(200);
      expectPagesMatchSpec('/spaces/{spaceId}/revisions/{revisionId}', data);
      expect(data).toMatchObject({ object: 'revision', id, urls: { app: `${t.url}/app/s/${space.id}/~/revisions/${id}` } });
      opened.set(id, { type: data.type, parents: data.parents });
      queue.push(...data.parents);
    }
    const revisionsOfSpace = await t.prisma.revision.findMany({ where: { spaceId: space.id } });
    // Every revision of the story is reached from those answers, change requests’ included.
    expect([...opened.keys()].sort()).toEqual(revisionsOfSpace.map((revision) => revision.id).sort());
    expect(opened.get(merged.first)).toEqual({ type: 'merge', parents: [first.revisionInitial, first.revision] });
    expect(first.revisionMerged).toBe(merged.first);
    expect(second.revisionInitial).toBe(merged.first);
    expect(second.revisionMerged).toBe(merged.second);
    expect(opened.get(updated)?.type).toBe('update');
    expect(opened.get(updated)?.parents[1]).toBe(merged.third);
    expect(opened.get(first.revisionInitial)).toEqual({ type: 'edits', parents: [] });
  });

  it('shows a merge revision’s change request, and takes GitBook’s metadata and computed', async () => {
    const res = await t.request('GET', `${revisions()}/${merged.first}?metadata=false&computed=false`, { token: world.reader.token });
    expect(res.status).toBe(200);
    expect(res.body.mergedFrom).toMatchObject({ object: 'change-request', id: first.id, subject: 'First pages' });
    const initial = await t.request('GET', `${revisions()}/${first.revisionInitial}`, { token: world.reader.token });
    expect(initial.body).toMatchObject({ pages: [], files: [], parents: [] });
    expect(initial.body).not.toHaveProperty('mergedFrom');
  });
});

describe('a past revision', () => {
  it('shows its own content, after the page was renamed and rewritten', async () => {
    const { data: current } = await api().spaces.getPageById(space.id, guide, { format: 'markdown' });
    expect(current).toMatchObject({ title: 'Welcome', markdown: '# Welcome\n\nNew words.\n' });

    const { data: past } = await api().spaces.getPageInRevisionById(space.id, merged.first, guide, { format: 'markdown' });
    expectPagesMatchSpec('/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}', past);
    expect(past).toMatchObject({
      id: guide,
      title: 'Guide',
      path: 'guide',
      markdown: '# Guide\n\nFirst words.\n',
      pages: [{ id: install, title: 'Install' }],
      // A past revision's pages are addressed under it in the app.
      urls: { app: `${t.url}/app/s/${space.id}/~/revisions/${merged.first}/guide` },
    });
    const { data: byPath } = await api().spaces.getPageInRevisionByPath(space.id, merged.first, 'guide/install', { format: 'markdown' });
    expectPagesMatchSpec('/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}', byPath);
    expect(byPath).toMatchObject({ id: install, markdown: 'Steps.\n' });
    const later = await api().spaces.getPageInRevisionById(space.id, merged.third, install, { format: 'markdown' });
    expect(later.data).toMatchObject({ markdown: 'More steps.\n' });

    // The current revision read by id is the space's content, its pages at their own addresses.
    const latest = (await api().spaces.getPageInRevisionById(space.id, merged.second, guide)).data as any;
    expect(latest.urls.app).toBe(`${t.url}/app/s/${space.id}/${latest.path}`);
  });

  it('answers its page tree alone, its files a page at a time, and one file', async () => {
    const { data: tree } = await api().spaces.listPagesInRevisionById(space.id, merged.first);
    expectPagesMatchSpec('/spaces/{spaceId}/revisions/{revisionId}/pages', tree);
    expect(Object.keys(tree)).toEqual(['pages']);
    expect(tree.pages.map((p: any) => [p.title, p.pages.map((sub: any) => sub.title)])).toEqual([['Guide', ['Install']]]);

    const { data: files } = await api().spaces.listFilesInRevisionById(space.id, merged.first, { limit: 1 });
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/revisions/{revisionId}/files', 200, files);
    expect(files).toMatchObject({ count: 1, items: [{ name: 'notes.txt', contentType: 'text/plain', size: 5 }] });
    const { data: file } = await api().spaces.getFileInRevisionById(space.id, merged.first, files.items[0].id);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}', 200, file);
    expect(file).toMatchObject({ id: files.items[0].id, name: 'notes.txt' });
    const none = await api().spaces.listFilesInRevisionById(space.id, first.revisionInitial);
    expect(none.data).toMatchObject({ items: [], count: 0 });
    const missing = await t.request('GET', `${revisions()}/${first.revisionInitial}/files/${file.id}`, { token: world.reader.token });
    expect([missing.status, missing.body.error.message]).toEqual([404, 'File not found']);
  });

  it('answers a page’s body as GitBook’s JSON document, and no document for a page that has none', async () => {
    const { data } = await api().spaces.getPageDocumentInRevisionById(space.id, merged.first, guide);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document', 200, data);
    expect(JSON.stringify(data)).toContain('First words.');
    const now = await api().spaces.getPageDocumentInRevisionById(space.id, merged.second, guide);
    expect(JSON.stringify(now.data)).toContain('New words.');
    const absent = await t.request('GET', `${revisions()}/${first.revisionInitial}/page/${guide}/document`, { token: world.reader.token });
    expect([absent.status, absent.body.error.message]).toEqual([404, 'Page not found']);
    const shelf = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const written = await publish(t.prisma, shelf.id, { pages: [page('group', 'Group', { type: 'group', markdown: null })] });
    const group = await t.request('GET', `/v1/spaces/${shelf.id}/revisions/${written.id}/page/group/document`, {
      token: world.reader.token,
    });
    expect([group.status, group.body.error.message]).toEqual([404, 'Document not found']);
  });
});

describe('GET /v1/spaces/{spaceId}/revisions/{revisionId}/changes', () => {
  it('answers what a merge revision changes against its first parent, with the change request it merged', async () => {
    const { data } = await api().spaces.getRevisionSemanticChanges(space.id, merged.first);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/revisions/{revisionId}/changes', 200, data);
    expect(data.changes.map((change: any) => [change.type, change.page?.title ?? change.file?.name])).toEqual([
      ['page_created', 'Guide'],
      ['page_created', 'Install'],
      ['file_created', 'notes.txt'],
    ]);
    expect(data).toMatchObject({ more: 0, mergedFrom: { id: first.id, number: 1 } });
    const { data: limited } = await api().spaces.getRevisionSemanticChanges(space.id, merged.first, { limit: 1 });
    expect([limited.changes.length, limited.more]).toEqual([1, 2]);
  });

  it('answers an update revision’s changes (what the space brought in) and nothing for a first revision', async () => {
    const { data } = await api().spaces.getRevisionSemanticChanges(space.id, updated);
    // GitBook's schema accepts no page_edited (test/revisions/changes.test.ts says why): its shape is asserted here.
    expectMatchesDocument('ours', 'get', '/spaces/{spaceId}/revisions/{revisionId}/changes', 200, data);
    expect(data.changes).toEqual([
      {
        type: 'page_edited',
        page: { id: install, type: 'document', title: 'Install', path: 'welcome/install' },
        attributes: { document: { before: 'Steps.\n', after: 'More steps.\n' } },
      },
    ]);
    expect(data).not.toHaveProperty('mergedFrom');
    const { data: initial } = await api().spaces.getRevisionSemanticChanges(space.id, first.revisionInitial);
    expect(initial).toEqual({ changes: [], more: 0 });
    const bad = await t.request('GET', `${revisions()}/${updated}/changes?limit=1001`, { token: world.reader.token });
    expect([bad.status, bad.body.error.message]).toEqual([400, 'Invalid "limit": must be an integer from 0 to 1000.']);
  });
});

describe('GET /v1/spaces/{spaceId}/documents/{documentId}', () => {
  it('answers the document a page’s documentId names, in the revision it was read in', async () => {
    const past = (await api().spaces.getPageInRevisionById(space.id, merged.first, guide)).data as any;
    const unchanged = (await api().spaces.getPageInRevisionById(space.id, merged.third, guide)).data as any;
    const current = (await api().spaces.getPageById(space.id, guide)).data as any;
    // The same while the page is unchanged, another once it changed.
    expect(unchanged.documentId).toBe(past.documentId);
    expect(current.documentId).not.toBe(past.documentId);
    const { data: old } = await api().spaces.getDocumentById(space.id, past.documentId);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/documents/{documentId}', 200, old);
    expect(old).toEqual(past.document);
    expect(JSON.stringify(old)).toContain('First words.');
    const { data: now } = await api().spaces.getDocumentById(space.id, current.documentId, { schema: 'current' });
    expect(now).toEqual(current.document);
    // A change request's pages name their documents too.
    const { data: draft } = await api().spaces.getPageInChangeRequestById(space.id, second.id, guide);
    expect((await api().spaces.getDocumentById(space.id, (draft as any).documentId)).status).toBe(200);
  });

  it('finds no document of another space, nor an unknown one', async () => {
    const other = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const past = (await api().spaces.getPageInRevisionById(space.id, merged.first, guide)).data as any;
    for (const path of [`/v1/spaces/${other.id}/documents/${past.documentId}`, `/v1/spaces/${space.id}/documents/nothing`]) {
      const res = await t.request('GET', path, { token: world.reader.token });
      expect([res.status, res.body.error.message], path).toEqual([404, 'Document not found']);
    }
  });
});

describe('the meta links of a page', () => {
  it('are none, of the space’s content, a revision and a change request, matching the spec', async () => {
    const answers = [
      ['/spaces/{spaceId}/content/page/{pageId}/meta-links', await api().spaces.listSpacePageMetaLinks(space.id, guide)],
      [
        '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/meta-links',
        await api().spaces.listRevisionPageMetaLinks(space.id, merged.first, guide),
      ],
      [
        '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/meta-links',
        await api().spaces.listChangeRequestPageMetaLinks(space.id, second.id, guide),
      ],
    ] as const;
    for (const [path, { status, data }] of answers) {
      expectMatchesSpec('0202', 'get', path, 200, data);
      // GitBook's renderer reads `alternates` whenever it has meta links: it is always there.
      expect([status, data], path).toEqual([200, { alternates: [] }]);
    }
    const missing = await t.request('GET', `${revisions()}/${first.revisionInitial}/page/${guide}/meta-links`, {
      token: world.reader.token,
    });
    expect([missing.status, missing.body.error.message]).toEqual([404, 'Page not found']);
  });
});

describe('who may read a revision', () => {
  const paths = () => [
    `${revisions()}/${merged.first}`,
    `${revisions()}/${merged.first}/pages`,
    `${revisions()}/${merged.first}/files`,
    `${revisions()}/${merged.first}/page/${guide}`,
    `${revisions()}/${merged.first}/page/${guide}/document`,
    `${revisions()}/${merged.first}/page/${guide}/meta-links`,
    `${revisions()}/${merged.first}/path/guide`,
    `${revisions()}/${merged.first}/changes`,
  ];

  it('needs a token, and view on the space: 404 for those who cannot see it, here or in another organization', async () => {
    for (const path of paths()) {
      expect((await t.request('GET', path)).status, path).toBe(401);
      for (const reader of [world.reader, world.commenter, world.editor]) {
        expect((await t.request('GET', path, { token: reader.token })).status, path).toBe(200);
      }
      for (const stranger of [world.outsider, world.guest]) {
        const res = await t.request('GET', path, { token: stranger.token });
        expect([res.status, res.body.error.message], path).toEqual([404, 'Space not found']);
      }
    }
    // A space the reader may not see: its revisions are not found, as the space is not.
    const hidden = await buildSpace(t.prisma, { organizationId: world.organizationId, defaultLevel: null });
    const hiddenRevision = `/v1/spaces/${hidden.id}/revisions/${hidden.revisionId}`;
    const closed = await t.request('GET', hiddenRevision, { token: world.reader.token });
    expect([closed.status, closed.body.error.message]).toEqual([404, 'Space not found']);
    expect((await t.request('GET', hiddenRevision, { token: world.admin.token })).status).toBe(200);
  });

  it('finds no revision of another space under this one, seen or not, nor an unknown one', async () => {
    const seen = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const elsewhere = await buildSpace(t.prisma, { organizationId: world.secondOrganizationId });
    for (const id of [seen.revisionId, elsewhere.revisionId, 'nothing']) {
      for (const suffix of ['', '/pages', `/page/${guide}`, '/changes']) {
        const res = await t.request('GET', `${revisions()}/${id}${suffix}`, { token: world.admin.token });
        expect([res.status, res.body.error.message], `${id}${suffix}`).toEqual([404, 'Revision not found']);
      }
    }
  });
});
