// Site redirects: creating them (every destination variant, checked against the site), listing them (pages, search,
// draft filter, orders), changing and deleting them, and looking up the redirect that answers a path with the URL it
// leads to (exact match, then the longest wildcard; share keys for share-link sites); through GitBook's 0.202.0 client
// and spec; limits; who may do what across organizations.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Site, SiteSection, SiteSpace, Space } from '../../src/generated/prisma/client.js';
import type { Context } from '../../src/kernel/context.js';
import { newShareKey } from '../../src/share-links/keys.js';
import { useApi, walk } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { buildPage, buildSite, buildSiteSection, buildSiteSpace } from './fixtures.js';

const SITES_URL = 'https://sites.example.com';
const COLLECTION = '/orgs/{organizationId}/sites/{siteId}/redirects';
const ITEM = `${COLLECTION}/{siteRedirectId}`;
const LOOKUP = '/orgs/{organizationId}/sites/{siteId}/redirect';

const { t, world } = useApi({ world: true, env: { SITES_URL } });
let acme: string;
/** The site most tests use: at docs.acme.example.com, sections "guides" (its default) and "api". */
let site: Site;
let guides: SiteSection;
let api: SiteSection;
/** guides' default site space (space `manual`), guides/v2 (space `changelog`), api's default, and api/beta. */
let manualV1: SiteSpace;
let manualV2: SiteSpace;
let reference: SiteSpace;
let beta: SiteSpace;
let manual: Space;
let changelog: Space;
let install: string;
let linux: string;
let news: string;
let link: string;
/** Another site of the organization, with a section and site space of its own. */
let otherSite: Site;
let otherSection: SiteSection;
let otherSiteSpace: SiteSpace;
/** A site of another organization (the admin administers both). */
let foreignSite: Site;

beforeAll(async () => {
  acme = world.organizationId;
  const space = (title: string) => buildSpace(t.prisma, { organizationId: acme, title });
  [manual, changelog] = [await space('Manual'), await space('Changelog')];
  const apiSpace = await space('API');
  site = await buildSite(t.prisma, { organizationId: acme, hostname: 'docs.acme.example.com', published: true });
  guides = await buildSiteSection(t.prisma, site.id, 'guides');
  api = await buildSiteSection(t.prisma, site.id, 'api');
  manualV1 = await buildSiteSpace(t.prisma, site.id, manual.id, 'v1', { sectionId: guides.id });
  manualV2 = await buildSiteSpace(t.prisma, site.id, changelog.id, 'v2', { sectionId: guides.id, position: 1 });
  reference = await buildSiteSpace(t.prisma, site.id, apiSpace.id, 'reference', { sectionId: api.id });
  beta = await buildSiteSpace(t.prisma, site.id, manual.id, 'beta', { sectionId: api.id, position: 1 });
  await t.prisma.siteSection.update({ where: { id: guides.id }, data: { defaultSiteSpaceId: manualV1.id } });
  await t.prisma.siteSection.update({ where: { id: api.id }, data: { defaultSiteSpaceId: reference.id } });
  site = await t.prisma.site.update({ where: { id: site.id }, data: { defaultSiteSectionId: guides.id, defaultSiteSpaceId: manualV1.id } });
  install = await buildPage(t.prisma, manual.id, 'install');
  linux = await buildPage(t.prisma, manual.id, 'linux', { parentId: install });
  link = await buildPage(t.prisma, manual.id, 'elsewhere', { type: 'link', position: 2 });
  news = await buildPage(t.prisma, changelog.id, 'news');

  otherSite = await buildSite(t.prisma, { organizationId: acme, basename: 'other' });
  otherSection = await buildSiteSection(t.prisma, otherSite.id, 'elsewhere');
  otherSiteSpace = await buildSiteSpace(t.prisma, otherSite.id, (await space('Other')).id, 'other');
  foreignSite = await buildSite(t.prisma, { organizationId: world.secondOrganizationId });
});

const redirects = (siteId = site.id, org = acme) => `/v1/orgs/${org}/sites/${siteId}/redirects`;
const lookup = (query: string, siteId = site.id) => `/v1/orgs/${acme}/sites/${siteId}/redirect?${query}`;
const create = (body: unknown, token = world.admin.token, siteId = site.id) => t.request('POST', redirects(siteId), { token, body });
const external = (url = 'https://example.com/') => ({ kind: 'external' as const, url });
async function created(body: Record<string, unknown>, siteId = site.id) {
  const res = await create(body, world.admin.token, siteId);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; source: string };
}

