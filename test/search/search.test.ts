// Search through the API: GitBook's official client (0.202.0) and its published shapes, sections found by heading and
// by text with their page, path and anchor, only what the caller may see (filtered before the page of results is cut),
// every limit a 400, query syntax never a 500, pages of results in statements that do not grow with their size, and
// content searchable as soon as it is merged (and no longer once changed or deleted).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Space } from '../../src/generated/prisma/client.js';
import { newId } from '../../src/kernel/ids.js';
import { pageContent } from '../../src/revisions/store.js';
import { page, publish } from '../revisions/content.js';
import { useApi, walk } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let guide: Space;
/** A space no member sees by default (defaultLevel null). */
let hidden: Space;

const GUIDE = [
  '# Getting started',
  '',
  'Welcome: this guide walks through the setup of the tool.',
  '',
  '## Install on Linux',
  '',
  'Run the installer with the penguin flag.',
  '',
  '## Configure',
  '',
  'Edit the settings file.',
  '',
  '## Install on Linux',
  '',
  'A second time, for the sake of repeated headings.',
].join('\n');

beforeAll(async () => {
  guide = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Guide' });
  await publish(t.prisma, guide.id, {
    pages: [
      page('gettingStarted', 'Getting started', { markdown: GUIDE, description: 'The first steps with zebra stripes.' }),
      page('advanced', 'Advanced', { parentId: 'gettingStarted', markdown: '## Tuning\n\nThe flux capacitor needs tuning.\n' }),
      page('deepest', 'Deepest', { parentId: 'advanced', markdown: 'Nothing but a capacitor here.\n' }),
      page('link', 'Penguin link', { type: 'link', markdown: null, target: { kind: 'url', url: 'https://example.com' } }),
    ],
  });
  hidden = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Hidden', defaultLevel: null });
  await publish(t.prisma, hidden.id, { pages: [page('secret', 'Secret plans', { markdown: 'The penguin plans, kept secret.\n' })] });
  const elsewhere = await buildSpace(t.prisma, { organizationId: world.secondOrganizationId, title: 'Elsewhere' });
  await publish(t.prisma, elsewhere.id, { pages: [page('other', 'Other penguins', { markdown: 'Penguins elsewhere.\n' })] });
});

const searchPath = (query: string, extra = '') => `/v1/orgs/${world.organizationId}/search?query=${encodeURIComponent(query)}${extra}`;
const spaceSearchPath = (spaceId: string, query: string, extra = '') =>
  `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}${extra}`;
/** The ids of the pages an organization search finds, in rank order. */
const pagesFound = async (query: string, token = world.admin.token) => {
  const res = await t.request('GET', searchPath(query), { token });
  expect(res.status, res.text).toBe(200);
  return (res.body.items as { pages: { id: string }[] }[]).flatMap((space) => space.pages.map((found) => found.id));
};
describe('searching through the official client', () => {
  it('finds a section by the text of its body, with its page, path, anchor and app URL, as GitBook’s spec shapes it', async () => {
    const { data } = await gitbookClient('0202', t.url, world.reader.token).orgs.searchOrganizationContent(world.organizationId, {
      query: 'penguin',
    });
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/search', 200, data);
    expect(data.count).toBe(1);
    expect(data.next).toBeUndefined();
    const [space] = data.items;
    expect(space).toMatchObject({ type: 'space', id: guide.id, title: 'Guide' });
    const [found] = space.pages;
    expect(found).toMatchObject({
      id: 'gettingStarted',
      title: 'Getting started',
      description: 'The first steps with zebra stripes.',
      path: 'getting-started',
      rank: 1,
      resultType: 'section',
      ancestors: [],
      urls: { app: `${t.url}/app/s/${guide.id}/getting-started` },
    });
    expect(found.sections).toEqual([
      {
        id: 'install-on-linux',
        title: 'Install on Linux',
        path: 'getting-started#install-on-linux',
        score: expect.any(Number),
        resultType: 'section',
        body: 'Run the installer with the penguin flag.',
        urls: { app: `${t.url}/app/s/${guide.id}/getting-started#install-on-linux` },
      },
    ]);
  });

  it('finds a section by its heading, a nested page with its ancestors, and a page by its title over pages that only mention it', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data: byHeading } = await api.spaces.searchSpaceContent(guide.id, { query: 'configure' });
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/search', 200, byHeading);
    expect(byHeading.items.map((found) => [found.id, found.sections?.map((section) => section.id)])).toEqual([
      ['gettingStarted', ['configure']],
    ]);

    const { data: nested } = await api.spaces.searchSpaceContent(guide.id, { query: 'tuning' });
    expect(nested.items).toHaveLength(1);
    expect(nested.items[0]).toMatchObject({
      id: 'advanced',
      path: 'getting-started/advanced',
      ancestors: [{ title: 'Getting started' }],
      sections: [{ id: 'tuning', title: 'Tuning', path: 'getting-started/advanced#tuning' }],
      urls: { app: `${t.url}/app/s/${guide.id}/getting-started/advanced` },
    });

    // "Deepest" by its title ranks above the page whose text only mentions the word of the query's other word.
    const { data: byTitle } = await api.spaces.searchSpaceContent(guide.id, { query: 'deepest OR capacitor' });
    expect(byTitle.items.map((found) => [found.id, found.resultType, found.rank])).toEqual([
      ['deepest', 'page', 1],
      ['advanced', 'section', 2],
    ]);
    expect(byTitle.items[0]).toMatchObject({
      path: 'getting-started/advanced/deepest',
      ancestors: [{ title: 'Getting started' }, { title: 'Advanced' }],
    });
  });

  it('gives repeated headings their own anchors, finds a page by its description and by words of several sections, and stems words', async () => {
    const { body } = await t.request('GET', spaceSearchPath(guide.id, 'repeated'), { token: world.reader.token });
    expect(body.items[0].sections.map((section: { id: string }) => section.id)).toEqual(['install-on-linux-2']);
    expect(await pagesFound('zebra')).toEqual(['gettingStarted']);
    // "installing" finds "installer" and "Install" through the english configuration's stems.
    expect(await pagesFound('installing')).toEqual(['gettingStarted']);
    // Link pages have no content of their own: "Penguin link" is not found by its title.
    expect(await pagesFound('link')).toEqual([]);
    // A page matches on the whole of it: words of two sections find it, though neither section alone matches.
    const split = await t.request('GET', spaceSearchPath(guide.id, 'penguin settings'), { token: world.reader.token });
    expect(split.body.items).toEqual([expect.objectContaining({ id: 'gettingStarted', resultType: 'section', sections: [] })]);
  });
});

