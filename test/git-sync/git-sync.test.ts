// Git sync against a real Git server on loopback (git http-backend, basic authentication): a GitBook-layout
// repository imported through GitBook's 0.202 client, edited through a change request, merged, exported, and the pushed
// commit read back with isomorphic-git; a round trip; credentials that never show; a missing ref; operations out of
// order; a branch that moved on (refused unless forced); standalone imports; the SSRF guard; permissions and input.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importContent } from '../../src/git-sync/importing.js';
import { gitLimits, withRepository } from '../../src/git-sync/remote.js';
import { newId } from '../../src/kernel/ids.js';
import { startTestApp, useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesDocument, gitbookClient } from '../support/openapi.js';
import { until } from '../support/until.js';
import { buildWorld } from '../support/world.js';
import { gitbookRepository, LOGO, PNG, settled } from './fixtures.js';
import { type GitServer, serveGit } from './git-server.js';

const USER = 'docs-bot';
const PASSWORD = 'S3cret-Pa55word-7f3a';
const WRONG = 'Wr0ng-Pa55word-91bc';
const BRANCH = 'refs/heads/main';

const logs: string[] = [];
const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(line) });
const { t, world } = useApi({ world: true, env: { ALLOW_PRIVATE_NETWORK: 'true' }, jobs: 1, logger });
let server: GitServer;

beforeAll(async () => {
  server = await serveGit({ username: USER, password: PASSWORD });
});
afterAll(async () => {
  await server?.close();
});

