// A site's site spaces and sections: adding (an existing space or a new one; paths made unique; the first becomes the
// default; a first section takes the root site spaces), listing (pages, the default filter, statements constant with
// embedded spaces), updating (limits, 409 on a duplicate path), moving (midpoint positions), deleting (the default
// moves on), the structure; through GitBook's 0.202 client and spec; who may do what across organizations.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Site } from '../../src/generated/prisma/client.js';
import { useApi, walk } from '../support/app.js';
import { buildOrganization, buildSpace } from '../support/factories.js';
import { expectMatchesDocument, expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { buildSite, buildSiteSpaces } from './fixtures.js';

const { t, world } = useApi({ world: true, env: { SITES_URL: 'https://sites.example.test' } });
let acme: string;
beforeAll(() => {
  acme = world.organizationId;
});

const SPEC = '/orgs/{organizationId}/sites/{siteId}';
const sitePath = (site: Pick<Site, 'id' | 'organizationId'>, rest = '') => `/v1/orgs/${site.organizationId}/sites/${site.id}${rest}`;
const api = (token = world.admin.token) => gitbookClient('0202', t.url, token).orgs;
const space = (title: string, organizationId = acme) => buildSpace(t.prisma, { organizationId, title });
const add = (site: Site, body: unknown, token: string | null = world.admin.token) =>
  t.request('POST', sitePath(site, '/site-spaces'), { token, body });
const addSection = (site: Site, body: unknown, token = world.admin.token) =>
  t.request('POST', sitePath(site, '/sections'), { token, body });
const siteRow = (site: Site) => t.prisma.site.findUniqueOrThrow({ where: { id: site.id } });
/** The events recorded about a site space or section (src/kernel/events.ts). */
const eventsOf = async (targetId: string) =>
  (await t.prisma.auditEvent.findMany({ where: { targetId } })).map((row) => ({
    action: row.action,
    label: row.targetLabel,
    spaceId: row.spaceId,
    payload: row.payload as any,
  }));
describe('POST .../site-spaces (addSpaceToSite)', () => {
  it('adds a space at a path made from its title, the first one as the default, matching the spec, at its Location', async () => {
    const site = await buildSite(t.prisma, acme, { published: true });
    const guide = await space('User Guide');
    const { data, status, headers } = await api().addSpaceToSite(acme, site.id, { spaceId: guide.id });
    expect(status).toBe(201);
    expectMatchesSpec('0202', 'post', `${SPEC}/site-spaces`, 201, data);
    expect(data).toMatchObject({
      object: 'site-space',
      path: 'user-guide',
      title: 'User Guide',
      default: true,
      draft: false,
      hidden: false,
    });
    expect(data.section).toBeUndefined();
    expect(data.space).toMatchObject({ object: 'space', id: guide.id, title: 'User Guide' });
    expect(headers.get('location')).toBe((data.urls as { location?: string }).location);
    expect(data.urls.published).toBe(`https://sites.example.test/${acme}/${site.id}/`);
    expect((await siteRow(site)).defaultSiteSpaceId).toBe(data.id);

    // The same title again: a unique path; not the default; the site space's own title.
    const again = await api().addSpaceToSite(acme, site.id, { spaceId: guide.id, title: 'Guide, again', draft: true });
    expectMatchesSpec('0202', 'post', `${SPEC}/site-spaces`, 201, again.data);
    expect(again.data).toMatchObject({ path: 'guide-again', title: 'Guide, again', default: false, draft: true });
    const third = await api().addSpaceToSite(acme, site.id, { spaceId: guide.id });
    expect(third.data).toMatchObject({ path: 'user-guide-2', title: 'User Guide', default: false });
    expect(third.data.urls.published).toBe(`https://sites.example.test/${acme}/${site.id}/user-guide-2`);
    expect(await eventsOf(again.data.id)).toEqual([
      {
        action: 'site_space_added',
        label: 'guide-again',
        spaceId: guide.id,
        payload: expect.objectContaining({ site: site.id, space: guide.id, section: null, draft: true }),
      },
    ]);
  });

  it('creates a new empty space for a null spaceId, titled after the body', async () => {
    const site = await buildSite(t.prisma, acme);
    const { data } = await api().addSpaceToSite(acme, site.id, { spaceId: null, title: 'Release notes' });
    expect(data).toMatchObject({ path: 'release-notes', title: 'Release notes', default: true });
    expect(data.urls.published).toBeUndefined();
    const created = await t.prisma.space.findUniqueOrThrow({ where: { id: data.space.id } });
    expect(created).toMatchObject({ organizationId: acme, title: 'Release notes', deletedAt: null });
    expect(created.revisionId).not.toBeNull();
  });

  it('answers 204 without a body for Prefer: return=minimal', async () => {
    const site = await buildSite(t.prisma, acme);
    const res = await t.request('POST', sitePath(site, '/site-spaces'), {
      token: world.admin.token,
      body: { spaceId: (await space('Quiet')).id },
      headers: { prefer: 'return=minimal' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('preference-applied')).toBe('return=minimal');
    expect(await t.prisma.siteSpace.count({ where: { siteId: site.id } })).toBe(1);
  });

  it('refuses what the spec’s limits and the organization do not allow, with a 400 naming the field', async () => {
    const site = await buildSite(t.prisma, acme);
    const other = await buildSite(t.prisma, acme);
    const [section] = await Promise.all([
      t.prisma.siteSection.create({ data: { id: 'otherSection00000001', siteId: other.id, title: 'Other', path: 'other' } }),
    ]);
    const theirs = await space('Theirs', world.outsiderOrganizationId);
    const gone = await buildSpace(t.prisma, { organizationId: acme, title: 'Gone', deletedAt: new Date() });
    const mine = await space('Mine');
    const cases: [unknown, RegExp][] = [
      [{}, /^Invalid "spaceId": required/],
      [{ spaceId: 42 }, /^Invalid "spaceId"/],
      [{ spaceId: 'no such!' }, /^Invalid "spaceId"/],
      [{ spaceId: theirs.id }, /^Invalid "spaceId": no such space in this organization/],
      [{ spaceId: gone.id }, /^Invalid "spaceId": no such space in this organization/],
      [{ spaceId: mine.id, sectionId: section.id }, /^Invalid "sectionId": not a section of this site/],
      [{ spaceId: mine.id, title: 'x' }, /^Invalid "title": must be at least 2 characters/],
      [{ spaceId: mine.id, title: 'x'.repeat(129) }, /^Invalid "title": must be at most 128 characters/],
      [{ spaceId: mine.id, draft: 'yes' }, /^Invalid "draft"/],
    ];
    for (const [body, message] of cases) {
      const res = await add(site, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect(await t.prisma.siteSpace.count({ where: { siteId: site.id } })).toBe(0);
  });

  it('is for creators: 403 below, 404 for guests, outsiders and another organization’s site; 401 without a token', async () => {
    const site = await buildSite(t.prisma, acme);
    const body = { spaceId: (await space('Guarded')).id };
    expect((await add(site, body, world.creator.token)).status).toBe(201);
    for (const person of [world.reviewer, world.editor, world.reader]) {
      const res = await add(site, body, person.token);
      expect(res.status).toBe(403);
      expectMatchesDocument('ours', 'post', `${SPEC}/site-spaces`, 403, res.body);
    }
    for (const person of [world.guest, world.outsider]) expect((await add(site, body, person.token)).status).toBe(404);
    const elsewhere = await t.request('POST', `/v1/orgs/${world.secondOrganizationId}/sites/${site.id}/site-spaces`, {
      token: world.admin.token,
      body,
    });
    expect(elsewhere.status).toBe(404);
    expect((await add(site, body, null)).status).toBe(401);
    expect(await t.prisma.siteSpace.count({ where: { siteId: site.id } })).toBe(1);
    const added = await t.prisma.auditEvent.findMany({ where: { action: 'site_space_added', spaceId: body.spaceId } });
    expect(added.map((event) => event.actorId)).toEqual([world.creator.userId]);
  });
});

describe('GET .../site-spaces (listSiteSpaces)', () => {
  let site: Site;
  let ids: string[];
  beforeAll(async () => {
    site = await buildSite(t.prisma, acme, { published: true, visibility: 'unlisted' });
    ids = await buildSiteSpaces(t.prisma, { organizationId: acme, siteId: site.id, count: 7 });
    await t.prisma.site.update({ where: { id: site.id }, data: { defaultSiteSpaceId: ids[2] } });
  });

  it('lists site spaces by position with their spaces, matching the spec, for readers too', async () => {
    const { data } = await api(world.reader.token).listSiteSpaces(acme, site.id);
    expectMatchesSpec('0202', 'get', `${SPEC}/site-spaces`, 200, data);
    expect(data.count).toBe(7);
    expect(data.items.map((item) => item.id)).toEqual(ids);
    expect(data.items.map((item) => item.default)).toEqual([false, false, true, false, false, false, false]);
    expect(data.items[0].space.permissions.view).toBe(true);
    expect(data.items[0].urls.published).toBe(`https://sites.example.test/${acme}/${site.id}/space-1`);
    expect(data.items[2].urls.published).toBe(`https://sites.example.test/${acme}/${site.id}/`);
  });

  it('filters on default', async () => {
    const only = await api().listSiteSpaces(acme, site.id, { default: true });
    expect(only.data.items.map((item) => item.id)).toEqual([ids[2]]);
    const others = await api().listSiteSpaces(acme, site.id, { default: false });
    expect(others.data.items.map((item) => item.id)).toEqual(ids.filter((id) => id !== ids[2]));
    expect(others.data.count).toBe(6);
  });

  it('walks every page once; refuses a bad limit or page token; guests and outsiders get 404', async () => {
    const { items, pages } = await walk<{ id: string }>(t, sitePath(site, '/site-spaces?limit=3'), {
      token: world.admin.token,
      eachPage: (page) => expectMatchesSpec('0202', 'get', `${SPEC}/site-spaces`, 200, page.body),
    });
    expect(pages).toBe(3);
    expect(items.map((item) => item.id)).toEqual(ids);
    for (const query of ['limit=-1', 'limit=1001', 'limit=x', 'page=nope', 'default=maybe']) {
      const res = await t.request('GET', sitePath(site, `/site-spaces?${query}`), { token: world.admin.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error.message).toMatch(/^Invalid "(limit|page|default)"/);
    }
    for (const person of [world.guest, world.outsider]) {
      expect((await t.request('GET', sitePath(site, '/site-spaces'), { token: person.token })).status).toBe(404);
    }
  });

  it('costs the same statements for one site space as for a thousand, spaces embedded', async () => {
    const big = await buildSite(t.prisma, acme, { published: true });
    await buildSiteSpaces(t.prisma, { organizationId: acme, siteId: big.id, count: 1000 });
    const one = await t.counted('GET', sitePath(big, '/site-spaces?limit=1'), { token: world.editor.token });
    const all = await t.counted('GET', sitePath(big, '/site-spaces?limit=1000'), { token: world.editor.token });
    expect(all.body.items).toHaveLength(1000);
    expect(all.body.items[999].space.urls.published).toBe(`https://sites.example.test/${acme}/${big.id}/space-1000`);
    expect(all.statements).toBe(one.statements);
  });
});

describe('PATCH .../site-spaces/{siteSpaceId} (updateSiteSpaceById)', () => {
  it('changes path, condition, space, hidden and draft, matching the spec', async () => {
    const site = await buildSite(t.prisma, acme);
    const first = (await add(site, { spaceId: (await space('First')).id })).body;
    const other = await space('Other');
    const { data } = await api().updateSiteSpaceById(acme, site.id, first.id, {
      path: 'v2',
      condition: 'visitor.claims.beta',
      spaceId: other.id,
      hidden: true,
      draft: true,
    });
    expectMatchesSpec('0202', 'patch', `${SPEC}/site-spaces/{siteSpaceId}`, 200, data);
    expect(data).toMatchObject({ path: 'v2', condition: 'visitor.claims.beta', hidden: true, draft: true, title: 'Other' });
    expect(data.space.id).toBe(other.id);
    const cleared = await api().updateSiteSpaceById(acme, site.id, first.id, { condition: null });
    expect(cleared.data.condition).toBeUndefined();
    expect(cleared.data.path).toBe('v2');
    const row = await t.prisma.siteSpace.findUniqueOrThrow({ where: { id: first.id } });
    expect(row).toMatchObject({ path: 'v2', condition: null, spaceId: other.id, hidden: true, draft: true });
    const updates = (await eventsOf(first.id)).filter((event) => event.action === 'site_space_updated');
    expect(updates.map((event) => event.payload.changed)).toEqual(
      expect.arrayContaining([
        {
          path: { from: 'first', to: 'v2' },
          condition: { from: null, to: 'visitor.claims.beta' },
          spaceId: { from: first.space.id, to: other.id },
          hidden: { from: false, to: true },
          draft: { from: false, to: true },
        },
        { condition: { from: 'visitor.claims.beta', to: null } },
      ]),
    );
    expect(updates).toHaveLength(2);
  });

  it('keeps paths unique within a section (409), not across sections', async () => {
    const site = await buildSite(t.prisma, acme);
    const a = (await add(site, { spaceId: (await space('Alpha')).id })).body;
    const b = (await add(site, { spaceId: (await space('Beta')).id })).body;
    const duplicate = await t.request('PATCH', sitePath(site, `/site-spaces/${b.id}`), {
      token: world.admin.token,
      body: { path: 'alpha' },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.message).toMatch(/"alpha"/);
    // Its own path again is no conflict.
    expect(
      (await t.request('PATCH', sitePath(site, `/site-spaces/${a.id}`), { token: world.admin.token, body: { path: 'alpha' } })).status,
    ).toBe(200);
    const section = (await addSection(site, { spaceId: (await space('Gamma')).id, title: 'Second' })).body;
    // The first section took both; a site space of another section may share a path.
    const second = (await addSection(site, { spaceId: (await space('Alpha')).id, title: 'Third' })).body;
    expect(section.siteSpaces.map((s: { path: string }) => s.path)).toEqual(['alpha', 'beta', 'gamma']);
    expect(second.siteSpaces.map((s: { path: string }) => s.path)).toEqual(['alpha']);
  });

  it('enforces the limits, with a 400 naming the field; 404 for a site space of another site', async () => {
    const site = await buildSite(t.prisma, acme);
    const row = (await add(site, { spaceId: (await space('Limits')).id })).body;
    const cases: [unknown, RegExp][] = [
      [{ path: '' }, /^Invalid "path": must be at least 1 characters/],
      [{ path: 'x'.repeat(101) }, /^Invalid "path": must be at most 100 characters/],
      [{ path: 'a/b' }, /^Invalid "path": must be one URL path segment/],
      [{ path: null }, /^Invalid "path": must not be null/],
      [{ condition: 'x'.repeat(1025) }, /^Invalid "condition": must be at most 1024 characters/],
      [{ hidden: null }, /^Invalid "hidden": must not be null/],
      [{ spaceId: (await space('Foreign', world.outsiderOrganizationId)).id }, /^Invalid "spaceId": no such space/],
    ];
    for (const [body, message] of cases) {
      const res = await t.request('PATCH', sitePath(site, `/site-spaces/${row.id}`), { token: world.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect(
      (await t.request('PATCH', sitePath(site, `/site-spaces/${row.id}`), { token: world.admin.token, body: { condition: '' } })).body
        .condition,
    ).toBe('');
    const other = await buildSite(t.prisma, acme);
    const res = await t.request('PATCH', sitePath(other, `/site-spaces/${row.id}`), { token: world.admin.token, body: { hidden: true } });
    expect(res.status).toBe(404);
    expectMatchesDocument('ours', 'patch', `${SPEC}/site-spaces/{siteSpaceId}`, 404, res.body);
    expect(
      (await t.request('PATCH', sitePath(site, `/site-spaces/${row.id}`), { token: world.editor.token, body: { hidden: true } })).status,
    ).toBe(403);
  });
});

describe('DELETE .../site-spaces/{siteSpaceId} and POST .../move', () => {
  it('deletes a site space (205); when it was the default, the next one by position is', async () => {
    const site = await buildSite(t.prisma, acme);
    const ids: string[] = [];
    for (const title of ['One', 'Two', 'Three']) ids.push((await add(site, { spaceId: (await space(title)).id })).body.id);
    const res = await api().deleteSiteSpaceById(acme, site.id, ids[0]);
    expect(res.status).toBe(205);
    expectMatchesSpec('0202', 'delete', `${SPEC}/site-spaces/{siteSpaceId}`, 205, res.data);
    expect((await siteRow(site)).defaultSiteSpaceId).toBe(ids[1]);
    // The last one: the previous takes over.
    await api().updateSiteSpaceById(acme, site.id, ids[2], { path: 'three' });
    await t.prisma.site.update({ where: { id: site.id }, data: { defaultSiteSpaceId: ids[2] } });
    await api().deleteSiteSpaceById(acme, site.id, ids[2]);
    expect((await siteRow(site)).defaultSiteSpaceId).toBe(ids[1]);
    const again = await t.request('DELETE', sitePath(site, `/site-spaces/${ids[0]}`), { token: world.admin.token });
    expect(again.status).toBe(404);
    expect((await t.request('DELETE', sitePath(site, `/site-spaces/${ids[1]}`), { token: world.reader.token })).status).toBe(403);
    expect((await eventsOf(ids[0])).map((event) => event.action).sort()).toEqual(['site_space_added', 'site_space_removed']);
    expect((await eventsOf(ids[1])).map((event) => event.action)).toEqual(['site_space_added']);
  });

  it('moves a site space before or after a sibling (midpoint positions) or to the end, matching the spec', async () => {
    const site = await buildSite(t.prisma, acme);
    const ids: string[] = [];
    for (const title of ['A', 'B', 'C', 'D']) ids.push((await add(site, { spaceId: (await space(`Move ${title}`)).id })).body.id);
    const order = async () => (await api().listSiteSpaces(acme, site.id)).data.items.map((item) => ids.indexOf(item.id));
    const { data, status } = await api().moveSiteSpace(acme, site.id, ids[3], {
      position: { before: { type: 'site-space', siteSpace: ids[1] } },
    });
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'post', `${SPEC}/site-spaces/{siteSpaceId}/move`, 200, data);
    expect(await order()).toEqual([0, 3, 1, 2]);
    expect((await t.prisma.siteSpace.findUniqueOrThrow({ where: { id: ids[3] } })).position).toBe(1.5);
    await api().moveSiteSpace(acme, site.id, ids[0], { position: { after: { type: 'site-space', siteSpace: ids[2] } } });
    expect(await order()).toEqual([3, 1, 2, 0]);
    await api().moveSiteSpace(acme, site.id, ids[3], {});
    expect(await order()).toEqual([1, 2, 0, 3]);
    const moves = (await eventsOf(ids[3])).filter((event) => event.action === 'site_space_moved');
    expect(moves.map((event) => event.payload.placement)).toEqual(expect.arrayContaining([{ before: ids[1] }, 'last']));
    expect(moves).toHaveLength(2);
    // Halving the same gap until floats run out renumbers the siblings, keeping the order.
    for (let i = 0; i < 60; i++) {
      const mover = i % 2 ? ids[1] : ids[0];
      await api().moveSiteSpace(acme, site.id, mover, { position: { before: { type: 'site-space', siteSpace: ids[2] } } });
    }
    expect((await order()).slice(-2)).toEqual([2, 3]);
    const bad: [unknown, RegExp][] = [
      [{ position: { before: { type: 'site-section', siteSpace: ids[1] } } }, /^Invalid "position.before.type"/],
      [{ position: { after: { type: 'site-space' } } }, /^Invalid "position.after.siteSpace": required/],
      [
        { position: { after: { type: 'site-space', siteSpace: 'unknownSiteSpace0001' } } },
        /^Invalid "position.after.siteSpace": not a sibling/,
      ],
    ];
    for (const [body, message] of bad) {
      const res = await t.request('POST', sitePath(site, `/site-spaces/${ids[0]}/move`), { token: world.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
  });
});

describe('sections (addSectionToSite, listSiteSections, updateSiteSectionById, deleteSiteSectionById, moveSiteSection)', () => {
  it('adds the first section as the default, taking the site’s root site spaces; later ones go after it', async () => {
    const site = await buildSite(t.prisma, acme, { published: true });
    const root = (await add(site, { spaceId: (await space('Root')).id })).body;
    const extra = (await add(site, { spaceId: (await space('Extra')).id })).body;
    const apiSpace = await space('API Reference');
    const { data, status, headers } = await api().addSectionToSite(acme, site.id, { spaceId: apiSpace.id, icon: 'code' });
    expect(status).toBe(201);
    expectMatchesSpec('0202', 'post', `${SPEC}/sections`, 201, data);
    expect(headers.get('location')).toBe((data.urls as { location?: string }).location);
    expect(data).toMatchObject({ object: 'site-section', title: 'API Reference', path: 'api-reference', default: true, icon: 'code' });
    expect(data.siteSpaces.map((s) => [s.id === root.id, s.id === extra.id, s.default, s.section])).toEqual([
      [true, false, true, data.id],
      [false, true, false, data.id],
      [false, false, false, data.id],
    ]);
    expect(data.urls.published).toBe(`https://sites.example.test/${acme}/${site.id}/`);
    expect((await siteRow(site)).defaultSiteSectionId).toBe(data.id);

    const second = await api().addSectionToSite(acme, site.id, { spaceId: apiSpace.id, title: 'API Reference' });
    expect(second.data).toMatchObject({ path: 'api-reference-2', default: false });
    expect(second.data.siteSpaces).toHaveLength(1);
    expect(second.data.siteSpaces[0]).toMatchObject({ default: true, path: 'api-reference' });
    expect(second.data.urls.published).toBe(`https://sites.example.test/${acme}/${site.id}/api-reference-2`);
    expect(second.data.siteSpaces[0].urls.published).toBe(`https://sites.example.test/${acme}/${site.id}/api-reference-2`);

    // Without sectionId, a site space now goes into the default section.
    const later = await api().addSpaceToSite(acme, site.id, { spaceId: (await space('Later')).id });
    expect(later.data.section).toBe(data.id);
    expect(later.data.urls.published).toBe(`https://sites.example.test/${acme}/${site.id}/later`);
    const into = await api().addSpaceToSite(acme, site.id, { spaceId: (await space('Into')).id, sectionId: second.data.id });
    expect(into.data.urls.published).toBe(`https://sites.example.test/${acme}/${site.id}/api-reference-2/into`);
  });

  it('enforces the section limits and the organization’s spaces', async () => {
    const site = await buildSite(t.prisma, acme);
    const mine = (await space('Sections limits')).id;
    const cases: [unknown, RegExp][] = [
      [{ title: 'Missing space' }, /^Invalid "spaceId": required/],
      [{ spaceId: mine, title: 'x' }, /^Invalid "title": must be at least 2 characters/],
      [{ spaceId: mine, title: 'x'.repeat(129) }, /^Invalid "title": must be at most 128 characters/],
      [{ spaceId: mine, icon: 'x'.repeat(51) }, /^Invalid "icon": must be at most 50 characters/],
      [{ spaceId: (await space('Not ours', world.outsiderOrganizationId)).id }, /^Invalid "spaceId": no such space/],
    ];
    for (const [body, message] of cases) {
      const res = await addSection(site, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await addSection(site, { spaceId: mine }, world.editor.token)).status).toBe(403);
    expect((await addSection(site, { spaceId: mine }, world.outsider.token)).status).toBe(404);
    const fresh = await addSection(site, { spaceId: null, title: 'Brand new' });
    expect(fresh.status).toBe(201);
    expect(fresh.body.siteSpaces[0].space.title).toBe('Brand new');
    expect(await t.prisma.siteSection.count({ where: { siteId: site.id } })).toBe(1);
  });

  it('lists sections with their site spaces, matching the spec, in pages, at constant statements', async () => {
    const site = await buildSite(t.prisma, acme, { published: true });
    const sectionIds: string[] = [];
    for (const title of ['One', 'Two', 'Three']) sectionIds.push((await addSection(site, { spaceId: (await space(title)).id })).body.id);
    const { data } = await api(world.reader.token).listSiteSections(acme, site.id);
    expectMatchesSpec('0202', 'get', `${SPEC}/sections`, 200, data);
    expect(data.items.map((item) => item.id)).toEqual(sectionIds);
    expect(data.items.map((item) => item.default)).toEqual([true, false, false]);
    const first = await api().listSiteSections(acme, site.id, { limit: 2 });
    expect(first.data.items).toHaveLength(2);
    const rest = await api().listSiteSections(acme, site.id, { limit: 2, page: first.data.next!.page });
    expect(rest.data.items.map((item) => item.id)).toEqual([sectionIds[2]]);
    expect(rest.data.next).toBeUndefined();
    expect((await t.request('GET', sitePath(site, '/sections?limit=1001'), { token: world.admin.token })).status).toBe(400);
    expect((await t.request('GET', sitePath(site, '/sections'), { token: world.guest.token })).status).toBe(404);

    // 300 sections of 3 site spaces each: one page of 1 and one of 1000 cost the same.
    const big = await buildSite(t.prisma, acme, { published: true });
    const sections = Array.from({ length: 300 }, (_, i) => ({
      id: `bigSection${String(i).padStart(10, '0')}`,
      siteId: big.id,
      title: `S${i}`,
      path: `s${i}`,
      position: i,
    }));
    await t.prisma.siteSection.createMany({ data: sections });
    for (const round of [0, 1, 2])
      await buildSiteSpacesIn(
        big,
        sections.map((section) => section.id),
        round,
      );
    const one = await t.counted('GET', sitePath(big, '/sections?limit=1'), { token: world.editor.token });
    const all = await t.counted('GET', sitePath(big, '/sections?limit=1000'), { token: world.editor.token });
    expect(all.body.items).toHaveLength(300);
    expect(all.body.items[299].siteSpaces).toHaveLength(3);
    expect(all.statements).toBe(one.statements);
  });

  it('updates a section, matching the spec: 409 on a path taken, 400 for a default site space of another section', async () => {
    const site = await buildSite(t.prisma, acme);
    const a = (await addSection(site, { spaceId: (await space('Sec A')).id })).body;
    const b = (await addSection(site, { spaceId: (await space('Sec B')).id })).body;
    const variant = (await add(site, { spaceId: (await space('Variant')).id, sectionId: b.id })).body;
    const { data } = await api().updateSiteSectionById(acme, site.id, b.id, {
      title: 'Renamed',
      path: 'renamed',
      defaultSiteSpace: variant.id,
      condition: 'true',
      icon: 'book',
      description: 'About it',
      draft: true,
    });
    expectMatchesSpec('0202', 'patch', `${SPEC}/sections/{siteSectionId}`, 200, data);
    expect(data).toMatchObject({
      title: 'Renamed',
      path: 'renamed',
      condition: 'true',
      icon: 'book',
      description: 'About it',
      draft: true,
    });
    expect(data.siteSpaces.find((s) => s.id === variant.id)?.default).toBe(true);
    const cleared = await api().updateSiteSectionById(acme, site.id, b.id, { description: null, icon: null, condition: null });
    expect(cleared.data.description).toBeUndefined();
    expect(cleared.data.icon).toBeUndefined();
    // Nothing left to clear: no change, no event.
    await api().updateSiteSectionById(acme, site.id, b.id, { description: null });
    const updates = (await eventsOf(b.id)).filter((event) => event.action === 'site_section_updated');
    expect(updates).toHaveLength(2);
    expect(updates.map((event) => [event.label, event.payload.changed])).toEqual(
      expect.arrayContaining([
        [
          'Renamed',
          {
            title: { from: 'Sec B', to: 'Renamed' },
            path: { from: 'sec-b', to: 'renamed' },
            defaultSiteSpace: { from: b.siteSpaces[0].id, to: variant.id },
            condition: { from: null, to: 'true' },
            icon: { from: null, to: 'book' },
            description: { from: null, to: 'About it' },
            draft: { from: false, to: true },
          },
        ],
        [
          'Renamed',
          { description: { from: 'About it', to: null }, icon: { from: 'book', to: null }, condition: { from: 'true', to: null } },
        ],
      ]),
    );
    const patch = (body: unknown) => t.request('PATCH', sitePath(site, `/sections/${b.id}`), { token: world.admin.token, body });
    const taken = await patch({ path: a.path });
    expect(taken.status).toBe(409);
    const cases: [unknown, RegExp][] = [
      [{ defaultSiteSpace: a.siteSpaces[0].id }, /^Invalid "defaultSiteSpace": not a site space of this section/],
      [{ title: 'x' }, /^Invalid "title"/],
      [{ path: 'x'.repeat(101) }, /^Invalid "path"/],
      [{ description: 'x'.repeat(257) }, /^Invalid "description": must be at most 256 characters/],
      [{ condition: 'x'.repeat(1025) }, /^Invalid "condition"/],
      [{ draft: null }, /^Invalid "draft": must not be null/],
    ];
    for (const [body, message] of cases) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect(
      (await t.request('PATCH', sitePath(site, `/sections/unknownSection000001`), { token: world.admin.token, body: {} })).status,
    ).toBe(404);
    // The refused changes recorded nothing.
    expect((await eventsOf(b.id)).filter((event) => event.action === 'site_section_updated')).toHaveLength(2);
  });

  it('deletes a section with its site spaces (205); the next section becomes the default', async () => {
    const site = await buildSite(t.prisma, acme);
    const ids: string[] = [];
    for (const title of ['Del A', 'Del B', 'Del C']) ids.push((await addSection(site, { spaceId: (await space(title)).id })).body.id);
    const res = await api().deleteSiteSectionById(acme, site.id, ids[0]);
    expect(res.status).toBe(205);
    expectMatchesSpec('0202', 'delete', `${SPEC}/sections/{siteSectionId}`, 205, res.data);
    expect(await t.prisma.siteSpace.count({ where: { sectionId: ids[0] } })).toBe(0);
    expect((await siteRow(site)).defaultSiteSectionId).toBe(ids[1]);
    expect((await t.request('DELETE', sitePath(site, `/sections/${ids[0]}`), { token: world.admin.token })).status).toBe(404);
    expect((await t.request('DELETE', sitePath(site, `/sections/${ids[1]}`), { token: world.editor.token })).status).toBe(403);
    expect((await eventsOf(ids[0])).map((event) => [event.action, event.label]).sort()).toEqual([
      ['site_section_added', 'Del A'],
      ['site_section_removed', 'Del A'],
    ]);
    expect((await eventsOf(ids[1])).map((event) => event.action)).toEqual(['site_section_added']);
  });

  it('moves a section, matching the spec', async () => {
    const site = await buildSite(t.prisma, acme);
    const ids: string[] = [];
    for (const title of ['Mv A', 'Mv B', 'Mv C']) ids.push((await addSection(site, { spaceId: (await space(title)).id })).body.id);
    const { data } = await api().moveSiteSection(acme, site.id, ids[2], {
      position: { before: { type: 'site-section', siteSection: ids[0] } },
    });
    expectMatchesSpec('0202', 'post', `${SPEC}/sections/{siteSectionId}/move`, 200, data);
    const order = (await api().listSiteSections(acme, site.id)).data.items.map((item) => ids.indexOf(item.id));
    expect(order).toEqual([2, 0, 1]);
    const res = await t.request('POST', sitePath(site, `/sections/${ids[0]}/move`), {
      token: world.admin.token,
      body: { position: { after: { type: 'site-space', siteSection: ids[1] } } },
    });
    expect(res.status).toBe(400);
    expect(
      (await eventsOf(ids[2])).filter((event) => event.action === 'site_section_moved').map((event) => event.payload.placement),
    ).toEqual([{ before: ids[0] }]);
    expect((await eventsOf(ids[0])).map((event) => event.action)).toEqual(['site_section_added']);
  });
});

/** Site spaces for each of these sections (one new space each), at position `round`. */
async function buildSiteSpacesIn(site: Site, sectionIds: string[], round: number) {
  const spaceIds = await buildSiteSpaces(t.prisma, { organizationId: acme, siteId: site.id, count: sectionIds.length });
  await t.prisma.$executeRaw`
    UPDATE "SiteSpace" ss SET "sectionId" = v.section, position = ${round}, path = ${`p${round}`}
      FROM unnest(${spaceIds}::text[], ${sectionIds}::text[]) AS v(id, section) WHERE ss.id = v.id`;
  return spaceIds;
}

describe('GET .../structure (getSiteStructure)', () => {
  it('is the site spaces without sections, the sections with theirs otherwise, drafts included, matching the spec', async () => {
    const site = await buildSite(t.prisma, acme);
    const empty = await api().getSiteStructure(acme, site.id);
    expectMatchesSpec('0202', 'get', `${SPEC}/structure`, 200, empty.data);
    expect(empty.data).toEqual({ type: 'siteSpaces', structure: [] });
    const draft = (await add(site, { spaceId: (await space('Draft one')).id, draft: true })).body;
    const flat = await api(world.reader.token).getSiteStructure(acme, site.id);
    expectMatchesSpec('0202', 'get', `${SPEC}/structure`, 200, flat.data);
    expect(flat.data.type).toBe('siteSpaces');
    expect(flat.data.structure.map((item) => item.id)).toEqual([draft.id]);
    const section = (await addSection(site, { spaceId: (await space('Sectioned')).id, draft: true })).body;
    const sectioned = await api().getSiteStructure(acme, site.id);
    expectMatchesSpec('0202', 'get', `${SPEC}/structure`, 200, sectioned.data);
    expect(sectioned.data.type).toBe('sections');
    expect(sectioned.data.structure.map((item) => [item.id, item.object])).toEqual([[section.id, 'site-section']]);
    const other = await buildOrganization(t.prisma, { title: 'Elsewhere' });
    const res = await t.request('GET', sitePath(site, '/structure'), { token: other.owner.token });
    expect(res.status).toBe(404);
    expectMatchesSpec('0202', 'get', `${SPEC}/structure`, 404, res.body);
  });
});
