// A space's current content: the revision with its page tree and files, the page tree alone, files a page at a time,
// one file, one page by id or by path with its body as markdown or as GitBook's document; through GitBook's client,
// matching its published spec; who may read it; what it costs.
import { beforeAll, describe, expect, it } from 'vitest';
import { route } from '../../rest/route.js';
import type { Space } from '../../src/generated/prisma/client.js';
import { useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { expectPagesMatchSpec, file, page, publish } from './content.js';

const { t, world } = useApi({ world: true });
let space: Space;

const guide = '# Guide\n\nRead **this** first, then [the API](https://example.com/api).\n';
const storedDocument = {
  object: 'document',
  data: {},
  nodes: [
    { object: 'block', type: 'heading-2', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Stored', marks: [] }] }] },
    {
      object: 'block',
      type: 'paragraph',
      data: {},
      nodes: [
        { object: 'text', leaves: [{ object: 'leaf', text: 'See ', marks: [] }] },
        {
          object: 'inline',
          type: 'link',
          data: { ref: { kind: 'page', page: 'install' } },
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'installing', marks: [{ object: 'mark', type: 'bold' }] }] }],
        },
        { object: 'text', leaves: [{ object: 'leaf', text: ' ', marks: [] }] },
        { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: { kind: 'file', file: 'logo' }, alt: 'Logo' }, nodes: [] },
      ],
    },
  ],
};

beforeAll(async () => {
  space = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Handbook' });
  await publish(t.prisma, space.id, {
    pages: [
      page('guide', 'Guide', {
        markdown: guide,
        position: 0,
        gitOid: 'abc123',
        gitPath: 'guide.md',
        layout: { width: 'wide', outline: false },
      }),
      page('install', 'Install', { parentId: 'guide', position: 1 }),
      page('upgrade', 'Upgrade', { parentId: 'guide', position: 0, markdown: null, document: storedDocument }),
      page('linux', 'Linux', { parentId: 'install', markdown: '## Steps\n\n1. Download\n2. Run\n' }),
      page('reference', 'Reference', { type: 'group', markdown: null, position: 2 }),
      page('endpoints', 'Endpoints', { parentId: 'reference' }),
      page('site', 'Website', { type: 'link', markdown: null, target: { kind: 'url', url: 'https://example.com' }, position: 3 }),
    ],
    files: [
      file('logo', 'logo.png', { contentType: 'image/png', size: 120, width: 64, height: 32 }),
      file('notes', 'notes.txt', { contentType: 'text/plain', size: 10 }),
    ],
  });
});

const base = () => `/v1/spaces/${space.id}/content`;

describe('GET /v1/spaces/{spaceId}/content', () => {
  it('answers the revision with its page tree, paths and files through the official client, matching the spec', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const { data, status } = await api.spaces.getCurrentRevision(space.id);
    expect(status).toBe(200);
    expectPagesMatchSpec('/spaces/{spaceId}/content', data);
    const current = await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } });
    const revision = await t.prisma.revision.findUniqueOrThrow({ where: { id: current.revisionId! } });
    expect(data).toMatchObject({
      object: 'revision',
      id: revision.id,
      parents: revision.parents,
      type: 'edits',
      createdAt: revision.createdAt.toISOString(),
      reusableContents: [],
      urls: { app: `${t.url}/app/s/${space.id}/~/revisions/${revision.id}` },
    });
    const outline = (pages: any[]): unknown[] => pages.map((p) => [p.id, p.type, p.path ?? null, outline(p.pages ?? [])]);
    expect(outline(data.pages)).toEqual([
      [
        'guide',
        'document',
        'guide',
        [
          ['upgrade', 'document', 'guide/upgrade', []],
          ['install', 'document', 'guide/install', [['linux', 'document', 'guide/install/linux', []]]],
        ],
      ],
      ['reference', 'group', 'reference', [['endpoints', 'document', 'reference/endpoints', []]]],
      ['site', 'link', null, []],
    ]);
    const [guidePage, reference, link] = data.pages as any[];
    expect(guidePage).toMatchObject({
      kind: 'sheet',
      slug: 'guide',
      urls: { app: `${t.url}/app/s/${space.id}/guide` },
      git: { oid: 'abc123', path: 'guide.md' },
      layout: { width: 'wide', outline: false, title: true, coverSize: 'hero' },
      tags: [],
    });
    // A tree carries no bodies.
    expect(guidePage).not.toHaveProperty('markdown');
    expect(guidePage).not.toHaveProperty('document');
    expect(reference).toMatchObject({ kind: 'group', slug: 'reference', hidden: false });
    expect(reference).not.toHaveProperty('layout');
    expect(link).toEqual({
      id: 'site',
      title: 'Website',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      kind: 'link',
      type: 'link',
      hidden: false,
      target: { kind: 'url', url: 'https://example.com' },
      href: 'https://example.com',
    });
    expect(data.files.map((f: any) => [f.id, f.name, f.size, f.dimensions ?? null])).toEqual([
      ['logo', 'logo.png', 120, { width: 64, height: 32 }],
      ['notes', 'notes.txt', 10, null],
    ]);
  });

  it('leaves git metadata out with metadata=false, and takes computed', async () => {
    const res = await t.request('GET', `${base()}?metadata=false&computed=false`, { token: world.reader.token });
    expect(res.status).toBe(200);
    expect(res.body.pages[0].git).toBeUndefined();
    expect((await t.request('GET', `${base()}?metadata=maybe`, { token: world.reader.token })).body.error.message).toBe(
      'Invalid "metadata": must be true or false.',
    );
  });

  it('is an empty revision for a new space', async () => {
    const empty = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const { data } = await gitbookClient('0202', t.url, world.admin.token).spaces.getCurrentRevision(empty.id);
    expectPagesMatchSpec('/spaces/{spaceId}/content', data);
    expect(data).toMatchObject({ id: empty.revisionId, pages: [], files: [], parents: [] });
  });
});

