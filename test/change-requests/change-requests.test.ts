// Change requests: creation (a draft on a line of its own, numbered 1, 2, ... per space, also under concurrency), reading
// by id or number, subject and status changes along the allowed transitions, a description and links kept and answered
// on every read (links replaced as a whole), the space's list with its filters and pages, open-comment counts and
// `outdated`, the space's counters, and who may do what.
import { beforeAll, describe, expect, it } from 'vitest';
import { pageVersionHooks } from '../../src/composition.js';
import type { ChangeRequest, Space } from '../../src/generated/prisma/client.js';
import { newId } from '../../src/kernel/ids.js';
import { MAIN, writeRevision } from '../../src/revisions/store.js';
import { type Person, useApi, walk } from '../support/app.js';
import { buildMember, buildSpace, type SpaceOverrides } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let acme: string;
beforeAll(() => {
  acme = world.organizationId;
});

const UNKNOWN_ID = 'unknownChangeReq0001';
const base = (spaceId: string) => `/v1/spaces/${spaceId}/change-requests`;
const create = (token: string | null, spaceId: string, body?: unknown) => t.request('POST', base(spaceId), { token, body });
const patch = (token: string | null, spaceId: string, id: string | number, body: unknown) =>
  t.request('PATCH', `${base(spaceId)}/${id}`, { token, body });
const newSpace = (overrides: SpaceOverrides = {}) => buildSpace(t.prisma, { organizationId: acme, ...overrides });

