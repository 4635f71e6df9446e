// Sites: create (with existing spaces, or a new empty or sample space), list (filters, pages, statement counts), get,
// update (limits, hostname and basename conflicts, defaults), publish, unpublish and delete; who may do what.
import { beforeAll, describe, expect, it } from 'vitest';
// Type only: the client's enums are TypeScript enums, the wire values are their strings.
import type { SiteType, SiteVisibility } from '../../node_modules/gitbook-api-0202/dist/client.js';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { newId } from '../../src/kernel/ids.js';
import { type Person, useApi, walk } from '../support/app.js';
import { buildMember, buildOrganization, buildSite as buildProvenSite, buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let acme: string;
let sitesUrl: string;

beforeAll(() => {
  acme = world.organizationId;
  sitesUrl = t.app.services.config.sitesUrl;
});

/** An id that matches the id pattern but names nothing. */
const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAA';
const SPEC_SITES = '/orgs/{organizationId}/sites';
const SPEC_SITE = `${SPEC_SITES}/{siteId}`;

const sitesPath = (org: string) => `/v1/orgs/${org}/sites`;
const sitePath = (org: string, id: string, rest = '') => `${sitesPath(org)}/${id}${rest}`;
const create = (token: string | null, body: unknown, org = acme) => t.request('POST', sitesPath(org), { token, body });
const update = (token: string, id: string, body: unknown, org = acme) => t.request('PATCH', sitePath(org, id), { token, body });

/** A site written straight into the database (its hostname and proxy proven), with a site space per given space. */
async function buildSite(data: Partial<Prisma.SiteUncheckedCreateInput> & { organizationId: string }, spaceIds: string[] = []) {
  const site = await buildProvenSite(t.prisma, { title: 'Built site', ...data });
  if (spaceIds.length) {
    await t.prisma.siteSpace.createMany({
      data: spaceIds.map((spaceId, i) => ({ id: newId(), siteId: site.id, spaceId, path: `space-${i}`, position: i })),
    });
  }
  return site;
}

/**
 * The events recorded about a target (src/kernel/events.ts), by action then payload: the test clock stands still, so
 * events of one test share their time.
 */
async function eventsOf(targetId: string) {
  const rows = await t.prisma.auditEvent.findMany({ where: { targetId } });
  return rows
    .map((row) => ({ action: row.action, organizationId: row.organizationId, actorId: row.actorId, payload: row.payload as any }))
    .sort((a, b) => a.action.localeCompare(b.action) || JSON.stringify(a.payload).localeCompare(JSON.stringify(b.payload)));
}

/** A 400 naming `field` (or a field inside it: "adaptiveContent.enabled"). */
async function expectBadRequest(response: Promise<{ status: number; body: any }>, field: string) {
  const res = await response;
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.message).toMatch(new RegExp(`^Invalid "${field}(\\.[\\w.]+)?": `));
}

