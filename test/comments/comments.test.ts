// Space comments and replies: post, list (order, status, format, targetPage, pages), get, edit, resolve, react,
// delete; the page a comment is on and whether it changed since; who may do what; mentions, authors and table cells;
// statement counts.

import { beforeAll, describe, expect, it } from 'vitest';
import type { Space } from '../../src/generated/prisma/client.js';
import { page, publish } from '../revisions/content.js';
import { type Person, useApi, walk } from '../support/app.js';
import { buildMember, buildSpace, buildUser } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let space: Space;

beforeAll(async () => {
  space = await buildSpace(t.prisma, { organizationId: world.organizationId });
  await publish(t.prisma, space.id, { pages: [page('intro', 'Intro'), page('guide', 'Guide', { position: 1 })] });
});

const base = (spaceId = space.id) => `/v1/spaces/${spaceId}/comments`;
const post = (person: Person, body: unknown, spaceId = space.id) => t.request('POST', base(spaceId), { token: person.token, body });

describe('POST /v1/spaces/{spaceId}/comments', () => {
  it('posts a comment on a page through the official client, matching the published spec', async () => {
    const api = gitbookClient('0202', t.url, world.commenter.token);
    const { data, status } = await api.spaces.postCommentInSpace(space.id, { body: { markdown: 'Typo here' }, page: 'intro', node: 'n1' });
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/comments', 200, data);
    expect(data).toMatchObject({
      object: 'comment',
      postedBy: { id: world.commenter.userId },
      body: { markdown: 'Typo here' },
      status: 'open',
      replies: 0,
      repliers: [],
      reactions: [],
      target: { space: space.id, node: { id: 'n1' }, page: { id: 'intro', title: 'Intro', path: 'intro', outdated: false } },
      permissions: { view: true, edit: true, reply: true, delete: true },
      urls: { location: `${t.url}/v1/spaces/${space.id}/comments/${data.id}` },
    });
    const { revisionId } = await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } });
    expect(data.target.revision).toBe(revisionId);
  });

  it('validates the body, the page and the node, and needs `comment` on the space', async () => {
    for (const body of [
      {},
      { body: {} },
      { body: { markdown: '' } },
      { body: { markdown: 'x'.repeat(20_001) } },
      { body: { html: 'x' } },
    ]) {
      const res = await post(world.admin, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^Invalid "body/);
    }
    expect((await post(world.admin, { body: { markdown: 'x' }, page: 'nope' })).body.error.message).toMatch(/^Invalid "page"/);
    expect((await post(world.admin, { body: { markdown: 'x' }, node: 'n' })).body.error.message).toMatch(/^Invalid "node"/);
    expect((await post(world.reader, { body: { markdown: 'x' } })).status).toBe(403);
    expect((await post(world.guest, { body: { markdown: 'x' } })).status).toBe(404);
    expect((await post(world.outsider, { body: { markdown: 'x' } })).status).toBe(404);
    expect((await post(world.admin, { body: { markdown: 'x' } }, 'nosuchspace')).status).toBe(404);
  });

  it('accepts a JSON document, kept as markdown, and shows it in either format', async () => {
    const document = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hello', marks: [] }] }] }],
    };
    const res = await post(world.editor, { body: { document } });
    expect(res.status).toBe(200);
    expect(res.body.body.markdown.trim()).toBe('Hello');
    const asDocument = await t.request('GET', `${base()}/${res.body.id}?format=document`, { token: world.editor.token });
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/comments/{commentId}', 200, asDocument.body);
    expect(asDocument.body.body.document.object).toBe('document');
  });
});

