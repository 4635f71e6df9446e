// No lost updates (README): single-object GETs and writes answer a strong ETag that versions the object's own stored
// state; If-None-Match answers 304; If-Match on a write is checked atomically with it (412 when stale, nothing
// changed), also when 20 writers race with one tag; a content write takes the revision it read.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Person, useApi } from '../support/app.js';
import { buildCollection, buildSite, buildSpace } from '../support/factories.js';

const { t, world } = useApi({ world: true });
let admin: Person;
let acme: string;

beforeAll(() => {
  admin = world.admin;
  acme = world.organizationId;
});

const get = (path: string, headers: Record<string, string> = {}) => t.request('GET', path, { token: admin.token, headers });
const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.request(method, path, { token: admin.token, body, headers });
const tagOf = (res: { headers: Headers }) => res.headers.get('etag');

describe('ETag and If-None-Match', () => {
  it('answers the same strong tag until the object changes, 304 without a body for it, and the PATCH the new one', async () => {
    const space = await buildSpace(t.prisma, { organizationId: acme, title: 'Tagged' });
    const first = await get(`/v1/spaces/${space.id}`);
    expect(first.status).toBe(200);
    const tag = tagOf(first)!;
    expect(tag).toMatch(/^"[^"]+"$/);
    expect(first.body.etag).toBeUndefined();
    expect(tagOf(await get(`/v1/spaces/${space.id}`))).toBe(tag);

    const cached = await get(`/v1/spaces/${space.id}`, { 'if-none-match': tag });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');
    expect(tagOf(cached)).toBe(tag);
    expect((await get(`/v1/spaces/${space.id}`, { 'if-none-match': `"other", W/${tag}` })).status).toBe(304);
    expect((await get(`/v1/spaces/${space.id}`, { 'if-none-match': '"other"' })).status).toBe(200);

    const patched = await send('PATCH', `/v1/spaces/${space.id}`, { title: 'Renamed' });
    expect(patched.status).toBe(200);
    const next = tagOf(patched)!;
    expect(next).not.toBe(tag);
    expect(tagOf(await get(`/v1/spaces/${space.id}`))).toBe(next);
    const again = await get(`/v1/spaces/${space.id}`, { 'if-none-match': tag });
    expect(again.status).toBe(200);
    expect(again.body.title).toBe('Renamed');
  });

  it('changes with every write, two of them in one millisecond of a fixed clock included', async () => {
    const space = await buildSpace(t.prisma, { organizationId: acme });
    const tags = new Set([tagOf(await get(`/v1/spaces/${space.id}`))]);
    for (const title of ['One', 'Two', 'Three']) tags.add(tagOf(await send('PATCH', `/v1/spaces/${space.id}`, { title })));
    expect(tags.size).toBe(4);
  });

  it('does not change with what is derived: a comment, a change request, the permissions of another viewer', async () => {
    const space = await buildSpace(t.prisma, { organizationId: acme });
    const tag = tagOf(await get(`/v1/spaces/${space.id}`));
    const comment = await send('POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: 'Nice.' } });
    expect(comment.status, comment.text).toBe(200);
    const changeRequest = await send('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' });
    expect(changeRequest.status, changeRequest.text).toBe(201);
    const after = await get(`/v1/spaces/${space.id}`);
    expect(after.body.comments).toBe(1);
    expect(tagOf(after)).toBe(tag);
    const asReader = await t.request('GET', `/v1/spaces/${space.id}`, { token: world.reader.token });
    expect(tagOf(asReader)).toBe(tag);
  });

  it('is not answered for lists', async () => {
    const list = await get(`/v1/orgs/${acme}/spaces`);
    expect(list.status).toBe(200);
    expect(tagOf(list)).toBeNull();
  });

  it('is described in the OpenAPI document: the ETag header, and If-None-Match with its 304 on a GET', async () => {
    const document = (await t.request('GET', '/openapi.json')).body;
    const get = document.paths['/spaces/{spaceId}'].get;
    expect(get.responses['200'].headers.ETag).toBeDefined();
    expect(get.responses['304'].headers.ETag).toBeDefined();
    expect(get.parameters.map((p: { name: string }) => p.name)).toContain('If-None-Match');
    expect(document.paths['/spaces/{spaceId}'].patch.responses['200'].headers.ETag).toBeDefined();
    expect(document.paths['/orgs/{organizationId}/spaces'].get.responses['200'].headers.ETag).toBeUndefined();
  });

  it('refuses an If-None-Match or If-Match that is not a list of entity tags', async () => {
    const space = await buildSpace(t.prisma, { organizationId: acme });
    const refused = await get(`/v1/spaces/${space.id}`, { 'if-none-match': 'unquoted' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: { code: 400, message: expect.stringContaining('If-None-Match') } });
    expect((await send('PATCH', `/v1/spaces/${space.id}`, { title: 'x' }, { 'if-match': 'unquoted' })).status).toBe(400);
  });
});

