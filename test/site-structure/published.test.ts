// What a site publishes: the published view (live structure, customizations with the spec's defaults, URLs only for a
// published site and, for a share-link site, only with an active key), the resolution of a visitor's URL
// (hostname, proxy, SITES_URL; sections and site spaces; audiences enforced), a share-link and a visitor-auth scenario
// end to end through the official client, the published URLs of spaces (a share key adds its share-link site's), and
// the `shareKey` of every read that takes one: ignored when it is not an active key, 400 when it cannot be one.
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteVisibility } from '../../node_modules/gitbook-api-0202/dist/client.js';
import type { Site } from '../../src/generated/prisma/client.js';
import { useApi } from '../support/app.js';
import { buildOrganization, buildSpace } from '../support/factories.js';
import { expectMatchesDocument, expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { oneCharacterOff } from '../support/tamper.js';
import { buildSite, buildSiteSpaces } from './fixtures.js';

const SITES = 'https://sites.example.test';
const SPEC = '/orgs/{organizationId}/sites/{siteId}';

const { t, world } = useApi({ world: true, env: { SITES_URL: SITES } });
let acme: string;
beforeAll(() => {
  acme = world.organizationId;
});

const client = (token = world.admin.token) => gitbookClient('0202', t.url, token);
const sitePath = (site: Pick<Site, 'id' | 'organizationId'>, rest = '') => `/v1/orgs/${site.organizationId}/sites/${site.id}${rest}`;
const space = (title: string) => buildSpace(t.prisma, { organizationId: acme, title });
const addSpace = async (site: Site, body: Record<string, unknown>) =>
  (await t.request('POST', sitePath(site, '/site-spaces'), { token: world.admin.token, body })).body;
const addSection = async (site: Site, body: Record<string, unknown>) =>
  (await t.request('POST', sitePath(site, '/sections'), { token: world.admin.token, body })).body;
const lookup = (url: string, query = '', token: string | null = world.outsider.token) =>
  t.request('GET', `/v1/urls/published?url=${encodeURIComponent(url)}${query}`, { token });

describe('GET .../published (getPublishedContentSite)', () => {
  it('answers the live structure and the customizations with the spec’s defaults under the stored ones, matching the spec', async () => {
    const site = await buildSite(t.prisma, acme, {
      published: true,
      customizations: { styling: { theme: 'bold', primaryColor: { light: '#112233', dark: '#445566' } }, title: 'Our docs' },
    });
    const live = await addSection(site, { spaceId: (await space('Guides')).id });
    const draftVariant = await addSpace(site, { spaceId: (await space('Draft variant')).id, draft: true });
    await addSection(site, { spaceId: (await space('Hidden section')).id, draft: true });
    const { data, status } = await client(world.reader.token).orgs.getPublishedContentSite(acme, site.id);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'get', `${SPEC}/published`, 200, data);
    expect(data.object).toBe('published-content-site');
    expect(data.site.id).toBe(site.id);
    expect(data.scripts).toEqual([]);
    expect(data.customizations.siteSpaces).toEqual({});
    expect(data.customizations.site).toMatchObject({
      title: 'Our docs',
      styling: { theme: 'bold', primaryColor: { light: '#112233', dark: '#445566' }, corners: 'rounded', font: 'Inter' },
      themes: { default: 'system', toggeable: true },
      socialAccounts: [],
    });
    expect(data.structure.type).toBe('sections');
    const sections = data.structure.structure as { id: string; siteSpaces: { id: string; urls: { published?: string } }[] }[];
    expect(sections.map((section) => section.id)).toEqual([live.id]);
    expect(sections[0].siteSpaces.map((s) => s.id)).toEqual([live.siteSpaces[0].id]);
    expect(sections[0].siteSpaces.map((s) => s.id)).not.toContain(draftVariant.id);
    expect(sections[0].siteSpaces[0].urls.published).toBe(`${SITES}/${acme}/${site.id}/`);
  });

  it('shows no published URL for an unpublished site; 404 across organizations', async () => {
    const site = await buildSite(t.prisma, acme);
    const row = await addSpace(site, { spaceId: (await space('Unpublished')).id });
    const { data } = await client().orgs.getPublishedContentSite(acme, site.id);
    expectMatchesSpec('0202', 'get', `${SPEC}/published`, 200, data);
    expect(data.structure).toMatchObject({ type: 'siteSpaces', structure: [{ id: row.id }] });
    expect((data.structure.structure[0] as { urls: object }).urls).not.toHaveProperty('published');
    expect(data.site.urls.published).toBeUndefined();
    for (const person of [world.guest, world.outsider]) {
      const res = await t.request('GET', sitePath(site, '/published'), { token: person.token });
      expect(res.status).toBe(404);
      expectMatchesSpec('0202', 'get', `${SPEC}/published`, 404, res.body);
    }
  });

  it('costs the same statements for one site space as for many, sections or not', async () => {
    const counted = async (site: Site) => (await t.counted('GET', sitePath(site, '/published'), { token: world.editor.token })).statements;
    const small = await buildSite(t.prisma, acme, { published: true });
    await buildSiteSpaces(t.prisma, { organizationId: acme, siteId: small.id, count: 1 });
    const large = await buildSite(t.prisma, acme, { published: true });
    await buildSiteSpaces(t.prisma, { organizationId: acme, siteId: large.id, count: 400 });
    expect(await counted(large)).toBe(await counted(small));
    const sectioned = async (count: number) => {
      const site = await buildSite(t.prisma, acme, { published: true });
      const ids = Array.from({ length: count }, (_, i) => `pubSection${String(i).padStart(4, '0')}${site.id.slice(0, 6)}`);
      await t.prisma.siteSection.createMany({
        data: ids.map((id, i) => ({ id, siteId: site.id, title: `Section ${i}`, path: `s${i}`, position: i })),
      });
      for (const id of ids) await buildSiteSpaces(t.prisma, { organizationId: acme, siteId: site.id, sectionId: id, count: 2 });
      return site;
    };
    expect(await counted(await sectioned(40))).toBe(await counted(await sectioned(1)));
  });
});

