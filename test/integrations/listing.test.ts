// GET /v1/integrations: the marketplace as the viewer may list it (public integrations, and every integration of their
// own organizations), each filter applied in SQL, pages by name, and a statement count that the page size and the
// number of integrations do not change.
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/app.js';
import { buildOrganization } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { buildIntegration } from './fixtures.js';

const { t, world } = useApi({ world: true });
let acme: string;
let other: string;

const chart = (urlUnfurl: string[]) => [{ id: 'chart', title: 'Chart', urlUnfurl }];
const source = [{ id: 'pages', title: 'Pages', configuration: { componentId: 'c' } }];

beforeAll(async () => {
  acme = world.organizationId;
  other = world.outsiderOrganizationId;
  const build = (name: string, data: Record<string, unknown>) => buildIntegration(t.prisma, { name, ownerOrganizationId: acme, ...data });
  await build('figma', {
    title: 'Figma embeds',
    categories: ['content'],
    blocks: chart(['https://www.figma.com/file/*']),
    target: 'space',
  });
  await build('mermaid', { title: 'Diagrams', categories: ['content', 'other'], blocks: chart(['https://*.mermaid.live/edit']) });
  await build('analytics', { title: 'Page Analytics', categories: ['analytics'], scopes: ['site:views:read'], target: 'site' });
  await build('importer', { title: 'Importer', categories: ['content'], contentSources: source, target: 'organization' });
  await build('acme-private', { title: 'Acme private', visibility: 'private', blocks: chart(['https://figma.com/proto/*']) });
  await build('acme-unlisted', { title: 'Acme unlisted', visibility: 'unlisted' });
  await buildIntegration(t.prisma, { name: 'other-private', ownerOrganizationId: other, visibility: 'private', title: 'Other private' });
  await buildIntegration(t.prisma, { name: 'other-unlisted', ownerOrganizationId: other, visibility: 'unlisted', title: 'Other unlisted' });
  await buildIntegration(t.prisma, { name: 'other_public.50', ownerOrganizationId: other, title: 'Other public 50%' });
});

async function names(query: string, token = world.reader.token): Promise<string[]> {
  const res = await t.request('GET', `/v1/integrations${query}`, { token });
  expect(res.status, res.text).toBe(200);
  expectMatchesSpec('0202', 'get', '/integrations', 200, res.body);
  expect(res.body.count).toBe(res.body.items.length);
  return res.body.items.map((integration: { name: string }) => integration.name);
}