/** A change request created through the API by the admin. */
async function changeRequest(spaceId: string, subject = 'Change'): Promise<ChangeRequest & { comments: number; outdated: boolean }> {
  const res = await create(world.admin.token, spaceId, { subject });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Writes a revision of the space's primary content and makes it current, as a merge or a live edit would. */
async function advanceSpace(spaceId: string) {
  await t.prisma.$transaction(async (tx) => {
    const space = await tx.space.findUniqueOrThrow({ where: { id: spaceId } });
    const parent = await tx.revision.findUniqueOrThrow({ where: { id: space.revisionId! } });
    const revision = await writeRevision(
      tx,
      pageVersionHooks,
      { spaceId, line: MAIN, parent, type: 'edits', createdById: world.admin.userId },
      {},
    );
    await tx.space.update({ where: { id: spaceId }, data: { revisionId: revision.id } });
  });
}

const counters = async (spaceId: string) => {
  const { body } = await t.request('GET', `/v1/spaces/${spaceId}`, { token: world.admin.token });
  return { all: body.changeRequests, open: body.changeRequestsOpen, draft: body.changeRequestsDraft };
};

describe('POST /v1/spaces/{spaceId}/change-requests', () => {
  it('creates a draft on a line of its own from the current revision (201, Location) through the official client', async () => {
    const space = await newSpace();
    const api = gitbookClient('0202', t.url, world.editor.token);
    const res = await api.spaces.createChangeRequest(space.id, { subject: 'Fix typos' });
    expect(res.status).toBe(201);
    const data = res.data;
    expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/change-requests', 201, data);
    expect(res.headers.get('location')).toBe(data.urls.location);
    expect(data.urls.location).toBe(`${t.url}/v1/spaces/${space.id}/change-requests/${data.id}`);
    expect(data).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'draft',
      subject: 'Fix typos',
      space: space.id,
      revisionInitial: space.revisionId,
      comments: 0,
      outdated: false,
      createdBy: { id: world.editor.userId, object: 'user' },
    });
    expect(data).not.toHaveProperty('revisionMerged');
    const revision = await t.prisma.revision.findUniqueOrThrow({ where: { id: data.revision } });
    const initial = await t.prisma.revision.findUniqueOrThrow({ where: { id: space.revisionId! } });
    expect(revision).toMatchObject({
      spaceId: space.id,
      line: data.id,
      seq: 1,
      baseSeq: initial.seq,
      type: 'edits',
      parents: [initial.id],
      createdById: world.editor.userId,
    });
    expect((await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } })).changeRequestSeq).toBe(1);
  });

  it('takes no body (an empty subject), and ignores what GitBook accepts beside the subject (template)', async () => {
    const space = await newSpace();
    const bare = await create(world.admin.token, space.id);
    expect(bare.status).toBe(201);
    expect(bare.body).toMatchObject({ number: 1, subject: '' });
    const templated = await create(world.admin.token, space.id, { subject: 'From template', template: { id: 'tpl' }, agentTaskId: 'x' });
    expect(templated.status).toBe(201);
    expect(templated.body).toMatchObject({ number: 2, subject: 'From template' });
  });

  it('numbers 50 concurrent creations in one space 1 to 50, each once', async () => {
    const space = await newSpace();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => create(world.editor.token, space.id, { subject: `CR ${i}` })));
    expect(results.map((res) => res.status)).toEqual(Array(50).fill(201));
    expect(results.map((res) => res.body.number as number).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } })).changeRequestSeq).toBe(50);
    expect(await t.prisma.revision.count({ where: { spaceId: space.id, line: { not: MAIN } } })).toBe(50);
    expect(await counters(space.id)).toEqual({ all: 50, open: 0, draft: 50 });
  });

  it('refuses a subject over 100 characters or null (400), and writes nothing', async () => {
    const space = await newSpace();
    expect((await create(world.admin.token, space.id, { subject: 'x'.repeat(100) })).status).toBe(201);
    for (const subject of ['x'.repeat(101), null, 7]) {
      const res = await create(world.admin.token, space.id, { subject });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^Invalid "subject"/);
    }
    expect(await t.prisma.changeRequest.count({ where: { spaceId: space.id } })).toBe(1);
  });

  it('needs edit on the space: 403 below it, 404 for who cannot see it or another organization’s, 401 without token', async () => {
    const space = await newSpace();
    for (const person of [world.commenter, world.reader]) expect((await create(person.token, space.id)).status).toBe(403);
    for (const person of [world.guest, world.outsider]) expect((await create(person.token, space.id)).status).toBe(404);
    expect((await create(null, space.id)).status).toBe(401);
    expect((await create(world.admin.token, UNKNOWN_ID)).status).toBe(404);
    const theirs = await buildSpace(t.prisma, { organizationId: world.outsiderOrganizationId });
    expect((await create(world.admin.token, theirs.id)).status).toBe(404);
    // A member granted edit on the space creates, whatever their role.
    await t.prisma.contentGrant.create({
      data: { id: newId(), organizationId: acme, spaceId: space.id, userId: world.guest.userId, role: 'edit' },
    });
    expect((await create(world.guest.token, space.id)).status).toBe(201);
    expect(await t.prisma.changeRequest.count({ where: { spaceId: space.id } })).toBe(1);
  });

  it('refuses a deleted space (409)', async () => {
    const space = await newSpace({ deletedAt: t.clock.now() });
    const res = await create(world.admin.token, space.id);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('The space is deleted; restore it first.');
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}', () => {
  it('reads a change request by id or by number through the official client, matching the spec', async () => {
    const space = await newSpace();
    await changeRequest(space.id, 'First');
    const second = await changeRequest(space.id, 'Second');
    const api = gitbookClient('0202', t.url, world.reader.token);
    const byId = await api.spaces.getChangeRequestById(space.id, second.id);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/change-requests/{changeRequestId}', 200, byId.data);
    expect(byId.data).toEqual(second);
    expect((await api.spaces.getChangeRequestById(space.id, '2')).data).toEqual(second);
    expect((await api.spaces.getChangeRequestById(space.id, '1')).data.subject).toBe('First');
  });

  it('answers 404 for an unknown id or number, another space’s change request, and who cannot see the space; 401 without token', async () => {
    const space = await newSpace();
    const other = await newSpace();
    const mine = await changeRequest(space.id);
    const get = (token: string | null, spaceId: string, id: string) =>
      t.request('GET', `${base(spaceId)}/${id}`, { token }).then((res) => res.status);
    expect(await get(world.admin.token, space.id, UNKNOWN_ID)).toBe(404);
    expect(await get(world.admin.token, space.id, '2')).toBe(404);
    expect(await get(world.admin.token, space.id, '0')).toBe(404);
    expect(await get(world.admin.token, space.id, '99999999999')).toBe(404);
    expect(await get(world.admin.token, other.id, mine.id)).toBe(404);
    expect(await get(world.admin.token, other.id, '1')).toBe(404);
    const res = await t.request('GET', `${base(space.id)}/${UNKNOWN_ID}`, { token: world.admin.token });
    expect(res.body).toEqual({ error: { code: 404, message: 'Change request not found' } });
    for (const person of [world.guest, world.outsider]) expect(await get(person.token, space.id, mine.id)).toBe(404);
    expect(await get(null, space.id, mine.id)).toBe(401);
    expect(await get(world.reader.token, space.id, mine.id)).toBe(200);
  });

  it('counts open comments only, and is outdated once the space’s content moves on', async () => {
    const space = await newSpace();
    const cr = await changeRequest(space.id);
    const comment = (status: 'open' | 'resolved', changeRequestId: string | null) =>
      t.prisma.comment.create({
        data: { id: newId(), spaceId: space.id, changeRequestId, postedById: world.admin.userId, body: { markdown: 'Hm' }, status },
      });
    await Promise.all([comment('open', cr.id), comment('open', cr.id), comment('resolved', cr.id), comment('open', null)]);
    const read = async (id: string) => (await t.request('GET', `${base(space.id)}/${id}`, { token: world.admin.token })).body;
    expect(await read(cr.id)).toMatchObject({ comments: 2, outdated: false });
    await advanceSpace(space.id);
    expect(await read(cr.id)).toMatchObject({ comments: 2, outdated: true });
    const later = await changeRequest(space.id);
    expect(later.outdated).toBe(false);
    expect(await read(later.id)).toMatchObject({ comments: 0, outdated: false });
    // A merged change request is in the space's content: never outdated.
    await t.prisma.changeRequest.update({ where: { id: cr.id }, data: { status: 'merged' } });
    expect(await read(cr.id)).toMatchObject({ status: 'merged', outdated: false });
  });
});

