// Comments in a change request and their replies: the same operations as a space's, scoped to one change request
// (by id or number). Pages are the change request's own content; its comments stay out of the space's lists and the
// space's out of its; each is 404 under another scope; the change request counts its open comments.

import { beforeAll, describe, expect, it } from 'vitest';
import type { Space } from '../../src/generated/prisma/client.js';
import { page, publish } from '../revisions/content.js';
import { type Person, useApi, walk } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let space: Space;
/** A change request adding the page "Draft" (`draftPage`) and one that changes nothing. */
let changeRequest: { id: string; number: number };
let other: { id: string; number: number };
let draftPage: string;

const crBase = (cr: string | number = changeRequest.id, spaceId = space.id) => `/v1/spaces/${spaceId}/change-requests/${cr}`;
const base = (cr: string | number = changeRequest.id, spaceId = space.id) => `${crBase(cr, spaceId)}/comments`;
const post = (person: Person | null, body: unknown, cr: string | number = changeRequest.id) =>
  t.request('POST', base(cr), { token: person?.token, body });
const editContent = (cr: string, changes: unknown[]) =>
  t.request('POST', `${crBase(cr)}/content`, { token: world.admin.token, body: { changes } });

async function openChangeRequest(changes: unknown[]) {
  const created = await t.request('POST', `/v1/spaces/${space.id}/change-requests`, {
    token: world.admin.token,
    body: { subject: 'Edit' },
  });
  expect(created.status, created.text).toBe(201);
  if (changes.length) expect((await editContent(created.body.id, changes)).status).toBe(200);
  return { id: created.body.id as string, number: created.body.number as number };
}

beforeAll(async () => {
  space = await buildSpace(t.prisma, { organizationId: world.organizationId });
  await publish(t.prisma, space.id, { pages: [page('intro', 'Intro'), page('guide', 'Guide', { position: 1 })] });
  changeRequest = await openChangeRequest([{ operation: 'insert_page', title: 'Draft', document: { markdown: 'New.\n' } }]);
  other = await openChangeRequest([]);
  const pages = (await t.request('GET', `${crBase()}/content/pages`, { token: world.admin.token })).body.pages;
  draftPage = pages.find((p: { title: string }) => p.title === 'Draft').id;
});