describe('GET /v1/integrations', () => {
  it('lists public integrations and all of the viewer’s organizations’, by name, through the official client', async () => {
    const { data } = await gitbookClient('0202', t.url, world.reader.token).integrations.listIntegrations();
    expectMatchesSpec('0202', 'get', '/integrations', 200, data);
    expect(data.items.map((integration) => integration.name)).toEqual([
      'acme-private',
      'acme-unlisted',
      'analytics',
      'figma',
      'importer',
      'mermaid',
      'other_public.50',
    ]);
    // Another organization sees the public ones only; a guest of Acme too (guests see none of its content).
    const publicOnly = ['analytics', 'figma', 'importer', 'mermaid', 'other_public.50'];
    expect(await names('', world.guest.token)).toEqual(publicOnly);
    expect(await names('', world.outsider.token)).toEqual([
      ...publicOnly.slice(0, -1),
      'other-private',
      'other-unlisted',
      'other_public.50',
    ]);
  });

  it('filters by search (name or title, case-insensitively, `%` and `_` taken literally)', async () => {
    expect(await names('?search=ANALYT')).toEqual(['analytics']);
    expect(await names('?search=diagram')).toEqual(['mermaid']);
    expect(await names('?search=50%25')).toEqual(['other_public.50']);
    expect(await names('?search=_')).toEqual(['other_public.50']);
    expect(await names('?search=zzz')).toEqual([]);
  });

  it('filters by category, scope and target', async () => {
    expect(await names('?category=content')).toEqual(['figma', 'importer', 'mermaid']);
    expect(await names('?category=analytics')).toEqual(['analytics']);
    expect(await names('?scope=site:views:read')).toEqual(['analytics']);
    // Installable at that target: of that target, or of all.
    expect(await names('?target=space')).toEqual(['acme-private', 'acme-unlisted', 'figma', 'mermaid', 'other_public.50']);
    expect(await names('?target=organization')).toEqual(['acme-private', 'acme-unlisted', 'importer', 'mermaid', 'other_public.50']);
  });

  it('filters by block domain: the host of a block’s URL patterns, its subdomains, and wildcard hosts', async () => {
    expect(await names('?blockDomain=figma.com')).toEqual(['acme-private', 'figma']);
    expect(await names('?blockDomain=www.figma.com')).toEqual(['figma']);
    expect(await names('?blockDomain=FIGMA.COM')).toEqual(['acme-private', 'figma']);
    expect(await names('?blockDomain=mermaid.live')).toEqual(['mermaid']);
    expect(await names('?blockDomain=app.mermaid.live')).toEqual(['mermaid']);
    expect(await names('?blockDomain=igma.com')).toEqual([]);
    expect(await names('?blockDomain=figma.com', world.outsider.token)).toEqual(['figma']);
  });

  it('filters by having blocks or content sources, and by owner', async () => {
    expect(await names('?blocks=true')).toEqual(['acme-private', 'figma', 'mermaid']);
    expect(await names('?blocks=false')).toEqual(['acme-unlisted', 'analytics', 'importer', 'other_public.50']);
    expect(await names('?contentSources=true')).toEqual(['importer']);
    expect(await names('?contentSources=false&blocks=false')).toEqual(['acme-unlisted', 'analytics', 'other_public.50']);
    expect(await names(`?owner=${other}`)).toEqual(['other_public.50']);
    expect(await names(`?owner=${other}`, world.outsider.token)).toEqual(['other-private', 'other-unlisted', 'other_public.50']);
    expect(await names(`?owner=${acme}&category=content&blocks=true`)).toEqual(['figma', 'mermaid']);
  });

  it('refuses bad filters with a 400 naming them', async () => {
    for (const [query, field] of [
      ['?blockDomain=figma.com/x', 'blockDomain'],
      [`?blockDomain=${'a'.repeat(101)}`, 'blockDomain'],
      ['?category=games', 'category'],
      ['?blocks=yes', 'blocks'],
      ['?scope=everything', 'scope'],
      ['?limit=-1', 'limit'],
      ['?page=forged', 'page'],
    ]) {
      const res = await t.request('GET', `/v1/integrations${query}`, { token: world.reader.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error.message, query).toMatch(new RegExp(`^Invalid "${field}"`));
    }
  });

  it('pages by name, a page token valid only for the list and filters it was issued for', async () => {
    const first = await t.request('GET', '/v1/integrations?limit=3', { token: world.reader.token });
    expect(first.body.items.map((i: { name: string }) => i.name)).toEqual(['acme-private', 'acme-unlisted', 'analytics']);
    expect(first.body.count).toBe(7);
    const second = await t.request('GET', `/v1/integrations?limit=3&page=${first.body.next.page}`, { token: world.reader.token });
    expectMatchesSpec('0202', 'get', '/integrations', 200, second.body);
    expect(second.body.items.map((i: { name: string }) => i.name)).toEqual(['figma', 'importer', 'mermaid']);
    const last = await t.request('GET', `/v1/integrations?limit=3&page=${second.body.next.page}`, { token: world.reader.token });
    expect(last.body.items.map((i: { name: string }) => i.name)).toEqual(['other_public.50']);
    expect(last.body.next).toBeUndefined();
    const elsewhere = await t.request('GET', `/v1/integrations?limit=3&blocks=true&page=${first.body.next.page}`, {
      token: world.reader.token,
    });
    expect(elsewhere.status).toBe(400);
  });

  it('runs as many statements for one integration as for a page of 50, whatever their owners', async () => {
    const { organization } = await buildOrganization(t.prisma, { owner: world.outsider, title: 'Many' });
    const viewer = world.outsider;
    const one = await t.counted('GET', `/v1/integrations?owner=${organization.id}`, { token: viewer.token });
    expect(one.body.items).toHaveLength(0);
    await buildIntegration(t.prisma, { name: 'many-0', ownerOrganizationId: organization.id });
    const single = await t.counted('GET', `/v1/integrations?owner=${organization.id}`, { token: viewer.token });
    expect(single.body.items).toHaveLength(1);
    for (let i = 1; i < 60; i++) {
      const { organization: owner } = await buildOrganization(t.prisma, { title: `Owner ${i}` });
      await buildIntegration(t.prisma, {
        name: `many-${String(i).padStart(2, '0')}`,
        ownerOrganizationId: i % 2 ? owner.id : organization.id,
      });
    }
    const page = await t.counted('GET', '/v1/integrations?search=many-&limit=50', { token: viewer.token });
    expect(page.body.items).toHaveLength(50);
    expect(page.body.count).toBe(60);
    expect(page.statements).toBe(single.statements);
    expect(single.statements).toBe(5);
  });
});