describe('GET /v1/urls/published (getPublishedContentByUrl)', () => {
  let site: Site;
  let guides: { id: string; siteSpaces: { id: string; space: { id: string } }[] };
  let v2: { id: string; space: { id: string } };
  let api: { id: string; siteSpaces: { id: string }[] };
  beforeAll(async () => {
    site = await buildSite(t.prisma, acme, { published: true, visibility: 'unlisted', basename: 'handbook' });
    guides = await addSection(site, { spaceId: (await space('Guides')).id });
    v2 = await addSpace(site, { spaceId: (await space('Version 2')).id, sectionId: guides.id });
    api = await addSection(site, { spaceId: (await space('API')).id });
  });

  it('resolves nothing for a token scoped to other organizations or spaces: not found, as where no site is', async () => {
    const mint = async (body: Record<string, unknown>) =>
      (await t.request('POST', '/v1/user/tokens', { token: world.outsider.token, body: { label: 'Scoped', ...body } })).body.token;
    const own = await mint({ organizations: [world.outsiderOrganizationId] });
    const elsewhere = await space('Not on the site');
    const noSite = await lookup(`${SITES}/nowhere/`, '', own);
    for (const token of [own, await mint({ access: 'read' })]) {
      const res = await lookup(`${SITES}/${acme}/handbook/`, '', token);
      if (token === own) expect([res.status, res.body]).toEqual([noSite.status, noSite.body]);
      else expect(res.status).toBe(200);
    }
    // A reader's token scoped to a space of Acme the site does not publish finds the site's spaces nowhere.
    const reader = await t.request('POST', '/v1/user/tokens', {
      token: world.reader.token,
      body: { label: 'One space', spaces: [elsewhere.id] },
    });
    expect(reader.status, reader.text).toBe(201);
    const res = await lookup(`${SITES}/${acme}/handbook/`, '', reader.body.token);
    expect([res.status, res.body]).toEqual([noSite.status, noSite.body]);
  });

  it('resolves the site’s root to the default section’s default site space, for any caller with a token', async () => {
    const res = await lookup(`${SITES}/${acme}/handbook/`);
    expect(res.status).toBe(200);
    expectMatchesDocument('ours', 'get', '/urls/published', 200, res.body);
    // GitBook's schema requires a short-lived `apiToken`, which this server does not issue: every other field is checked.
    expect(res.body).toEqual({
      site: site.id,
      siteSection: guides.id,
      siteSpace: guides.siteSpaces[0].id,
      space: guides.siteSpaces[0].space.id,
      pathname: '',
      basePath: `/${acme}/handbook/`,
      siteBasePath: `/${acme}/handbook/`,
      organization: acme,
      complete: false,
      canonicalUrl: `${SITES}/${acme}/handbook/`,
    });
  });

  it('follows section and site space paths, leaving the page path', async () => {
    const variant = await lookup(`${SITES}/${acme}/handbook/version-2/getting-started/install`);
    expect(variant.body).toMatchObject({
      siteSection: guides.id,
      siteSpace: v2.id,
      space: v2.space.id,
      pathname: 'getting-started/install',
      basePath: `/${acme}/handbook/version-2/`,
      complete: true,
      canonicalUrl: `${SITES}/${acme}/handbook/version-2/getting-started/install`,
    });
    const section = await lookup(`${SITES}/${acme}/handbook/api/reference`);
    expect(section.body).toMatchObject({
      siteSection: api.id,
      siteSpace: api.siteSpaces[0].id,
      pathname: 'reference',
      basePath: `/${acme}/handbook/api/`,
      complete: true,
      canonicalUrl: `${SITES}/${acme}/handbook/api/reference`,
    });
    // A site's id is not its address once it has a basename.
    expect((await lookup(`${SITES}/${acme}/${site.id}/`)).status).toBe(404);
  });

  it('finds sites by custom hostname and by proxy (the longest first)', async () => {
    const hosted = await buildSite(t.prisma, acme, { published: true, hostname: 'docs.acme.example' });
    const hostedSpace = await addSpace(hosted, { spaceId: (await space('Hosted')).id });
    const res = await lookup('https://docs.acme.example/intro');
    expect(res.body).toMatchObject({ site: hosted.id, siteSpace: hostedSpace.id, siteBasePath: '/', basePath: '/', pathname: 'intro' });
    expect(res.body.siteSection).toBeUndefined();
    const outer = await buildSite(t.prisma, acme, { published: true, proxy: 'www.acme.example/docs' });
    const inner = await buildSite(t.prisma, acme, { published: true, proxy: 'www.acme.example/docs/api' });
    await addSpace(outer, { spaceId: (await space('Outer')).id });
    const innerSpace = await addSpace(inner, { spaceId: (await space('Inner')).id });
    const proxied = await lookup('https://www.acme.example/docs/api/users');
    expect(proxied.body).toMatchObject({ site: inner.id, siteSpace: innerSpace.id, siteBasePath: '/docs/api/', pathname: 'users' });
    expect(proxied.body.canonicalUrl).toBe('https://www.acme.example/docs/api/users');
    expect((await lookup('https://www.acme.example/docs/guide')).body.site).toBe(outer.id);
  });

  it('is 404 where no published site is, 400 for a URL that is not one, 401 without a token', async () => {
    const draft = await buildSite(t.prisma, acme, { published: false, basename: 'draft' });
    await addSpace(draft, { spaceId: (await space('Unpublished')).id });
    const empty = await buildSite(t.prisma, acme, { published: true, basename: 'empty' });
    for (const url of [`${SITES}/${acme}/draft/`, `${SITES}/${acme}/empty/`, 'https://nowhere.example/', `${SITES}/${acme}/`]) {
      const res = await lookup(url);
      expect(res.status, url).toBe(404);
      expectMatchesDocument('0202', 'get', '/urls/published', 404, res.body);
    }
    expect(empty.id).toBeTruthy();
    for (const query of ['', '?url=not-a-url', `?url=${encodeURIComponent('ftp://x.example/')}`]) {
      const res = await t.request('GET', `/v1/urls/published${query}`, { token: world.admin.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error.message).toMatch(/^Invalid "url"/);
    }
    expect((await lookup(`${SITES}/${acme}/handbook/`, '', null)).status).toBe(401);
  });
});

describe('a share-link site, end to end', () => {
  it('shows published URLs and resolves visitors only with an active key of the site', async () => {
    const api = client();
    const created = await api.orgs.createSite(acme, { title: 'Partners', visibility: 'share-link' as SiteVisibility });
    const site = await t.prisma.site.findUniqueOrThrow({ where: { id: created.data.id } });
    const added = await api.orgs.addSpaceToSite(acme, site.id, { spaceId: (await space('Partner guide')).id });
    expect(added.data.urls.published).toBeUndefined();
    await api.orgs.publishSite(acme, site.id);
    const link = await api.orgs.createSiteShareLink(acme, site.id, { name: 'Partners' });
    const key = new URL(link.data.urls.published!).searchParams.get('share')!;
    expect(key).toHaveLength(32);
    const root = `${SITES}/${acme}/${site.id}/`;

    const withKey = await api.orgs.getPublishedContentSite(acme, site.id, { shareKey: key });
    expectMatchesSpec('0202', 'get', `${SPEC}/published`, 200, withKey.data);
    expect(withKey.data.site.urls.published).toBe(`${root}?share=${key}`);
    expect((withKey.data.structure.structure[0] as { urls: { published?: string } }).urls.published).toBe(`${root}?share=${key}`);
    const listed = await api.orgs.listSiteSpaces(acme, site.id, { shareKey: key });
    expect(listed.data.items[0].urls.published).toBe(`${root}?share=${key}`);
    expect((await api.orgs.getSiteStructure(acme, site.id, { shareKey: key })).data.structure[0]).toMatchObject({
      urls: { published: `${root}?share=${key}` },
    });
    // The space itself does not reveal a share-link site's URL.
    expect((await api.spaces.getSpaceById(added.data.space.id)).data.urls.published).toBeUndefined();

    for (const shareKey of [undefined, 'wrong-key', oneCharacterOff(key)]) {
      const view = await api.orgs.getPublishedContentSite(acme, site.id, shareKey ? { shareKey } : {});
      expectMatchesSpec('0202', 'get', `${SPEC}/published`, 200, view.data);
      expect(view.data.site.urls.published).toBeUndefined();
      expect((view.data.structure.structure[0] as { urls: object }).urls).not.toHaveProperty('published');
    }

    const resolved = await lookup(`${root}guide/intro?share=${key}`);
    expect(resolved.status).toBe(200);
    expectMatchesDocument('ours', 'get', '/urls/published', 200, resolved.body);
    expect(resolved.body).toMatchObject({ site: site.id, siteSpace: added.data.id, shareKey: key, pathname: 'guide/intro' });
    expect(resolved.body.canonicalUrl).toBe(`${root}guide/intro?share=${key}`);
    for (const url of [`${root}guide/intro`, `${root}?share=wrong`]) {
      const res = await lookup(url);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('No content found for the URL.');
    }

    // Deactivated: gone on the very next request.
    await api.orgs.updateSiteShareLinkById(acme, site.id, link.data.id, { active: false });
    const after = await api.orgs.getPublishedContentSite(acme, site.id, { shareKey: key });
    expect(after.data.site.urls.published).toBeUndefined();
    expect((after.data.structure.structure[0] as { urls: object }).urls).not.toHaveProperty('published');
    expect((await lookup(`${root}?share=${key}`)).status).toBe(404);
  });
});

describe('a visitor-auth site, end to end', () => {
  it('resolves a visitor holding a token signed with the site’s current key, and no one else', async () => {
    const api = client();
    const created = await api.orgs.createSite(acme, { title: 'Members area', visibility: 'visitor-auth' as SiteVisibility });
    const siteId = created.data.id;
    const added = await api.orgs.addSpaceToSite(acme, siteId, { spaceId: (await space('Members guide')).id });
    await api.orgs.publishSite(acme, siteId);
    const auth = await api.orgs.updateSitePublishingAuthById(acme, siteId, {
      backend: 'custom',
      fallbackURL: 'https://login.acme.example/',
    });
    // For the site, issued now by the service's clock, valid an hour (test/publishing-auth checks the claims).
    const sign = (key: string) =>
      new SignJWT({ plan: 'pro' })
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience(siteId)
        .setIssuedAt(t.clock.now())
        .setExpirationTime(new Date(t.clock.now().getTime() + 3600_000))
        .sign(new TextEncoder().encode(key));
    const url = `${SITES}/${acme}/${siteId}/welcome`;
    const token = await sign(auth.data.privateKey);

    const visitor = await lookup(url, `&visitorAuthToken=${token}`);
    expect(visitor.status).toBe(200);
    expect(visitor.body).toMatchObject({ site: siteId, siteSpace: added.data.id, pathname: 'welcome' });
    const viaClient = await client(world.outsider.token).urls.getPublishedContentByUrl({ url, visitorAuthToken: token });
    expect(viaClient.data).toMatchObject({ site: siteId, siteSpace: added.data.id });

    const refused = async (query: string) => {
      const res = await lookup(url, query);
      expect(res.status, query).toBe(401);
      expectMatchesDocument('ours', 'get', '/urls/published', 401, res.body);
      return res.body.error.message as string;
    };
    expect(await refused('')).toMatch(/visitor token is required/);
    expect(await refused(`&visitorAuthToken=${await sign('another key entirely, not the site’s')}`)).toMatch(/not valid for this site/);
    expect(await refused('&visitorAuthToken=not.a.jwt')).toMatch(/not valid/);

    const redirect = await lookup(url, '&redirectOnError=true');
    expect(redirect.status).toBe(200);
    expectMatchesSpec('0202', 'get', '/urls/published', 200, redirect.body);
    expect(redirect.body).toEqual({ target: 'external', site: siteId, redirect: 'https://login.acme.example/' });

    // A new key: the old token is refused at once.
    const regenerated = await api.orgs.regenerateSitePublishingAuthById(acme, siteId);
    expect(regenerated.data.privateKey).not.toBe(auth.data.privateKey);
    expect(await refused(`&visitorAuthToken=${token}`)).toMatch(/not valid for this site/);
    expect((await lookup(url, `&visitorAuthToken=${await sign(regenerated.data.privateKey)}`)).status).toBe(200);
  });
});

describe('Space urls.published and urls.public', () => {
  it('are the space’s first live place in a published, not share-link site; public only for a public site', async () => {
    const guide = await space('Published guide');
    const read = async () => (await client(world.reader.token).spaces.getSpaceById(guide.id)).data.urls;
    expect(await read()).not.toHaveProperty('published');

    const unlisted = await buildSite(t.prisma, acme, { published: true, visibility: 'unlisted', basename: 'unlisted' });
    await addSpace(unlisted, { spaceId: (await space('Root of unlisted')).id });
    const row = await addSpace(unlisted, { spaceId: guide.id });
    let urls = await read();
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}', 200, await (await client().spaces.getSpaceById(guide.id)).data);
    expect(urls.published).toBe(`${SITES}/${acme}/unlisted/published-guide`);
    expect(urls.public).toBeUndefined();

    // A public site created later does not take over; a draft place is not live.
    const publicSite = await buildSite(t.prisma, acme, { published: true, visibility: 'public', basename: 'public' });
    await addSpace(publicSite, { spaceId: guide.id });
    expect((await read()).published).toBe(`${SITES}/${acme}/unlisted/published-guide`);
    await t.request('PATCH', sitePath(unlisted, `/site-spaces/${row.id}`), { token: world.admin.token, body: { draft: true } });
    urls = await read();
    expect(urls.published).toBe(`${SITES}/${acme}/public/`);
    expect(urls.public).toBe(`${SITES}/${acme}/public/`);
    await t.prisma.site.update({ where: { id: publicSite.id }, data: { published: false } });
    expect(await read()).not.toHaveProperty('published');
  });

  it('cost no statement of their own (read with the counters): as many statements for one space as for 300', async () => {
    const {
      organization: { id: org },
      owner,
    } = await buildOrganization(t.prisma, { id: 'spaceUrlsOrg00000001', title: 'Space URLs' });
    const site = await buildSite(t.prisma, org, { published: true, visibility: 'public' });
    await buildSiteSpaces(t.prisma, { organizationId: org, siteId: site.id, count: 300 });
    const one = await t.counted('GET', `/v1/orgs/${org}/spaces?limit=1`, { token: owner.token });
    const all = await t.counted('GET', `/v1/orgs/${org}/spaces?limit=1000`, { token: owner.token });
    expect(all.body.items).toHaveLength(300);
    expect(all.body.items.every((item: { urls: { public?: string } }) => item.urls.public?.startsWith(`${SITES}/${org}/${site.id}/`))).toBe(
      true,
    );
    expect(all.statements).toBe(one.statements);
  });
});