describe('GET /v1/spaces/{spaceId}/comments', () => {
  let listed: Space;
  const ids: string[] = [];
  beforeAll(async () => {
    listed = await buildSpace(t.prisma, { organizationId: world.organizationId });
    await publish(t.prisma, listed.id, { pages: [page('a', 'A')] });
    for (let i = 0; i < 5; i++) {
      t.clock.advanceMs(1000);
      const res = await post(world.editor, { body: { markdown: `Comment ${i}` }, ...(i % 2 ? { page: 'a' } : {}) }, listed.id);
      ids.push(res.body.id);
    }
    await t.request('PUT', `${base(listed.id)}/${ids[0]}`, { token: world.admin.token, body: { resolved: true } });
  });

  it('lists newest first by default, through the official client, matching the published spec', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data } = await api.spaces.listCommentsInSpace(listed.id);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/comments', 200, data);
    expect(data.items.map((c) => c.id)).toEqual([...ids].reverse());
    expect(data.count).toBe(5);
    expect(data.items[0].permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
  });

  it('filters by status and target page, orders ascending, and walks pages', async () => {
    const get = (query: string) => t.request('GET', `${base(listed.id)}?${query}`, { token: world.admin.token });
    expect((await get('status=resolved')).body.items.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect((await get('status=open')).body.count).toBe(4);
    expect((await get('targetPage=a&order=asc')).body.items.map((c: { id: string }) => c.id)).toEqual([ids[1], ids[3]]);
    const { items, pages } = await walk<{ id: string }>(t, `${base(listed.id)}?order=asc&limit=2`, { token: world.admin.token });
    expect(items.map((c) => c.id)).toEqual(ids);
    expect(pages).toBe(3);
    expect((await get('status=closed')).status).toBe(400);
    expect((await t.request('GET', base(listed.id), { token: world.outsider.token })).status).toBe(404);
  });

  it('counts open comments on the space', async () => {
    const res = await t.request('GET', `/v1/spaces/${listed.id}`, { token: world.admin.token });
    expect(res.body.comments).toBe(4);
  });
});