describe('POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', () => {
  it('posts on a page of the change request’s content through the official client, matching the published spec', async () => {
    const api = gitbookClient('0202', t.url, world.commenter.token);
    const { data, status } = await api.spaces.postCommentInChangeRequest(space.id, changeRequest.id, {
      body: { markdown: 'Nice page' },
      page: draftPage,
      node: 'n1',
    });
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/change-requests/{changeRequestId}/comments', 200, data);
    const { revisionId } = await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
    expect(data).toMatchObject({
      object: 'comment',
      postedBy: { id: world.commenter.userId },
      body: { markdown: 'Nice page' },
      status: 'open',
      target: {
        space: space.id,
        changeRequest: changeRequest.id,
        revision: revisionId,
        node: { id: 'n1' },
        page: { id: draftPage, title: 'Draft', outdated: false },
      },
      permissions: { view: true, edit: true, reply: true, delete: true },
      urls: { location: `${t.url}/v1/spaces/${space.id}/change-requests/${changeRequest.id}/comments/${data.id}` },
    });
  });

  it('takes the change request by number, and a page only of the space’s content where it is', async () => {
    const byNumber = await post(world.editor, { body: { markdown: 'By number' }, page: 'intro' }, changeRequest.number);
    expect(byNumber.status).toBe(200);
    expect(byNumber.body.target).toMatchObject({ changeRequest: changeRequest.id, page: { id: 'intro', outdated: false } });
    const onSpace = await t.request('POST', `/v1/spaces/${space.id}/comments`, {
      token: world.editor.token,
      body: { body: { markdown: 'x' }, page: draftPage },
    });
    expect(onSpace.status).toBe(400);
    expect(onSpace.body.error.message).toMatch(/^Invalid "page"/);
    const elsewhere = await post(world.editor, { body: { markdown: 'x' }, page: draftPage }, other.id);
    expect(elsewhere.body.error.message).toMatch(/^Invalid "page": no such page in the change request’s current content/);
    expect((await post(world.editor, { body: { markdown: '' } })).body.error.message).toMatch(/^Invalid "body/);
  });

  it('needs `comment` on the space: 403 below it, 404 for who cannot see it or an unknown change request, 401 without token', async () => {
    expect((await post(world.reader, { body: { markdown: 'x' } })).status).toBe(403);
    expect((await post(world.guest, { body: { markdown: 'x' } })).status).toBe(404);
    expect((await post(world.outsider, { body: { markdown: 'x' } })).status).toBe(404);
    expect((await post(world.admin, { body: { markdown: 'x' } }, 'nosuchcr')).status).toBe(404);
    expect((await post(world.admin, { body: { markdown: 'x' } }, 999)).status).toBe(404);
    expect((await post(null, { body: { markdown: 'x' } })).status).toBe(401);
  });
});

describe('where a change request’s comment is', () => {
  it('is 404 under the space, another change request, or another space; the space’s comment is 404 under a change request', async () => {
    const mine = (await post(world.editor, { body: { markdown: 'Mine' } })).body;
    const onSpace = (
      await t.request('POST', `/v1/spaces/${space.id}/comments`, { token: world.editor.token, body: { body: { markdown: 'Space' } } })
    ).body;
    const otherSpace = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const get = (path: string) => t.request('GET', path, { token: world.admin.token });
    expect((await get(`${base()}/${mine.id}`)).status).toBe(200);
    expect((await get(`${base(changeRequest.number)}/${mine.id}`)).status).toBe(200);
    expect((await get(`/v1/spaces/${space.id}/comments/${mine.id}`)).status).toBe(404);
    expect((await get(`${base(other.id)}/${mine.id}`)).status).toBe(404);
    expect((await get(`${base(changeRequest.id, otherSpace.id)}/${mine.id}`)).status).toBe(404);
    expect((await get(`${base()}/${onSpace.id}`)).status).toBe(404);
    expect((await get(`${base()}/${onSpace.id}/replies`)).status).toBe(404);
    expect((await get(`/v1/spaces/${space.id}/comments/${mine.id}/replies`)).status).toBe(404);
    for (const [method, body] of [
      ['PUT', { resolved: true }],
      ['DELETE', undefined],
    ] as const) {
      expect((await t.request(method, `${base()}/${onSpace.id}`, { token: world.admin.token, body })).status).toBe(404);
      expect((await t.request(method, `/v1/spaces/${space.id}/comments/${mine.id}`, { token: world.admin.token, body })).status).toBe(404);
      expect((await t.request(method, `${base(other.id)}/${mine.id}`, { token: world.admin.token, body })).status).toBe(404);
    }
    expect((await get(`${base()}/${mine.id}`)).body.status).toBe('open');
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', () => {
  let listed: { id: string; number: number };
  const ids: string[] = [];
  beforeAll(async () => {
    listed = await openChangeRequest([]);
    for (let i = 0; i < 5; i++) {
      t.clock.advanceMs(1000);
      ids.push((await post(world.editor, { body: { markdown: `Comment ${i}` }, ...(i % 2 ? { page: 'guide' } : {}) }, listed.id)).body.id);
    }
    await t.request('PUT', `${base(listed.id)}/${ids[0]}`, { token: world.admin.token, body: { resolved: true } });
  });

  it('lists its own comments, newest first, through the official client, matching the published spec', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data } = await api.spaces.listCommentsInChangeRequest(space.id, listed.id);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/change-requests/{changeRequestId}/comments', 200, data);
    expect(data.items.map((c) => c.id)).toEqual([...ids].reverse());
    expect(data.count).toBe(5);
    expect(data.items[0].permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    const spaceList = (await t.request('GET', `/v1/spaces/${space.id}/comments?limit=100`, { token: world.admin.token })).body;
    expect(spaceList.items.filter((c: { id: string }) => ids.includes(c.id))).toEqual([]);
    expect(spaceList.items.every((c: { target: object }) => !('changeRequest' in c.target))).toBe(true);
    expect((await t.request('GET', base(other.id), { token: world.admin.token })).body.count).toBe(0);
  });

  it('filters by status and target page, orders ascending, and walks pages', async () => {
    const get = (query: string) => t.request('GET', `${base(listed.number)}?${query}`, { token: world.admin.token });
    expect((await get('status=resolved')).body.items.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect((await get('status=open')).body.count).toBe(4);
    expect((await get('targetPage=guide&order=asc')).body.items.map((c: { id: string }) => c.id)).toEqual([ids[1], ids[3]]);
    const { items, pages } = await walk<{ id: string }>(t, `${base(listed.number)}?order=asc&limit=2`, { token: world.admin.token });
    expect(items.map((c) => c.id)).toEqual(ids);
    expect(pages).toBe(3);
    expect((await t.request('GET', base(listed.id), { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('GET', base(listed.id), { token: world.guest.token })).status).toBe(404);
    expect((await t.request('GET', base(listed.id), {})).status).toBe(401);
  });

  it('counts the open comments on the change request, not on the space', async () => {
    const before = (await t.request('GET', `/v1/spaces/${space.id}`, { token: world.admin.token })).body.comments;
    const api = gitbookClient('0202', t.url, world.admin.token);
    expect((await api.spaces.getChangeRequestById(space.id, listed.id)).data.comments).toBe(4);
    await post(world.editor, { body: { markdown: 'One more' } }, listed.id);
    expect((await api.spaces.getChangeRequestById(space.id, listed.id)).data.comments).toBe(5);
    const listedAmongOthers = (await t.request('GET', `/v1/spaces/${space.id}/change-requests?status=draft`, { token: world.admin.token }))
      .body.items;
    expect(listedAmongOthers.find((cr: { id: string }) => cr.id === listed.id).comments).toBe(5);
    expect((await t.request('GET', `/v1/spaces/${space.id}`, { token: world.admin.token })).body.comments).toBe(before);
  });
});

describe('PUT and DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', () => {
  it('resolves, edits (author only), reacts and deletes through the official client, matching the published spec', async () => {
    const path = '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}';
    const posted = (await post(world.editor, { body: { markdown: 'Fix' } })).body;
    const admin = gitbookClient('0202', t.url, world.admin.token);
    t.clock.advanceMs(1000);
    const { data: resolved } = await admin.spaces.updateCommentInChangeRequest(space.id, changeRequest.id, posted.id, {
      resolved: true,
      addedReactions: ['👍'],
    });
    expectMatchesSpec('0202', 'put', path, 200, resolved);
    expect(resolved).toMatchObject({
      status: 'resolved',
      resolvedBy: { id: world.admin.userId },
      reactions: [{ emoji: '👍', count: 1 }],
      target: { changeRequest: changeRequest.id },
    });
    const { data: got } = await admin.spaces.getCommentInChangeRequest(space.id, changeRequest.id, posted.id, { format: 'document' });
    expectMatchesSpec('0202', 'get', path, 200, got);
    expect(got.body).toHaveProperty('document');
    const edit = (person: Person) =>
      t.request('PUT', `${base()}/${posted.id}`, { token: person.token, body: { body: { markdown: 'Fixed' } } });
    expect((await edit(world.admin)).status).toBe(403);
    expect((await edit(world.editor)).body).toMatchObject({ body: { markdown: 'Fixed' }, editedAt: t.clock.now().toISOString() });
    expect((await t.request('PUT', `${base()}/${posted.id}`, { token: world.reader.token, body: { resolved: false } })).status).toBe(403);
    expect((await t.request('DELETE', `${base()}/${posted.id}`, { token: world.commenter.token })).status).toBe(403);
    expect((await admin.spaces.deleteCommentInChangeRequest(space.id, changeRequest.id, posted.id)).status).toBe(205);
    expect((await t.request('GET', `${base()}/${posted.id}`, { token: world.admin.token })).status).toBe(404);
  });

  it('marks a page outdated when the change request’s version of it changes, not when the space’s does', async () => {
    const cr = await openChangeRequest([]);
    const posted = (await post(world.editor, { body: { markdown: 'On guide' }, page: 'guide' }, cr.id)).body;
    const target = async () => (await t.request('GET', `${base(cr.id)}/${posted.id}`, { token: world.reader.token })).body.target;
    await publish(t.prisma, space.id, { pages: [page('intro', 'Intro'), page('guide', 'Guide in the space', { position: 1 })] });
    expect((await target()).page).toMatchObject({ id: 'guide', title: 'Guide', outdated: false });
    expect((await editContent(cr.id, [{ operation: 'update_page', page: 'guide', title: 'Guide v2' }])).status).toBe(200);
    const after = await target();
    expect(after.page).toMatchObject({ id: 'guide', title: 'Guide v2', outdated: true });
    expect(after.revision).toBe(posted.target.revision);
  });
});

describe('comment replies in a change request', () => {
  it('posts, lists, gets, edits, reacts to and deletes replies through the official client, matching the published spec', async () => {
    const comment = (await post(world.editor, { body: { markdown: 'Thread' } })).body;
    const api = gitbookClient('0202', t.url, world.commenter.token);
    const replies = '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies';
    const { data: reply } = await api.spaces.postCommentReplyInChangeRequest(space.id, changeRequest.id, comment.id, {
      body: { markdown: 'First' },
    });
    expectMatchesSpec('0202', 'post', replies, 200, reply);
    expect(reply).toMatchObject({ object: 'comment-reply', body: { markdown: 'First' }, postedBy: { id: world.commenter.userId } });
    expect(reply.urls.location).toBe(`${t.url}${base()}/${comment.id}/replies/${reply.id}`);
    t.clock.advanceMs(1000);
    await t.request('POST', `${base()}/${comment.id}/replies`, { token: world.admin.token, body: { body: { markdown: 'Second' } } });

    const { data: list } = await api.spaces.listCommentRepliesInChangeRequest(space.id, changeRequest.id, comment.id, { limit: 1 });
    expectMatchesSpec('0202', 'get', replies, 200, list);
    expect([list.count, list.items.map((r) => r.id)]).toEqual([2, [reply.id]]);
    const rest = (await t.request('GET', `${base()}/${comment.id}/replies?page=${list.next?.page}`, { token: world.reader.token })).body;
    expect(rest.items.map((r: { body: { markdown: string } }) => r.body.markdown)).toEqual(['Second']);
    const { data: got } = await api.spaces.getCommentReplyInChangeRequest(space.id, changeRequest.id, comment.id, reply.id);
    expectMatchesSpec('0202', 'get', `${replies}/{commentReplyId}`, 200, got);
    const { data: parent } = await api.spaces.getCommentInChangeRequest(space.id, changeRequest.id, comment.id);
    expect(parent.replies).toBe(2);

    const { data: edited } = await api.spaces.updateCommentReplyInChangeRequest(space.id, changeRequest.id, comment.id, reply.id, {
      body: { markdown: 'First, edited' },
      addedReactions: ['🎉'],
    });
    expectMatchesSpec('0202', 'put', `${replies}/{commentReplyId}`, 200, edited);
    expect(edited).toMatchObject({ body: { markdown: 'First, edited' }, reactions: [{ emoji: '🎉', count: 1 }] });
    const replyPath = `${base()}/${comment.id}/replies/${reply.id}`;
    expect((await t.request('PUT', replyPath, { token: world.admin.token, body: { body: { markdown: 'x' } } })).status).toBe(403);
    expect((await t.request('DELETE', replyPath, { token: world.editor.token })).status).toBe(403);
    const elsewhere = [`/v1/spaces/${space.id}/comments`, base(other.id)].map((at) => `${at}/${comment.id}/replies/${reply.id}`);
    for (const path of elsewhere) expect((await t.request('GET', path, { token: world.admin.token })).status).toBe(404);
    expect((await t.request('GET', replyPath, { token: world.outsider.token })).status).toBe(404);
    expect((await api.spaces.deleteCommentReplyInChangeRequest(space.id, changeRequest.id, comment.id, reply.id)).status).toBe(205);
    expect((await t.request('GET', replyPath, { token: world.admin.token })).status).toBe(404);
  });
});

describe('statement counts', () => {
  it('lists a change request’s comments in statements that do not grow with the page', async () => {
    const cr = await openChangeRequest([]);
    const ids = Array.from({ length: 300 }, (_, i) => `crc${String(i).padStart(5, '0')}`);
    await t.prisma.comment.createMany({
      data: ids.map((id, i) => ({
        id,
        spaceId: space.id,
        changeRequestId: cr.id,
        pageId: i % 2 ? 'guide' : null,
        postedById: world.editor.userId,
        body: { markdown: `#${i}` },
      })),
    });
    await t.prisma.commentReply.createMany({
      data: ids.map((commentId, i) => ({ id: `crr${i}`, commentId, postedById: world.admin.userId, body: { markdown: 'r' } })),
    });
    await t.prisma.commentReaction.createMany({ data: ids.map((commentId) => ({ commentId, userId: world.admin.userId, emoji: '👍' })) });
    const small = await t.counted('GET', `${base(cr.id)}?limit=2`, { token: world.admin.token });
    const large = await t.counted('GET', `${base(cr.id)}?limit=300`, { token: world.admin.token });
    expect(large.body.items).toHaveLength(300);
    expect(large.body.items[1]).toMatchObject({ replies: 1, reactions: [{ count: 1 }], target: { changeRequest: cr.id } });
    expect(large.statements).toBe(small.statements);
  });
});