describe('what the caller may see', () => {
  it('never shows a reader the pages of a space they cannot see, and shows them once it is granted', async () => {
    expect((await pagesFound('penguin', world.admin.token)).sort()).toEqual(['gettingStarted', 'secret']);
    expect(await pagesFound('secret', world.reader.token)).toEqual([]);
    expect(await pagesFound('penguin', world.reader.token)).toEqual(['gettingStarted']);
    // A member without role sees nothing until something is granted to them.
    expect(await pagesFound('penguin', world.guest.token)).toEqual([]);
    const grant = await t.prisma.contentGrant.create({
      data: { id: newId(), organizationId: world.organizationId, spaceId: hidden.id, userId: world.guest.userId, role: 'read' },
    });
    try {
      expect(await pagesFound('penguin', world.guest.token)).toEqual(['secret']);
      const { body } = await t.request('GET', searchPath('penguin'), { token: world.guest.token });
      expect(body.items).toEqual([expect.objectContaining({ id: hidden.id, title: 'Hidden' })]);
    } finally {
      await t.prisma.contentGrant.delete({ where: { id: grant.id } });
    }
    expect((await t.request('GET', spaceSearchPath(hidden.id, 'penguin'), { token: world.reader.token })).status).toBe(404);
  });

  it('filters before cutting the page of results: a reader’s first page is full of what they may see', async () => {
    // The admin's best result is the hidden page (by its title); the reader's first page of one still has a result.
    expect(await pagesFound('secret OR flag', world.admin.token)).toEqual(['secret', 'gettingStarted']);
    const res = await t.request('GET', searchPath('secret OR flag', '&limit=1'), { token: world.reader.token });
    expect(res.body).toMatchObject({ count: 1, items: [{ pages: [{ id: 'gettingStarted', rank: 1 }] }] });
    expect(res.body.next).toBeUndefined();
  });

  it('answers 401 without a token, 404 to another organization and for a space the caller cannot see', async () => {
    expect((await t.request('GET', searchPath('penguin'))).status).toBe(401);
    expect((await t.request('GET', searchPath('penguin'), { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('GET', spaceSearchPath(guide.id, 'penguin'), { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('GET', spaceSearchPath(guide.id, 'penguin'), { token: world.guest.token })).status).toBe(404);
    // The admin of both organizations finds each one's pages in each one only.
    const second = await t.request('GET', `/v1/orgs/${world.secondOrganizationId}/search?query=penguin`, { token: world.admin.token });
    expect(second.body.items.flatMap((space: { pages: { id: string }[] }) => space.pages.map((found) => found.id))).toEqual(['other']);
  });

  it('leaves deleted spaces out', async () => {
    const doomed = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Doomed' });
    await publish(t.prisma, doomed.id, { pages: [page('doomedPage', 'Walrus notes')] });
    expect(await pagesFound('walrus')).toEqual(['doomedPage']);
    expect((await t.request('DELETE', `/v1/spaces/${doomed.id}`, { token: world.admin.token })).status).toBe(205);
    expect(await pagesFound('walrus')).toEqual([]);
  });
});

describe('limits and query syntax', () => {
  it('answers 400 naming the field for each limit', async () => {
    const token = world.reader.token;
    const cases: [string, string][] = [
      [`/v1/orgs/${world.organizationId}/search`, '"query"'],
      [searchPath(''), '"query"'],
      [searchPath('a'.repeat(513)), '"query"'],
      [searchPath('penguin', '&limit=-1'), '"limit"'],
      [searchPath('penguin', '&limit=1001'), '"limit"'],
      [searchPath('penguin', '&limit=ten'), '"limit"'],
      [searchPath('penguin', '&page=forged'), '"page"'],
      [spaceSearchPath(guide.id, 'a'.repeat(513)), '"query"'],
      [spaceSearchPath(guide.id, 'penguin', '&limit=-1'), '"limit"'],
      [searchPath('pen\u0000guin'), '"query"'],
    ];
    for (const [path, field] of cases) {
      const res = await t.request('GET', path, { token });
      expect(res.status, path).toBe(400);
      expect(res.body.error.message, path).toContain(`Invalid ${field}`);
    }
    expect((await t.request('GET', searchPath('a'.repeat(512)), { token })).status).toBe(200);
  });

  it('answers limit=0 with the count alone, and no next page that would start where it did', async () => {
    const counted = await t.request('GET', searchPath('penguin', '&limit=0'), { token: world.admin.token });
    expect(counted.status).toBe(200);
    expect(counted.body).toEqual({ items: [], count: 2 });
  });

  it('never fails on query syntax: unbalanced quotes, lone operators, stop words only', async () => {
    const long = 'é'.repeat(512);
    for (const query of ['"unbalanced', '-', 'OR OR', ':*&|!', 'the', "'", '\\', '(penguin', 'penguin & | !', '-penguin install', long]) {
      const res = await t.request('GET', searchPath(query), { token: world.reader.token });
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/search', 200, res.body);
    }
    expect(await pagesFound('"unbalanced penguin')).toEqual([]);
    expect(await pagesFound('"penguin flag"')).toEqual(['gettingStarted']);
    expect(await pagesFound('tuning -flux')).toEqual([]);
    expect(await pagesFound('tuning -penguin')).toEqual(['advanced']);
  });
});

describe('pages of results', () => {
  let many: Space;
  const COUNT = 60;

  beforeAll(async () => {
    many = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Many' });
    const now = new Date();
    await publish(t.prisma, many.id, {
      pages: Array.from({ length: COUNT }, (_, i) =>
        pageContent({
          pageId: `many${i}`,
          title: `Octopus ${i}`,
          slug: `octopus-${i}`,
          // More mentions, a better score: the ranks follow i downwards.
          markdown: `## Arms\n\n${'octopus '.repeat(i + 1)}\n`,
          createdAt: now,
          updatedAt: now,
        }),
      ),
    });
  });

  it('walks the ranked pages with `next`, each page keeping its global rank, grouped by space', async () => {
    const { items, pages } = await walk<{ pages: { rank: number }[] }>(t, searchPath('octopus', '&limit=25'), {
      token: world.reader.token,
      eachPage: (res) => {
        expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/search', 200, res.body);
        expect(res.body.count).toBe(COUNT);
        expect(res.body.items).toHaveLength(1);
      },
    });
    const seen = items.flatMap((space) => space.pages.map((found) => found.rank));
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
  });

  it('refuses a page token of another query or another scope', async () => {
    const first = await t.request('GET', searchPath('octopus', '&limit=1'), { token: world.reader.token });
    const token = first.body.next.page as string;
    expect((await t.request('GET', searchPath('arms', `&limit=1&page=${token}`), { token: world.reader.token })).status).toBe(400);
    expect(
      (await t.request('GET', spaceSearchPath(many.id, 'octopus', `&limit=1&page=${token}`), { token: world.reader.token })).status,
    ).toBe(400);
    const second = await t.request('GET', searchPath('octopus', `&limit=1&page=${token}`), { token: world.reader.token });
    expect(second.body.items[0].pages[0].rank).toBe(2);
  });

  it('runs as many statements for a page of 100 results as for a page of 1', async () => {
    const one = await t.counted('GET', searchPath('octopus OR penguin', '&limit=1'), { token: world.reader.token });
    const hundred = await t.counted('GET', searchPath('octopus OR penguin', '&limit=100'), { token: world.reader.token });
    expect(hundred.body.items.flatMap((space: { pages: unknown[] }) => space.pages)).toHaveLength(COUNT + 1);
    expect(hundred.statements).toBe(one.statements);
    const spaceOne = await t.counted('GET', spaceSearchPath(many.id, 'octopus', '&limit=1'), { token: world.reader.token });
    const spaceHundred = await t.counted('GET', spaceSearchPath(many.id, 'octopus', '&limit=100'), { token: world.reader.token });
    expect(spaceHundred.body.items).toHaveLength(COUNT);
    expect(spaceHundred.statements).toBe(spaceOne.statements);
  });

  it('searches every space of a list in one statement through GraphQL', async () => {
    const query = `query($org: ID!) { organization(id: $org) { spaces(limit: 100) { items { id search(query: "octopus", limit: 2) { count items { id rank } } } } } }`;
    const graphql = (token: string) => t.counted('POST', '/graphql', { token, body: { query, variables: { org: world.organizationId } } });
    const res = await graphql(world.reader.token);
    expect(res.status, res.text).toBe(200);
    const spaces = res.body.data.organization.spaces.items as { id: string; search: { count: number; items: { rank: number }[] } }[];
    expect(spaces.find((space) => space.id === many.id)?.search).toMatchObject({ count: COUNT, items: [{ rank: 1 }, { rank: 2 }] });
    expect(spaces.find((space) => space.id === guide.id)?.search).toEqual({ count: 0, items: [] });
    const withoutSearch = await t.counted('POST', '/graphql', {
      token: world.reader.token,
      body: { query: query.replace(/search\(.*\) \{ count items \{ id rank \} \}/, ''), variables: { org: world.organizationId } },
    });
    expect(res.statements).toBe(withoutSearch.statements + 1);
  });
});

describe('searchable as soon as merged', () => {
  const api = () => gitbookClient('0202', t.url, world.admin.token);
  const crPath = (spaceId: string, number: number) => `/v1/spaces/${spaceId}/change-requests/${number}`;

  async function changeAndMerge(spaceId: string, changes: unknown[]) {
    const created = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, {
      token: world.admin.token,
      body: { subject: 'Edit' },
    });
    expect(created.status, created.text).toBe(201);
    const edited = await t.request('POST', `${crPath(spaceId, created.body.number)}/content`, {
      token: world.admin.token,
      body: { changes },
    });
    expect(edited.status, edited.text).toBe(200);
    return { number: created.body.number as number, merge: () => api().spaces.mergeChangeRequest(spaceId, String(created.body.number)) };
  }

  it('finds what a merged change request wrote, not what it replaced or deleted, and nothing of an unmerged one', async () => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Edited' });
    const inserted = await changeAndMerge(space.id, [
      {
        operation: 'insert_page',
        document: { markdown: '# Narwhal handbook\n\nIntro.\n\n## Tusks\n\nThe tusk is a xylophone of sorts.\n' },
      },
    ]);
    expect(await pagesFound('xylophone')).toEqual([]);
    expect((await inserted.merge()).data.result).toBe('merge');
    const { data } = await api().spaces.searchSpaceContent(space.id, { query: 'xylophone' });
    expect(data.items).toEqual([
      expect.objectContaining({
        title: 'Narwhal handbook',
        path: 'narwhal-handbook',
        sections: [expect.objectContaining({ id: 'tusks' })],
      }),
    ]);
    const pageId = data.items[0].id;

    const updated = await changeAndMerge(space.id, [
      { operation: 'update_page', page: pageId, document: { markdown: '# Narwhal handbook\n\n## Teeth\n\nThe tooth is a marimba.\n' } },
    ]);
    // Until it is merged, the space's content is what search finds.
    expect(await pagesFound('marimba')).toEqual([]);
    expect(await pagesFound('xylophone')).toEqual([pageId]);
    await updated.merge();
    expect(await pagesFound('xylophone')).toEqual([]);
    const after = await t.request('GET', spaceSearchPath(space.id, 'marimba'), { token: world.admin.token });
    expect(after.body.items[0].sections.map((section: { id: string }) => section.id)).toEqual(['teeth']);

    await (await changeAndMerge(space.id, [{ operation: 'delete_page', page: pageId }])).merge();
    expect(await pagesFound('marimba')).toEqual([]);
    expect(await pagesFound('narwhal')).toEqual([]);
  });

  it('finds the pages of a duplicated space in the copy too', async () => {
    const res = await t.request('POST', `/v1/spaces/${guide.id}/duplicate`, { token: world.admin.token });
    expect(res.status, res.text).toBe(201);
    const found = await t.request('GET', spaceSearchPath(res.body.id, 'tuning'), { token: world.admin.token });
    expect(found.body.items.map((item: { id: string; path: string }) => [item.id, item.path])).toEqual([
      ['advanced', 'getting-started/advanced'],
    ]);
    expect((await t.request('DELETE', `/v1/spaces/${res.body.id}`, { token: world.admin.token })).status).toBe(205);
  });
});