describe('PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}', () => {
  it('changes the subject and the status through the official client, by id or number, matching the spec', async () => {
    const space = await newSpace();
    const cr = await changeRequest(space.id, 'Old');
    t.clock.advanceMs(60_000);
    const api = gitbookClient('0202', t.url, world.editor.token);
    const { data, status } = await api.spaces.updateChangeRequestById(space.id, cr.id, { subject: 'New', status: 'open' });
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'patch', '/spaces/{spaceId}/change-requests/{changeRequestId}', 200, data);
    expect(data).toMatchObject({ id: cr.id, subject: 'New', status: 'open', createdAt: cr.createdAt });
    expect(new Date(data.updatedAt).getTime()).toBe(new Date(cr.updatedAt).getTime() + 60_000);
    const byNumber = await patch(world.editor.token, space.id, 1, { subject: 'Newer' });
    expect(byNumber.body).toMatchObject({ id: cr.id, subject: 'Newer', status: 'open' });
    // Nothing to change: the change request as it is, updatedAt included.
    t.clock.advanceMs(60_000);
    expect((await patch(world.editor.token, space.id, cr.id, {})).body).toEqual(byNumber.body);
    expect((await patch(world.editor.token, space.id, cr.id, { subject: 'Newer', status: 'open' })).body).toEqual(byNumber.body);
  });

  it('allows draft -> open -> draft, draft or open -> archived -> open; anything else is 409 naming both states', async () => {
    const space = await newSpace();
    const allowed: Record<string, string[]> = {
      draft: ['draft', 'open', 'archived'],
      open: ['open', 'draft', 'archived'],
      archived: ['archived', 'open'],
    };
    for (const from of ['draft', 'open', 'archived', 'merged']) {
      for (const to of ['draft', 'open', 'archived']) {
        const cr = await changeRequest(space.id);
        await t.prisma.changeRequest.update({ where: { id: cr.id }, data: { status: from as ChangeRequest['status'] } });
        const res = await patch(world.admin.token, space.id, cr.id, { status: to });
        if (allowed[from]?.includes(to)) {
          expect(res.status, `${from} -> ${to}`).toBe(200);
          expect(res.body.status).toBe(to);
        } else {
          expect(res.status, `${from} -> ${to}`).toBe(409);
          expect(res.body.error.message).toBe(`A change request cannot go from "${from}" to "${to}".`);
          expect((await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: cr.id } })).status).toBe(from);
        }
      }
    }
  });

  it('keeps a merged change request’s subject (409), and refuses merged as a status (400)', async () => {
    const space = await newSpace();
    const cr = await changeRequest(space.id, 'Shipped');
    const merge = await patch(world.admin.token, space.id, cr.id, { status: 'merged' });
    expect(merge.status).toBe(400);
    expect(merge.body.error.message).toBe('Invalid "status": must be one of "draft", "open", "archived".');
    await t.prisma.changeRequest.update({ where: { id: cr.id }, data: { status: 'merged' } });
    const renamed = await patch(world.admin.token, space.id, cr.id, { subject: 'Renamed' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error.message).toBe('The change request is merged; its subject can no longer change.');
    expect((await patch(world.admin.token, space.id, cr.id, { subject: 'Shipped' })).status).toBe(200);
  });

  it('refuses an overlong or null subject, an unknown or null status (400)', async () => {
    const space = await newSpace();
    const cr = await changeRequest(space.id, 'Kept');
    for (const [body, field] of [
      [{ subject: 'x'.repeat(101) }, 'subject'],
      [{ subject: null }, 'subject'],
      [{ status: 'closed' }, 'status'],
      [{ status: null }, 'status'],
    ] as const) {
      const res = await patch(world.admin.token, space.id, cr.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^Invalid "${field}"`));
    }
    expect((await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: cr.id } })).subject).toBe('Kept');
  });

  it('needs edit on the space: 403 below it, 404 for who cannot see it, for an unknown change request, 401 without token', async () => {
    const space = await newSpace();
    const cr = await changeRequest(space.id, 'Kept');
    for (const person of [world.commenter, world.reader])
      expect((await patch(person.token, space.id, cr.id, { subject: 'No' })).status).toBe(403);
    for (const person of [world.guest, world.outsider])
      expect((await patch(person.token, space.id, cr.id, { subject: 'No' })).status).toBe(404);
    expect((await patch(null, space.id, cr.id, { subject: 'No' })).status).toBe(401);
    expect((await patch(world.admin.token, space.id, UNKNOWN_ID, { subject: 'No' })).status).toBe(404);
    expect((await patch(world.admin.token, (await newSpace()).id, cr.id, { subject: 'No' })).status).toBe(404);
    expect((await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: cr.id } })).subject).toBe('Kept');
    expect((await patch(world.editor.token, space.id, cr.id, { subject: 'Yes' })).status).toBe(200);
  });

  it('keeps the space’s counters right through the statuses', async () => {
    const space = await newSpace();
    const [a, b, c] = [await changeRequest(space.id), await changeRequest(space.id), await changeRequest(space.id)];
    expect(await counters(space.id)).toEqual({ all: 3, open: 0, draft: 3 });
    await patch(world.admin.token, space.id, a.id, { status: 'open' });
    await patch(world.admin.token, space.id, b.id, { status: 'open' });
    expect(await counters(space.id)).toEqual({ all: 3, open: 2, draft: 1 });
    await patch(world.admin.token, space.id, b.id, { status: 'archived' });
    await patch(world.admin.token, space.id, c.id, { status: 'archived' });
    expect(await counters(space.id)).toEqual({ all: 3, open: 1, draft: 0 });
    await patch(world.admin.token, space.id, c.id, { status: 'open' });
    expect(await counters(space.id)).toEqual({ all: 3, open: 2, draft: 0 });
  });
});

/** A JSON document of one paragraph, as GitBook's editor writes a change request's description. */
const paragraph = (text: string) => ({
  object: 'document',
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
});
const ticket = (n: number, title?: string) => ({
  ref: { kind: 'url' as const, url: `https://tickets.example.com/DOC-${n}` },
  ...(title && { title }),
});

describe('a change request’s description and links (PATCH)', () => {
  const CR = '/spaces/{spaceId}/change-requests/{changeRequestId}';

  it('keeps them and answers them on every read, REST through the official client and GraphQL, matching the spec', async () => {
    const space = await newSpace();
    const cr = await changeRequest(space.id, 'Described');
    const api = gitbookClient('0202', t.url, world.editor.token);
    const description = paragraph('Why this change: the install steps were wrong.');
    const { data, status } = await api.spaces.updateChangeRequestById(space.id, cr.id, {
      description: description as never,
      links: [ticket(1, 'The bug'), ticket(2)],
    });
    expect(status).toBe(200);
    for (const version of ['0202', '0181'] as const) expectMatchesSpec(version, 'patch', CR, 200, data);
    expect(data.description).toEqual(description);
    expect(data.links).toEqual([
      { id: expect.any(String), ref: { kind: 'url', url: 'https://tickets.example.com/DOC-1' }, title: 'The bug' },
      { id: expect.any(String), ref: { kind: 'url', url: 'https://tickets.example.com/DOC-2' } },
    ]);
    expect(data.links![0].id).not.toBe(data.links![1].id);

    const read = await gitbookClient('0202', t.url, world.reader.token).spaces.getChangeRequestById(space.id, cr.id);
    expectMatchesSpec('0202', 'get', CR, 200, read.data);
    expect({ description: read.data.description, links: read.data.links }).toEqual({ description, links: data.links });
    const listed = await api.spaces.listChangeRequestsForSpace(space.id, { status: 'draft' } as never);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/change-requests', 200, listed.data);
    expect(listed.data.items.find((item) => item.id === cr.id)).toMatchObject({ description, links: data.links });
    const graphql = await t.request('POST', '/graphql', {
      token: world.reader.token,
      body: {
        query: 'query ($s: ID!, $id: ID!) { changeRequest(spaceId: $s, id: $id) { description links { id ref { kind url } title } } }',
        variables: { s: space.id, id: cr.id },
      },
    });
    expect(graphql.body).toEqual({
      data: { changeRequest: { description, links: data.links!.map((link) => ({ title: null, ...link })) } },
    });

    // Unchanged, nothing is written: updatedAt stays.
    t.clock.advanceMs(60_000);
    const again = await patch(world.editor.token, space.id, cr.id, { description, links: data.links });
    expect(again.body.updatedAt).toBe(data.updatedAt);
  });

  it('replaces the links as a whole: a given id keeps its link, a link without one is new, [] removes them all', async () => {
    const space = await newSpace();
    const cr = await changeRequest(space.id);
    const first = (await patch(world.editor.token, space.id, cr.id, { links: [ticket(1), ticket(2), ticket(3)] })).body.links;
    const replaced = await patch(world.editor.token, space.id, cr.id, {
      links: [{ ...ticket(30, 'Renumbered'), id: first[2].id }, ticket(4), { id: first[0].id, ...ticket(1) }],
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.links).toEqual([
      { id: first[2].id, ref: { kind: 'url', url: 'https://tickets.example.com/DOC-30' }, title: 'Renumbered' },
      { id: expect.any(String), ref: { kind: 'url', url: 'https://tickets.example.com/DOC-4' } },
      first[0],
    ]);
    expect(first.map((link: { id: string }) => link.id)).not.toContain(replaced.body.links[1].id);
    // Left out of a PATCH, the links stay.
    expect((await patch(world.editor.token, space.id, cr.id, { subject: 'Renamed' })).body.links).toEqual(replaced.body.links);
    const removed = await patch(world.editor.token, space.id, cr.id, { links: [] });
    expect(removed.body.links).toEqual([]);
    expectMatchesSpec('0202', 'patch', CR, 200, removed.body);
    expect((await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: cr.id } })).links).toEqual([]);
  });

  it('refuses more than 10 links, a bad link or id, a description that is no JSON document, and null (400), writing nothing', async () => {
    const space = await newSpace();
    const cr = await changeRequest(space.id);
    const [kept] = (await patch(world.editor.token, space.id, cr.id, { links: [ticket(1)] })).body.links;
    const eleven = Array.from({ length: 11 }, (_, i) => ticket(i));
    for (const [body, message] of [
      [{ links: eleven }, 'Invalid "links": must have at most 10 items.'],
      [{ links: [{ ref: { kind: 'page', url: 'https://x.example.com/' } }] }, 'Invalid "links.0.ref.kind": must be one of "url".'],
      [{ links: [{ ref: { kind: 'url', url: 'javascript:alert(1)' } }] }, 'Invalid "links.0.ref.url": must be an http or https URL.'],
      [{ links: [{ ref: { kind: 'url' } }] }, 'Invalid "links.0.ref.url": required.'],
      [{ links: [{ ...ticket(1), title: 'x'.repeat(129) }] }, 'Invalid "links.0.title": must be at most 128 characters.'],
      [
        { links: [ticket(1), { ...ticket(2), id: 'notALinkOfThisOne001' }] },
        'Invalid "links.1.id": is not the id of a link of this change request.',
      ],
      [
        {
          links: [
            { ...ticket(1), id: kept.id },
            { ...ticket(2), id: kept.id },
          ],
        },
        'Invalid "links.1.id": names a link given before it.',
      ],
      [{ links: null }, 'Invalid "links": must not be null.'],
      [{ description: { nodes: [] } }, 'Invalid "description.object": must be one of "document".'],
      [{ description: { object: 'document', data: {} } }, 'Invalid "description.nodes": must be an array of blocks.'],
      [
        { description: { object: 'document', data: {}, nodes: [{ object: 'text' }] } },
        'Invalid "description.nodes.0.object": must be one of "block".',
      ],
      [{ description: 'Why' }, 'Invalid "description": must be a JSON document ({object: "document", data, nodes}).'],
      [{ description: { object: 'document', data: [], nodes: ['text'] } }, 'Invalid "description.data": must be an object.'],
      [{ description: null }, 'Invalid "description": must not be null.'],
    ] as const) {
      const res = await patch(world.editor.token, space.id, cr.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ error: { code: 400, message } });
    }
    const row = await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: cr.id } });
    expect({ description: row.description, links: row.links }).toEqual({ description: null, links: [kept] });
  });

  it('keeps a merged change request’s description (409) but still takes its links', async () => {
    const space = await newSpace();
    const cr = await changeRequest(space.id);
    const description = paragraph('Shipped');
    await patch(world.editor.token, space.id, cr.id, { description });
    await t.prisma.changeRequest.update({ where: { id: cr.id }, data: { status: 'merged' } });
    const changed = await patch(world.editor.token, space.id, cr.id, { description: paragraph('Rewritten') });
    expect(changed.status).toBe(409);
    expect(changed.body.error.message).toBe('The change request is merged; its description can no longer change.');
    const linked = await patch(world.editor.token, space.id, cr.id, { description, links: [ticket(7)] });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ description, links: [{ ref: { url: 'https://tickets.example.com/DOC-7' } }] });
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests', () => {
  let space: Space;
  let other: Person;
  /** Numbers by status, as created below. */
  const numbers = { open: [] as number[], draft: [] as number[], archived: [] as number[] };
  beforeAll(async () => {
    space = await newSpace();
    other = await buildMember(t.prisma, { organizationId: acme, role: 'edit' });
    for (let i = 0; i < 9; i++) {
      const token = i % 3 === 0 ? other.token : world.admin.token;
      const res = await create(token, space.id, { subject: `CR ${i + 1}` });
      const status = (['open', 'draft', 'open', 'archived'] as const)[i % 4];
      if (status !== 'draft') await patch(world.admin.token, space.id, res.body.id, { status: 'open' });
      if (status === 'archived') await patch(world.admin.token, space.id, res.body.id, { status: 'archived' });
      numbers[status].push(res.body.number);
    }
  });

  const list = async (query = '', token = world.admin.token) => {
    const res = await t.request('GET', `${base(space.id)}${query}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const numbersOf = (body: { items: { number: number }[] }) => body.items.map((cr) => cr.number);
  const newestFirst = (values: number[]) => [...values].sort((a, b) => b - a);

  it('lists open change requests by default, newest first, through the official client, matching the spec', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data } = await api.spaces.listChangeRequestsForSpace(space.id);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/change-requests', 200, data);
    expect(numbersOf(data)).toEqual(newestFirst(numbers.open));
    expect(data.count).toBe(numbers.open.length);
    const drafts = await api.spaces.listChangeRequestsForSpace(space.id, { status: 'draft' as never });
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/change-requests', 200, drafts.data);
    expect(numbersOf(drafts.data)).toEqual(newestFirst(numbers.draft));
    expect(numbersOf(await list('?status=archived'))).toEqual(newestFirst(numbers.archived));
    expect(numbersOf(await list('?status=merged'))).toEqual([]);
  });

  it('filters by creator and by contributor (who wrote a revision of the change request)', async () => {
    const all = [...numbers.open, ...numbers.draft, ...numbers.archived];
    const byOther = all.filter((number) => number % 3 === 1);
    const openBy = async (filter: string) => numbersOf(await list(`?status=open&${filter}`));
    expect(await openBy(`creator=${other.userId}`)).toEqual(newestFirst(numbers.open.filter((n) => byOther.includes(n))));
    expect(await openBy(`creator=${world.admin.userId}`)).toEqual(newestFirst(numbers.open.filter((n) => !byOther.includes(n))));
    expect(await openBy(`contributor=${other.userId}`)).toEqual(newestFirst(numbers.open.filter((n) => byOther.includes(n))));
    // The admin writes a revision in the newest open change request created by the other member: both contributed.
    const target = Math.max(...numbers.open.filter((n) => byOther.includes(n)));
    const cr = await t.prisma.changeRequest.findFirstOrThrow({ where: { spaceId: space.id, number: target } });
    await t.prisma.$transaction(async (tx) => {
      const parent = await tx.revision.findUniqueOrThrow({ where: { id: cr.revisionId } });
      const revision = await writeRevision(
        tx,
        pageVersionHooks,
        { spaceId: space.id, line: cr.id, parent, type: 'edits', createdById: world.admin.userId },
        {},
      );
      // Stamped with the service's clock, as a content batch does (Prisma's own stamp is the wall clock).
      await tx.changeRequest.update({ where: { id: cr.id }, data: { revisionId: revision.id, updatedAt: t.clock.now() } });
    });
    expect(await openBy(`contributor=${world.admin.userId}`)).toEqual(
      newestFirst([...numbers.open.filter((n) => !byOther.includes(n)), target]),
    );
    expect(await openBy(`creator=${world.reader.userId}`)).toEqual([]);
    const bad = await t.request('GET', `${base(space.id)}?creator=not%20an%20id`, { token: world.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^Invalid "creator"/);
  });

  it('walks every change request once, with the same statement count whatever the page size', async () => {
    // Every page counts them all.
    const { items, pages } = await walk(t, `${base(space.id)}?status=open&limit=2`, {
      token: world.admin.token,
      eachPage: (page) => expect(page.body.count).toBe(numbers.open.length),
    });
    expect(numbersOf({ items })).toEqual(newestFirst(numbers.open));
    expect(pages).toBe(3);
    // Another filter's page token is not this list's.
    const first = await list('?status=open&limit=1');
    const wrong = await t.request('GET', `${base(space.id)}?status=draft&page=${first.next.page}`, { token: world.admin.token });
    expect(wrong.status).toBe(400);
    const one = await t.counted('GET', `${base(space.id)}?status=open&limit=1`, { token: world.admin.token });
    const all = await t.counted('GET', `${base(space.id)}?status=open&limit=1000`, { token: world.admin.token });
    expect(one.body.items).toHaveLength(1);
    expect(all.body.items.length).toBeGreaterThan(2);
    expect(all.statements).toBe(one.statements);
  });

  it('reads the comments and outdated of a page in one batch', async () => {
    const crowded = await newSpace();
    const created = [];
    for (let i = 0; i < 6; i++) created.push(await changeRequest(crowded.id));
    await advanceSpace(crowded.id);
    created.push(await changeRequest(crowded.id));
    await t.prisma.comment.createMany({
      data: created.map((cr, i) => ({
        id: newId(),
        spaceId: crowded.id,
        changeRequestId: cr.id,
        postedById: world.admin.userId,
        body: {},
        status: i % 2 ? 'open' : 'resolved',
      })),
    });
    const one = await t.counted('GET', `${base(crowded.id)}?status=draft&limit=1`, { token: world.admin.token });
    const all = await t.counted('GET', `${base(crowded.id)}?status=draft`, { token: world.admin.token });
    expect(all.statements).toBe(one.statements);
    expect(
      all.body.items.map((cr: { number: number; comments: number; outdated: boolean }) => [cr.number, cr.comments, cr.outdated]),
    ).toEqual([7, 6, 5, 4, 3, 2, 1].map((number) => [number, (number - 1) % 2, number < 7]));
  });

  it('hangs off the space in GraphQL, each change request with its space and creator, in a constant number of statements', async () => {
    const query = `query ($id: ID!, $limit: Int) { space(id: $id) { changeRequests(status: open, limit: $limit) {
      count items { number createdBy { id } space { id openChangeRequestCount } } } } }`;
    const run = (limit: number) =>
      t.counted('POST', '/graphql', { token: world.admin.token, body: { query, variables: { id: space.id, limit } } });
    const [one, all] = [await run(1), await run(1000)];
    expect(all.body.errors).toBeUndefined();
    const items = all.body.data.space.changeRequests.items;
    expect(items.map((cr: { number: number }) => cr.number)).toEqual(newestFirst(numbers.open));
    expect(new Set(items.map((cr: { space: { id: string } }) => cr.space.id))).toEqual(new Set([space.id]));
    expect(items[0].space.openChangeRequestCount).toBe(numbers.open.length);
    expect(new Set(items.map((cr: { createdBy: { id: string } }) => cr.createdBy.id))).toEqual(new Set([world.admin.userId, other.userId]));
    expect(all.statements).toBe(one.statements);
  });

  it('is for whoever can see the space: 404 otherwise, 400 for an unknown status, 401 without token', async () => {
    expect(numbersOf(await list('', world.reader.token))).toEqual(newestFirst(numbers.open));
    for (const person of [world.guest, world.outsider]) {
      expect((await t.request('GET', base(space.id), { token: person.token })).status).toBe(404);
    }
    expect((await t.request('GET', base(space.id))).status).toBe(401);
    const bad = await t.request('GET', `${base(space.id)}?status=closed`, { token: world.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Invalid "status": must be one of "draft", "open", "archived", "merged".');
  });
});

describe('PATCH with a return preference', () => {
  it('answers 204 without a body for Prefer: return=minimal, the object otherwise, and says which it applied', async () => {
    const space = await newSpace();
    const created = await changeRequest(space.id);
    const minimal = await t.request('PATCH', `${base(space.id)}/${created.number}`, {
      token: world.admin.token,
      body: { subject: 'Quietly renamed' },
      headers: { prefer: 'return=minimal' },
    });
    expect(minimal.status).toBe(204);
    expect(minimal.text).toBe('');
    expect(minimal.headers.get('preference-applied')).toBe('return=minimal');
    expect((await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: created.id } })).subject).toBe('Quietly renamed');

    const full = await t.request('PATCH', `${base(space.id)}/${created.number}`, {
      token: world.admin.token,
      body: { subject: 'Renamed' },
      headers: { prefer: 'return=representation' },
    });
    expect(full.status).toBe(200);
    expect(full.body.subject).toBe('Renamed');
    expect(full.headers.get('preference-applied')).toBe('return=representation');
    const plain = await patch(world.admin.token, space.id, created.number, { subject: 'Again' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('preference-applied')).toBeNull();
    // Errors are errors whatever the preference.
    const refused = await t.request('PATCH', `${base(space.id)}/${created.number}`, {
      token: world.admin.token,
      body: { subject: 'x'.repeat(101) },
      headers: { prefer: 'return=minimal' },
    });
    expect(refused.status).toBe(400);
  });
});

describe('the events of change requests', () => {
  const eventsOf = (changeRequestId: string) =>
    t.prisma.auditEvent.findMany({ where: { targetId: changeRequestId }, orderBy: [{ occurredAt: 'asc' }, { action: 'asc' }] });

  it('records the creation, updates with the fields that changed, archiving and reopening, each by its actor', async () => {
    const space = await newSpace();
    const cr = await changeRequest(space.id, 'Draft');
    t.clock.advanceMs(1000);
    expect((await patch(world.editor.token, space.id, cr.id, { subject: 'Ready', status: 'open' })).status).toBe(200);
    t.clock.advanceMs(1000);
    expect((await patch(world.admin.token, space.id, cr.id, { status: 'archived' })).status).toBe(200);
    t.clock.advanceMs(1000);
    expect((await patch(world.admin.token, space.id, cr.id, { status: 'open' })).status).toBe(200);
    const events = await eventsOf(cr.id);
    expect(events.map((event) => [event.action, event.actorId])).toEqual([
      ['change_request_created', world.admin.userId],
      ['change_request_updated', world.editor.userId],
      ['change_request_archived', world.admin.userId],
      ['change_request_reopened', world.admin.userId],
    ]);
    for (const event of events) {
      expect(event).toMatchObject({
        organizationId: acme,
        actorType: 'user',
        source: 'api',
        targetType: 'change-request',
        spaceId: space.id,
      });
    }
    expect(events[0].targetLabel).toBe('Draft');
    expect(events[1]).toMatchObject({
      targetLabel: 'Ready',
      payload: { number: 1, changed: { subject: { from: 'Draft', to: 'Ready' }, status: { from: 'draft', to: 'open' } } },
    });
    expect(events[2].payload).toMatchObject({ changed: { status: { from: 'open', to: 'archived' } } });
  });

  it('records nothing for a refused change, nor for an update that changes nothing', async () => {
    const space = await newSpace();
    const cr = await changeRequest(space.id, 'Kept');
    const before = await t.prisma.auditEvent.count({ where: { spaceId: space.id } });
    expect((await create(world.reader.token, space.id)).status).toBe(403);
    expect((await patch(world.reader.token, space.id, cr.id, { subject: 'No' })).status).toBe(403);
    expect((await patch(world.admin.token, space.id, cr.id, { status: 'merged' })).status).toBe(400);
    expect((await patch(world.admin.token, space.id, cr.id, { subject: 'Kept' })).status).toBe(200);
    expect(await t.prisma.auditEvent.count({ where: { spaceId: space.id } })).toBe(before);
  });
});