describe('If-Match', () => {
  it('refuses a stale tag with 412 and changes nothing; the current tag, *, and no header write', async () => {
    const space = await buildSpace(t.prisma, { organizationId: acme, title: 'Before' });
    const stale = tagOf(await get(`/v1/spaces/${space.id}`))!;
    const current = tagOf(await send('PATCH', `/v1/spaces/${space.id}`, { title: 'First' }))!;

    const refused = await send('PATCH', `/v1/spaces/${space.id}`, { title: 'Lost' }, { 'if-match': stale });
    expect(refused.status).toBe(412);
    expect(refused.body).toEqual({ error: { code: 412, message: expect.stringContaining('If-Match') } });
    const read = await get(`/v1/spaces/${space.id}`);
    expect(read.body.title).toBe('First');
    expect(tagOf(read)).toBe(current);
    // A weak tag never matches If-Match (strong comparison).
    expect((await send('PATCH', `/v1/spaces/${space.id}`, { title: 'Weak' }, { 'if-match': `W/${current}` })).status).toBe(412);

    const matched = await send('PATCH', `/v1/spaces/${space.id}`, { title: 'Second' }, { 'if-match': `"nope", ${current}` });
    expect(matched.status).toBe(200);
    expect(matched.body.title).toBe('Second');
    expect((await send('PATCH', `/v1/spaces/${space.id}`, { title: 'Third' }, { 'if-match': '*' })).status).toBe(200);
    expect((await send('PATCH', `/v1/spaces/${space.id}`, { title: 'Fourth' })).status).toBe(200);
    expect((await get(`/v1/spaces/${space.id}`)).body.title).toBe('Fourth');
  });

  it('lets exactly one of 20 concurrent writers holding the same tag through', async () => {
    const space = await buildSpace(t.prisma, { organizationId: acme, title: 'Raced' });
    const tag = tagOf(await get(`/v1/spaces/${space.id}`))!;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send('PATCH', `/v1/spaces/${space.id}`, { title: `Writer ${i}` }, { 'if-match': tag })),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(412)]);
    const winner = answers.find((res) => res.status === 200)!;
    const read = await get(`/v1/spaces/${space.id}`);
    expect(read.body.title).toBe(winner.body.title);
    expect(tagOf(read)).toBe(tagOf(winner));
    const events = await t.prisma.auditEvent.count({ where: { targetId: space.id, action: 'space_updated' } });
    expect(events).toBe(1);
  });

  it('costs one statement, only when sent; a GET pays nothing for its tag', async () => {
    const space = await buildSpace(t.prisma, { organizationId: acme });
    const headers = (tag?: string) => ({ token: admin.token, headers: tag ? { 'if-match': tag } : ({} as Record<string, string>) });
    const read = await t.counted('GET', `/v1/spaces/${space.id}`, { token: admin.token });
    const cached = await t.counted('GET', `/v1/spaces/${space.id}`, { token: admin.token, headers: { 'if-none-match': tagOf(read)! } });
    expect(cached.status).toBe(304);
    expect(cached.statements).toBe(read.statements);
    const plain = await t.counted('PATCH', `/v1/spaces/${space.id}`, { ...headers(), body: { title: 'Plain' } });
    const guarded = await t.counted('PATCH', `/v1/spaces/${space.id}`, { ...headers(tagOf(plain)!), body: { title: 'Guarded' } });
    expect(guarded.status).toBe(200);
    expect(guarded.statements).toBe(plain.statements + 1);
  });

  it('guards a space delete, move and transfer', async () => {
    const space = await buildSpace(t.prisma, { organizationId: acme });
    const stale = tagOf(await get(`/v1/spaces/${space.id}`))!;
    await send('PATCH', `/v1/spaces/${space.id}`, { title: 'Moved on' });
    const collection = await buildCollection(t.prisma, { organizationId: acme });
    expect((await send('POST', `/v1/spaces/${space.id}/move`, { parent: collection.id }, { 'if-match': stale })).status).toBe(412);
    const transfer = { organization: world.secondOrganizationId };
    expect((await send('POST', `/v1/spaces/${space.id}/transfer`, transfer, { 'if-match': stale })).status).toBe(412);
    expect((await t.request('DELETE', `/v1/spaces/${space.id}`, { token: admin.token, headers: { 'if-match': stale } })).status).toBe(412);
    const row = await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } });
    expect(row).toMatchObject({ parentId: null, organizationId: acme, deletedAt: null });

    const current = tagOf(await get(`/v1/spaces/${space.id}`))!;
    const moved = await send('POST', `/v1/spaces/${space.id}/move`, { parent: collection.id }, { 'if-match': current });
    expect(moved.status, moved.text).toBe(200);
    expect(tagOf(moved)).not.toBe(current);
    const deleted = await t.request('DELETE', `/v1/spaces/${space.id}`, { token: admin.token, headers: { 'if-match': tagOf(moved)! } });
    expect(deleted.status).toBe(205);
  });

  it('guards a collection update, move, transfer and delete', async () => {
    const collection = await buildCollection(t.prisma, { organizationId: acme, title: 'Docs' });
    const path = `/v1/collections/${collection.id}`;
    const stale = tagOf(await get(path))!;
    const patched = await send('PATCH', path, { title: 'Guides' });
    expect(patched.status).toBe(200);
    expect(tagOf(patched)).not.toBe(stale);
    expect((await send('PATCH', path, { title: 'Lost' }, { 'if-match': stale })).status).toBe(412);
    expect(
      (await send('POST', `${path}/move`, { position: { before: { type: 'space', space: 'x' } } }, { 'if-match': stale })).status,
    ).toBe(412);
    expect((await send('POST', `${path}/transfer`, { organization: world.secondOrganizationId }, { 'if-match': stale })).status).toBe(412);
    expect((await t.request('DELETE', path, { token: admin.token, headers: { 'if-match': stale } })).status).toBe(412);
    expect((await get(path)).body.title).toBe('Guides');
    expect((await t.request('DELETE', path, { token: admin.token, headers: { 'if-match': tagOf(patched)! } })).status).toBeLessThan(300);
  });

  it('guards a site update and delete', async () => {
    const site = await buildSite(t.prisma, { organizationId: acme });
    const path = `/v1/orgs/${acme}/sites/${site.id}`;
    const stale = tagOf(await get(path))!;
    expect(stale).toBeTruthy();
    const patched = await send('PATCH', path, { title: 'New title' });
    expect(patched.status, patched.text).toBe(200);
    expect(tagOf(patched)).not.toBe(stale);
    expect((await send('PATCH', path, { title: 'Lost' }, { 'if-match': stale })).status).toBe(412);
    expect((await t.request('DELETE', path, { token: admin.token, headers: { 'if-match': stale } })).status).toBe(412);
    expect((await get(path)).body.title).toBe('New title');
    expect((await send('PATCH', path, { title: 'Kept' }, { 'if-match': tagOf(patched)! })).status).toBe(200);
  });
});

