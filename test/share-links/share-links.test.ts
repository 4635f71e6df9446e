// Share links of a site: creating them (a key stored only hashed and sealed), listing them (site `edit`; the URL with
// the key for admins only), renaming, deactivating (effective on the next request) and deleting them; through
// GitBook's 0.202.0 client and spec; limits; who may do what across organizations.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Site } from '../../src/generated/prisma/client.js';
import type { Context } from '../../src/kernel/context.js';
import { hashToken } from '../../src/kernel/ids.js';
import { unseal } from '../../src/kernel/sealed.js';
import { activeShareLink, shareKeySealedFor } from '../../src/share-links/keys.js';
import { buildSite } from '../site-redirects/fixtures.js';
import { useApi, walk } from '../support/app.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const COLLECTION = '/orgs/{organizationId}/sites/{siteId}/share-links';
const ITEM = `${COLLECTION}/{shareLinkId}`;

const { t, world } = useApi({ world: true, env: { SITES_URL: 'https://sites.example.com' } });
let acme: string;
let site: Site;
let otherSite: Site;
let foreignSite: Site;
/** The service's own context, for the key checks the published view makes. */
let ctx: Context;

beforeAll(async () => {
  acme = world.organizationId;
  ctx = t.app.services as Context;
  site = await buildSite(t.prisma, {
    organizationId: acme,
    hostname: 'private.acme.example.com',
    visibility: 'share_link',
    published: true,
  });
  otherSite = await buildSite(t.prisma, { organizationId: acme, basename: 'other', visibility: 'share_link' });
  foreignSite = await buildSite(t.prisma, { organizationId: world.secondOrganizationId, visibility: 'share_link' });
});

const links = (siteId = site.id, org = acme) => `/v1/orgs/${org}/sites/${siteId}/share-links`;
const create = (body: unknown, token = world.admin.token, siteId = site.id) => t.request('POST', links(siteId), { token, body });
const keyOf = (published: string) => new URL(published).searchParams.get('share')!;

/** The events recorded about a share link (src/kernel/events.ts), by action then payload (the test clock stands still). */
async function eventsOf(shareLinkId: string) {
  const rows = await t.prisma.auditEvent.findMany({ where: { targetId: shareLinkId } });
  return rows.sort((a, b) => a.action.localeCompare(b.action) || JSON.stringify(a.payload).localeCompare(JSON.stringify(b.payload)));
}