const credentials = { username: USER, password: PASSWORD };
const api = (token = world.admin.token) => gitbookClient('0202', t.url, token);
const newSpace = async () => (await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Docs' })).id;

interface TreePage {
  id: string;
  title: string;
  path?: string;
  type: string;
  pages?: TreePage[];
  href?: string;
}

/** The space's page tree as `path: title` lines (links as `-> url`), depth first. */
async function tree(spaceId: string): Promise<string[]> {
  const res = await t.request('GET', `/v1/spaces/${spaceId}/content/pages`, { token: world.admin.token });
  expect(res.status, res.text).toBe(200);
  const lines: string[] = [];
  const walk = (pages: TreePage[] = [], depth = 0) => {
    for (const page of pages) {
      lines.push(`${'  '.repeat(depth)}${page.type === 'link' ? `${page.title} -> ${page.href}` : `${page.path}: ${page.title}`}`);
      walk(page.pages, depth + 1);
    }
  };
  walk(res.body.pages);
  return lines;
}

/** Every page of the space, by path: id, title and markdown. */
async function pagesOf(spaceId: string): Promise<Record<string, { id: string; title: string; markdown: string | undefined }>> {
  const res = await t.request('GET', `/v1/spaces/${spaceId}/content/pages`, { token: world.admin.token });
  const out: Record<string, { id: string; title: string; markdown: string | undefined }> = {};
  const walk = async (pages: TreePage[] = []) => {
    for (const page of pages) {
      if (page.type === 'document')
        out[page.path!] = { id: page.id, title: page.title, markdown: (await pageAt(spaceId, page.path!)).markdown };
      await walk(page.pages);
    }
  };
  await walk(res.body.pages);
  return out;
}

async function graphql(query: string, variables: Record<string, unknown>, token = world.admin.token) {
  const res = await t.request('POST', '/graphql', { token, body: { query, variables } });
  expect(res.body.errors, res.text).toBeUndefined();
  return res.body.data;
}

const revisionOf = async (spaceId: string) => (await t.prisma.space.findUniqueOrThrow({ where: { id: spaceId } })).revisionId;

/** Edits the space through a change request (the changes of its content endpoint), merged. */
async function editAndMerge(spaceId: string, changes: unknown[]) {
  const token = world.admin.token;
  const created = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token, body: { subject: 'Edit' } });
  expect(created.status, created.text).toBe(201);
  const cr = created.body.id;
  const edited = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, { token, body: { changes } });
  expect(edited.status, edited.text).toBe(200);
  const merged = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`, { token });
  expect(merged.body.result, merged.text).toBe('merge');
}

async function pageAt(spaceId: string, path: string) {
  const res = await t.request('GET', `/v1/spaces/${spaceId}/content/path/${path}?format=markdown`, { token: world.admin.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The space imported from the GitBook-layout repository, which the later tests export and import again. */
let acme: string;

describe('POST /v1/spaces/{spaceId}/git/import', () => {
  it('imports a GitBook-layout repository: nested pages, a group and a link, front matter, images', async () => {
    server.createRepository('acme', gitbookRepository());
    acme = await newSpace();
    const before = await revisionOf(acme);
    const res = await api().spaces.importGitRepository(acme, { url: server.urlOf('acme', credentials), ref: BRANCH });
    expect(res.status).toBe(204);
    const info = await settled(t, acme, world.admin.token);
    expect(info.body.operation, JSON.stringify(info.body)).toMatchObject({ state: 'success', direction: 'import', skipped: false });
    // Configured by the admin; started and completed by the job, as the system, with the content it changed.
    // (The test clock stands still: ordered by action.)
    const events = await t.prisma.auditEvent.findMany({ where: { spaceId: acme }, orderBy: { action: 'asc' } });
    expect(events.map((event) => [event.action, event.actorType, event.source])).toEqual([
      ['space_content_updated', 'system', 'workflow'],
      ['space_gitsync_completed', 'system', 'workflow'],
      ['space_gitsync_configured', 'user', 'api'],
      ['space_gitsync_started', 'system', 'workflow'],
    ]);
    const revisionId = await revisionOf(acme);
    expect(events[0].payload).toMatchObject({ spaceId: acme, revisionId, updatedBy: world.admin.userId });
    expect(events[1].payload).toMatchObject({ spaceId: acme, direction: 'import', state: 'success', revisionId });
    expect(events[2].payload).toMatchObject({ spaceId: acme, url: server.urlOf('acme'), ref: BRANCH });
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
    expect(await tree(acme)).toEqual([
      'welcome: Welcome',
      'getting-started: Getting started',
      '  getting-started/install: Install',
      '  getting-started/configure: Configure',
      '    getting-started/configure/advanced: Advanced tips',
      'reference: Reference',
      '  reference/api: API',
      '  Changelog -> https://example.com/changelog',
    ]);
    const gettingStarted = await pageAt(acme, 'getting-started');
    expect(gettingStarted).toMatchObject({ icon: 'rocket', layout: { width: 'wide', title: false, description: true } });
    expect(gettingStarted.git).toEqual({ oid: expect.stringMatching(/^[0-9a-f]{40}$/), path: 'getting-started/README.md' });
    expect(gettingStarted.markdown).toBe('# Getting started\n\n![Diagram](../.gitbook/assets/diagram.png)\n');
    expect(await pageAt(acme, 'welcome')).toMatchObject({ description: 'Everything about Acme.' });
    expect(await pageAt(acme, 'getting-started/install')).toMatchObject({
      hidden: true,
      markdown: '# Install\n\nRun `npm install acme`.\n',
    });
    const files = await t.request('GET', `/v1/spaces/${acme}/content/files`, { token: world.admin.token });
    expect(files.body.items.map((f: any) => [f.name, f.contentType, f.dimensions, f.git.path])).toEqual([
      ['diagram.png', 'image/png', { width: 1, height: 1 }, '.gitbook/assets/diagram.png'],
      ['logo.png', 'image/png', { width: 2, height: 1 }, 'images/logo.png'],
    ]);
    expect(Buffer.from(await (await fetch(files.body.items[0].downloadURL)).arrayBuffer())).toEqual(PNG);
    expect(Buffer.from(await (await fetch(files.body.items[1].downloadURL)).arrayBuffer())).toEqual(LOGO);

    // Relative links between the repository's files are links to their pages and files: stored by id, read as paths.
    const pages = await pagesOf(acme);
    const [diagram, logo] = files.body.items.map((f: any) => f.id);
    const configure = await t.request('GET', `/v1/spaces/${acme}/content/page/${pages['getting-started/configure'].id}`, {
      token: world.admin.token,
    });
    expect(JSON.stringify(configure.body.document)).toContain(
      JSON.stringify({ ref: { kind: 'page', page: pages['getting-started/install'].id } }),
    );
    expect(pages['getting-started/configure'].markdown).toBe('# Configure\n\nSee [the install](install.md) first.\n');
    const links = await t.request('GET', `/v1/spaces/${acme}/links`, { token: world.admin.token });
    expect(
      links.body.items.map((item: any) => [
        item.status,
        item.targetReference.page?.id ?? item.targetReference.file?.id,
        item.locationReferences[0].page.id,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['in-app', pages['getting-started/install'].id, pages['getting-started/configure'].id],
        ['in-app', diagram, pages['getting-started'].id],
        ['in-app', logo, pages['reference/api'].id],
      ]),
    );
    expect(links.body.stats).toEqual({ total: 3, broken: { total: 0 } });

    // One new revision, the space's content, which says what it came from.
    const revision = await t.prisma.revision.findUniqueOrThrow({ where: { id: (await revisionOf(acme))! } });
    expect(revision).toMatchObject({
      parents: [before],
      gitOid: await server.head('acme'),
      gitMessage: 'Initial content\n',
      gitRef: BRANCH,
    });
    const content = await t.request('GET', `/v1/spaces/${acme}/content`, { token: world.admin.token });
    expect(content.body.git).toMatchObject({ oid: revision.gitOid, message: 'Initial content\n', createdByGitBook: false });
  });

  it('answers the Git info (through the client) and the space’s gitSync as GitBook’s spec describes them', async () => {
    const info = await api().spaces.getSpaceGitInfo(acme);
    expect(info.data).toEqual({
      repoName: 'acme',
      installationStatus: 'active',
      installationProvider: 'github',
      installationId: expect.any(String),
      url: `${server.origin}/acme.git`,
      operation: { state: 'success', direction: 'import', startedAt: expect.any(String), endedAt: expect.any(String), skipped: false },
      updatedAt: expect.any(String),
    });
    expectMatchesDocument('0202', 'get', '/spaces/{spaceId}/git/info', 200, info.data);
    expectMatchesDocument('ours', 'get', '/spaces/{spaceId}/git/info', 200, info.data);
    const space = await api().spaces.getSpaceById(acme);
    expect(space.data.gitSync).toEqual(info.data);
    expectMatchesDocument('0202', 'get', '/spaces/{spaceId}', 200, space.data);
    const listed = await t.request('GET', `/v1/orgs/${world.organizationId}/spaces`, { token: world.admin.token });
    expect(listed.body.items.find((item: any) => item.id === acme).gitSync).toEqual(info.data);
  });
});

describe('POST /v1/spaces/{spaceId}/git/export', () => {
  let exported: string;

  it('exports what a change request changed: the pushed commit, read back, holds the layout and keeps the code', async () => {
    const pages = await pagesOf(acme);
    await editAndMerge(acme, [
      {
        operation: 'update_page',
        page: pages['getting-started/install'].id,
        document: { markdown: '# Install\n\nRun `npm install acme@2`.\n' },
      },
      {
        operation: 'insert_page',
        into: pages['getting-started'].id,
        title: 'Troubleshooting',
        description: 'When it breaks.',
        // Links as an author writes them: from the page's file (getting-started/troubleshooting.md), or from the root.
        document: {
          markdown:
            '# Troubleshooting\n\nRestart it, or [reinstall](./install.md#upgrade) and read [the welcome](/).\n\n' +
            '![Diagram](/.gitbook/assets/diagram.png)\n',
        },
      },
    ]);
    const initial = await server.head('acme');
    const res = await api().spaces.exportToGitRepository(acme, {
      url: server.urlOf('acme', credentials),
      ref: BRANCH,
      commitMessage: 'Docs: troubleshooting',
    });
    expect(res.status).toBe(204);
    const info = await settled(t, acme, world.admin.token);
    expect(info.body.operation, JSON.stringify(info.body)).toMatchObject({ state: 'success', direction: 'export' });

    exported = (await server.head('acme'))!;
    const commit = await server.read('acme', exported);
    expect(commit.message).toBe('Docs: troubleshooting\n');
    expect(commit.parents).toEqual([initial]);
    const text = (file: string) => commit.files.get(file)?.toString('utf8');
    expect(text('docs/SUMMARY.md')).toBe(`# Table of contents

