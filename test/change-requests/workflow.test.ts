// The review workflow through the API: edit a change request's content in batches, see what it changes, merge it
// (three-way when the space moved on), update it from the space (conflicts kept, marked), race merges, and refuse
// what must be refused.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Revision } from '../../src/generated/prisma/client.js';
import { pagesAt } from '../../src/revisions/store.js';
import { startTestApp, useApi } from '../support/app.js';
import { buildOrganization, buildSpace, buildUser } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true, env: { ALLOW_PRIVATE_NETWORK: 'true' } });
let acme: string;
let files: http.Server;
let filesUrl: string;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEUlEQVR4nGP8z8DwnwEJMDIAAEnUBgFMO5kZAAAAAElFTkSuQmCC', 'base64');

beforeAll(async () => {
  acme = world.organizationId;
  files = http.createServer((req, res) => {
    // /big-<n>.bin: 9 MiB (under the 10 MB cap of one file) of bytes distinct per n.
    const big = /^\/big-(\d+)\.bin$/.exec(req.url ?? '');
    if (big) return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(9 * 1024 * 1024, Number(big[1])));
    res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/diagram.png`;
});
afterAll(async () => {
  await new Promise((resolve) => files?.close(resolve));
});

const api = () => gitbookClient('0202', t.url, world.admin.token);
const crPath = (spaceId: string, cr: string | number) => `/v1/spaces/${spaceId}/change-requests/${cr}`;
const edit = (spaceId: string, cr: string | number, changes: unknown[], token = world.admin.token) =>
  t.request('POST', `${crPath(spaceId, cr)}/content`, { token, body: { changes } });
const open = async (spaceId: string) => {
  const res = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: world.admin.token, body: { subject: 'Edit' } });
  expect(res.status, res.text).toBe(201);
  return res.body.number as number;
};
const merge = (spaceId: string, cr: number, token = world.admin.token) => t.request('POST', `${crPath(spaceId, cr)}/merge`, { token });

/** The space's current content: page title -> markdown. */
async function spaceContent(spaceId: string): Promise<Record<string, string | null>> {
  const space = await t.prisma.space.findUniqueOrThrow({ where: { id: spaceId } });
  const revision = await t.prisma.revision.findUniqueOrThrow({ where: { id: space.revisionId! } });
  return Object.fromEntries((await pagesAt(t.app.services.sql, revision)).map((page) => [page.title, page.markdown]));
}
async function crContent(spaceId: string, number: number) {
  const cr = await t.prisma.changeRequest.findFirstOrThrow({ where: { spaceId, number } });
  const revision: Revision = await t.prisma.revision.findUniqueOrThrow({ where: { id: cr.revisionId } });
  return Object.fromEntries((await pagesAt(t.app.services.sql, revision)).map((page) => [page.title, page.markdown]));
}

/** A space whose content is Guide (five lines of text) and FAQ, merged through a first change request. */
async function spaceWithContent() {
  const space = await buildSpace(t.prisma, { organizationId: acme });
  const cr = await open(space.id);
  const res = await edit(space.id, cr, [
    { operation: 'insert_page', document: { markdown: '# Guide\n\none\ntwo\nthree\nfour\nfive\n' } },
    { operation: 'insert_page', title: 'FAQ', document: { markdown: 'Questions.\n' } },
  ]);
  expect(res.status, res.text).toBe(200);
  expect((await merge(space.id, cr)).body.result).toBe('merge');
  const pages = await t.prisma.pageVersion.findMany({ where: { spaceId: space.id, line: 'main', validTo: null } });
  const id = (title: string) => pages.find((page) => page.title === title)!.pageId;
  return { space, guide: id('Guide'), faq: id('FAQ') };
}

describe('editing, reviewing and merging through the official client', () => {
  it('edits a change request, lists what it changes, and merges it into the space', async () => {
    const space = await buildSpace(t.prisma, { organizationId: acme });
    const { data: created } = await api().spaces.createChangeRequest(space.id, { subject: 'First pages' });
    const edited = await api().spaces.updateChangeRequestContent(space.id, created.id, {
      changes: [
        { operation: 'insert_page', document: { markdown: '---\ndescription: Start here\n---\n# Welcome\n\nHello.\n' } },
        { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG.toString('base64') }] },
      ],
    } as never);
    expect(edited.status).toBe(200);
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/change-requests/{changeRequestId}/content', 200, edited.data);
    expect(edited.data).toMatchObject({ id: created.id, status: 'draft' });
    expect((edited.data as typeof created).revision).not.toBe(created.revision);
    const contentEvent = await t.prisma.auditEvent.findFirstOrThrow({
      where: { targetId: created.id, action: 'change_request_content_updated' },
    });
    expect(contentEvent).toMatchObject({
      actorId: world.admin.userId,
      spaceId: space.id,
      payload: { revisionId: (edited.data as typeof created).revision, pages: 1, files: 1 },
    });

    const { data: diff } = await api().spaces.getChangeRequestChanges(space.id, created.id);
    expect(diff.changes.map((change) => change.type)).toEqual(['page_created', 'file_created']);
    expect(diff.changes[0]).toMatchObject({ page: { title: 'Welcome', path: 'welcome', type: 'document' } });
    const download = await fetch((diff.changes[1] as { file: { downloadURL: string } }).file.downloadURL);
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);

    const { data: merged } = await api().spaces.mergeChangeRequest(space.id, String(created.number));
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/change-requests/{changeRequestId}/merge', 200, merged);
    expect(merged.result).toBe('merge');
    const after = await t.request('GET', `/v1/spaces/${space.id}`, { token: world.admin.token });
    expect(after.body.revision).toBe(merged.revision);
    const cr = await t.request('GET', crPath(space.id, created.id), { token: world.admin.token });
    expect(cr.body).toMatchObject({ status: 'merged', revisionMerged: merged.revision });
    expect(await spaceContent(space.id)).toEqual({ Welcome: '# Welcome\n\nHello.\n' });
    // The merge records itself and GitBook's space_content_updated, in the space's organization, by the merger.
    const events = await t.prisma.auditEvent.findMany({
      where: { spaceId: space.id, action: { in: ['change_request_merged', 'space_content_updated'] } },
      orderBy: { action: 'asc' },
    });
    expect(events).toMatchObject([
      {
        action: 'change_request_merged',
        organizationId: acme,
        actorType: 'user',
        actorId: world.admin.userId,
        targetType: 'change-request',
        targetId: created.id,
        payload: { number: created.number, revisionId: merged.revision },
      },
      {
        action: 'space_content_updated',
        targetType: 'space',
        targetId: space.id,
        payload: { spaceId: space.id, revisionId: merged.revision, updatedBy: world.admin.userId },
      },
    ]);
    // Merged is final.
    const welcome = (diff.changes[0] as { page: { id: string } }).page.id;
    expect((await edit(space.id, created.id, [{ operation: 'delete_page', page: welcome }])).status).toBe(409);
    expect((await merge(space.id, created.number)).status).toBe(409);
  });

  it('with compat=false, answers the pages the batch created, updated and deleted, and the files it inserted', async () => {
    const { space, guide, faq } = await spaceWithContent();
    const { data: created } = await api().spaces.createChangeRequest(space.id, { subject: 'Reshape' });
    const batch = {
      changes: [
        { operation: 'update_page', page: faq, title: 'Questions' },
        { operation: 'insert_files', files: [{ ref: 'dot', name: 'dot.png', contentType: 'image/png', base64: PNG.toString('base64') }] },
        { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: 'See ![dot](./dot).\n' } },
        { operation: 'insert_page', ref: 'draft', title: 'Draft', document: {} },
        { operation: 'delete_page', page: 'draft' },
        { operation: 'delete_page', page: guide },
      ],
    };
    const { data } = await api().spaces.updateChangeRequestContent(space.id, created.id, batch as never, { compat: false });
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/change-requests/{changeRequestId}/content', 200, data);
    const update = data as { changeRequest: { id: string; revision: string }; changes: unknown[]; insertedFiles: { id: string }[] };
    expect(update.changeRequest.id).toBe(created.id);
    expect(update.changeRequest.revision).not.toBe(created.revision);
    const location = (pageId: string) => `${t.url}/v1/spaces/${space.id}/change-requests/${created.id}/content/page/${pageId}`;
    const intro = (update.changes[1] as { page: { id: string } }).page.id;
    // The page inserted and deleted again in the same batch did nothing, and is not listed.
    expect(update.changes).toEqual([
      { object: 'updated_page', page: { object: 'page', id: faq, urls: { location: location(faq) } } },
      { object: 'created_page', ref: 'intro', page: { object: 'page', id: intro, urls: { location: location(intro) } } },
      { object: 'deleted_page', page: guide },
    ]);
    expect(update.insertedFiles).toEqual([expect.objectContaining({ name: 'dot.png', contentType: 'image/png', size: PNG.length })]);

    // Each location answers the page as stored, the inserted file's reference resolved to its id, which markdown reads
    // as the file's path from the page's (a top-level page; the file under .gitbook/assets).
    const stored = await t.request('GET', `${new URL(location(intro)).pathname}?format=markdown`, { token: world.admin.token });
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body).toMatchObject({ id: intro, title: 'Intro' });
    expect(stored.body.markdown).toBe('See ![dot](.gitbook/assets/dot.png).\n');
    const document = await t.request('GET', new URL(location(intro)).pathname, { token: world.admin.token });
    expect(JSON.stringify(document.body.document)).toContain(`"ref":${JSON.stringify({ kind: 'file', file: update.insertedFiles[0].id })}`);

    // compat=true, GitBook's default, answers the change request alone.
    const plain = await t.request('POST', `${crPath(space.id, created.id)}/content?compat=true`, {
      token: world.admin.token,
      body: { changes: [{ operation: 'update_page', page: faq, title: 'FAQ' }] },
    });
    expect(plain.body).toMatchObject({ object: 'change-request', id: created.id });
    expect(plain.body.changes).toBeUndefined();
    const bad = await t.request('POST', `${crPath(space.id, created.id)}/content?compat=no`, {
      token: world.admin.token,
      body: { changes: [{ operation: 'update_page', page: faq, title: 'FAQ' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('compat');
  });

  it('merges two change requests made from the same content, the second three-way, lines of one page combined', async () => {
    const { space, guide, faq } = await spaceWithContent();
    const [a, b] = [await open(space.id), await open(space.id)];
    await edit(space.id, a, [
      { operation: 'update_page', page: guide, document: { markdown: '# Guide\n\nONE\ntwo\nthree\nfour\nfive\n' } },
    ]);
    await edit(space.id, b, [
      { operation: 'update_page', page: guide, document: { markdown: '# Guide\n\none\ntwo\nthree\nfour\nFIVE\n' } },
      { operation: 'update_page', page: faq, title: 'Questions' },
    ]);
    expect((await merge(space.id, a)).body.result).toBe('merge');
    expect((await t.request('GET', crPath(space.id, b), { token: world.admin.token })).body.outdated).toBe(true);
    expect((await merge(space.id, b)).body.result).toBe('merge');
    expect(await spaceContent(space.id)).toEqual({ Guide: '# Guide\n\nONE\ntwo\nthree\nfour\nFIVE\n', Questions: 'Questions.\n' });
  });

  it('refuses to merge overlapping edits; an update keeps both versions, marked; resolved, it merges', async () => {
    const { space, guide } = await spaceWithContent();
    const [a, b] = [await open(space.id), await open(space.id)];
    await edit(space.id, a, [
      { operation: 'update_page', page: guide, document: { markdown: '# Guide\n\none\nTWO (a)\nthree\nfour\nfive\n' } },
    ]);
    await edit(space.id, b, [
      { operation: 'update_page', page: guide, document: { markdown: '# Guide\n\none\nTWO (b)\nthree\nfour\nfive\n' } },
    ]);
    expect((await merge(space.id, a)).body.result).toBe('merge');
    const before = await spaceContent(space.id);
    const refused = await merge(space.id, b);
    expect(refused.status).toBe(200);
    expect(refused.body.result).toBe('conflicts');
    expect(await spaceContent(space.id)).toEqual(before);
    const merges = { spaceId: space.id, action: { in: ['change_request_merged', 'space_content_updated'] } };
    // spaceWithContent's merge and a's, two events each: b's conflicts recorded nothing.
    expect(await t.prisma.auditEvent.count({ where: merges })).toBe(4);

    const { data: updated } = await api().spaces.updateChangeRequest(space.id, String(b));
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/change-requests/{changeRequestId}/update', 200, updated);
    expect(updated.result).toBe('conflicts');
    const fromSpace = await t.prisma.auditEvent.findFirstOrThrow({
      where: { spaceId: space.id, action: 'change_request_content_updated', payload: { path: ['revisionId'], equals: updated.revision } },
    });
    expect(fromSpace.payload).toMatchObject({ conflicts: 1 });
    expect((await crContent(space.id, b)).Guide).toBe(
      '# Guide\n\none\n<<<<<<< change request\nTWO (b)\n=======\nTWO (a)\n>>>>>>> main\nthree\nfour\nfive\n',
    );
    await edit(space.id, b, [
      { operation: 'update_page', page: guide, document: { markdown: '# Guide\n\none\nTWO (a and b)\nthree\nfour\nfive\n' } },
    ]);
    expect((await merge(space.id, b)).body.result).toBe('merge');
    expect((await spaceContent(space.id)).Guide).toBe('# Guide\n\none\nTWO (a and b)\nthree\nfour\nfive\n');
  });

  it('lands both of two merges racing on one space: they take turns, and the second merges from the first', async () => {
    const { space, guide, faq } = await spaceWithContent();
    const [a, b] = [await open(space.id), await open(space.id)];
    await edit(space.id, a, [{ operation: 'update_page', page: guide, title: 'Guide (a)' }]);
    await edit(space.id, b, [{ operation: 'update_page', page: faq, title: 'FAQ (b)' }]);
    const results = await Promise.all([merge(space.id, a), merge(space.id, b)]);
    expect(results.map((res) => res.body.result)).toEqual(['merge', 'merge']);
    expect(Object.keys(await spaceContent(space.id)).sort()).toEqual(['FAQ (b)', 'Guide (a)']);
    const revisions = await t.prisma.revision.findMany({ where: { spaceId: space.id, line: 'main' }, orderBy: { seq: 'asc' } });
    // Creation, the first merge of spaceWithContent, then one merge each, each on the one before.
    expect(revisions.map((revision) => revision.seq)).toEqual([1, 2, 3, 4]);
    expect(revisions[3].parents[0]).toBe(revisions[2].id);
  });
});

describe('refusals', () => {
  it('needs edit to change content and review to merge; other organizations see nothing', async () => {
    const { space, faq } = await spaceWithContent();
    const cr = await open(space.id);
    const change = [{ operation: 'update_page', page: faq, title: 'x' }];
    expect((await edit(space.id, cr, change, world.reader.token)).status).toBe(403);
    expect((await edit(space.id, cr, change, world.editor.token)).status).toBe(200);
    expect((await merge(space.id, cr, world.editor.token)).status).toBe(403);
    expect((await edit(space.id, cr, change, world.outsider.token)).status).toBe(404);
    expect((await merge(space.id, cr, world.outsider.token)).status).toBe(404);
    expect((await t.request('GET', `${crPath(space.id, cr)}/changes`, { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('POST', `${crPath(space.id, cr)}/merge`)).status).toBe(401);
    expect((await merge(space.id, cr, world.reviewer.token)).body.result).toBe('merge');
  });

  it('lists at most `limit` changes, 0 to 1000, telling how many more there are', async () => {
    const { space, guide, faq } = await spaceWithContent();
    const cr = await open(space.id);
    await edit(space.id, cr, [
      { operation: 'update_page', page: guide, title: 'Guide 2' },
      { operation: 'update_page', page: faq, title: 'FAQ 2' },
    ]);
    const changes = (query: string) => t.request('GET', `${crPath(space.id, cr)}/changes?${query}`, { token: world.admin.token });
    expect((await changes('limit=0')).body).toEqual({ changes: [], more: 2 });
    expect((await changes('limit=1')).body).toMatchObject({ changes: [{ type: 'page_edited' }], more: 1 });
    for (const limit of ['-1', '1001', `${2 ** 31}`, '99999999999999999999999']) {
      expect((await changes(`limit=${limit}`)).body, limit).toEqual({
        error: { code: 400, message: 'Invalid "limit": must be an integer from 0 to 1000.' },
      });
    }
  });

  it('refuses bad batches as a whole, naming the operation, and changes nothing', async () => {
    const { space, faq } = await spaceWithContent();
    const cr = await open(space.id);
    const before = await t.prisma.changeRequest.findFirstOrThrow({ where: { spaceId: space.id, number: cr } });
    const cases: [unknown[], RegExp][] = [
      [[], /^Invalid "changes"/],
      [Array.from({ length: 51 }, () => ({ operation: 'delete_page', page: faq })), /^Invalid "changes"/],
      [[{ operation: 'rename_page', page: faq }], /^Invalid "changes/],
      [
        [
          { operation: 'update_page', page: faq, title: 'ok' },
          { operation: 'update_page', page: 'nope', title: 'x' },
        ],
        /^Invalid "changes\.1\.page"/,
      ],
      [[{ operation: 'insert_files', files: [{ name: 'a.png', base64: 'AAAA' }] }], /^Invalid "changes/],
      [
        [{ operation: 'insert_files', files: [{ name: 'a.png', contentType: 'image/png', base64: 'not base64!' }] }],
        /^Invalid "changes\.0\.files\.0\.base64"/,
      ],
    ];
    for (const [changes, message] of cases) {
      const res = await edit(space.id, cr, changes);
      expect(res.status, JSON.stringify(changes).slice(0, 80)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    const after = await t.prisma.changeRequest.findFirstOrThrow({ where: { spaceId: space.id, number: cr } });
    expect(after.revisionId).toBe(before.revisionId);
  });

  it('fetches files from URLs through the guarded fetcher, and refuses private addresses unless allowed', async () => {
    const { space } = await spaceWithContent();
    const cr = await open(space.id);
    const fetched = await edit(space.id, cr, [{ operation: 'insert_files', files: [{ name: 'diagram.png', url: filesUrl }] }]);
    expect(fetched.status, fetched.text).toBe(200);
    const file = await t.prisma.fileVersion.findFirstOrThrow({ where: { spaceId: space.id, name: 'diagram.png' } });
    expect(file).toMatchObject({ contentType: 'image/png', size: PNG.byteLength, width: 2, height: 3 });

    const guarded = await startTestApp();
    try {
      const admin = await buildUser(guarded.prisma, { displayName: 'Admin' });
      const org = (await buildOrganization(guarded.prisma, { title: 'Guarded', owner: admin })).organization.id;
      const other = await buildSpace(guarded.prisma, { organizationId: org });
      const created = await guarded.request('POST', `/v1/spaces/${other.id}/change-requests`, { token: admin.token, body: {} });
      const refused = await guarded.request('POST', `/v1/spaces/${other.id}/change-requests/${created.body.number}/content`, {
        token: admin.token,
        body: { changes: [{ operation: 'insert_files', files: [{ name: 'x.png', url: filesUrl }] }] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/^Invalid "changes\.0\.files\.0\.url": .*not a public address\.$/);
    } finally {
      await guarded.close();
    }
  });

  it('caps the bytes the files of one request fetch from URLs together, storing none of them past it', async () => {
    const { space } = await spaceWithContent();
    const cr = await open(space.id);
    const before = await t.prisma.changeRequest.findFirstOrThrow({ where: { spaceId: space.id, number: cr } });
    const bigFiles = Array.from({ length: 6 }, (_, i) => ({ name: `big-${i}.bin`, url: filesUrl.replace('diagram.png', `big-${i}.bin`) }));
    const refused = await edit(space.id, cr, [{ operation: 'insert_files', files: bigFiles }]);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      'Invalid "changes.0.files.5.url": the files of one request may fetch at most 52428800 bytes from URLs.',
    );
    const after = await t.prisma.changeRequest.findFirstOrThrow({ where: { spaceId: space.id, number: cr } });
    expect(after.revisionId).toBe(before.revisionId);
    expect(await t.prisma.fileIntent.count({ where: { size: 9 * 1024 * 1024 } })).toBe(0);
    // Five of them fit.
    expect((await edit(space.id, cr, [{ operation: 'insert_files', files: bigFiles.slice(0, 5) }])).status).toBe(200);
  });

  it('refuses edits and merges while the space is locked', async () => {
    const { space, faq } = await spaceWithContent();
    const cr = await open(space.id);
    await edit(space.id, cr, [{ operation: 'update_page', page: faq, title: 'x' }]);
    await t.prisma.space.update({ where: { id: space.id }, data: { editMode: 'locked' } });
    expect((await edit(space.id, cr, [{ operation: 'update_page', page: faq, title: 'y' }])).status).toBe(409);
    const refused = await merge(space.id, cr);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('The space is locked: set its editMode to live to change its content.');
    const merged = await t.prisma.auditEvent.count({ where: { spaceId: space.id, action: 'change_request_merged' } });
    expect(merged).toBe(1);
  });
});