/** The events recorded about a redirect (src/kernel/events.ts): action, actor and payload. */
async function eventsOf(redirectId: string) {
  const rows = await t.prisma.auditEvent.findMany({ where: { targetId: redirectId } });
  return rows.map((row) => ({ action: row.action, actorId: row.actorId, label: row.targetLabel, payload: row.payload as any }));
}

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/redirects', () => {
  it('creates a redirect to each kind of destination through the official client, matching the spec', async () => {
    const client = gitbookClient('0202', t.url, world.creator.token);
    const destinations = [
      { kind: 'site-section', siteSectionId: api.id },
      { kind: 'site-space', siteSpaceId: manualV2.id },
      { kind: 'site-page', siteSpaceId: manualV1.id, pageId: linux },
      external('https://example.com/docs?from=acme'),
    ] as const;
    for (const [i, destination] of destinations.entries()) {
      const { data, status, headers } = await client.orgs.createSiteRedirect(acme, site.id, { source: `/kinds/${i}`, destination });
      expect(status).toBe(201);
      expectMatchesSpec('0202', 'post', COLLECTION, 201, data);
      expect(data).toEqual({
        object: 'site-redirect',
        id: expect.any(String),
        source: `/kinds/${i}`,
        destination,
        draft: false,
        captureWildcard: false,
        permanent: false,
        createdAt: '2026-01-15T10:00:00.000Z',
      });
      // The published spec declares no Location for this operation.
      expect(headers.get('location')).toBeNull();
      const row = await t.prisma.siteRedirect.findUniqueOrThrow({ where: { id: data.id } });
      expect(row).toMatchObject({ siteId: site.id, source: `/kinds/${i}`, destination, draft: false, permanent: false });
      expect(await eventsOf(data.id)).toEqual([
        {
          action: 'site_redirect_created',
          actorId: world.creator.userId,
          label: `/kinds/${i}`,
          payload: expect.objectContaining({ site: site.id, destination, captureWildcard: false, draft: false, permanent: false }),
        },
      ]);
    }
  });

  it('resolves a `path` destination to the page at that path in a space of the site', async () => {
    const client = gitbookClient('0202', t.url, world.admin.token);
    const { data } = await client.orgs.createSiteRedirect(acme, site.id, {
      source: '/old/linux',
      destination: { kind: 'path', spaceId: manual.id, path: '/install/linux/' },
    });
    expectMatchesSpec('0202', 'post', COLLECTION, 201, data);
    // The manual shows in two site spaces: the site's default one is taken.
    expect(data.destination).toEqual({ kind: 'site-page', siteSpaceId: manualV1.id, pageId: linux });
    const onlyInBeta = await created({ source: '/old/news', destination: { kind: 'path', spaceId: changelog.id, path: 'news' } });
    expect((onlyInBeta as unknown as { destination: unknown }).destination).toEqual({
      kind: 'site-page',
      siteSpaceId: manualV2.id,
      pageId: news,
    });
  });

  it('takes the draft, permanent and captureWildcard flags, and accepts the spec’s wildcard and escaped sources', async () => {
    const res = await create({ source: '/flags/*', destination: external(), draft: true, permanent: true, captureWildcard: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ draft: true, permanent: true, captureWildcard: true });
    for (const source of ['/flags*', '/a%20b', '/a+b/c~d_e.f-g', `/${'x'.repeat(511)}`]) {
      expect((await create({ source, destination: external() })).status, source).toBe(201);
    }
  });

  it('refuses a second redirect from the same source in the site (409), not in another site', async () => {
    await created({ source: '/twice', destination: external() });
    const again = await create({ source: '/twice', destination: external('https://example.org/'), draft: true });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('A redirect from "/twice" already exists in this site.');
    expect(await t.prisma.siteRedirect.count({ where: { siteId: site.id, source: '/twice' } })).toBe(1);
    await created({ source: '/twice', destination: external() }, otherSite.id);
  });

  it('enforces every limit with a 400 naming the field', async () => {
    const refused: [unknown, string][] = [
      [{ destination: external() }, 'source'],
      [{ source: '/a/', destination: external() }, 'source'],
      [{ source: '/', destination: external() }, 'source'],
      [{ source: 'no-slash', destination: external() }, 'source'],
      [{ source: `/${'x'.repeat(512)}`, destination: external() }, 'source'],
      [{ source: '/a//b', destination: external() }, 'source'],
      [{ source: '/*', destination: external() }, 'source'],
      [{ source: '/a*b', destination: external() }, 'source'],
      [{ source: '/a b', destination: external() }, 'source'],
      [{ source: 42, destination: external() }, 'source'],
      [{ source: '/limits' }, 'destination'],
      [{ source: '/limits', destination: 'https://example.com' }, 'destination'],
      [{ source: '/limits', destination: {} }, 'destination.kind'],
      [{ source: '/limits', destination: { kind: 'page' } }, 'destination.kind'],
      [{ source: '/limits', destination: { kind: 'site-section' } }, 'destination.siteSectionId'],
      [{ source: '/limits', destination: { kind: 'site-page', siteSpaceId: manualV1.id } }, 'destination.pageId'],
      [{ source: '/limits', destination: external('ftp://example.com/') }, 'destination.url'],
      [{ source: '/limits', destination: external('javascript:alert(1)') }, 'destination.url'],
      [{ source: '/limits', destination: external('not a url') }, 'destination.url'],
      [{ source: '/limits', destination: external(`https://example.com/${'x'.repeat(2029)}`) }, 'destination.url'],
      [{ source: '/limits', destination: { kind: 'path', spaceId: manual.id, path: '' } }, 'destination.path'],
      [{ source: '/limits', destination: external(), draft: 'yes' }, 'draft'],
      [{ source: '/limits', destination: external(), permanent: null }, 'permanent'],
      [{ source: '/limits', destination: external(), captureWildcard: 1 }, 'captureWildcard'],
    ];
    for (const [body, field] of refused) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(new RegExp(`^Invalid "${field.replace('.', '\\.')}"`));
    }
    expect((await create({ source: `/${'x'.repeat(511)}z`, destination: external() })).status).toBe(400);
    expect(await t.prisma.siteRedirect.count({ where: { source: '/limits' } })).toBe(0);
  });

  it('checks that the destination is in the site, and the page in the site space’s content (400)', async () => {
    const refused: [unknown, string, string][] = [
      [{ kind: 'site-section', siteSectionId: otherSection.id }, 'siteSectionId', 'no such section in this site'],
      [{ kind: 'site-section', siteSectionId: 'unknownSection000000' }, 'siteSectionId', 'no such section in this site'],
      [{ kind: 'site-space', siteSpaceId: otherSiteSpace.id }, 'siteSpaceId', 'no such site space in this site'],
      [{ kind: 'site-page', siteSpaceId: otherSiteSpace.id, pageId: install }, 'siteSpaceId', 'no such site space in this site'],
      [{ kind: 'site-page', siteSpaceId: manualV2.id, pageId: install }, 'pageId', 'no such page'],
      [{ kind: 'site-page', siteSpaceId: manualV1.id, pageId: 'unknownPage000000000' }, 'pageId', 'no such page'],
      // A link page has no address of its own.
      [{ kind: 'site-page', siteSpaceId: manualV1.id, pageId: link }, 'pageId', 'no such page'],
      [{ kind: 'path', spaceId: otherSiteSpace.spaceId, path: 'anything' }, 'spaceId', 'no such space in this site'],
      [{ kind: 'path', spaceId: manual.id, path: 'linux' }, 'path', 'no page at this path in the space'],
    ];
    for (const [destination, field, problem] of refused) {
      const res = await create({ source: '/checked', destination });
      expect(res.status, JSON.stringify(destination)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^Invalid "destination\\.${field}": ${problem}`));
    }
    expect(await t.prisma.siteRedirect.count({ where: { source: '/checked' } })).toBe(0);
  });

  it('is for those who may edit the site: 403 below create, 404 for guests, outsiders and other organizations, 401 without a token', async () => {
    const body = { source: '/permission', destination: external() };
    for (const member of [world.editor, world.reviewer, world.commenter, world.reader]) {
      const res = await create(body, member.token);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe('You do not have the "edit" permission on this site.');
    }
    for (const person of [world.guest, world.outsider]) expect((await create(body, person.token)).status).toBe(404);
    expect((await t.request('POST', redirects(), { body })).status).toBe(401);
    // A site of the second organization, reached under Acme's path, by an admin of both.
    expect((await create(body, world.admin.token, foreignSite.id)).status).toBe(404);
    expect(
      (await t.request('POST', redirects(foreignSite.id, world.secondOrganizationId), { token: world.admin.token, body })).status,
    ).toBe(201);
    expect((await create(body, world.admin.token, 'unknownSite000000000')).status).toBe(404);
    expect(await t.prisma.siteRedirect.count({ where: { siteId: site.id, source: '/permission' } })).toBe(0);
    const recorded = await t.prisma.auditEvent.findMany({ where: { action: 'site_redirect_created', targetLabel: '/permission' } });
    expect(recorded.map((event) => (event.payload as any).site)).toEqual([foreignSite.id]);
  });
});

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/redirects', () => {
  let listed: Site;
  const sources = ['/zeta', '/Alpha', '/mid_1', '/mid%20x', '/beta/*'];

  beforeAll(async () => {
    listed = await buildSite(t.prisma, { organizationId: acme, title: 'Listed' });
    for (const source of sources) {
      await created({ source, destination: external() }, listed.id);
      t.clock.advanceMs(1000);
    }
    await created({ source: '/draft-one', destination: external(), draft: true }, listed.id);
  });

  it('lists the live redirects oldest first to any reader of the site, matching the spec, walking pages at one statement count', async () => {
    const client = gitbookClient('0202', t.url, world.reader.token);
    const { data } = await client.orgs.listSiteRedirects(acme, listed.id);
    expectMatchesSpec('0202', 'get', COLLECTION, 200, data);
    expect(data.items.map((redirect) => redirect.source)).toEqual(sources);
    expect(data.count).toBe(5);

    const { items, pages } = await walk<{ source: string }>(t, `${redirects(listed.id)}?limit=2`, {
      token: world.reader.token,
      eachPage: (page) => {
        expectMatchesSpec('0202', 'get', COLLECTION, 200, page.body);
        expect(page.body.count).toBe(5);
      },
    });
    expect(pages).toBe(3);
    expect(items.map((redirect) => redirect.source)).toEqual(sources);

    const one = await t.counted('GET', `${redirects(listed.id)}?limit=1`, { token: world.reader.token });
    const all = await t.counted('GET', `${redirects(listed.id)}?limit=1000`, { token: world.reader.token });
    expect(one.body.items).toHaveLength(1);
    expect(all.body.items).toHaveLength(5);
    expect(all.statements).toBe(one.statements);
  });

  it('filters by draft state (live by default) and by a case-insensitive part of the source', async () => {
    const list = async (query: string) => {
      const res = await t.request('GET', `${redirects(listed.id)}?${query}`, { token: world.admin.token });
      expect(res.status, res.text).toBe(200);
      expectMatchesSpec('0202', 'get', COLLECTION, 200, res.body);
      return res.body.items.map((redirect: { source: string }) => redirect.source);
    };
    expect(await list('draft=true')).toEqual(['/draft-one']);
    expect(await list('draft=false')).toEqual(sources);
    expect(await list('search=ALPHA')).toEqual(['/Alpha']);
    expect(await list('search=mid')).toEqual(['/mid_1', '/mid%20x']);
    // LIKE's own characters are searched for as such.
    expect(await list('search=_')).toEqual(['/mid_1']);
    expect(await list('search=%25')).toEqual(['/mid%20x']);
    expect(await list('search=draft')).toEqual([]);
    expect(await list('search=draft&draft=true')).toEqual(['/draft-one']);
  });

  it('orders by source, by last change (latest first) or by creation, each paged on its own', async () => {
    const [zeta] = (await t.request('GET', `${redirects(listed.id)}?search=zeta`, { token: world.admin.token })).body.items;
    t.clock.advanceMs(1000);
    expect(
      (await t.request('PATCH', `${redirects(listed.id)}/${zeta.id}`, { token: world.admin.token, body: { permanent: true } })).status,
    ).toBe(200);
    const order = async (orderBy: string) => {
      const { items } = await walk<{ source: string }>(t, `${redirects(listed.id)}?orderBy=${orderBy}&limit=2`, {
        token: world.admin.token,
        eachPage: (page) => expectMatchesSpec('0202', 'get', COLLECTION, 200, page.body),
      });
      return items.map((redirect) => redirect.source);
    };
    expect(await order('source')).toEqual([...sources].sort());
    expect(await order('createdAt')).toEqual(sources);
    expect(await order('updatedAt')).toEqual(['/zeta', ...[...sources.slice(1)].reverse()]);
    // A page token belongs to the order it was issued in.
    const first = await t.request('GET', `${redirects(listed.id)}?orderBy=source&limit=2`, { token: world.admin.token });
    const mixed = await t.request('GET', `${redirects(listed.id)}?orderBy=createdAt&limit=2&page=${first.body.next.page}`, {
      token: world.admin.token,
    });
    expect(mixed.status).toBe(400);
  });

  it('refuses bad parameters (400) and hides the site from guests, outsiders and other organizations (404)', async () => {
    for (const query of ['limit=1001', 'limit=-1', 'draft=maybe', 'orderBy=title', `search=${'x'.repeat(513)}`, 'page=forged']) {
      const res = await t.request('GET', `${redirects(listed.id)}?${query}`, { token: world.admin.token });
      expect(res.status, query).toBe(400);
    }
    expect((await t.request('GET', `${redirects(listed.id)}?search=${'x'.repeat(512)}`, { token: world.admin.token })).status).toBe(200);
    for (const person of [world.guest, world.outsider]) {
      expect((await t.request('GET', redirects(listed.id), { token: person.token })).status).toBe(404);
    }
    expect((await t.request('GET', redirects(foreignSite.id), { token: world.admin.token })).status).toBe(404);
    expect((await t.request('GET', redirects(listed.id))).status).toBe(401);
  });
});

describe('PATCH /v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', () => {
  const item = (id: string, siteId = site.id) => `${redirects(siteId)}/${id}`;
  const update = (id: string, body: unknown, token = world.admin.token, siteId = site.id) =>
    t.request('PATCH', item(id, siteId), { token, body });

  it('changes only the fields given, through the official client, and tells when it last changed', async () => {
    const original = await created({ source: '/to-change', destination: { kind: 'site-space', siteSpaceId: beta.id } });
    t.clock.advanceMs(60_000);
    const client = gitbookClient('0202', t.url, world.creator.token);
    const { data, status } = await client.orgs.updateSiteRedirectById(acme, site.id, original.id, { permanent: true });
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'patch', ITEM, 200, data);
    expect(data).toMatchObject({
      source: '/to-change',
      destination: { kind: 'site-space', siteSpaceId: beta.id },
      permanent: true,
      draft: false,
      captureWildcard: false,
      updatedAt: t.clock.now().toISOString(),
    });
    const moved = await client.orgs.updateSiteRedirectById(acme, site.id, original.id, {
      source: '/changed/*',
      destination: { kind: 'site-page', siteSpaceId: manualV2.id, pageId: news },
      captureWildcard: true,
      draft: true,
    });
    expectMatchesSpec('0202', 'patch', ITEM, 200, moved.data);
    expect(moved.data).toMatchObject({
      source: '/changed/*',
      destination: { kind: 'site-page', siteSpaceId: manualV2.id, pageId: news },
      permanent: true,
      draft: true,
      captureWildcard: true,
    });
    const empty = await update(original.id, {});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(moved.data);
    // The same values again are no change: nothing recorded.
    expect((await update(original.id, { permanent: true })).status).toBe(200);
    const sameDestination = { destination: { kind: 'site-page', siteSpaceId: manualV2.id, pageId: news } };
    expect((await update(original.id, sameDestination)).status).toBe(200);

    const updates = (await eventsOf(original.id)).filter((event) => event.action === 'site_redirect_updated');
    expect(updates).toHaveLength(2);
    expect(updates.map(({ label, payload }) => [label, payload.changed])).toEqual(
      expect.arrayContaining([
        ['/to-change', { permanent: { from: false, to: true } }],
        [
          '/changed/*',
          {
            source: { from: '/to-change', to: '/changed/*' },
            destination: {
              from: { kind: 'site-space', siteSpaceId: beta.id },
              to: { kind: 'site-page', siteSpaceId: manualV2.id, pageId: news },
            },
            captureWildcard: { from: false, to: true },
            draft: { from: false, to: true },
          },
        ],
      ]),
    );
  });

  it('validates what it changes like a creation, without `path` destinations, and refuses a source taken (409)', async () => {
    const mine = await created({ source: '/mine', destination: external() });
    await created({ source: '/taken', destination: external() });
    const refused: [unknown, string][] = [
      [{ source: '/a/' }, 'source'],
      [{ source: `/${'x'.repeat(512)}` }, 'source'],
      [{ source: null }, 'source'],
      [{ destination: null }, 'destination'],
      [{ draft: null }, 'draft'],
      [{ destination: { kind: 'path', spaceId: manual.id, path: 'install' } }, 'destination.kind'],
      [{ destination: external('mailto:someone@example.com') }, 'destination.url'],
      [{ destination: { kind: 'site-section', siteSectionId: otherSection.id } }, 'destination.siteSectionId'],
      [{ destination: { kind: 'site-page', siteSpaceId: manualV1.id, pageId: news } }, 'destination.pageId'],
    ];
    for (const [body, field] of refused) {
      const res = await update(mine.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^Invalid "${field.replace('.', '\\.')}"`));
    }
    const taken = await update(mine.id, { source: '/taken' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe('A redirect from "/taken" already exists in this site.');
    expect(await t.prisma.siteRedirect.findUniqueOrThrow({ where: { id: mine.id } })).toMatchObject({
      source: '/mine',
      destination: external(),
    });
    expect((await eventsOf(mine.id)).map((event) => event.action)).toEqual(['site_redirect_created']);
  });

  it('finds only redirects of the site in the path (404), for those who may edit it', async () => {
    const mine = await created({ source: '/guarded', destination: external() });
    const elsewhere = await created({ source: '/guarded', destination: external() }, otherSite.id);
    expect((await update(elsewhere.id, { permanent: true })).status).toBe(404);
    expect((await update('unknownRedirect00000', { permanent: true })).status).toBe(404);
    for (const member of [world.editor, world.reader]) expect((await update(mine.id, { permanent: true }, member.token)).status).toBe(403);
    for (const person of [world.guest, world.outsider]) expect((await update(mine.id, { permanent: true }, person.token)).status).toBe(404);
    expect((await t.request('PATCH', item(mine.id), { body: { permanent: true } })).status).toBe(401);
    expect((await update(mine.id, { permanent: true }, world.admin.token, foreignSite.id)).status).toBe(404);
    expect(await t.prisma.siteRedirect.findUniqueOrThrow({ where: { id: elsewhere.id } })).toMatchObject({ permanent: false });
    for (const id of [mine.id, elsewhere.id]) expect((await eventsOf(id)).map((event) => event.action)).toEqual(['site_redirect_created']);
  });
});