describe('shareKey on the reads that take it', () => {
  /** A published share-link site with two live spaces (the second at its own path), and an active key of it. */
  async function sharedSite(title: string) {
    const api = client();
    const created = (await api.orgs.createSite(acme, { title, visibility: 'share-link' as SiteVisibility })).data;
    const site = await t.prisma.site.findUniqueOrThrow({ where: { id: created.id } });
    await api.orgs.addSpaceToSite(acme, site.id, { spaceId: (await space(`${title} home`)).id });
    const second = (await api.orgs.addSpaceToSite(acme, site.id, { spaceId: (await space(`${title} guide`)).id })).data;
    await api.orgs.publishSite(acme, site.id);
    const link = await api.orgs.createSiteShareLink(acme, site.id, { name: title });
    const key = new URL(link.data.urls.published!).searchParams.get('share')!;
    return { site, siteSpace: second, spaceId: second.space.id, key, linkId: link.data.id, root: `${SITES}/${acme}/${site.id}/` };
  }

  it('GET /v1/spaces/{spaceId}: an active key of a share-link site that holds the space adds its URL, with the key', async () => {
    const shared = await sharedSite('Partner portal');
    const reader = client(world.reader.token);
    const read = async (shareKey?: string) => (await reader.spaces.getSpaceById(shared.spaceId, shareKey ? { shareKey } : {})).data;
    expect((await read()).urls).not.toHaveProperty('published');
    const withKey = await read(shared.key);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}', 200, withKey);
    const url = `${shared.root}${shared.siteSpace.path}?share=${shared.key}`;
    expect(withKey.urls.published).toBe(url);
    expect(withKey.urls).not.toHaveProperty('public');
    expect(shared.siteSpace.urls.published).toBeUndefined();
    const graphql = await t.request('POST', '/graphql', {
      token: world.reader.token,
      body: {
        query: 'query ($id: ID!, $key: String) { space(id: $id, shareKey: $key) { urls { published public } } }',
        variables: { id: shared.spaceId, key: shared.key },
      },
    });
    expect(graphql.body).toEqual({ data: { space: { urls: { published: url, public: null } } } });

    // Published elsewhere too: the key's URL wins while the key is presented; public stays the public site's.
    const open = await buildSite(t.prisma, acme, { published: true, visibility: 'public', basename: 'open-portal' });
    await addSpace(open, { spaceId: shared.spaceId });
    expect((await read()).urls).toMatchObject({ published: `${SITES}/${acme}/open-portal/`, public: `${SITES}/${acme}/open-portal/` });
    expect((await read(shared.key)).urls).toMatchObject({ published: url, public: `${SITES}/${acme}/open-portal/` });

    // Any other key is ignored: the answer is the one without a key.
    const other = await sharedSite('Other portal');
    const inactive = await sharedSite('Paused portal');
    await client().orgs.updateSiteShareLinkById(acme, inactive.site.id, inactive.linkId, { active: false });
    const withoutKey = (await read()).urls.published;
    for (const key of ['wrong-key', other.key, inactive.key, oneCharacterOff(shared.key)])
      expect((await read(key)).urls.published, key).toBe(withoutKey);
    // A draft place, or an unpublished site, has no URL to add.
    await t.request('PATCH', sitePath(shared.site, `/site-spaces/${shared.siteSpace.id}`), {
      token: world.admin.token,
      body: { draft: true },
    });
    expect((await read(shared.key)).urls.published).toBe(withoutKey);
    await t.request('PATCH', sitePath(shared.site, `/site-spaces/${shared.siteSpace.id}`), {
      token: world.admin.token,
      body: { draft: false },
    });
    await client().orgs.unpublishSite(acme, shared.site.id);
    expect((await read(shared.key)).urls.published).toBe(withoutKey);
  });

  it('never grants access: who cannot read the space does not find it with a key', async () => {
    const shared = await sharedSite('Closed portal');
    for (const person of [world.guest, world.outsider]) {
      const res = await t.request('GET', `/v1/spaces/${shared.spaceId}?shareKey=${shared.key}`, { token: person.token });
      expect(res.status).toBe(404);
    }
    expect((await t.request('GET', `/v1/spaces/${shared.spaceId}?shareKey=${shared.key}`, { token: null })).status).toBe(401);
  });

  it('takes the same key the same way on every read that lists it: ignored when wrong, 400 when it cannot be a key', async () => {
    const shared = await sharedSite('Every read');
    const site = sitePath(shared.site);
    const reads = [
      `/v1/spaces/${shared.spaceId}`,
      `${site}/published`,
      `${site}/structure`,
      `${site}/site-spaces`,
      `${site}/sections`,
      `${site}/redirect?source=/nowhere`,
    ];
    const query = (path: string, key: string) => `${path}${path.includes('?') ? '&' : '?'}shareKey=${encodeURIComponent(key)}`;
    for (const path of reads) {
      const plain = await t.request('GET', path, { token: world.admin.token });
      const wrong = await t.request('GET', query(path, 'not-a-key-of-anything'), { token: world.admin.token });
      expect(wrong.status, path).toBe(plain.status);
      expect(wrong.body, path).toEqual(plain.body);
      const overlong = await t.request('GET', query(path, 'k'.repeat(101)), { token: world.admin.token });
      expect(overlong.status, path).toBe(400);
      expect(overlong.body, path).toEqual({ error: { code: 400, message: 'Invalid "shareKey": must be at most 100 characters.' } });
    }
  });
});