describe('POST /v1/orgs/{organizationId}/sites', () => {
  it('creates an unpublished site with site spaces from existing spaces, through the official client, matching the spec', async () => {
    const guide = await buildSpace(t.prisma, { organizationId: acme, title: 'User Guide' });
    const api = await buildSpace(t.prisma, { organizationId: acme, title: 'API reference' });
    const again = await buildSpace(t.prisma, { organizationId: acme, title: 'user guide!' });
    const client = gitbookClient('0202', t.url, world.creator.token);
    const res = await client.orgs.createSite(acme, {
      title: 'Developer docs',
      type: 'premium' as SiteType,
      visibility: 'unlisted' as SiteVisibility,
      spaces: [guide.id, api.id, again.id],
    });
    expect(res.status).toBe(201);
    expectMatchesSpec('0202', 'post', SPEC_SITES, 201, res.data);
    const site = res.data;
    expect(res.headers.get('location')).toBe(`${t.url}/v1/orgs/${acme}/sites/${site.id}`);
    expect(site).toMatchObject({
      object: 'site',
      type: 'premium',
      appliedType: 'premium',
      title: 'Developer docs',
      visibility: 'unlisted',
      defaultLevel: 'inherit',
      published: false,
      siteSpaces: 3,
      adaptiveContent: { enabled: false },
      permissions: { view: true, edit: true, create: true, admin: false, viewAdaptiveSchema: true, editAdaptiveSchema: true },
      urls: {
        location: `${t.url}/v1/orgs/${acme}/sites/${site.id}`,
        app: `${t.url}/app/o/${acme}/sites/${site.id}`,
        preview: `${t.url}/app/o/${acme}/sites/${site.id}/preview`,
      },
    });
    expect(site.urls.published).toBeUndefined();
    expect(site.ads).toBeUndefined();
    expect(site.features).toContainEqual({ id: 'sites-custom-domain', plan: 'premium', frozen: false });
    expect(site.features).toContainEqual({ id: 'sites-basic-customization', plan: 'basic', frozen: false });
    expect(site.features.some((feature) => feature.id === 'sites-visitor-authentication')).toBe(false);

    const siteSpaces = await t.prisma.siteSpace.findMany({ where: { siteId: site.id }, orderBy: { position: 'asc' } });
    expect(siteSpaces.map((row) => [row.spaceId, row.path, row.sectionId])).toEqual([
      [guide.id, 'user-guide', null],
      [api.id, 'api-reference', null],
      [again.id, 'user-guide-2', null],
    ]);
    const row = await t.prisma.site.findUniqueOrThrow({ where: { id: site.id } });
    expect(row.defaultSiteSpaceId).toBe(siteSpaces[0].id);
    expect(await eventsOf(site.id)).toEqual([
      {
        action: 'site_created',
        organizationId: acme,
        actorId: world.creator.userId,
        payload: expect.objectContaining({ type: 'premium', visibility: 'unlisted', spaces: [guide.id, api.id, again.id] }),
      },
    ]);
  });

  it('takes the defaults: a public basic site titled "Docs site" with no site space', async () => {
    const client = gitbookClient('0202', t.url, world.admin.token);
    const { data, status } = await client.orgs.createSite(acme, {});
    expect(status).toBe(201);
    expectMatchesSpec('0202', 'post', SPEC_SITES, 201, data);
    expect(data).toMatchObject({ type: 'basic', title: 'Docs site', visibility: 'public', published: false, siteSpaces: 0 });
    expect(data.permissions.admin).toBe(true);
    expect(data.features.every((feature) => feature.plan === 'basic')).toBe(true);
    const sponsored = await create(world.admin.token, { type: 'sponsored' });
    expect(sponsored.body.ads).toEqual({ status: 'pending', submittable: false });
    expect(sponsored.body.features).toContainEqual({ id: 'sites-ads', plan: 'sponsored', frozen: false });
  });

  it('creates a new space for the site with the 0.130 client: "empty" without pages, "sample" with a first page', async () => {
    const client = gitbookClient('0130', t.url, world.creator.token);
    const empty = await client.orgs.createSite(acme, { title: 'Handbook', spaces: 'empty' });
    expect(empty.status).toBe(201);
    expectMatchesSpec('0202', 'post', SPEC_SITES, 201, empty.data);
    expect(empty.data.siteSpaces).toBe(1);
    const [emptySiteSpace] = await t.prisma.siteSpace.findMany({ where: { siteId: empty.data.id } });
    const emptySpace = await t.request('GET', `/v1/spaces/${emptySiteSpace.spaceId}`, { token: world.creator.token });
    expect(emptySpace.body).toMatchObject({ title: 'Handbook', organization: acme });
    expect(emptySiteSpace.path).toBe('handbook');
    const emptyContent = await t.request('GET', `/v1/spaces/${emptySiteSpace.spaceId}/content`, { token: world.creator.token });
    expect(emptyContent.body.pages).toEqual([]);

    const sample = await client.orgs.createSite(acme, { title: 'Sample site', spaces: 'sample' });
    expect(sample.status).toBe(201);
    expectMatchesSpec('0202', 'post', SPEC_SITES, 201, sample.data);
    const [sampleSiteSpace] = await t.prisma.siteSpace.findMany({ where: { siteId: sample.data.id } });
    expect((await t.prisma.site.findUniqueOrThrow({ where: { id: sample.data.id } })).defaultSiteSpaceId).toBe(sampleSiteSpace.id);
    const content = await t.request('GET', `/v1/spaces/${sampleSiteSpace.spaceId}/content`, { token: world.creator.token });
    expect(content.status).toBe(200);
    expect(content.body.pages.map((page: { title: string; path: string }) => [page.title, page.path])).toEqual([['Welcome', 'welcome']]);
    const page = await t.request('GET', `/v1/spaces/${sampleSiteSpace.spaceId}/content/path/welcome?format=markdown`, {
      token: world.creator.token,
    });
    expect(page.body.markdown).toContain('This is the first page of Sample site.');
  });

  it('enforces the limits: title 2 to 128, known types, live spaces of the organization the creator can see, at most 50', async () => {
    const token = world.admin.token;
    await expectBadRequest(create(token, { title: 'x' }), 'title');
    await expectBadRequest(create(token, { title: 'x'.repeat(129) }), 'title');
    await expectBadRequest(create(token, { title: null }), 'title');
    await expectBadRequest(create(token, { type: 'gold' }), 'type');
    await expectBadRequest(create(token, { visibility: 'private' }), 'visibility');
    expect((await create(token, { title: 'xy' })).status).toBe(201);
    expect((await create(token, { title: 'x'.repeat(128) })).status).toBe(201);

    const unknown = await create(token, { spaces: [UNKNOWN_ID] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(`Invalid "spaces": no space "${UNKNOWN_ID}" in this organization.`);
    const elsewhere = await buildSpace(t.prisma, { organizationId: world.secondOrganizationId });
    await expectBadRequest(create(token, { spaces: [elsewhere.id] }), 'spaces');
    const deleted = await buildSpace(t.prisma, { organizationId: acme, deletedAt: t.clock.now() });
    await expectBadRequest(create(token, { spaces: [deleted.id] }), 'spaces');
    const live = await buildSpace(t.prisma, { organizationId: acme });
    await expectBadRequest(create(token, { spaces: [live.id, live.id] }), 'spaces');
    await expectBadRequest(create(token, { spaces: Array.from({ length: 51 }, () => live.id) }), 'spaces');
    await expectBadRequest(create(token, { spaces: 'full' }), 'spaces');
    await expectBadRequest(create(token, { spaces: ['not an id'] }), 'spaces');
    // A space without default access is hidden from the creator, though not from the admin.
    const restricted = await buildSpace(t.prisma, { organizationId: acme, defaultLevel: null });
    await expectBadRequest(create(world.creator.token, { spaces: [restricted.id] }), 'spaces');
    expect((await create(token, { spaces: [restricted.id] })).status).toBe(201);
  });

  it('needs a token (401) and the createContent permission (403); outsiders do not see the organization (404)', async () => {
    const before = await t.prisma.site.count();
    expect((await create(null, { title: 'Anonymous' })).status).toBe(401);
    expect((await create(world.reader.token, { title: 'By a reader' })).status).toBe(403);
    expect((await create(world.editor.token, { title: 'By an editor' })).status).toBe(403);
    expect((await create(world.guest.token, { title: 'By a guest' })).status).toBe(403);
    expect((await create(world.outsider.token, { title: 'By an outsider' })).status).toBe(404);
    expect(await t.prisma.site.count()).toBe(before);
    expect(await t.prisma.auditEvent.count({ where: { action: 'site_created', targetLabel: { startsWith: 'By a' } } })).toBe(0);
  });
});

describe('GET /v1/orgs/{organizationId}/sites', () => {
  let org: string;
  let owner: Person;
  let reader: Person;
  const ids: Record<string, string> = {};
  let guide: string;
  let api: string;

  beforeAll(async () => {
    ({
      organization: { id: org },
      owner,
    } = await buildOrganization(t.prisma, { title: 'Listing' }));
    reader = await buildMember(t.prisma, { organizationId: org, role: 'read' });
    guide = (await buildSpace(t.prisma, { organizationId: org, title: 'Guide' })).id;
    api = (await buildSpace(t.prisma, { organizationId: org, title: 'API' })).id;
    const sites: [string, SiteType | string, boolean, string[]][] = [
      ['Help center', 'basic', true, [guide]],
      ['API docs', 'premium', false, [api]],
      ['Developer portal', 'ultimate', true, [guide, api]],
      ['Changelog_2024', 'legacy_basic', false, []],
      ['Community help', 'sponsored', true, [guide]],
    ];
    for (const [i, [title, type, published, spaces]] of sites.entries()) {
      const createdAt = new Date(Date.UTC(2026, 0, 1 + i));
      ids[title] = (
        await buildSite({ organizationId: org, title, type: type as Prisma.SiteUncheckedCreateInput['type'], published, createdAt }, spaces)
      ).id;
    }
  });

  it('lists the sites newest first, with their site-space counts, through the official client, matching the spec', async () => {
    const client = gitbookClient('0202', t.url, reader.token);
    const { data } = await client.orgs.listSites(org);
    expectMatchesSpec('0202', 'get', SPEC_SITES, 200, data);
    expect(data.count).toBe(5);
    expect(data.items.map((site) => [site.title, site.siteSpaces])).toEqual([
      ['Community help', 1],
      ['Changelog_2024', 0],
      ['Developer portal', 2],
      ['API docs', 1],
      ['Help center', 1],
    ]);
    expect(data.items.map((site) => site.type)).toEqual(['sponsored', 'legacy-basic', 'ultimate', 'premium', 'basic']);
    expect(data.items[0].permissions).toMatchObject({ view: true, edit: false, admin: false });
  });

  it('filters by title (contains, any case, LIKE characters literal), publication, types and space', async () => {
    const client = gitbookClient('0202', t.url, owner.token);
    const titles = async (query: Parameters<typeof client.orgs.listSites>[1]) =>
      (await client.orgs.listSites(org, query)).data.items.map((site) => site.title);
    expect(await titles({ title: 'HELP' })).toEqual(['Community help', 'Help center']);
    expect(await titles({ title: '_' })).toEqual(['Changelog_2024']);
    expect(await titles({ published: true })).toEqual(['Community help', 'Developer portal', 'Help center']);
    expect(await titles({ published: false })).toEqual(['Changelog_2024', 'API docs']);
    expect(await titles({ type: ['premium' as SiteType, 'legacy-basic' as SiteType] })).toEqual(['Changelog_2024', 'API docs']);
    expect(await titles({ space: api })).toEqual(['Developer portal', 'API docs']);
    expect(await titles({ space: guide, published: true, title: 'help' })).toEqual(['Community help', 'Help center']);
    await expectBadRequest(t.request('GET', `${sitesPath(org)}?type=gold`, { token: owner.token }), 'type');
    await expectBadRequest(t.request('GET', `${sitesPath(org)}?published=yes`, { token: owner.token }), 'published');
    await expectBadRequest(t.request('GET', `${sitesPath(org)}?title=${'x'.repeat(129)}`, { token: owner.token }), 'title');
  });

  it('walks every site once by pages; a token of one filter is refused under another', async () => {
    const { items, pages } = await walk<{ id: string }>(t, `${sitesPath(org)}?limit=2`, {
      token: owner.token,
      eachPage: (page) => expect(page.body.items.length).toBeLessThanOrEqual(2),
    });
    const seen = items.map((site) => site.id);
    expect(pages).toBe(3);
    expect(seen).toEqual(['Community help', 'Changelog_2024', 'Developer portal', 'API docs', 'Help center'].map((title) => ids[title]));
    const first = await t.request('GET', `${sitesPath(org)}?limit=1`, { token: owner.token });
    await expectBadRequest(
      t.request('GET', `${sitesPath(org)}?limit=1&published=true&page=${first.body.next.page}`, { token: owner.token }),
      'page',
    );
  });

  it('runs as many statements for 1000 sites with site spaces as for one', async () => {
    const { organization, owner: admin } = await buildOrganization(t.prisma, { title: 'Many sites' });
    const spaces = [
      await buildSpace(t.prisma, { organizationId: organization.id }),
      await buildSpace(t.prisma, { organizationId: organization.id }),
    ];
    const sites = Array.from({ length: 40 }, (_, i) => ({ id: newId(), organizationId: organization.id, title: `Site ${i}` }));
    await t.prisma.site.createMany({ data: sites });
    await t.prisma.siteSpace.createMany({
      data: sites.flatMap((site) => spaces.map((space, i) => ({ id: newId(), siteId: site.id, spaceId: space.id, path: `p${i}` }))),
    });
    const one = await t.counted('GET', `${sitesPath(organization.id)}?limit=1`, { token: admin.token });
    const all = await t.counted('GET', `${sitesPath(organization.id)}?limit=1000`, { token: admin.token });
    expect(one.body.items).toHaveLength(1);
    expect(all.body.items).toHaveLength(40);
    expect(all.body.items.every((site: { siteSpaces: number }) => site.siteSpaces === 2)).toBe(true);
    expect(all.statements).toBe(one.statements);
  });

  it('is empty for a guest, who sees no site; outsiders and anonymous callers are refused', async () => {
    const guest = await buildMember(t.prisma, { organizationId: org, role: null });
    const res = await t.request('GET', sitesPath(org), { token: guest.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], count: 0 });
    expect((await t.request('GET', sitesPath(org), { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('GET', sitesPath(org))).status).toBe(401);
  });
});

describe('GET /v1/orgs/{organizationId}/sites/{siteId}', () => {
  it('returns a site to its organization’s members with a role, matching the spec; 404 for others and elsewhere', async () => {
    const space = await buildSpace(t.prisma, { organizationId: acme });
    const site = await buildSite({ organizationId: acme, title: 'Read me', basename: 'read-me', proxy: 'example.com/docs' }, [space.id]);
    const { data } = await gitbookClient('0202', t.url, world.reader.token).orgs.getSiteById(acme, site.id);
    expectMatchesSpec('0202', 'get', SPEC_SITE, 200, data);
    expect(data).toMatchObject({
      id: site.id,
      title: 'Read me',
      basename: 'read-me',
      siteSpaces: 1,
      proxy: { origin: 'example.com/docs', target: `${sitesUrl}/${acme}/read-me/` },
      permissions: { view: true, access: true, edit: false, create: false, admin: false, editAdaptiveSchema: false },
    });
    expect(data.hostname).toBeUndefined();

    const get = (token: string | null, org = acme, id = site.id) => t.request('GET', sitePath(org, id), { token });
    expect((await get(world.guest.token)).status).toBe(404);
    expect((await get(world.outsider.token)).status).toBe(404);
    expect((await get(null)).status).toBe(401);
    expect((await get(world.admin.token, acme, UNKNOWN_ID)).status).toBe(404);
    // A site of another organization, under this organization's path, even for an admin of both.
    const elsewhere = await buildSite({ organizationId: world.secondOrganizationId });
    expect((await get(world.admin.token, acme, elsewhere.id)).status).toBe(404);
    expect((await get(world.admin.token, world.secondOrganizationId, elsewhere.id)).status).toBe(200);
  });
});

describe('PATCH /v1/orgs/{organizationId}/sites/{siteId}', () => {
  it('changes title, basename, adaptive content and proxy through the official client, matching the spec', async () => {
    const site = await buildSite({ organizationId: acme, title: 'Before' });
    const client = gitbookClient('0202', t.url, world.admin.token);
    const { data } = await client.orgs.updateSiteById(acme, site.id, {
      title: 'After',
      basename: 'after',
      adaptiveContent: { enabled: true },
      proxy: 'www.example.com/developer/docs',
      visibility: 'share-link' as SiteVisibility,
    });
    expectMatchesSpec('0202', 'patch', SPEC_SITE, 200, data);
    expect(data).toMatchObject({
      title: 'After',
      basename: 'after',
      adaptiveContent: { enabled: true },
      visibility: 'share-link',
      proxy: { origin: 'www.example.com/developer/docs', target: `${sitesUrl}/${acme}/after/` },
    });
    const removed = await client.orgs.updateSiteById(acme, site.id, { proxy: null });
    expect(removed.data.proxy).toBeUndefined();
    expect(removed.data.title).toBe('After');
    // The same values again change nothing, and record nothing.
    await client.orgs.updateSiteById(acme, site.id, { title: 'After', visibility: 'share-link' as SiteVisibility });
    expect((await eventsOf(site.id)).map(({ action, payload }) => [action, payload.visibility ?? payload.changed])).toEqual([
      [
        'site_updated',
        {
          title: { from: 'Before', to: 'After' },
          basename: { from: null, to: 'after' },
          adaptiveContent: { from: false, to: true },
          proxy: { from: null, to: 'www.example.com/developer/docs' },
        },
      ],
      ['site_updated', { proxy: { from: 'www.example.com/developer/docs', to: null } }],
      ['site_visibility_updated', { from: 'public', to: 'share_link' }],
    ]);
  });

  it('sets and removes a hostname (our extension: GitBook has no writable hostname), unique across the instance', async () => {
    const mine = await buildSite({ organizationId: acme });
    const theirs = await buildSite({ organizationId: world.outsiderOrganizationId });
    const set = await update(world.admin.token, mine.id, { hostname: 'docs.acme.test' });
    expect(set.status).toBe(200);
    expectMatchesSpec('0202', 'patch', SPEC_SITE, 200, set.body);
    expect(set.body.hostname).toBe('docs.acme.test');
    const again = await update(world.admin.token, mine.id, { hostname: 'docs.acme.test', title: 'Same host' });
    expect(again.status).toBe(200);
    const taken = await update(world.outsider.token, theirs.id, { hostname: 'docs.acme.test' }, world.outsiderOrganizationId);
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe('The hostname "docs.acme.test" is already used by another site.');
    const cleared = await update(world.admin.token, mine.id, { hostname: null });
    expect(cleared.body.hostname).toBeUndefined();
    expect((await eventsOf(mine.id)).map(({ action, payload }) => [action, payload.hostname, payload.changed])).toEqual([
      ['site_hostname_removed', 'docs.acme.test', undefined],
      ['site_hostname_set', { from: null, to: 'docs.acme.test' }, undefined],
      ['site_updated', undefined, { title: { from: 'Built site', to: 'Same host' } }],
    ]);
    expect(await eventsOf(theirs.id)).toEqual([]);
    expect((await update(world.outsider.token, theirs.id, { hostname: 'docs.acme.test' }, world.outsiderOrganizationId)).status).toBe(200);
    await t.prisma.organization.update({ where: { id: acme }, data: { customHostname: 'help.acme.test' } });
    expect((await update(world.admin.token, mine.id, { hostname: 'help.acme.test' })).status).toBe(409);
  });

  it('refuses what the spec’s limits refuse, naming the field', async () => {
    const site = await buildSite({ organizationId: acme, title: 'Limits' });
    const token = world.admin.token;
    const cases: [string, unknown][] = [
      ['title', 'x'],
      ['title', 'x'.repeat(129)],
      ['title', null],
      ['basename', ''],
      ['basename', 'x'.repeat(101)],
      ['basename', 'a/b'],
      ['basename', '..'],
      ['hostname', 'Docs.Example.com'],
      ['hostname', 'example.com'],
      ['hostname', 'docs.example.com.'],
      ['hostname', 'https://docs.example.com'],
      ['hostname', `${Array.from({ length: 9 }, () => 'a'.repeat(60)).join('.')}.com`],
      ['proxy', 'https://example.com/docs'],
      ['proxy', 'example.com'],
      ['proxy', 'example.com/docs/'],
      ['proxy', `example.com/${'d'.repeat(501)}`],
      ['visibility', 'private'],
      ['adaptiveContent', { enabled: 'yes' }],
      ['adaptiveContent', {}],
      ['defaultSiteSpace', 'not an id'],
    ];
    for (const [field, value] of cases) await expectBadRequest(update(token, site.id, { [field]: value }), field);
    expect((await update(token, site.id, { basename: 'x'.repeat(100), proxy: `example.com/${'d'.repeat(500)}` })).status).toBe(200);
    const row = await t.prisma.site.findUniqueOrThrow({ where: { id: site.id } });
    expect([row.title, row.hostname, row.visibility]).toEqual(['Limits', null, 'public']);
  });

  it('keeps a basename to one site of the organization', async () => {
    const first = await buildSite({ organizationId: acme, basename: 'handbook' });
    const second = await buildSite({ organizationId: acme });
    const res = await update(world.admin.token, second.id, { basename: 'handbook' });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('The basename "handbook" is already used by another site of this organization.');
    // A site without a basename is served at its id; one with a basename is not.
    const third = await buildSite({ organizationId: acme });
    expect((await update(world.admin.token, second.id, { basename: third.id })).status).toBe(409);
    expect((await update(world.admin.token, second.id, { basename: first.id })).status).toBe(200);
    const elsewhere = await buildSite({ organizationId: world.secondOrganizationId });
    expect((await update(world.admin.token, elsewhere.id, { basename: 'handbook' }, world.secondOrganizationId)).status).toBe(200);
    expect((await update(world.admin.token, first.id, { basename: 'handbook', title: 'Handbook' })).status).toBe(200);
  });

  it('sets the default site space at the root, or in the default section when the site has sections', async () => {
    const [a, b] = [await buildSpace(t.prisma, { organizationId: acme }), await buildSpace(t.prisma, { organizationId: acme })];
    const flat = await buildSite({ organizationId: acme }, [a.id, b.id]);
    const [, second] = await t.prisma.siteSpace.findMany({ where: { siteId: flat.id }, orderBy: { position: 'asc' } });
    expect((await update(world.creator.token, flat.id, { defaultSiteSpace: second.id })).status).toBe(200);
    expect((await t.prisma.site.findUniqueOrThrow({ where: { id: flat.id } })).defaultSiteSpaceId).toBe(second.id);

    const other = await buildSite({ organizationId: acme }, [a.id]);
    const [foreign] = await t.prisma.siteSpace.findMany({ where: { siteId: other.id } });
    await expectBadRequest(update(world.creator.token, flat.id, { defaultSiteSpace: foreign.id }), 'defaultSiteSpace');
    await expectBadRequest(update(world.creator.token, flat.id, { defaultSiteSpace: UNKNOWN_ID }), 'defaultSiteSpace');
    await expectBadRequest(update(world.creator.token, flat.id, { defaultSiteSection: UNKNOWN_ID }), 'defaultSiteSection');

    const sectioned = await buildSite({ organizationId: acme });
    const section = (path: string, position: number) =>
      t.prisma.siteSection.create({ data: { id: newId(), siteId: sectioned.id, title: path, path, position } });
    const [guides, reference] = [await section('guides', 1), await section('reference', 2)];
    const siteSpace = (sectionId: string, spaceId: string) =>
      t.prisma.siteSpace.create({ data: { id: newId(), siteId: sectioned.id, sectionId, spaceId, path: newId() } });
    const [inGuides, inReference, alsoInGuides] = [
      await siteSpace(guides.id, a.id),
      await siteSpace(reference.id, b.id),
      await siteSpace(guides.id, b.id),
    ];
    // Without a default section set, the first one is the default.
    expect((await update(world.creator.token, sectioned.id, { defaultSiteSpace: alsoInGuides.id })).status).toBe(200);
    expect((await t.prisma.siteSection.findUniqueOrThrow({ where: { id: guides.id } })).defaultSiteSpaceId).toBe(alsoInGuides.id);
    await expectBadRequest(update(world.creator.token, sectioned.id, { defaultSiteSpace: inReference.id }), 'defaultSiteSpace');
    // Both at once: the new default section takes the new default site space.
    const both = await update(world.creator.token, sectioned.id, { defaultSiteSection: reference.id, defaultSiteSpace: inReference.id });
    expect(both.status).toBe(200);
    const [site, referenceRow] = await Promise.all([
      t.prisma.site.findUniqueOrThrow({ where: { id: sectioned.id } }),
      t.prisma.siteSection.findUniqueOrThrow({ where: { id: reference.id } }),
    ]);
    expect([site.defaultSiteSectionId, site.defaultSiteSpaceId, referenceRow.defaultSiteSpaceId]).toEqual([
      reference.id,
      null,
      inReference.id,
    ]);
    await expectBadRequest(update(world.creator.token, sectioned.id, { defaultSiteSpace: inGuides.id }), 'defaultSiteSpace');
    // The same defaults again change nothing, and record nothing; a section's default site space is recorded as the site's.
    expect((await update(world.creator.token, sectioned.id, { defaultSiteSpace: inReference.id })).status).toBe(200);
    const events = await eventsOf(sectioned.id);
    expect(events).toHaveLength(2);
    expect(events.map(({ action, payload }) => [action, payload.changed, payload.section])).toEqual(
      expect.arrayContaining([
        ['site_updated', { defaultSiteSpace: { from: null, to: alsoInGuides.id } }, guides.id],
        [
          'site_updated',
          { defaultSiteSection: { from: null, to: reference.id }, defaultSiteSpace: { from: null, to: inReference.id } },
          reference.id,
        ],
      ]),
    );
  });

  it('lets creators change content settings, and only admins where and to whom the site is served', async () => {
    const site = await buildSite({ organizationId: acme, title: 'Guarded' });
    expect((await update(world.creator.token, site.id, { title: 'By a creator', basename: 'guarded' })).status).toBe(200);
    for (const body of [{ visibility: 'unlisted' }, { hostname: 'guarded.acme.test' }, { proxy: 'acme.test/docs' }, { proxy: null }]) {
      const res = await update(world.creator.token, site.id, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
    }
    expect((await update(world.editor.token, site.id, { title: 'By an editor' })).status).toBe(403);
    expect((await update(world.reader.token, site.id, { title: 'By a reader' })).status).toBe(403);
    expect((await update(world.guest.token, site.id, { title: 'By a guest' })).status).toBe(404);
    expect((await update(world.outsider.token, site.id, { title: 'By an outsider' })).status).toBe(404);
    expect((await t.request('PATCH', sitePath(acme, site.id), { body: { title: 'Anonymous' } })).status).toBe(401);
    const row = await t.prisma.site.findUniqueOrThrow({ where: { id: site.id } });
    expect([row.title, row.visibility, row.hostname, row.proxy]).toEqual(['By a creator', 'public', null, null]);
    expect((await eventsOf(site.id)).map(({ action, actorId }) => [action, actorId])).toEqual([['site_updated', world.creator.userId]]);
  });
});

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/publish and /unpublish', () => {
  it('publishes and unpublishes a site for its admins, its published URL shown only while it is live', async () => {
    const site = await buildSite({ organizationId: acme, title: 'Going live' });
    const client = gitbookClient('0202', t.url, world.admin.token);
    const published = await client.orgs.publishSite(acme, site.id);
    expect(published.status).toBe(200);
    expectMatchesSpec('0202', 'post', `${SPEC_SITE}/publish`, 200, published.data);
    expect(published.data).toMatchObject({ published: true, urls: { published: `${sitesUrl}/${acme}/${site.id}/` } });
    // Publishing again changes nothing.
    expect((await client.orgs.publishSite(acme, site.id)).data).toMatchObject({ published: true });

    // A hostname claimed takes effect once proven (test/sites/custom-hostnames.test.ts): until then, the default URL.
    await update(world.admin.token, site.id, { hostname: 'live.acme.test' });
    const withHost = await client.orgs.getSiteById(acme, site.id);
    expect(withHost.data).toMatchObject({ hostname: 'live.acme.test', urls: { published: `${sitesUrl}/${acme}/${site.id}/` } });
    // A share-link site's URL needs a key, which a plain read does not present.
    await update(world.admin.token, site.id, { visibility: 'share-link' });
    expect((await client.orgs.getSiteById(acme, site.id)).data.urls.published).toBeUndefined();

    const unpublished = await client.orgs.unpublishSite(acme, site.id);
    expect(unpublished.status).toBe(200);
    expectMatchesSpec('0202', 'post', `${SPEC_SITE}/unpublish`, 200, unpublished.data);
    expect(unpublished.data.published).toBe(false);
    expect(unpublished.data.urls.published).toBeUndefined();
    const row = await t.prisma.site.findUniqueOrThrow({ where: { id: site.id } });
    expect([row.title, row.hostname, row.visibility]).toEqual(['Going live', 'live.acme.test', 'share_link']);
    // Publishing a published site is no change: one site_published.
    expect((await eventsOf(site.id)).map(({ action }) => action)).toEqual([
      'site_hostname_set',
      'site_published',
      'site_unpublished',
      'site_visibility_updated',
    ]);
  });

  it('is for admins of the site (403 for creators), 404 for guests and outsiders', async () => {
    const site = await buildSite({ organizationId: acme });
    for (const action of ['publish', 'unpublish']) {
      expect((await t.request('POST', sitePath(acme, site.id, `/${action}`), { token: world.creator.token })).status).toBe(403);
      expect((await t.request('POST', sitePath(acme, site.id, `/${action}`), { token: world.guest.token })).status).toBe(404);
      expect((await t.request('POST', sitePath(acme, site.id, `/${action}`), { token: world.outsider.token })).status).toBe(404);
      expect((await t.request('POST', sitePath(acme, site.id, `/${action}`))).status).toBe(401);
    }
    expect((await t.prisma.site.findUniqueOrThrow({ where: { id: site.id } })).published).toBe(false);
    expect(await eventsOf(site.id)).toEqual([]);
  });
});

describe('DELETE /v1/orgs/{organizationId}/sites/{siteId}', () => {
  it('deletes a site with its site spaces and sections for its admins (205), leaving the spaces', async () => {
    const space = await buildSpace(t.prisma, { organizationId: acme });
    const site = await buildSite({ organizationId: acme, title: 'Doomed' }, [space.id]);
    await t.prisma.siteSection.create({ data: { id: newId(), siteId: site.id, title: 'Section', path: 'section' } });
    expect((await t.request('DELETE', sitePath(acme, site.id), { token: world.creator.token })).status).toBe(403);
    expect((await t.request('DELETE', sitePath(acme, site.id), { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('DELETE', sitePath(acme, site.id))).status).toBe(401);
    expect(await eventsOf(site.id)).toEqual([]);

    const res = await gitbookClient('0202', t.url, world.admin.token).orgs.deleteSiteById(acme, site.id);
    expect(res.status).toBe(205);
    expectMatchesSpec('0202', 'delete', SPEC_SITE, 205, await res.text());
    expect(await t.prisma.site.findUnique({ where: { id: site.id } })).toBeNull();
    expect(await t.prisma.siteSpace.count({ where: { siteId: site.id } })).toBe(0);
    expect(await t.prisma.siteSection.count({ where: { siteId: site.id } })).toBe(0);
    expect(await t.prisma.space.findUnique({ where: { id: space.id } })).not.toBeNull();
    expect((await t.request('DELETE', sitePath(acme, site.id), { token: world.admin.token })).status).toBe(404);
    expect(await eventsOf(site.id)).toEqual([
      { action: 'site_deleted', organizationId: acme, actorId: world.admin.userId, payload: expect.any(Object) },
    ]);
  });
});