describe('change requests and content', () => {
  const crPath = (spaceId: string, number: number) => `/v1/spaces/${spaceId}/change-requests/${number}`;
  const insert = (title: string) => ({ changes: [{ operation: 'insert_page', title, document: { markdown: `${title}.\n` } }] });

  async function openChangeRequest() {
    const space = await buildSpace(t.prisma, { organizationId: acme });
    const created = await send('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' });
    expect(created.status, created.text).toBe(201);
    return { space, path: crPath(space.id, created.body.number) };
  }

  it('takes the revision the client read as a content write’s If-Match', async () => {
    const { path } = await openChangeRequest();
    const content = await get(`${path}/content`);
    expect(content.status).toBe(200);
    expect(tagOf(content)).toBe(`"${content.body.id}"`);
    const read = tagOf(content)!;
    const first = await send('POST', `${path}/content`, insert('First'), { 'if-match': read });
    expect(first.status, first.text).toBe(200);
    const stale = await send('POST', `${path}/content`, insert('Lost'), { 'if-match': read });
    expect(stale.status).toBe(412);
    const now = await get(`${path}/content`);
    expect(now.body.pages.map((page: { title: string }) => page.title)).toEqual(['First']);
    const second = await send('POST', `${path}/content`, insert('Second'), { 'if-match': tagOf(now)! });
    expect(second.status, second.text).toBe(200);
  });

  it('guards a change request’s PATCH, update from the space and merge with its tag', async () => {
    const { space, path } = await openChangeRequest();
    const stale = tagOf(await get(path))!;
    await send('POST', `${path}/content`, insert('Page'));
    const current = tagOf(await get(path))!;
    expect(current).not.toBe(stale);
    expect((await send('PATCH', path, { subject: 'Lost' }, { 'if-match': stale })).status).toBe(412);
    expect((await send('POST', `${path}/update`, undefined, { 'if-match': stale })).status).toBe(412);
    expect((await send('POST', `${path}/merge`, undefined, { 'if-match': stale })).status).toBe(412);
    const row = await t.prisma.changeRequest.findFirstOrThrow({ where: { spaceId: space.id } });
    expect(row).toMatchObject({ subject: 'Edit', status: 'draft' });

    const patched = await send('PATCH', path, { subject: 'Kept' }, { 'if-match': current });
    expect(patched.status, patched.text).toBe(200);
    const merged = await send('POST', `${path}/merge`, undefined, { 'if-match': tagOf(patched)! });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.result).toBe('merge');
  });
});
