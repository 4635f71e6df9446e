// Importing content into a change request through GitBook's 0.143 client: a small website served on loopback here
// (sections with sub-pages, code, a list and a table, links that loop, leave the site or point at files, a broken page,
// one over the size cap, a chain deeper than the depth limit), read back through the change request's content routes;
// the single-document sources; the limits; and what is refused (the SSRF guard without the setting, permissions, input).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportContentSource } from '../../node_modules/gitbook-api-0143/dist/client.js';
import { startTestApp, useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { buildWorld } from '../support/world.js';
import { page, serveWebsite, type Website } from './website.js';

const SPEC_PATH = '/spaces/{spaceId}/change-requests/{changeRequestId}/content/import';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==', 'base64');

const { t, world } = useApi({ world: true, env: { ALLOW_PRIVATE_NETWORK: 'true' } });
let site: Website;
let elsewhere: Website;

const CODE = `<h1>Code samples</h1>
<p>Install the client, then call it.</p>
<pre><code class="language-js">import { Acme } from 'acme';
const acme = new Acme();</code></pre>
<ul><li>First item</li><li>Second item</li></ul>
<table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td>port</td><td>8080</td></tr></tbody></table>
<p>Read <a href="https://example.com/gitbook">the GitBook docs</a>. <img src="img/diagram.png" alt="Diagram"></p>`;

beforeAll(async () => {
  elsewhere = await serveWebsite(() => ({ '/docs/': page('Elsewhere', '<h1>Elsewhere</h1><p>Another origin.</p>') }));
  site = await serveWebsite((origin) => {
    // Every page's navigation: the sections, a broken and a huge page, and links that must not be followed.
    const nav = ['/docs/', '/docs/guide/', '/docs/reference', '/docs/code', '/docs/broken', '/docs/huge', '/outside'];
    nav.push(`${elsewhere.origin}/docs/`, '/docs/img/diagram.png');
    const many = Array.from({ length: 60 }, (_, i) => `/many/p${i + 1}`);
    return {
      '/docs/': page('Welcome', '<h1>Welcome</h1><p>Acme helps you ship.</p><p>Start with <a href="chain/a">the chain</a>.</p>', nav),
      '/docs/guide/': page(
        'Guide',
        '<h1>Guide</h1><p>How to use Acme, step by step, from install to configuration.</p><p><a href="install">Install</a> then <a href="configure.html">configure</a>.</p>',
        nav,
      ),
      '/docs/guide/install': page(
        'Install',
        `<h1>Install</h1><h2 id="steps">Steps</h2><p>Run the installer. Back to the <a href="/docs/guide/">guide</a>, to
         <a href="/docs/guide/install#steps">these steps</a>, <a href="${origin}/docs/guide/install?ref=self">this page</a>,
         <a href="/docs/old">the old guide</a>.</p>`,
        nav,
      ),
      '/docs/guide/configure.html': page('Configure', '<h1>Configure</h1><p>Set the port.</p>', nav),
      '/docs/old': { status: 301, headers: { location: '/docs/guide/' } },
      '/docs/reference': page(
        'Reference',
        '<h1>Reference</h1><p>Everything Acme offers.</p><p><a href="reference/api.html">API</a></p>',
        nav,
      ),
      '/docs/reference/api.html': page('API', '<h1>API</h1><p>Endpoints of the API.</p>', nav),
      '/docs/code': page('Code samples', CODE, nav),
      '/docs/broken': { status: 500, body: 'Internal error' },
      '/docs/huge': { body: `<html><body><p>${'x'.repeat(3 * 1024 * 1024)}</p></body></html>` },
      '/docs/chain/a': page('Chain A', '<h1>Chain A</h1><p>First link.</p><p><a href="/docs/chain/a/b">Next</a></p>'),
      '/docs/chain/a/b': page('Chain B', '<h1>Chain B</h1><p>Second link.</p><p><a href="/docs/chain/a/b/c">Next</a></p>'),
      '/docs/chain/a/b/c': page('Chain C', '<h1>Chain C</h1><p>Third link.</p><p><a href="/docs/chain/a/b/c/d">Next</a></p>'),
      '/docs/chain/a/b/c/d': page('Chain D', '<h1>Chain D</h1><p>Too deep.</p>'),
      '/docs/img/diagram.png': { type: 'image/png', body: PNG },
      '/outside': page('Outside', '<h1>Outside</h1><p>Not under the prefix.</p>'),
      '/single.html': page('Single', '<h1>Single</h1><p>One document.</p><p><a href="/docs/">Docs</a></p>'),
      '/notes/getting-started.md': { type: 'text/markdown', body: '---\ndescription: From a file\n---\nFirst steps.\n\n- one\n- two\n' },
      '/notes/titled.md': { type: 'text/plain', body: '# Titled notes\n\nBody.\n' },
      '/notes/bad-front-matter.md': { type: 'text/markdown', body: '---\ntitle: [unclosed\n---\nBody.\n' },
      '/many/': page('Many', `<h1>Many</h1><p>${many.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</p>`),
      ...Object.fromEntries(many.map((path, i) => [path, page(`Page ${i + 1}`, `<h1>Page ${i + 1}</h1><p>Text ${i + 1}.</p>`)])),
    };
  });
});
afterAll(async () => {
  await site?.close();
  await elsewhere?.close();
});

const api = (token = world.admin.token) => gitbookClient('0143', t.url, token);
/** The client's enum member of a source (a declared enum: its values exist only as strings). */
const source = (value: 'website' | 'html' | 'markdown') => value as ImportContentSource;
const importPath = (spaceId: string, cr: string) => `/v1/spaces/${spaceId}/change-requests/${cr}/content/import`;
const post = (spaceId: string, cr: string, body: unknown, token: string | null = world.admin.token) =>
  t.request('POST', importPath(spaceId, cr), { token, body });

/** A space of Acme with a draft change request. */
async function changeRequest() {
  const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
  const res = await t.request('POST', `/v1/spaces/${space.id}/change-requests`, { token: world.admin.token, body: { subject: 'Import' } });
  expect(res.status, res.text).toBe(201);
  return { spaceId: space.id, cr: res.body.id as string };
}

interface TreePage {
  title: string;
  path: string;
  slug: string;
  pages?: TreePage[];
}
/** The change request's page tree as `path: title` lines, depth first. */
async function tree(spaceId: string, cr: string): Promise<string[]> {
  const res = await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`, { token: world.admin.token });
  expect(res.status, res.text).toBe(200);
  const lines: string[] = [];
  const walk = (pages: TreePage[] = []) => {
    for (const p of pages) {
      lines.push(`${p.path}: ${p.title}`);
      walk(p.pages);
    }
  };
  walk(res.body.pages);
  return lines;
}
async function markdownAt(spaceId: string, cr: string, path: string): Promise<string> {
  const res = await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/path/${path}?format=markdown`, {
    token: world.admin.token,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.markdown;
}

describe('importing a website', () => {
  it('imports the same-site pages as one revision, nested as their URLs, with their main content as markdown', async () => {
    const { spaceId, cr } = await changeRequest();
    const revisionsBefore = await t.prisma.revision.count({ where: { spaceId, line: cr } });
    site.requests.length = 0;
    const { data, status } = await api().spaces.importContentInChangeRequest(spaceId, cr, {
      source: source('website'),
      url: `${site.origin}/docs/`,
    });
    expect(status).toBe(201);
    expectMatchesSpec('0143', 'post', SPEC_PATH, 201, data);
    // Ten pages; the 500 and the page over the size cap were tried and skipped; the redirect to the guide is the guide.
    expect(data).toMatchObject({ importedResources: 10, totalResources: 12 });

    const changeRequestNow = await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr}`, { token: world.admin.token });
    expect(changeRequestNow.body.revision).toBe(data.revision);
    expect(await t.prisma.revision.count({ where: { spaceId, line: cr } })).toBe(revisionsBefore + 1);

    expect(await tree(spaceId, cr)).toEqual([
      'welcome: Welcome',
      'guide: Guide',
      'guide/install: Install',
      'guide/configure: Configure',
      'reference: Reference',
      'reference/api: API',
      'code: Code samples',
      // /docs/chain/a: /docs/chain was not a page, so it is at the root.
      'a: Chain A',
      'a/b: Chain B',
      'a/b/c: Chain C',
    ]);

    // Not followed: another origin, outside the prefix, a file, beyond the depth; read once: loops, fragments, queries.
    const paths = site.requests.map((request) => request.split('?')[0]);
    expect(elsewhere.requests).toEqual([]);
    expect(paths).not.toContain('/outside');
    expect(paths).not.toContain('/docs/img/diagram.png');
    expect(paths).not.toContain('/docs/chain/a/b/c/d');
    expect(paths.filter((path) => path === '/docs/guide/install')).toHaveLength(1);
    // The guide once as itself, and once behind /docs/old's redirect, where it is known for the same page.
    expect(paths.filter((path) => path === '/docs/guide/')).toHaveLength(2);
    expect(paths).toContain('/docs/old');
    expect(site.requests).not.toContain('/docs/guide/install?ref=self');

    const code = await markdownAt(spaceId, cr, 'code');
    expect(code).toContain("```js\nimport { Acme } from 'acme';\nconst acme = new Acme();\n```");
    expect(code).toMatch(/^- First item$/m);
    expect(code).toMatch(/^- Second item$/m);
    expect(code).toContain('| Option | Default |\n| --- | --- |\n| port | 8080 |');
    expect(code).toContain('[the GitBook docs](https://example.com/gitbook)');
    // The image stays where the site serves it.
    expect(code).toContain(`![Diagram](${site.origin}/docs/img/diagram.png)`);

    const install = await markdownAt(spaceId, cr, 'guide/install');
    expect(install).toMatch(/^## Steps$/m);
    expect(install).toContain('Run the installer.');
    // Links between imported pages stay absolute.
    expect(install).toContain(`[guide](${site.origin}/docs/guide/)`);
    for (const markdown of [code, install, await markdownAt(spaceId, cr, 'welcome')]) {
      expect(markdown).not.toContain('Nav ');
      expect(markdown).not.toContain('Acme Docs logo');
      expect(markdown).not.toContain('footer text');
    }
  });

  it('keeps the slugs of the change request’s own pages: an imported page takes the next one', async () => {
    const { spaceId, cr } = await changeRequest();
    const edit = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, {
      token: world.admin.token,
      body: { changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'Mine.\n' } }] },
    });
    expect(edit.status, edit.text).toBe(200);
    const res = await post(spaceId, cr, { source: 'website', url: `${site.origin}/docs/guide/` });
    expect(res.status, res.text).toBe(201);
    // The start page's prefix is /docs/guide/: its sub-pages are its siblings at the root.
    expect(await tree(spaceId, cr)).toEqual(['guide: Guide', 'guide-2: Guide', 'install: Install', 'configure: Configure']);
    expect(await markdownAt(spaceId, cr, 'guide')).toBe('Mine.\n');
  });

  it('reads at most 50 pages, with statements that do not grow with them', async () => {
    const { spaceId, cr } = await changeRequest();
    const many = await t.counted('POST', importPath(spaceId, cr), {
      token: world.admin.token,
      body: { source: 'website', url: `${site.origin}/many/` },
    });
    expect(many.status, many.text).toBe(201);
    expect(many.body).toMatchObject({ importedResources: 50, totalResources: 50 });
    expect(await tree(spaceId, cr)).toHaveLength(50);
    const other = await changeRequest();
    const one = await t.counted('POST', importPath(other.spaceId, other.cr), {
      token: world.admin.token,
      body: { source: 'html', url: `${site.origin}/single.html` },
    });
    expect(one.status, one.text).toBe(201);
    expect(many.statements).toBe(one.statements);
  });

  it('refuses a start page it cannot read: 400 naming "url" with the reason', async () => {
    const { spaceId, cr } = await changeRequest();
    const cases: [string, RegExp][] = [
      [`${site.origin}/docs/broken`, /answered 500/],
      [`${site.origin}/docs/img/diagram.png`, /answered image\/png, not HTML/],
      [`${site.origin}/docs/huge`, /more than 2097152/],
      [`${site.origin}/nothing-here`, /answered 404/],
    ];
    for (const [url, reason] of cases) {
      const res = await post(spaceId, cr, { source: 'website', url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message).toMatch(/^Invalid "url": /);
      expect(res.body.error.message).toMatch(reason);
    }
    expect(await tree(spaceId, cr)).toEqual([]);
  });
});

describe('importing one document', () => {
  it('imports an HTML document alone, without following its links', async () => {
    const { spaceId, cr } = await changeRequest();
    site.requests.length = 0;
    const { data } = await api().spaces.importContentInChangeRequest(spaceId, cr, {
      source: source('html'),
      url: `${site.origin}/single.html`,
    });
    expectMatchesSpec('0143', 'post', SPEC_PATH, 201, data);
    expect(data).toMatchObject({ importedResources: 1, totalResources: 1 });
    expect(site.requests).toEqual(['/single.html']);
    expect(await tree(spaceId, cr)).toEqual(['single: Single']);
    expect(await markdownAt(spaceId, cr, 'single')).toContain('One document.');
  });

  it('imports a markdown document: its front matter and heading as a page’s, else its file name as the title', async () => {
    const { spaceId, cr } = await changeRequest();
    for (const file of ['getting-started.md', 'titled.md']) {
      const { data } = await api().spaces.importContentInChangeRequest(spaceId, cr, {
        source: source('markdown'),
        url: `${site.origin}/notes/${file}`,
      });
      expect(data).toMatchObject({ importedResources: 1, totalResources: 1 });
    }
    expect(await tree(spaceId, cr)).toEqual(['getting-started: Getting started', 'titled: Titled notes']);
    expect(await markdownAt(spaceId, cr, 'getting-started')).toBe('First steps.\n\n- one\n- two\n');
    const page = await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/path/getting-started`, {
      token: world.admin.token,
    });
    expect(page.body.description).toBe('From a file');

    const html = await post(spaceId, cr, { source: 'markdown', url: `${site.origin}/single.html` });
    expect([html.status, html.body.error.message]).toEqual([400, expect.stringMatching(/^Invalid "url": .*not markdown/)]);
    const yaml = await post(spaceId, cr, { source: 'markdown', url: `${site.origin}/notes/bad-front-matter.md` });
    expect([yaml.status, yaml.body.error.message]).toEqual([400, expect.stringMatching(/^Invalid "url": its front matter/)]);
  });
});