async function created(name: string, siteId = site.id) {
  const res = await create({ name }, world.admin.token, siteId);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; urls: { published: string; location: string } };
}

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/share-links', () => {
  it('creates a link through the official client, at its Location, with its key in urls.published only', async () => {
    const client = gitbookClient('0202', t.url, world.admin.token);
    const { data, status, headers } = await client.orgs.createSiteShareLink(acme, site.id, { name: 'Partners' });
    expect(status).toBe(201);
    expectMatchesSpec('0202', 'post', COLLECTION, 201, data);
    expect(data).toMatchObject({ object: 'share-link', name: 'Partners', active: true, createdAt: '2026-01-15T10:00:00.000Z' });
    // urls.location is ours (GitBook's ShareLink urls leave room for it): the Location of a 201.
    const { location } = data.urls as { location?: string };
    expect(headers.get('location')).toBe(location);
    expect(location).toBe(`${t.url}/v1/orgs/${acme}/sites/${site.id}/share-links/${data.id}`);
    const published = data.urls.published!;
    expect(published).toMatch(/^https:\/\/private\.acme\.example\.com\/\?share=[0-9A-Za-z]{32}$/);
    const key = keyOf(published);
    expect(data).not.toHaveProperty('key');

    // Stored hashed (to find the link) and sealed (to rebuild the URL), never in clear.
    const row = await t.prisma.shareLink.findUniqueOrThrow({ where: { id: data.id } });
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row.keyHash).toBe(hashToken(key));
    expect(row.keyCiphertext).toMatch(/^v2\./);
    expect(unseal(ctx.secret, shareKeySealedFor(row.id), row.keyCiphertext)).toBe(key);
    expect((await activeShareLink(ctx, site.id, key))?.id).toBe(data.id);
    expect(await activeShareLink(ctx, otherSite.id, key)).toBeNull();

    // Each link its own key.
    const second = await created('Partners, again');
    expect(keyOf(second.urls.published)).not.toBe(key);

    // Recorded, in the site's organization, without the key in any form.
    const events = await eventsOf(data.id);
    expect(events).toMatchObject([
      {
        action: 'share_link_created',
        organizationId: acme,
        actorId: world.admin.userId,
        targetType: 'share-link',
        targetLabel: 'Partners',
      },
    ]);
    expect(events[0].payload).toMatchObject({ site: site.id, active: true });
    for (const secret of [key, row.keyHash, row.keyCiphertext]) expect(JSON.stringify(events)).not.toContain(secret);
  });

  it('builds the URL under SITES_URL for a site without a hostname', async () => {
    const link = await created('Elsewhere', otherSite.id);
    expect(link.urls.published).toBe(`https://sites.example.com/${acme}/other/?share=${keyOf(link.urls.published)}`);
  });

  it('takes a name of at most 50 characters, empty included (the spec’s minLength is 0)', async () => {
    expect((await create({ name: 'x'.repeat(50) })).status).toBe(201);
    const empty = await create({ name: '' });
    expect(empty.status).toBe(201);
    expect(empty.body.name).toBe('');
    for (const body of [{}, { name: null }, { name: 'x'.repeat(51) }, { name: 7 }]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(/^Invalid "name"/);
    }
  });

  it('is for the site’s admins: 403 for other members, 404 for guests, outsiders and other organizations, 401 without a token', async () => {
    for (const member of [world.creator, world.editor, world.reader]) {
      const res = await create({ name: 'Nope' }, member.token);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe('You do not have the "admin" permission on this site.');
    }
    for (const person of [world.guest, world.outsider]) expect((await create({ name: 'Nope' }, person.token)).status).toBe(404);
    expect((await t.request('POST', links(), { body: { name: 'Nope' } })).status).toBe(401);
    expect((await create({ name: 'Nope' }, world.admin.token, foreignSite.id)).status).toBe(404);
    expect(await t.prisma.shareLink.count({ where: { name: 'Nope' } })).toBe(0);
    expect(await t.prisma.auditEvent.count({ where: { targetLabel: 'Nope' } })).toBe(0);
  });
});

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/share-links', () => {
  let listed: Site;
  const names = ['Press', 'Partners', 'Beta testers', 'Auditors 100%', 'Board_2026'];
  const keys: string[] = [];

  beforeAll(async () => {
    listed = await buildSite(t.prisma, { organizationId: acme, hostname: 'listed.acme.example.com', visibility: 'share_link' });
    for (const name of names) {
      keys.push(keyOf((await created(name, listed.id)).urls.published));
      t.clock.advanceMs(1000);
    }
  });

  it('lists oldest first to the site’s creators, showing the URLs to admins only; matches the spec; pages at one statement count', async () => {
    const admin = await gitbookClient('0202', t.url, world.admin.token).orgs.listSiteShareLinks(acme, listed.id);
    expectMatchesSpec('0202', 'get', COLLECTION, 200, admin.data);
    expect(admin.data.items.map((link) => link.name)).toEqual(names);
    expect(admin.data.items.map((link) => keyOf(link.urls.published!))).toEqual(keys);
    expect(admin.data.count).toBe(5);

    const creator = gitbookClient('0202', t.url, world.creator.token);
    const { data } = await creator.orgs.listSiteShareLinks(acme, listed.id);
    expectMatchesSpec('0202', 'get', COLLECTION, 200, data);
    expect(data.items.map((link) => link.name)).toEqual(names);
    for (const link of data.items) {
      expect(link.urls).not.toHaveProperty('published');
      expect(JSON.stringify(link)).not.toMatch(new RegExp(keys.join('|')));
    }

    const { items, pages } = await walk<{ name: string }>(t, `${links(listed.id)}?limit=2`, {
      token: world.creator.token,
      eachPage: (page) => expectMatchesSpec('0202', 'get', COLLECTION, 200, page.body),
    });
    expect(pages).toBe(3);
    expect(items.map((link) => link.name)).toEqual(names);

    const one = await t.counted('GET', `${links(listed.id)}?limit=1`, { token: world.admin.token });
    const all = await t.counted('GET', `${links(listed.id)}?limit=1000`, { token: world.admin.token });
    expect(one.body.items).toHaveLength(1);
    expect(all.body.items).toHaveLength(5);
    expect(all.statements).toBe(one.statements);
  });

  it('searches by a part of the name (case-insensitively) or by the very key', async () => {
    const search = async (text: string) => {
      const res = await t.request('GET', `${links(listed.id)}?search=${encodeURIComponent(text)}`, { token: world.admin.token });
      expect(res.status).toBe(200);
      return res.body.items.map((link: { name: string }) => link.name);
    };
    expect(await search('PART')).toEqual(['Partners']);
    expect(await search('%')).toEqual(['Auditors 100%']);
    expect(await search('_')).toEqual(['Board_2026']);
    expect(await search(keys[2])).toEqual(['Beta testers']);
    expect(await search(keys[2].slice(0, 10))).toEqual([]);
    expect((await t.request('GET', `${links(listed.id)}?search=${'x'.repeat(51)}`, { token: world.admin.token })).status).toBe(400);
  });

  it('needs site `edit`: 403 below create, 404 for guests, outsiders and other organizations, 401 without a token', async () => {
    for (const member of [world.editor, world.reviewer, world.reader]) {
      const res = await t.request('GET', links(listed.id), { token: member.token });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe('You do not have the "edit" permission on this site.');
    }
    for (const person of [world.guest, world.outsider])
      expect((await t.request('GET', links(listed.id), { token: person.token })).status).toBe(404);
    expect((await t.request('GET', links(foreignSite.id), { token: world.admin.token })).status).toBe(404);
    expect((await t.request('GET', links(listed.id))).status).toBe(401);
    expect((await t.request('GET', `${links(listed.id)}?limit=1001`, { token: world.admin.token })).status).toBe(400);
  });
});