describe('PUT /v1/spaces/{spaceId}/comments/{commentId}', () => {
  it('resolves and reopens, edits the body (author only), and marks a changed page outdated', async () => {
    const api = gitbookClient('0202', t.url, world.admin.token);
    const posted = (await post(world.editor, { body: { markdown: 'On guide' }, page: 'guide' })).body;
    t.clock.advanceMs(1000);
    const { data: resolved } = await api.spaces.updateCommentInSpace(space.id, posted.id, { resolved: true });
    expectMatchesSpec('0202', 'put', '/spaces/{spaceId}/comments/{commentId}', 200, resolved);
    expect(resolved).toMatchObject({ status: 'resolved', resolvedAt: t.clock.now().toISOString(), resolvedBy: { id: world.admin.userId } });
    const reopened = await t.request('PUT', `${base()}/${posted.id}`, { token: world.commenter.token, body: { resolved: false } });
    expect(reopened.body.status).toBe('open');
    expect(reopened.body).not.toHaveProperty('resolvedAt');
    expect(reopened.body).not.toHaveProperty('resolvedBy');

    const byOther = await t.request('PUT', `${base()}/${posted.id}`, {
      token: world.admin.token,
      body: { body: { markdown: 'Mine now' } },
    });
    expect(byOther.status).toBe(403);
    const edited = await t.request('PUT', `${base()}/${posted.id}`, { token: world.editor.token, body: { body: { markdown: 'Edited' } } });
    expect(edited.body).toMatchObject({ body: { markdown: 'Edited' }, editedAt: t.clock.now().toISOString() });
    expect((await t.request('PUT', `${base()}/${posted.id}`, { token: world.reader.token, body: { resolved: true } })).status).toBe(403);

    await publish(t.prisma, space.id, { pages: [page('guide', 'Guide v2', { position: 1 })] });
    const after = await t.request('GET', `${base()}/${posted.id}`, { token: world.reader.token });
    expect(after.body.target.page).toMatchObject({ id: 'guide', title: 'Guide v2', outdated: true });
    expect(after.body.target.revision).toBe(posted.target.revision);
  });

  it('adds and removes reactions idempotently, grouped with counts and users', async () => {
    const posted = (await post(world.editor, { body: { markdown: 'React' } })).body;
    const react = (person: Person, body: unknown) => t.request('PUT', `${base()}/${posted.id}`, { token: person.token, body });
    await react(world.admin, { addedReactions: ['🎉', '👍'] });
    await react(world.admin, { addedReactions: ['🎉'] });
    t.clock.advanceMs(1000);
    const res = await react(world.commenter, { addedReactions: ['🎉'] });
    expectMatchesSpec('0202', 'put', '/spaces/{spaceId}/comments/{commentId}', 200, res.body);
    expect(res.body.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([
      ['🎉', 2],
      ['👍', 1],
    ]);
    expect(res.body.reactions[0].users.map((u: { user: { id: string } }) => u.user.id)).toEqual([
      world.admin.userId,
      world.commenter.userId,
    ]);
    const removed = await react(world.admin, { removedReactions: ['🎉', '👍'] });
    expect(removed.body.reactions).toMatchObject([{ emoji: '🎉', count: 1 }]);
    for (const addedReactions of [['not an emoji'], [''], Array(51).fill('👍')]) {
      const bad = await react(world.admin, { addedReactions });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/^Invalid "addedReactions/);
    }
    expect((await react(world.reader, { addedReactions: ['👍'] })).status).toBe(403);
  });

  it('loses no reaction of 50 users reacting at once', async () => {
    const posted = (await post(world.editor, { body: { markdown: 'Popular' } })).body;
    const people = await Promise.all(
      Array.from({ length: 50 }, async () =>
        buildMember(t.prisma, { organizationId: world.organizationId, role: 'comment', user: await buildUser(t.prisma) }),
      ),
    );
    const results = await Promise.all(
      people.map((person) => t.request('PUT', `${base()}/${posted.id}`, { token: person.token, body: { addedReactions: ['🚀'] } })),
    );
    expect(results.every((res) => res.status === 200)).toBe(true);
    const res = await t.request('GET', `${base()}/${posted.id}`, { token: world.admin.token });
    expect(res.body.reactions).toMatchObject([{ emoji: '🚀', count: 50 }]);
  });
});

describe('DELETE /v1/spaces/{spaceId}/comments/{commentId}', () => {
  it('is for the author or a space admin, and removes replies and reactions', async () => {
    const api = gitbookClient('0202', t.url, world.editor.token);
    const posted = (await post(world.editor, { body: { markdown: 'Bye' } })).body;
    await t.request('POST', `${base()}/${posted.id}/replies`, { token: world.commenter.token, body: { body: { markdown: 'Re' } } });
    await t.request('PUT', `${base()}/${posted.id}`, { token: world.commenter.token, body: { addedReactions: ['👍'] } });
    expect((await t.request('DELETE', `${base()}/${posted.id}`, { token: world.commenter.token })).status).toBe(403);
    const res = await api.spaces.deleteCommentInSpace(space.id, posted.id);
    expect(res.status).toBe(205);
    expect(await t.prisma.commentReply.count({ where: { commentId: posted.id } })).toBe(0);
    expect(await t.prisma.commentReaction.count({ where: { commentId: posted.id } })).toBe(0);
    expect((await t.request('GET', `${base()}/${posted.id}`, { token: world.admin.token })).status).toBe(404);
    const other = (await post(world.editor, { body: { markdown: 'Admin removes' } })).body;
    expect((await t.request('DELETE', `${base()}/${other.id}`, { token: world.creator.token })).status).toBe(205);
  });
});

describe('comment replies', () => {
  it('posts, lists, gets, edits, reacts to and deletes replies through the official client, matching the published spec', async () => {
    const comment = (await post(world.editor, { body: { markdown: 'Thread' } })).body;
    const api = gitbookClient('0202', t.url, world.commenter.token);
    const { data: reply } = await api.spaces.postCommentReplyInSpace(space.id, comment.id, { body: { markdown: 'First' } });
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/comments/{commentId}/replies', 200, reply);
    expect(reply).toMatchObject({ object: 'comment-reply', body: { markdown: 'First' }, postedBy: { id: world.commenter.userId } });
    expect(reply.urls.location).toBe(`${t.url}/v1/spaces/${space.id}/comments/${comment.id}/replies/${reply.id}`);
    t.clock.advanceMs(1000);
    await t.request('POST', `${base()}/${comment.id}/replies`, { token: world.admin.token, body: { body: { markdown: 'Second' } } });

    const { data: list } = await api.spaces.listCommentRepliesInSpace(space.id, comment.id, { format: 'document' });
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/comments/{commentId}/replies', 200, list);
    expect(list.count).toBe(2);
    expect(list.items[0].body).toHaveProperty('document');
    const { data: got } = await api.spaces.getCommentReplyInSpace(space.id, comment.id, reply.id);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', 200, got);
    const { data: parent } = await api.spaces.getCommentInSpace(space.id, comment.id);
    expect(parent.replies).toBe(2);
    expect(parent.repliers.map((r) => r.user.id)).toEqual([world.admin.userId, world.commenter.userId]);

    const { data: edited } = await api.spaces.updateCommentReplyInSpace(space.id, comment.id, reply.id, {
      body: { markdown: 'First, edited' },
      addedReactions: ['👍'],
    });
    expectMatchesSpec('0202', 'put', '/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', 200, edited);
    expect(edited).toMatchObject({ body: { markdown: 'First, edited' }, reactions: [{ emoji: '👍', count: 1 }] });
    const replyPath = `${base()}/${comment.id}/replies/${reply.id}`;
    expect((await t.request('PUT', replyPath, { token: world.admin.token, body: { body: { markdown: 'x' } } })).status).toBe(403);
    expect((await t.request('DELETE', replyPath, { token: world.editor.token })).status).toBe(403);
    expect((await api.spaces.deleteCommentReplyInSpace(space.id, comment.id, reply.id)).status).toBe(205);
    expect((await t.request('GET', replyPath, { token: world.admin.token })).status).toBe(404);
    expect((await t.request('GET', `${base()}/${comment.id}/replies`, { token: world.outsider.token })).status).toBe(404);
  });
});

describe('statement counts', () => {
  it('lists comments with reactions and repliers in statements that do not grow with the page', async () => {
    const busy = await buildSpace(t.prisma, { organizationId: world.organizationId });
    await publish(t.prisma, busy.id, { pages: [page('p', 'P')] });
    const { revisionId } = await t.prisma.space.findUniqueOrThrow({ where: { id: busy.id } });
    const ids = Array.from({ length: 1000 }, (_, i) => `cmt${String(i).padStart(5, '0')}`);
    await t.prisma.comment.createMany({
      data: ids.map((id, i) => ({
        id,
        spaceId: busy.id,
        pageId: i % 2 ? 'p' : null,
        postedById: world.editor.userId,
        body: { markdown: `#${i}`, revisionId },
      })),
    });
    await t.prisma.commentReply.createMany({
      data: ids.map((commentId, i) => ({
        id: `rep${i}`,
        commentId,
        postedById: i % 3 ? world.admin.userId : world.reader.userId,
        body: { markdown: 'r' },
      })),
    });
    await t.prisma.commentReaction.createMany({
      data: ids.flatMap((commentId) => [
        { commentId, userId: world.admin.userId, emoji: '👍' },
        { commentId, userId: world.editor.userId, emoji: '🎉' },
      ]),
    });
    const small = await t.counted('GET', `${base(busy.id)}?limit=2`, { token: world.admin.token });
    const large = await t.counted('GET', `${base(busy.id)}?limit=1000`, { token: world.admin.token });
    expect(large.body.items).toHaveLength(1000);
    expect(large.body.items[1]).toMatchObject({ replies: 1, reactions: [{ count: 1 }, { count: 1 }] });
    expect(large.statements).toBe(small.statements);
  });
});

describe('mentions', () => {
  const graphql = async (person: Person, query: string, variables: Record<string, unknown> = {}) => {
    const res = await t.request('POST', '/graphql', { token: person.token, body: { query, variables } });
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  const mentionsOf = async (person: Person) =>
    (await graphql(person, '{ mentions(limit: 100) { count items { mentionedAt comment { id } reply { id } } } }')).mentions as {
      count: number;
      items: { mentionedAt: string; comment: { id: string }; reply: { id: string } | null }[];
    };
  const mentionedIn = async (commentId: string) =>
    (
      await graphql(world.admin, 'query($s: ID!, $c: ID!) { space(id: $s) { comment(id: $c) { mentions { id } } } }', {
        s: space.id,
        c: commentId,
      })
    ).space.comment.mentions
      .map((user: { id: string }) => user.id)
      .sort();

  it('records the members a body mentions, in its text only, and lists them for the mentioned user', async () => {
    const { editor, reader, guest, outsider, admin, commenter } = world;
    const markdown = [
      `Ping @${editor.userId} and @${reader.userId}, @${guest.userId} and @${outsider.userId} (not a member).`,
      `Not in code: \`@${admin.userId}\`, nor in [an address](https://example.com/@${admin.userId}), nor x@${admin.userId}.`,
      `Myself: @${commenter.userId}; twice: @${editor.userId}.`,
    ].join('\n\n');
    const res = await post(commenter, { body: { markdown } });
    expect(res.status).toBe(200);
    expect(res.body.body.markdown).toBe(markdown);
    expect(await mentionedIn(res.body.id)).toEqual([editor.userId, reader.userId, guest.userId].sort());

    const editorMentions = await mentionsOf(editor);
    expect(editorMentions.items[0]).toMatchObject({ comment: { id: res.body.id }, reply: null });
    expect((await mentionsOf(reader)).items.map((item) => item.comment.id)).toContain(res.body.id);
    // A guest cannot see the space: the mention is kept, and not listed.
    expect(await mentionsOf(guest)).toEqual({ count: 0, items: [] });
    expect((await mentionsOf(admin)).items.map((item) => item.comment.id)).not.toContain(res.body.id);
  });

  it('shows mentions as mention inlines in the document form, and reads them back from one', async () => {
    const res = await post(world.commenter, { body: { markdown: `Over to @${world.editor.userId}.` } });
    const asDocument = await t.request('GET', `${base()}/${res.body.id}?format=document`, { token: world.editor.token });
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/comments/{commentId}', 200, asDocument.body);
    const [paragraph] = asDocument.body.body.document.nodes;
    expect(paragraph.nodes).toEqual([
      { object: 'text', leaves: [{ object: 'leaf', text: 'Over to ', marks: [] }] },
      { object: 'inline', type: 'mention', data: { ref: { kind: 'user', user: world.editor.userId } }, isVoid: true },
      { object: 'text', leaves: [{ object: 'leaf', text: '.', marks: [] }] },
    ]);
    const reposted = await post(world.commenter, { body: { document: asDocument.body.body.document } });
    expect(reposted.body.body.markdown.trim()).toBe(`Over to @${world.editor.userId}.`);
    expect(await mentionedIn(reposted.body.id)).toEqual([world.editor.userId]);
  });

  it('replaces a body’s mentions when it is edited, keeps them apart per reply, and drops them with the comment', async () => {
    const { commenter, editor, reader, admin } = world;
    const comment = await post(commenter, { body: { markdown: `@${editor.userId} @${reader.userId}` } });
    const before = (await mentionsOf(reader)).items.find((item) => item.comment.id === comment.body.id);
    t.clock.advanceMs(1000);
    const edited = await t.request('PUT', `${base()}/${comment.body.id}`, {
      token: commenter.token,
      body: { body: { markdown: `Only @${reader.userId} now` } },
    });
    expect(edited.status).toBe(200);
    expect(await mentionedIn(comment.body.id)).toEqual([reader.userId]);
    expect((await mentionsOf(editor)).items.map((item) => item.comment.id)).not.toContain(comment.body.id);
    const after = (await mentionsOf(reader)).items.find((item) => item.comment.id === comment.body.id);
    expect(after?.mentionedAt).toBe(before?.mentionedAt);

    const reply = await t.request('POST', `${base()}/${comment.body.id}/replies`, {
      token: editor.token,
      body: { body: { markdown: `cc @${admin.userId}` } },
    });
    expect((await mentionsOf(admin)).items[0]).toMatchObject({ comment: { id: comment.body.id }, reply: { id: reply.body.id } });
    expect(await mentionedIn(comment.body.id)).toEqual([reader.userId]);

    await t.request('DELETE', `${base()}/${comment.body.id}`, { token: commenter.token });
    expect(await t.prisma.commentMention.count({ where: { commentId: comment.body.id } })).toBe(0);
  });

  it('lists mentions in statements that do not grow with the page', async () => {
    const comments = await Promise.all(
      Array.from({ length: 30 }, () => post(world.commenter, { body: { markdown: `Hey @${world.reviewer.userId}` } })),
    );
    expect(comments.every((res) => res.status === 200)).toBe(true);
    const query = (limit: number) => ({
      token: world.reviewer.token,
      body: { query: `{ mentions(limit: ${limit}) { items { comment { id body permissions { edit } postedBy { id } } } } }` },
    });
    const small = await t.counted('POST', '/graphql', query(2));
    const large = await t.counted('POST', '/graphql', query(30));
    expect(large.body.data.mentions.items).toHaveLength(30);
    expect(large.statements).toBe(small.statements);
  });
});

describe('comment authors and table cells', () => {
  it('filters a list by its authors, through the official client', async () => {
    const own = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const byEditor = await post(world.editor, { body: { markdown: 'e' } }, own.id);
    t.clock.advanceMs(1000);
    const byAdmin = await post(world.admin, { body: { markdown: 'a' } }, own.id);
    await post(world.commenter, { body: { markdown: 'c' } }, own.id);
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data } = await api.spaces.listCommentsInSpace(own.id, { authors: [world.editor.userId, world.admin.userId], order: 'asc' });
    expect(data.items.map((c) => c.id)).toEqual([byEditor.body.id, byAdmin.body.id]);
    const one = await t.request('GET', `${base(own.id)}?authors=${world.editor.userId}`, { token: world.reader.token });
    expect(one.body.items.map((c: { id: string }) => c.id)).toEqual([byEditor.body.id]);
    expect(one.body.count).toBe(1);
  });

  it('anchors a comment to a table cell of a page', async () => {
    const tableCell = { record: 'row1', definition: 'col1' };
    const res = await post(world.editor, { body: { markdown: 'Wrong value' }, page: 'guide', tableCell });
    expect(res.status).toBe(200);
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/comments', 200, res.body);
    expect(res.body.target).toMatchObject({ tableCell, page: { id: 'guide' } });
    const read = await t.request('GET', `${base()}/${res.body.id}`, { token: world.reader.token });
    expect(read.body.target.tableCell).toEqual(tableCell);
    const plain = await post(world.editor, { body: { markdown: 'No cell' } });
    expect(plain.body.target.tableCell).toBeUndefined();
    const noPage = await post(world.editor, { body: { markdown: 'x' }, tableCell });
    expect(noPage.status).toBe(400);
    expect(noPage.body.error.message).toMatch(/^Invalid "tableCell"/);
    const empty = await post(world.editor, { body: { markdown: 'x' }, page: 'guide', tableCell: { record: '', definition: 'c' } });
    expect(empty.status).toBe(400);
  });
});

describe('the events of comments', () => {
  const events = (spaceId: string) =>
    t.prisma.auditEvent.findMany({ where: { spaceId }, orderBy: [{ occurredAt: 'asc' }, { action: 'asc' }] });

  it('records posting, editing, resolving, reopening and deleting comments and replies, each by its actor', async () => {
    const own = await buildSpace(t.prisma, { organizationId: world.organizationId });
    await publish(t.prisma, own.id, { pages: [page('intro', 'Intro')] });
    const comment = (await post(world.commenter, { body: { markdown: 'First thought' }, page: 'intro' }, own.id)).body;
    const at = `${base(own.id)}/${comment.id}`;
    const put = (person: Person, path: string, body: unknown) => t.request('PUT', path, { token: person.token, body });
    t.clock.advanceMs(1000);
    expect((await put(world.commenter, at, { body: { markdown: 'Second thought' } })).status).toBe(200);
    t.clock.advanceMs(1000);
    expect((await put(world.admin, at, { resolved: true })).status).toBe(200);
    t.clock.advanceMs(1000);
    expect((await put(world.admin, at, { resolved: false })).status).toBe(200);
    t.clock.advanceMs(1000);
    const reply = (await t.request('POST', `${at}/replies`, { token: world.editor.token, body: { body: { markdown: 'Agreed' } } })).body;
    t.clock.advanceMs(1000);
    expect((await put(world.editor, `${at}/replies/${reply.id}`, { body: { markdown: 'Agreed, mostly' } })).status).toBe(200);
    t.clock.advanceMs(1000);
    expect((await t.request('DELETE', `${at}/replies/${reply.id}`, { token: world.editor.token })).status).toBe(205);
    t.clock.advanceMs(1000);
    expect((await t.request('DELETE', at, { token: world.admin.token })).status).toBe(205);

    const recorded = await events(own.id);
    expect(recorded.map((event) => [event.action, event.actorId, event.targetType])).toEqual([
      ['comment_created', world.commenter.userId, 'comment'],
      ['comment_updated', world.commenter.userId, 'comment'],
      ['comment_resolved', world.admin.userId, 'comment'],
      ['comment_reopened', world.admin.userId, 'comment'],
      ['comment_reply_created', world.editor.userId, 'comment-reply'],
      ['comment_reply_updated', world.editor.userId, 'comment-reply'],
      ['comment_reply_deleted', world.editor.userId, 'comment-reply'],
      ['comment_deleted', world.admin.userId, 'comment'],
    ]);
    expect(recorded[0]).toMatchObject({
      organizationId: world.organizationId,
      actorType: 'user',
      source: 'api',
      targetId: comment.id,
      targetLabel: 'First thought',
      payload: { pageId: 'intro' },
    });
    expect(recorded[1].targetLabel).toBe('Second thought');
    expect(recorded[5]).toMatchObject({ targetId: reply.id, targetLabel: 'Agreed, mostly', payload: { commentId: comment.id } });
  });

  it('records nothing for a refused change, nor for reactions or a resolve of a resolved comment', async () => {
    const own = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const comment = (await post(world.commenter, { body: { markdown: 'Mine' } }, own.id)).body;
    const at = `${base(own.id)}/${comment.id}`;
    expect((await t.request('PUT', at, { token: world.admin.token, body: { resolved: true } })).status).toBe(200);
    const before = (await events(own.id)).length;
    expect((await post(world.reader, { body: { markdown: 'No' } }, own.id)).status).toBe(403);
    expect((await t.request('PUT', at, { token: world.editor.token, body: { body: { markdown: 'Not yours' } } })).status).toBe(403);
    expect((await t.request('DELETE', at, { token: world.editor.token })).status).toBe(403);
    expect((await t.request('PUT', at, { token: world.editor.token, body: { addedReactions: ['👍'] } })).status).toBe(200);
    expect((await t.request('PUT', at, { token: world.admin.token, body: { resolved: true } })).status).toBe(200);
    expect(await events(own.id)).toHaveLength(before);
  });
});