describe('DELETE /v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', () => {
  it('deletes through the official client (205, no body); then the redirect is not found', async () => {
    const doomed = await created({ source: '/doomed', destination: external() });
    const elsewhere = await created({ source: '/doomed', destination: external() }, otherSite.id);
    const path = `${redirects()}/${doomed.id}`;
    for (const member of [world.editor, world.reader]) expect((await t.request('DELETE', path, { token: member.token })).status).toBe(403);
    for (const person of [world.guest, world.outsider]) expect((await t.request('DELETE', path, { token: person.token })).status).toBe(404);
    expect((await t.request('DELETE', path)).status).toBe(401);
    expect((await t.request('DELETE', `${redirects()}/${elsewhere.id}`, { token: world.admin.token })).status).toBe(404);
    expect((await eventsOf(doomed.id)).map((event) => event.action)).toEqual(['site_redirect_created']);

    const res = await gitbookClient('0202', t.url, world.creator.token).orgs.deleteSiteRedirectById(acme, site.id, doomed.id);
    expect(res.status).toBe(205);
    expectMatchesSpec('0202', 'delete', ITEM, 205, await res.text());
    expect(await t.prisma.siteRedirect.findUnique({ where: { id: doomed.id } })).toBeNull();
    expect((await t.request('DELETE', path, { token: world.admin.token })).status).toBe(404);
    expect(await t.prisma.siteRedirect.findUnique({ where: { id: elsewhere.id } })).not.toBeNull();
    expect((await eventsOf(doomed.id)).filter((event) => event.action === 'site_redirect_deleted')).toEqual([
      {
        action: 'site_redirect_deleted',
        actorId: world.creator.userId,
        label: '/doomed',
        payload: expect.objectContaining({ site: site.id }),
      },
    ]);
  });
});

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/redirect', () => {
  const ROOT = 'https://docs.acme.example.com/';
  const find = (query: string, token = world.reader.token, siteId = site.id) => t.request('GET', lookup(query, siteId), { token });

  it('finds the redirect of a path through the official client, with the URL of each kind of destination', async () => {
    const client = gitbookClient('0202', t.url, world.reader.token);
    const targets: [Record<string, string>, string][] = [
      [{ kind: 'site-section', siteSectionId: guides.id }, ROOT],
      [{ kind: 'site-section', siteSectionId: api.id }, `${ROOT}api`],
      [{ kind: 'site-space', siteSpaceId: manualV1.id }, ROOT],
      [{ kind: 'site-space', siteSpaceId: manualV2.id }, `${ROOT}v2`],
      [{ kind: 'site-space', siteSpaceId: reference.id }, `${ROOT}api`],
      [{ kind: 'site-space', siteSpaceId: beta.id }, `${ROOT}api/beta`],
      [{ kind: 'site-page', siteSpaceId: manualV1.id, pageId: linux }, `${ROOT}install/linux`],
      [{ kind: 'site-page', siteSpaceId: beta.id, pageId: install }, `${ROOT}api/beta/install`],
      [{ kind: 'site-page', siteSpaceId: manualV2.id, pageId: news }, `${ROOT}v2/news`],
      [external('https://example.com/x?y=1'), 'https://example.com/x?y=1'],
    ];
    for (const [i, [destination, target]] of targets.entries()) {
      const redirect = await created({ source: `/target/${i}`, destination });
      const { data, status } = await client.orgs.getSiteRedirectBySource(acme, site.id, { source: `/target/${i}` });
      expect(status).toBe(200);
      expectMatchesSpec('0202', 'get', LOOKUP, 200, data);
      expect(data.redirect).toMatchObject({ id: redirect.id, source: `/target/${i}`, destination });
      expect(data.target, JSON.stringify(destination)).toBe(target);
    }
  });

  it('builds URLs under SITES_URL for a site without a hostname', async () => {
    await created({ source: '/home', destination: { kind: 'site-section', siteSectionId: otherSection.id } }, otherSite.id);
    const res = await find('source=/home', world.reader.token, otherSite.id);
    expect(res.status).toBe(200);
    expect(res.body.target).toBe(`${SITES_URL}/${acme}/other/elsewhere`);
  });

  it('takes the exact source first, then the wildcard with the longest prefix; drafts never answer; 404 for none', async () => {
    const wildcards = await buildSite(t.prisma, { organizationId: acme, hostname: 'wild.acme.example.com' });
    const make = (source: string, url: string, extra: Record<string, unknown> = {}) =>
      created({ source, destination: external(url), ...extra }, wildcards.id);
    await make('/docs*', 'https://a.example.com/all', { captureWildcard: true });
    await make('/docs/*', 'https://b.example.com/below', { captureWildcard: true });
    await make('/docs/guide/*', 'https://c.example.com/guide/');
    await make('/docs/guide/install', 'https://d.example.com/exact');
    await make('/docs/guide/draft', 'https://e.example.com/draft', { draft: true });
    await make('/docs/guide/other/*', 'https://f.example.com/draft', { draft: true });
    const target = async (source: string) => {
      const res = await find(`source=${encodeURIComponent(source)}`, world.reader.token, wildcards.id);
      if (res.status === 200) expectMatchesSpec('0202', 'get', LOOKUP, 200, res.body);
      return res.status === 200 ? res.body.target : res.status;
    };
    expect(await target('/docs/guide/install')).toBe('https://d.example.com/exact');
    expect(await target('/docs/guide/install/linux')).toBe('https://c.example.com/guide/');
    expect(await target('/docs/guide/draft')).toBe('https://c.example.com/guide/');
    expect(await target('/docs/guide/other/page')).toBe('https://c.example.com/guide/');
    // `/*` captures what follows the slash, below the target; `*` what follows its prefix, as is.
    expect(await target('/docs/api/v1')).toBe('https://b.example.com/below/api/v1');
    expect(await target('/docs')).toBe('https://a.example.com/all');
    expect(await target('/docs-old/x')).toBe('https://a.example.com/all-old/x');
    expect(await target('/docsify')).toBe('https://a.example.com/allify');
    expect(await target('/doc')).toBe(404);
    expect(await target('/elsewhere')).toBe(404);
    const none = await find('source=/nothing/here', world.reader.token, wildcards.id);
    expect(none.status).toBe(404);
    expect(none.body.error.message).toBe('Site redirect not found');
  });

  it('appends a captured rest to published URLs, keeping the share key in the query', async () => {
    const shared = await buildSite(t.prisma, { organizationId: acme, hostname: 'shared.acme.example.com', visibility: 'share_link' });
    const section = await buildSiteSection(t.prisma, shared.id, 'guides');
    const { key, keyHash, keyCiphertext } = newShareKey(t.app.services as Context, 'lookupShareLink00001');
    await t.prisma.shareLink.create({ data: { id: 'lookupShareLink00001', siteId: shared.id, name: 'Lookup', keyHash, keyCiphertext } });
    await created({ source: '/old/*', destination: { kind: 'site-section', siteSectionId: section.id }, captureWildcard: true }, shared.id);
    const res = await find(`source=/old/a/b&shareKey=${key}`, world.reader.token, shared.id);
    expect(res.body.target).toBe(`https://shared.acme.example.com/guides/a/b?share=${key}`);
  });

  it('carries a valid active share key of a share-link site in the target, and no other key', async () => {
    const shared = await buildSite(t.prisma, { organizationId: acme, hostname: 'private.acme.example.com', visibility: 'share_link' });
    const siteSpace = await buildSiteSpace(t.prisma, shared.id, manual.id, 'manual');
    await t.prisma.site.update({ where: { id: shared.id }, data: { defaultSiteSpaceId: siteSpace.id } });
    const link = async (id: string, siteId: string, active = true) => {
      const { key, keyHash, keyCiphertext } = newShareKey(t.app.services as Context, id);
      await t.prisma.shareLink.create({ data: { id, siteId, name: id, keyHash, keyCiphertext, active } });
      return key;
    };
    const active = await link('activeShareLink00001', shared.id);
    const inactive = await link('inactiveShareLink001', shared.id, false);
    const foreign = await link('foreignShareLink0001', otherSite.id);
    await created({ source: '/page', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: linux } }, shared.id);
    await created({ source: '/away', destination: external('https://example.com/away') }, shared.id);
    const client = gitbookClient('0202', t.url, world.reader.token);
    const target = async (source: string, shareKey?: string) =>
      (await client.orgs.getSiteRedirectBySource(acme, shared.id, { source, ...(shareKey && { shareKey }) })).data.target;
    expect(await target('/page', active)).toBe(`https://private.acme.example.com/install/linux?share=${active}`);
    for (const key of [undefined, inactive, foreign, 'wrongKey'])
      expect(await target('/page', key)).toBe('https://private.acme.example.com/install/linux');
    // An external target never carries the key, and a site open to all has no use for one.
    expect(await target('/away', active)).toBe('https://example.com/away');
    await created({ source: '/public-page', destination: { kind: 'site-page', siteSpaceId: manualV1.id, pageId: install } });
    expect((await find(`source=/public-page&shareKey=${active}`)).body.target).toBe('https://docs.acme.example.com/install');
    // Deactivating the link takes effect on the next lookup.
    await t.prisma.shareLink.update({ where: { id: 'activeShareLink00001' }, data: { active: false } });
    expect(await target('/page', active)).toBe('https://private.acme.example.com/install/linux');
  });

  it('answers 404 when what the redirect names is gone', async () => {
    const doomedSection = await buildSiteSection(t.prisma, site.id, 'doomed');
    await created({ source: '/to-doomed', destination: { kind: 'site-section', siteSectionId: doomedSection.id } });
    expect((await find('source=/to-doomed')).status).toBe(200);
    await t.prisma.siteSection.delete({ where: { id: doomedSection.id } });
    const res = await find('source=/to-doomed');
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Site redirect destination not found');
  });

  it('refuses a missing or malformed source (400); hides the site from guests, outsiders and other organizations (404)', async () => {
    await created({ source: '/guarded-lookup', destination: external() });
    for (const query of [
      '',
      'source=',
      'source=/a/',
      'source=no-slash',
      `source=/${'x'.repeat(512)}`,
      `source=/a&shareKey=${'k'.repeat(101)}`,
    ]) {
      const res = await find(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message).toMatch(/^Invalid "(source|shareKey)"/);
    }
    for (const person of [world.guest, world.outsider]) expect((await find('source=/guarded-lookup', person.token)).status).toBe(404);
    expect((await find('source=/guarded-lookup', world.admin.token, foreignSite.id)).status).toBe(404);
    expect((await t.request('GET', lookup('source=/guarded-lookup'))).status).toBe(401);
  });
});