* [Welcome](README.md)
* [Getting started](getting-started/README.md)
  * [Install](getting-started/install.md)
  * [Configure](getting-started/configure.md)
    * [Advanced tips](getting-started/advanced.md)
  * [Troubleshooting](getting-started/troubleshooting.md)

## Reference

* [API](reference/api.md)
* [Changelog](https://example.com/changelog)
`);
    expect(text('docs/getting-started/install.md')).toBe('---\nhidden: true\n---\n\n# Install\n\nRun `npm install acme@2`.\n');
    expect(text('docs/getting-started/troubleshooting.md')).toBe(
      '---\ndescription: When it breaks.\n---\n\n# Troubleshooting\n\nRestart it, or [reinstall](install.md#upgrade) and read ' +
        '[the welcome](../README.md).\n\n![Diagram](../.gitbook/assets/diagram.png)\n',
    );
    // No address of this server's (page-id:, file-id:) reaches the repository: they break on GitHub.
    for (const [file, bytes] of commit.files) if (file.endsWith('.md')) expect(bytes.toString('utf8'), file).not.toMatch(/(page|file)-id:/);
    expect(text('docs/getting-started/README.md')).toBe(
      '---\nicon: rocket\nlayout:\n  width: wide\n  title:\n    visible: false\n---\n\n# Getting started\n\n![Diagram](../.gitbook/assets/diagram.png)\n',
    );
    // Pages stay in their files; what is not content stays as it was.
    expect(text('docs/getting-started/configure.md')).toBe('# Configure\n\nSee [the install](install.md) first.\n');
    expect(text('docs/getting-started/advanced.md')).toBe('# Advanced tips\n\n- one\n- two\n');
    expect(text('docs/reference/api.md')).toBe('# API\n\n![Logo](../images/logo.png)\n\nEndpoints.\n');
    expect(commit.files.get('docs/.gitbook/assets/diagram.png')).toEqual(PNG);
    expect(commit.files.get('docs/images/logo.png')).toEqual(LOGO);
    expect(text('src/index.js')).toBe('export const acme = true;\n');
    expect(text('.gitbook.yaml')).toBe(gitbookRepository()['.gitbook.yaml']);
    expect(text('docs/notes.md')).toBe('# Not in the summary\n');

    const { space } = await graphql('query($id: ID!) { space(id: $id) { gitSync { operation { commit } } } }', { id: acme });
    expect(space.gitSync.operation.commit).toBe(exported);
  });

  it('makes a round trip: importing what it exported gives the same pages, with the same ids and references', async () => {
    const before = await pagesOf(acme);
    const documents = async () => {
      const out: Record<string, unknown> = {};
      for (const [path, page] of Object.entries(await pagesOf(acme))) {
        out[path] = (await t.request('GET', `/v1/spaces/${acme}/content/page/${page.id}`, { token: world.admin.token })).body.document;
      }
      return out;
    };
    const documentsBefore = await documents();
    expect(JSON.stringify(documentsBefore['getting-started/troubleshooting'])).toContain(
      JSON.stringify({ ref: { kind: 'anchor', page: before['getting-started/install'].id, anchor: 'upgrade' } }),
    );
    const res = await api().spaces.importGitRepository(acme, { url: server.urlOf('acme', credentials), ref: BRANCH });
    expect(res.status).toBe(204);
    expect((await settled(t, acme, world.admin.token)).body.operation).toMatchObject({ state: 'success', direction: 'import' });
    expect(await pagesOf(acme)).toEqual(before);
    expect(await documents()).toEqual(documentsBefore);
    const content = await t.request('GET', `/v1/spaces/${acme}/content`, { token: world.admin.token });
    expect(content.body.git).toMatchObject({ oid: exported, createdByGitBook: true });
  });

  it('refuses to push over commits it does not build on, unless forced', async () => {
    const someone = server.commit('acme', { 'docs/getting-started/install.md': '# Install\n\nChanged in Git.\n' }, 'Edited in Git');
    const pages = await pagesOf(acme);
    const logo = (await t.request('GET', `/v1/spaces/${acme}/content/files`, { token: world.admin.token })).body.items[1];
    const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
    // A page kept as GitBook's JSON document: its references to a page and a file become addresses of their files.
    const document = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [
            text('Read '),
            {
              object: 'inline',
              type: 'link',
              data: { ref: { kind: 'page', page: pages['getting-started/install'].id } },
              nodes: [text('the install')],
            },
            text(' and see '),
            {
              object: 'inline',
              type: 'inline-image',
              isVoid: true,
              data: { ref: { kind: 'file', file: logo.id }, alt: 'Logo' },
              nodes: [],
            },
          ],
        },
      ],
    };
    await editAndMerge(acme, [
      { operation: 'update_page', page: pages.welcome.id, document: { markdown: '# Welcome\n\nAcme ships.\n' } },
      { operation: 'insert_page', into: pages['getting-started'].id, title: 'Links', document: { document } },
    ]);
    const body = { url: server.urlOf('acme', credentials), ref: BRANCH, commitMessage: 'Docs: welcome' };
    expect((await api().spaces.exportToGitRepository(acme, body)).status).toBe(204);
    const refused = await settled(t, acme, world.admin.token);
    expect(refused.body.operation).toMatchObject({ state: 'failure', direction: 'export' });
    expect(refused.body.operation.error).toMatch(/not a fast-forward/);
    expect(await server.head('acme')).toBe(someone);

    expect((await api().spaces.exportToGitRepository(acme, { ...body, force: true })).status).toBe(204);
    expect((await settled(t, acme, world.admin.token)).body.operation).toMatchObject({ state: 'success' });
    const forced = await server.head('acme');
    const commit = await server.read('acme', forced!);
    expect(commit.parents).toEqual([exported]);
    expect(commit.files.get('docs/README.md')?.toString()).toBe(
      '---\ndescription: Everything about Acme.\n---\n\n# Welcome\n\nAcme ships.\n',
    );
    expect(commit.files.get('docs/getting-started/install.md')?.toString()).toContain('npm install acme@2');
    expect(commit.files.get('docs/getting-started/links.md')?.toString()).toBe(
      'Read [the install](install.md) and see ![Logo](../images/logo.png)\n',
    );
  });

  it('pushes nothing when the branch already holds the content', async () => {
    const head = await server.head('acme');
    const body = { url: server.urlOf('acme', credentials), ref: BRANCH, commitMessage: 'Nothing' };
    expect((await api().spaces.exportToGitRepository(acme, body)).status).toBe(204);
    expect((await settled(t, acme, world.admin.token)).body.operation).toMatchObject({ state: 'success' });
    expect(await server.head('acme')).toBe(head);
  });

  it('creates a branch that does not exist yet, in the default layout', async () => {
    const body = { url: server.urlOf('acme', credentials), ref: 'refs/heads/docs-copy', commitMessage: 'A copy' };
    expect((await api().spaces.exportToGitRepository(acme, body)).status).toBe(204);
    expect((await settled(t, acme, world.admin.token)).body.operation).toMatchObject({ state: 'success' });
    const copy = await server.read('acme', (await server.head('acme', 'docs-copy'))!);
    expect(copy.parents).toEqual([]);
    expect(copy.files.get('SUMMARY.md')?.toString()).toContain('[Troubleshooting](getting-started/troubleshooting.md)');
    expect(copy.files.get('README.md')?.toString()).toContain('Acme ships.');
  });
});

describe('credentials', () => {
  it('never shows: not in responses, not in logs, not in the database in clear, even when they are wrong', async () => {
    server.createRepository('private', { 'README.md': '# Private\n' });
    const spaceId = await newSpace();
    const before = await revisionOf(spaceId);
    const wrong = { username: USER, password: WRONG };
    const res = await t.request('POST', `/v1/spaces/${spaceId}/git/import`, {
      token: world.admin.token,
      body: { url: server.urlOf('private', wrong), ref: BRANCH },
    });
    expect(res.status).toBe(204);
    const info = await settled(t, spaceId, world.admin.token);
    expect(info.body).toMatchObject({ installationStatus: 'unauthenticated', url: `${server.origin}/private.git` });
    expect(info.body.operation).toMatchObject({ state: 'failure', direction: 'import' });
    expect(info.body.operation.error).toMatch(/^Authentication failed: the Git server refused the credentials \(HTTP 401\)/);
    expect(await revisionOf(spaceId)).toBe(before);
    // The server was sent the wrong ones (so they were used), and nothing else knows them.
    expect(server.authorizations).toContain(`Basic ${Buffer.from(`${USER}:${WRONG}`).toString('base64')}`);

    const job = await t.prisma.backgroundJob.findFirstOrThrow({
      where: { kind: 'git-sync', createdById: world.admin.userId },
      orderBy: { createdAt: 'desc' },
    });
    const seen = [
      info.text,
      (await t.request('GET', `/v1/spaces/${spaceId}`, { token: world.admin.token })).text,
      (await t.request('GET', `/v1/orgs/${world.organizationId}/spaces`, { token: world.admin.token })).text,
      JSON.stringify(await graphql('query($id: ID!) { job(id: $id) { lastError } }', { id: job.id })),
      JSON.stringify(await t.prisma.gitSync.findMany()),
      JSON.stringify(await t.prisma.gitSyncOperation.findMany()),
      JSON.stringify(await t.prisma.backgroundJob.findMany()),
      logs.join('\n'),
    ].join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [WRONG, PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(`${USER}:${WRONG}`).toString('base64')]) {
      expect(seen).not.toContain(secret);
    }
    const sync = await t.prisma.gitSync.findUniqueOrThrow({ where: { spaceId } });
    expect(sync).toMatchObject({ url: `${server.origin}/private.git`, credentialsCiphertext: expect.stringMatching(/^v2\./) });
  });

  it('says when the server asks for credentials the URL does not have', async () => {
    const spaceId = await newSpace();
    await api().spaces.importGitRepository(spaceId, { url: server.urlOf('private'), ref: BRANCH });
    const info = await settled(t, spaceId, world.admin.token);
    expect(info.body.installationStatus).toBe('unauthenticated');
    expect(info.body.operation.error).toMatch(/asks for credentials/);
  });

  it('works with the right ones', async () => {
    const spaceId = await newSpace();
    await api().spaces.importGitRepository(spaceId, { url: server.urlOf('private', credentials), ref: BRANCH });
    expect((await settled(t, spaceId, world.admin.token)).body).toMatchObject({
      installationStatus: 'active',
      operation: { state: 'success' },
    });
    expect(await tree(spaceId)).toEqual(['private: Private']);
    expect(logs.join('\n')).not.toContain(PASSWORD);
  });
});

describe('failures and order', () => {
  it('records a missing ref, and leaves the space as it was', async () => {
    const spaceId = await newSpace();
    await api().spaces.importGitRepository(spaceId, { url: server.urlOf('acme', credentials), ref: BRANCH });
    expect((await settled(t, spaceId, world.admin.token)).body.operation.state).toBe('success');
    const before = await revisionOf(spaceId);
    await api().spaces.importGitRepository(spaceId, { url: server.urlOf('acme', credentials), ref: 'refs/heads/nope' });
    const info = await settled(t, spaceId, world.admin.token);
    expect(info.body.operation).toMatchObject({ state: 'failure', error: 'The ref refs/heads/nope does not exist in the repository.' });
    expect(await revisionOf(spaceId)).toBe(before);
    // The first import's content and completion, then the failure's completion alone.
    const completed = await t.prisma.auditEvent.findMany({
      where: { spaceId, action: { in: ['space_gitsync_completed', 'space_content_updated'] } },
    });
    const outcomes = completed.map((event) => `${event.action} ${(event.payload as { state?: string }).state ?? ''}`.trim());
    expect(outcomes.sort()).toEqual(['space_content_updated', 'space_gitsync_completed failure', 'space_gitsync_completed success']);
    expect((await tree(spaceId))[0]).toBe('welcome: Welcome');
  });

  it('skips an operation older than the last one applied, and says so', async () => {
    server.createRepository('ordered', { 'SUMMARY.md': '* [Old](old.md)\n', 'old.md': '# Old\n' });
    server.commit('ordered', { 'SUMMARY.md': '* [New](new.md)\n', 'new.md': '# New\n', 'old.md': null }, 'New', 'next');
    const spaceId = await newSpace();
    const url = server.urlOf('ordered', credentials);
    // Asked for at once: the newer event first, then the older one, which arrives late.
    await api().spaces.importGitRepository(spaceId, { url, ref: 'refs/heads/next', timestamp: '2026-03-01T11:00:00.000Z' });
    await api().spaces.importGitRepository(spaceId, { url, ref: BRANCH, timestamp: '2026-03-01T10:00:00.000Z' });
    const info = await settled(t, spaceId, world.admin.token);
    expect(info.body.operation).toMatchObject({ state: 'success', direction: 'import', skipped: true });
    expectMatchesDocument('0202', 'get', '/spaces/{spaceId}/git/info', 200, info.body);
    expect(await tree(spaceId)).toEqual(['new: New']);
    const operations = await t.prisma.gitSyncOperation.findMany({ where: { spaceId }, orderBy: { startedAt: 'asc' } });
    expect(operations.map((o) => [o.ref, o.state, o.skipped, o.revisionId !== null])).toEqual([
      ['refs/heads/next', 'success', false, true],
      [BRANCH, 'success', true, false],
    ]);
    // A newer one is applied again.
    await api().spaces.importGitRepository(spaceId, { url, ref: BRANCH, timestamp: '2026-03-01T12:00:00.000Z' });
    expect((await settled(t, spaceId, world.admin.token)).body.operation).toMatchObject({ state: 'success', skipped: false });
    expect(await tree(spaceId)).toEqual(['old: Old']);
  });

  it('imports a standalone revision without changing the space’s content or its Git sync', async () => {
    const spaceId = await newSpace();
    const before = await revisionOf(spaceId);
    const { importGitRepository: operation } = await graphql(
      `mutation($spaceId: ID!, $input: ImportGitRepositoryInput!) { importGitRepository(spaceId: $spaceId, input: $input) { id state } }`,
      { spaceId, input: { url: server.urlOf('acme', credentials), ref: BRANCH, standalone: true } },
    );
    expect(operation.state).toBe('running');
    const query = `query($spaceId: ID!, $id: ID!) { space(id: $spaceId) { gitSync { url } gitSyncOperation(id: $id) {
      state skipped revision { id pages { title } } } } }`;
    const done = await until(
      () => graphql(query, { spaceId, id: operation.id }),
      (data) => data.space.gitSyncOperation.state !== 'running',
    );
    expect(done.space.gitSync).toBeNull();
    expect(done.space.gitSyncOperation.state).toBe('success');
    expect(done.space.gitSyncOperation.revision.pages.map((page: { title: string }) => page.title)).toEqual([
      'Welcome',
      'Getting started',
      'Reference',
    ]);
    expect(await revisionOf(spaceId)).toBe(before);
    expect(await tree(spaceId)).toEqual([]);
    // Neither a configuration nor the space's content changed: only the operation's own events.
    const events = await t.prisma.auditEvent.findMany({ where: { spaceId }, orderBy: { action: 'asc' } });
    expect(events.map((event) => event.action)).toEqual(['space_gitsync_completed', 'space_gitsync_started']);
  });

  it('refuses loopback targets when private networks are not allowed', async () => {
    const guarded = await startTestApp({ jobs: 1 });
    try {
      const { admin, organizationId } = await buildWorld(guarded.prisma);
      const space = await buildSpace(guarded.prisma, { organizationId });
      const res = await guarded.request('POST', `/v1/spaces/${space.id}/git/import`, {
        token: admin.token,
        body: { url: server.urlOf('acme', credentials), ref: BRANCH },
      });
      expect(res.status).toBe(204);
      const info = await settled(guarded, space.id, admin.token);
      expect(info.body.operation.state).toBe('failure');
      expect(info.body.operation.error).toMatch(/not a public address/);
      expect(info.body.operation.error).not.toContain(PASSWORD);
    } finally {
      await guarded.close();
    }
  });
});

describe('permissions and input', () => {
  const body = () => ({ url: server.urlOf('acme', credentials), ref: BRANCH, commitMessage: 'Docs' });

  it('needs a token (401), triggerGitSync (403), and hides spaces of other organizations (404)', async () => {
    const spaceId = await newSpace();
    for (const route of ['import', 'export']) {
      const path = `/v1/spaces/${spaceId}/git/${route}`;
      const anonymous = await t.request('POST', path, { body: body() });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ error: { code: 401, message: expect.any(String) } });
      for (const person of [world.reader, world.commenter]) {
        const res = await t.request('POST', path, { token: person.token, body: body() });
        expect(res.status, res.text).toBe(403);
        expect(res.body.error.message).toContain('triggerGitSync');
      }
      expect((await t.request('POST', path, { token: world.outsider.token, body: body() })).status).toBe(404);
      expect(
        (await t.request('POST', `/v1/spaces/nospace0000000000000/git/${route}`, { token: world.admin.token, body: body() })).status,
      ).toBe(404);
    }
    expect(await t.prisma.gitSyncOperation.count({ where: { spaceId } })).toBe(0);
    expect(await t.prisma.auditEvent.count({ where: { spaceId } })).toBe(0);
    expect((await t.request('POST', `/v1/spaces/${spaceId}/git/import`, { token: world.editor.token, body: body() })).status).toBe(204);
  });

  it('answers the Git info to readers, 404 without a Git sync or across organizations', async () => {
    const info = await t.request('GET', `/v1/spaces/${acme}/git/info`, { token: world.reader.token });
    expect(info.status).toBe(200);
    expect((await t.request('GET', `/v1/spaces/${acme}/git/info`, { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('GET', `/v1/spaces/${acme}/git/info`)).status).toBe(401);
    const missing = await t.request('GET', `/v1/spaces/${await newSpace()}/git/info`, { token: world.admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 404, message: 'Git sync not found' } });
    expectMatchesDocument('0202', 'get', '/spaces/{spaceId}/git/info', 404, missing.body);
  });

  it('refuses bad input with a 400 naming the field, never echoing the URL', async () => {
    const spaceId = await newSpace();
    const cases: [string, Record<string, unknown>, string][] = [
      ['import', { ref: BRANCH }, '"url"'],
      ['import', { url: `ssh://${USER}:${PASSWORD}@example.com/acme.git`, ref: BRANCH }, '"url"'],
      ['import', { url: 'not a url', ref: BRANCH }, '"url"'],
      ['import', { url: server.urlOf('acme'), ref: 'main' }, '"ref"'],
      ['import', { url: server.urlOf('acme'), ref: 'refs/heads/a..b' }, '"ref"'],
      ['import', { url: server.urlOf('acme'), ref: BRANCH, repoProjectDirectory: '../elsewhere' }, '"repoProjectDirectory"'],
      ['import', { url: server.urlOf('acme'), ref: BRANCH, timestamp: 'yesterday' }, '"timestamp"'],
      ['import', { url: server.urlOf('acme'), ref: BRANCH, force: 'yes' }, '"force"'],
      ['import', { url: server.urlOf('acme'), ref: BRANCH, gitInfo: { provider: 'bitbucket' } }, '"gitInfo.provider"'],
      ['export', { url: server.urlOf('acme'), ref: BRANCH }, '"commitMessage"'],
      ['export', { url: server.urlOf('acme'), ref: BRANCH, commitMessage: '  ' }, '"commitMessage"'],
    ];
    for (const [route, input, field] of cases) {
      const res = await t.request('POST', `/v1/spaces/${spaceId}/git/${route}`, { token: world.admin.token, body: input });
      expect(res.status, `${route} ${JSON.stringify(input)}: ${res.text}`).toBe(400);
      expect(res.body.error.message).toContain(field);
      expect(res.text).not.toContain(PASSWORD);
    }
    expect(await t.prisma.gitSyncOperation.count({ where: { spaceId } })).toBe(0);
  });

  it('fails an import into the space’s content that its merge rules came to require reviews for after it was asked', async () => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const before = space.revisionId;
    // As asked before the rules were set: the operation is there, the job about to import.
    const operation = await t.prisma.gitSyncOperation.create({
      data: { id: newId(), spaceId: space.id, direction: 'import', ref: BRANCH },
    });
    await t.prisma.space.update({
      where: { id: space.id },
      data: { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] } },
    });
    const services = t.app.services;
    const remote = { url: server.urlOf('acme'), credentials };
    await expect(
      withRepository(remote, services.fetcher, gitLimits(services.config), (repository) =>
        // Refused before it completes: its completion records nothing.
        importContent(services, repository, operation, '', world.admin.userId, async () => {}),
      ),
    ).rejects.toThrow(/^Merge rule "require_at_least_one_review": the space's content changes only through reviewed change requests/);
    expect((await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId).toBe(before);
  });

  it('refuses an import into a locked space (409), but not a standalone one', async () => {
    const spaceId = (await buildSpace(t.prisma, { organizationId: world.organizationId, editMode: 'locked' })).id;
    const locked = await t.request('POST', `/v1/spaces/${spaceId}/git/import`, { token: world.admin.token, body: body() });
    expect(locked.status).toBe(409);
    const standalone = await t.request('POST', `/v1/spaces/${spaceId}/git/import`, {
      token: world.admin.token,
      body: { ...body(), standalone: true },
    });
    expect(standalone.status).toBe(204);
    expect((await t.request('POST', `/v1/spaces/${spaceId}/git/export`, { token: world.admin.token, body: body() })).status).toBe(204);
  });
});