describe('GET /v1/spaces/{spaceId}/content/pages', () => {
  it('answers the page tree alone', async () => {
    const { data } = await gitbookClient('0202', t.url, world.reader.token).spaces.listPages(space.id);
    expectPagesMatchSpec('/spaces/{spaceId}/content/pages', data);
    expect(Object.keys(data)).toEqual(['pages']);
    const full = await t.request('GET', base(), { token: world.reader.token });
    expect(data.pages).toEqual(full.body.pages);
  });
});

describe('GET /v1/spaces/{spaceId}/content/page/{pageId}', () => {
  const api = () => gitbookClient('0202', t.url, world.editor.token);

  it('answers a page with its subpages and its body as GitBook’s document by default, matching the spec', async () => {
    const { data } = await api().spaces.getPageById(space.id, 'guide');
    expectPagesMatchSpec('/spaces/{spaceId}/content/page/{pageId}', data);
    expect(data).toMatchObject({ id: 'guide', path: 'guide', pages: [{ id: 'upgrade' }, { id: 'install', pages: [{ id: 'linux' }] }] });
    const page = data as any;
    expect(page.markdown).toBeUndefined();
    // The leading heading is the title, so the document starts after it.
    expect(page.document.nodes).toEqual([
      {
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [
          {
            object: 'text',
            leaves: [
              { object: 'leaf', text: 'Read ', marks: [] },
              { object: 'leaf', text: 'this', marks: [{ object: 'mark', type: 'bold' }] },
              { object: 'leaf', text: ' first, then ', marks: [] },
            ],
          },
          {
            object: 'inline',
            type: 'link',
            data: { ref: { kind: 'url', url: 'https://example.com/api' } },
            nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'the API', marks: [] }] }],
            isVoid: false,
          },
          { object: 'text', leaves: [{ object: 'leaf', text: '.', marks: [] }] },
        ],
      },
    ]);
    // Subpages carry no body.
    expect(page.pages[0].document).toBeUndefined();
  });

  it('answers the stored markdown with format=markdown', async () => {
    const { data } = await api().spaces.getPageById(space.id, 'guide', { format: 'markdown' });
    expectPagesMatchSpec('/spaces/{spaceId}/content/page/{pageId}', data);
    expect((data as any).markdown).toBe(guide);
    expect((data as any).document).toBeUndefined();
  });

  it('answers a stored document as it is, and as markdown with links to pages and files as paths from its file', async () => {
    const { data: asDocument } = await api().spaces.getPageById(space.id, 'upgrade', { format: 'document' });
    expectPagesMatchSpec('/spaces/{spaceId}/content/page/{pageId}', asDocument);
    expect((asDocument as any).document).toEqual(storedDocument);
    const { data: asMarkdown } = await api().spaces.getPageById(space.id, 'upgrade', { format: 'markdown' });
    // Upgrade is written to guide/upgrade.md (its parent keeps its Git path, guide.md, and its subpages are in guide/),
    // Install, which has a subpage, to guide/install/README.md, and the logo to .gitbook/assets/logo.png.
    expect((asMarkdown as any).markdown).toBe(
      '## Stored\n\nSee [**installing**](install/README.md) ![Logo](../.gitbook/assets/logo.png)\n',
    );
  });

  it('answers a group without a body, and refuses what is not there or not a format', async () => {
    const { data } = await api().spaces.getPageById(space.id, 'reference');
    expectPagesMatchSpec('/spaces/{spaceId}/content/page/{pageId}', data);
    expect(data).toMatchObject({ type: 'group', pages: [{ id: 'endpoints' }] });
    expect(data).not.toHaveProperty('document');
    const missing = await t.request('GET', `${base()}/page/nothing`, { token: world.editor.token });
    expect([missing.status, missing.body.error.message]).toEqual([404, 'Page not found']);
    const format = await t.request('GET', `${base()}/page/guide?format=html`, { token: world.editor.token });
    expect([format.status, format.body.error.message]).toEqual([400, 'Invalid "format": must be one of "document", "markdown".']);
  });
});