describe('PATCH /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}', () => {
  const update = (id: string, body: unknown, token = world.admin.token, siteId = site.id) =>
    t.request('PATCH', `${links(siteId)}/${id}`, { token, body });

  it('renames and deactivates through the official client; a deactivated key stops working on the next request', async () => {
    const link = await created('Temporary');
    const key = keyOf(link.urls.published);
    expect((await activeShareLink(ctx, site.id, key))?.id).toBe(link.id);
    const client = gitbookClient('0202', t.url, world.admin.token);

    const renamed = await client.orgs.updateSiteShareLinkById(acme, site.id, link.id, { name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expectMatchesSpec('0202', 'patch', ITEM, 200, renamed.data);
    expect(renamed.data).toMatchObject({ id: link.id, name: 'Renamed', active: true, urls: link.urls });

    const off = await client.orgs.updateSiteShareLinkById(acme, site.id, link.id, { active: false });
    expectMatchesSpec('0202', 'patch', ITEM, 200, off.data);
    expect(off.data).toMatchObject({ name: 'Renamed', active: false });
    expect(await activeShareLink(ctx, site.id, key)).toBeNull();

    const on = await client.orgs.updateSiteShareLinkById(acme, site.id, link.id, { active: true, name: 'Back' });
    expect(on.data).toMatchObject({ name: 'Back', active: true });
    expect((await activeShareLink(ctx, site.id, key))?.id).toBe(link.id);
    // The same values again change nothing, and record nothing.
    await client.orgs.updateSiteShareLinkById(acme, site.id, link.id, { active: true });

    const updates = (await eventsOf(link.id)).filter((event) => event.action === 'share_link_updated');
    expect(updates).toHaveLength(3);
    expect(updates.map((event) => [event.targetLabel, (event.payload as any).changed])).toEqual(
      expect.arrayContaining([
        ['Renamed', { name: { from: 'Temporary', to: 'Renamed' } }],
        ['Renamed', { active: { from: true, to: false } }],
        ['Back', { name: { from: 'Renamed', to: 'Back' }, active: { from: false, to: true } }],
      ]),
    );
    expect(JSON.stringify(updates)).not.toContain(key);
  });

  it('enforces the limits (400), finds only links of the site in the path (404), and is for admins (403)', async () => {
    const link = await created('Guarded');
    const elsewhere = await created('Guarded', otherSite.id);
    for (const [body, field] of [
      [{}, 'body'],
      [{ name: 'x'.repeat(51) }, '"name"'],
      [{ name: null }, '"name"'],
      [{ active: null }, '"active"'],
      [{ active: 'no' }, '"active"'],
    ] as const) {
      const res = await update(link.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message.startsWith(`Invalid ${field}`)).toBe(true);
    }
    expect((await update(elsewhere.id, { active: false })).status).toBe(404);
    expect((await update('unknownShareLink0000', { active: false })).status).toBe(404);
    expect((await update(link.id, { active: false }, world.admin.token, foreignSite.id)).status).toBe(404);
    for (const member of [world.creator, world.editor]) expect((await update(link.id, { active: false }, member.token)).status).toBe(403);
    for (const person of [world.guest, world.outsider]) expect((await update(link.id, { active: false }, person.token)).status).toBe(404);
    expect((await t.request('PATCH', `${links()}/${link.id}`, { body: { active: false } })).status).toBe(401);
    expect(await t.prisma.shareLink.findUniqueOrThrow({ where: { id: link.id } })).toMatchObject({ name: 'Guarded', active: true });
    expect(await t.prisma.shareLink.findUniqueOrThrow({ where: { id: elsewhere.id } })).toMatchObject({ active: true });
    expect((await eventsOf(link.id)).map((event) => event.action)).toEqual(['share_link_created']);
    expect((await eventsOf(elsewhere.id)).map((event) => event.action)).toEqual(['share_link_created']);
  });
});

describe('DELETE /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}', () => {
  it('deletes through the official client (205, no body): the key opens nothing any more', async () => {
    const link = await created('Doomed');
    const elsewhere = await created('Doomed', otherSite.id);
    const key = keyOf(link.urls.published);
    const path = `${links()}/${link.id}`;
    for (const member of [world.creator, world.reader]) expect((await t.request('DELETE', path, { token: member.token })).status).toBe(403);
    for (const person of [world.guest, world.outsider]) expect((await t.request('DELETE', path, { token: person.token })).status).toBe(404);
    expect((await t.request('DELETE', path)).status).toBe(401);
    expect((await t.request('DELETE', `${links()}/${elsewhere.id}`, { token: world.admin.token })).status).toBe(404);
    expect((await eventsOf(link.id)).map((event) => event.action)).toEqual(['share_link_created']);

    const res = await gitbookClient('0202', t.url, world.admin.token).orgs.deleteSiteShareLinkById(acme, site.id, link.id);
    expect(res.status).toBe(205);
    expectMatchesSpec('0202', 'delete', ITEM, 205, await res.text());
    expect(await activeShareLink(ctx, site.id, key)).toBeNull();
    expect(await t.prisma.shareLink.findUnique({ where: { id: link.id } })).toBeNull();
    expect((await t.request('DELETE', path, { token: world.admin.token })).status).toBe(404);
    expect(await t.prisma.shareLink.findUnique({ where: { id: elsewhere.id } })).not.toBeNull();
    const events = await eventsOf(link.id);
    expect(events.map((event) => [event.action, event.targetLabel, event.payload])).toEqual([
      ['share_link_created', 'Doomed', expect.anything()],
      ['share_link_deleted', 'Doomed', expect.objectContaining({ site: site.id })],
    ]);
    expect(JSON.stringify(events)).not.toContain(key);
  });
});