describe('what an import refuses', () => {
  it('answers 401 without a token, 403 to a reader, 404 to an outsider and for another organization’s space', async () => {
    const { spaceId, cr } = await changeRequest();
    const body = { source: 'website', url: `${site.origin}/docs/` };
    site.requests.length = 0;
    expect((await post(spaceId, cr, body, null)).status).toBe(401);
    expect((await post(spaceId, cr, body, world.reader.token)).status).toBe(403);
    expect((await post(spaceId, cr, body, world.commenter.token)).status).toBe(403);
    expect((await post(spaceId, cr, body, world.outsider.token)).status).toBe(404);
    const foreign = await buildSpace(t.prisma, { organizationId: world.outsiderOrganizationId });
    expect((await post(foreign.id, '1', body)).status).toBe(404);
    expect((await post(spaceId, 'noSuchChangeRequest0', body)).status).toBe(404);
    // Nothing was read for any of them.
    expect(site.requests).toEqual([]);
    // An editor may.
    expect((await post(spaceId, cr, { source: 'html', url: `${site.origin}/single.html` }, world.editor.token)).status).toBe(201);
  });

  it('answers 400 naming the field for a source it does not import, a missing or non-http URL', async () => {
    const { spaceId, cr } = await changeRequest();
    const url = `${site.origin}/docs/`;
    const cases: [unknown, RegExp][] = [
      [{ source: 'docx', url }, /^Invalid "source": must be one of "website", "html", "markdown"/],
      [{ source: 'google-docs', url }, /^Invalid "source": must be one of "website", "html", "markdown"/],
      [{ source: 'pdf', url }, /"source"/],
      [{ url }, /"source"/],
      [{ source: 'website' }, /"url"/],
      [{ source: 'website', url: 'ftp://127.0.0.1/docs/' }, /^Invalid "url": must be an http or https URL/],
      [{ source: 'website', url: 'not a url' }, /^Invalid "url": must be an http or https URL/],
      [{ source: 'website', url: `${site.origin}/${'x'.repeat(2048)}` }, /^Invalid "url": must be at most 2048 characters/],
    ];
    for (const [body, message] of cases) {
      const res = await post(spaceId, cr, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }
  });

  it('answers 409 for a merged or archived change request, before reading anything', async () => {
    const { spaceId, cr } = await changeRequest();
    const edit = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, {
      token: world.admin.token,
      body: { changes: [{ operation: 'insert_page', title: 'Page', document: { markdown: 'Text.\n' } }] },
    });
    expect(edit.status, edit.text).toBe(200);
    const merged = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`, { token: world.admin.token });
    expect(merged.body.result).toBe('merge');
    const archived = await changeRequest();
    const archive = await t.request('PATCH', `/v1/spaces/${archived.spaceId}/change-requests/${archived.cr}`, {
      token: world.admin.token,
      body: { status: 'archived' },
    });
    expect(archive.status, archive.text).toBe(200);
    site.requests.length = 0;
    for (const [space, id, status] of [
      [spaceId, cr, 'merged'],
      [archived.spaceId, archived.cr, 'archived'],
    ]) {
      const res = await post(space, id, { source: 'website', url: `${site.origin}/docs/` });
      expect([res.status, res.body.error.message]).toEqual([409, `The change request is ${status}: it can no longer change.`]);
    }
    expect(site.requests).toEqual([]);
  });

  it('refuses a loopback URL without ALLOW_PRIVATE_NETWORK: 400 naming "url"', async () => {
    const guarded = await startTestApp();
    try {
      const people = await buildWorld(guarded.prisma);
      const space = await buildSpace(guarded.prisma, { organizationId: people.organizationId });
      const created = await guarded.request('POST', `/v1/spaces/${space.id}/change-requests`, { token: people.admin.token, body: {} });
      site.requests.length = 0;
      for (const url of [`${site.origin}/docs/`, `http://localhost:${new URL(site.origin).port}/docs/`]) {
        const res = await guarded.request('POST', importPath(space.id, created.body.id), {
          token: people.admin.token,
          body: { source: 'website', url },
        });
        expect(res.status, url).toBe(400);
        expect(res.body.error.message).toMatch(/^Invalid "url": .*not a public address/);
      }
      expect(site.requests).toEqual([]);
    } finally {
      await guarded.close();
    }
  });
});