describe('GET /v1/spaces/{spaceId}/content/path/{pagePath}', () => {
  it('finds pages by the slugs of their ancestors and their own', async () => {
    const api = gitbookClient('0202', t.url, world.commenter.token);
    // GitBook's client puts the path into the URL as it is given: its slashes go unencoded, or encoded if the caller did.
    for (const path of ['guide/install/linux', encodeURIComponent('guide/install/linux')]) {
      const { data } = await api.spaces.getPageByPath(space.id, path, { format: 'markdown' });
      expectPagesMatchSpec('/spaces/{spaceId}/content/path/{pagePath}', data);
      expect(data, path).toMatchObject({ id: 'linux', path: 'guide/install/linux', markdown: '## Steps\n\n1. Download\n2. Run\n' });
    }
    const { data: group } = await api.spaces.getPageByPath(space.id, 'reference');
    expectPagesMatchSpec('/spaces/{spaceId}/content/path/{pagePath}', group);
    expect(group).toMatchObject({ id: 'reference', type: 'group' });
    const slashed = await t.request('GET', `${base()}/path/${encodeURIComponent('/guide/upgrade/')}`, { token: world.reader.token });
    expect(slashed.body).toMatchObject({ id: 'upgrade' });
    for (const path of ['guide/linux', 'site', 'nowhere']) {
      for (const sent of [path, encodeURIComponent(path)]) {
        const res = await t.request('GET', `${base()}/path/${sent}`, { token: world.reader.token });
        expect([res.status, res.body.error.message], sent).toEqual([404, 'Page not found']);
      }
    }
  });
});

describe('a path parameter that takes the rest of the path', () => {
  it('is documented as GitBook’s spec has it, `{pagePath}`, saying it may hold slashes', async () => {
    const res = await t.request('GET', '/openapi.json');
    const { parameters } = res.body.paths['/spaces/{spaceId}/content/path/{pagePath}'].get;
    expect(parameters.find((p: any) => p.name === 'pagePath')).toEqual({
      name: 'pagePath',
      in: 'path',
      required: true,
      schema: { type: 'string' },
      description: 'The rest of the path: it may hold slashes, sent as they are or encoded.',
    });
  });

  it('is declared `:name*`, last in a route’s path only', () => {
    expect(route('GET /v1/spaces/:spaceId/content/path/:pagePath*', 'getPageByPath', 'x')).toMatchObject({
      path: '/v1/spaces/:spaceId/content/path/:pagePath',
      restOfPath: 'pagePath',
    });
    expect(route('GET /v1/spaces/:spaceId', 'getSpaceById', 'x')).not.toHaveProperty('restOfPath');
    expect(() => route('GET /v1/spaces/:spaceId*/content', 'getCurrentRevision', 'x')).toThrow(
      'Route GET /v1/spaces/:spaceId*/content: only the last path parameter may take the rest of the path (:name*).',
    );
  });
});

describe('GET /v1/spaces/{spaceId}/content/files', () => {
  let library: Space;
  beforeAll(async () => {
    library = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Library' });
    const names = ['b.png', 'a.png', 'c.txt', 'a.png', 'e.pdf'];
    await publish(t.prisma, library.id, { files: names.map((name, i) => file(`file${i}`, name, { size: i })) });
  });

  it('lists files by name a page at a time, matching the spec', async () => {
    const api = gitbookClient('0202', t.url, world.reader.token);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await api.spaces.listFiles(library.id, { limit: 2, page });
      expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/content/files', 200, data);
      expect(data.count).toBe(5);
      expect(data.items.length).toBeLessThanOrEqual(2);
      seen.push(...data.items.map((f) => `${f.name}:${f.id}`));
      page = data.next?.page;
    } while (page);
    expect(seen).toEqual(['a.png:file1', 'a.png:file3', 'b.png:file0', 'c.txt:file2', 'e.pdf:file4']);
  });

  it('costs the same statements whatever the page size, and refuses bad pages and limits', async () => {
    const small = await t.counted('GET', `/v1/spaces/${library.id}/content/files?limit=1`, { token: world.reader.token });
    const large = await t.counted('GET', `/v1/spaces/${library.id}/content/files?limit=1000`, { token: world.reader.token });
    expect([small.body.items.length, large.body.items.length]).toEqual([1, 5]);
    expect(small.statements).toBe(large.statements);
    const otherList = await t.request('GET', `/v1/spaces/${space.id}/content/files?page=${small.body.next.page}`, {
      token: world.reader.token,
    });
    expect([otherList.status, otherList.body.error.message]).toEqual([400, 'Invalid "page": this page token belongs to another list.']);
    const limit = await t.request('GET', `/v1/spaces/${library.id}/content/files?limit=-1`, { token: world.reader.token });
    expect([limit.status, limit.body.error.message]).toEqual([400, 'Invalid "limit": must be an integer from 0 to 1000.']);
  });
});

describe('GET /v1/spaces/{spaceId}/content/files/{fileId}', () => {
  it('answers one file, matching the spec', async () => {
    const { data } = await gitbookClient('0202', t.url, world.reader.token).spaces.getFileById(space.id, 'logo');
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/content/files/{fileId}', 200, data);
    expect(data).toMatchObject({
      id: 'logo',
      name: 'logo.png',
      contentType: 'image/png',
      size: 120,
      dimensions: { width: 64, height: 32 },
    });
    expect(data.downloadURL).toMatch(
      new RegExp(`^${t.url}/files/0{64}\\?name=logo.png&type=image%2Fpng&space=\\w+&expires=\\d+&signature=`),
    );
    const missing = await t.request('GET', `${base()}/files/nothing`, { token: world.reader.token });
    expect([missing.status, missing.body.error.message]).toEqual([404, 'File not found']);
  });
});

describe('who may read content', () => {
  const paths = () => [
    base(),
    `${base()}/pages`,
    `${base()}/files`,
    `${base()}/files/logo`,
    `${base()}/page/guide`,
    `${base()}/path/guide`,
  ];

  it('needs a token, and view on the space: 404 for those who cannot see it, here or in another organization', async () => {
    const hidden = await buildSpace(t.prisma, { organizationId: world.organizationId, defaultLevel: null });
    for (const path of paths()) {
      expect((await t.request('GET', path)).status, path).toBe(401);
      expect((await t.request('GET', path, { token: world.reader.token })).status, path).toBe(200);
      for (const stranger of [world.outsider, world.guest]) {
        const res = await t.request('GET', path, { token: stranger.token });
        expect([res.status, res.body.error.message], path).toEqual([404, 'Space not found']);
      }
      const closed = await t.request('GET', path.replace(space.id, hidden.id), { token: world.reader.token });
      expect(closed.status, path).toBe(404);
    }
  });
});

describe('what reading content costs', () => {
  it('reads a tree of 1,000 pages in as many statements as a tree of one', async () => {
    const big = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Big' });
    // A hundred chains of ten pages: each page under the one before, ten levels deep.
    const pages = Array.from({ length: 1000 }, (_, i) => {
      const top = i % 10 === 0;
      const parentId = top ? null : `p${i - 1}`;
      return page(`p${i}`, `Page ${i}`, { parentId, position: i });
    });
    await publish(t.prisma, big.id, { pages });
    const small = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Small' });
    await publish(t.prisma, small.id, { pages: [page('only', 'Only')] });
    for (const suffix of ['', '/pages', '/page/p0', '/path/page-0']) {
      const one = await t.counted('GET', `/v1/spaces/${small.id}/content${suffix.replace('p0', 'only').replace('page-0', 'only')}`, {
        token: world.reader.token,
      });
      const many = await t.counted('GET', `/v1/spaces/${big.id}/content${suffix}`, { token: world.reader.token });
      expect([one.status, many.status]).toEqual([200, 200]);
      expect(many.statements, suffix).toBe(one.statements);
    }
    const tree = await t.request('GET', `/v1/spaces/${big.id}/content/pages`, { token: world.reader.token });
    const count = (nodes: any[]): number => nodes.reduce((n, node) => n + 1 + count(node.pages ?? []), 0);
    expect(count(tree.body.pages)).toBe(1000);
    let deepest = tree.body.pages[0];
    while (deepest.pages.length) deepest = deepest.pages[0];
    expect(deepest.path).toBe(Array.from({ length: 10 }, (_, i) => `page-${i}`).join('/'));
  });

  it('reads the contents of many spaces in GraphQL in as many statements as one', async () => {
    const query = `query($id: ID!) { organization(id: $id) { spaces(limit: 1000) { items { content { id pages { title pages { path } } files { count } } } } } }`;
    const run = () => t.counted('POST', '/graphql', { token: world.admin.token, body: { query, variables: { id: world.organizationId } } });
    const before = await run();
    expect(before.body.errors).toBeUndefined();
    const spaces = before.body.data.organization.spaces.items;
    expect(spaces.length).toBeGreaterThan(3);
    await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'One more' });
    const after = await run();
    expect(after.body.data.organization.spaces.items).toHaveLength(spaces.length + 1);
    expect(after.statements).toBe(before.statements);
  });
});
