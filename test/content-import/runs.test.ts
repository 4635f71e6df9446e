// Import runs through GitBook's 0.202 client, against a small website served on loopback here: a run into a change
// request created for it, or into one given (under a page), completed with its pages; failed with a reason (the site
// unreadable, the change request archived while it ran); cancelled while pending or in progress, writing nothing (a
// page the site holds back keeps a run in progress); the organization's list and its filters; what is refused
// (permissions across organizations and roles, input); and a run that survives the death of its worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, resumeImportRuns } from '../../src/content-import/task.js';
import { newId } from '../../src/kernel/ids.js';
import { type Person, startTestApp, type TestApp, useApi, walk } from '../support/app.js';
import { buildSite, buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { until } from '../support/until.js';
import { buildWorld } from '../support/world.js';
import { page, serveWebsite, type Website } from './website.js';

const RUNS = '/org/{organizationId}/imports';
const RUN = `${RUNS}/{importRunId}`;
const ENV = { ALLOW_PRIVATE_NETWORK: 'true' };

/** A request the website holds back until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
const held = gate();
const heldWhileArchived = gate();

let site: Website;
beforeAll(async () => {
  site = await serveWebsite(() => ({
    '/docs/': page('Welcome', '<h1>Welcome</h1><p>Acme helps you ship.</p><p><a href="/docs/guide/">Guide</a></p>'),
    '/docs/guide/': page('Guide', '<h1>Guide</h1><p>How to use Acme.</p><p><a href="/docs/guide/install">Install</a></p>'),
    '/docs/guide/install': page('Install', '<h1>Install</h1><p>Run the installer.</p>'),
    '/held/': page('Held', '<h1>Held</h1><p>The start.</p><p><a href="/held/next">Next</a></p>'),
    '/held/next': { ...page('Next', '<h1>Next</h1><p>Held back.</p><p><a href="/held/after">After</a></p>'), after: held.opened },
    '/held/after': page('After', '<h1>After</h1><p>Never read.</p>'),
    '/archived/': page('Archived', '<h1>Archived</h1><p>The start.</p><p><a href="/archived/next">Next</a></p>'),
    '/archived/next': { ...page('Next', '<h1>Next</h1><p>Held back.</p>'), after: heldWhileArchived.opened },
    '/other/': page('Other', '<h1>Other</h1><p>Another site.</p>'),
  }));
});
afterAll(async () => {
  held.open();
  heldWhileArchived.open();
  await site?.close();
});

/** The change request's page tree as `path: title` lines, depth first, with each page's id. */
async function tree(t: TestApp, token: string, spaceId: string, changeRequestId: string) {
  const res = await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/pages`, { token });
  expect(res.status, res.text).toBe(200);
  const lines: string[] = [];
  const ids: string[] = [];
  const visit = (pages: { id: string; path: string; title: string; pages?: unknown[] }[] = []) => {
    for (const p of pages) {
      lines.push(`${p.path}: ${p.title}`);
      ids.push(p.id);
      visit(p.pages as never);
    }
  };
  visit(res.body.pages);
  return { lines, ids };
}

describe('import runs', () => {
  const { t, world } = useApi({ world: true, jobs: 1, env: ENV });
  const org = () => world.organizationId;
  const api = (person: Person = world.admin) => gitbookClient('0202', t.url, person.token);
  const runPath = (id: string, organizationId = org()) => `/v1/org/${organizationId}/imports/${id}`;
  const start = (body: unknown, person: Person | null = world.admin, organizationId = org()) =>
    t.request('POST', `/v1/org/${organizationId}/imports`, { token: person?.token ?? null, body });
  const get = (id: string, person: Person = world.admin) => t.request('GET', runPath(id), { token: person.token });
  /** The run once it has ended (completed, failed or cancelled). */
  const ended = async (id: string) => {
    const res = await until(
      () => get(id),
      (r) => ['completed', 'failed', 'cancelled'].includes(r.body?.status),
    );
    expect(res.status, res.text).toBe(200);
    expectMatchesSpec('0202', 'GET', RUN, 200, res.body);
    return res.body;
  };
  /** The run's job, once it is done with the run. */
  const jobDone = (runId: string) =>
    until(
      () => t.prisma.backgroundJob.findFirst({ where: { kind: 'import-run', payload: { path: ['runId'], equals: runId } } }),
      (job) => job?.state === 'succeeded' || job?.state === 'failed',
    );
  const space = () => buildSpace(t.prisma, { organizationId: org() });
  /** The recorded events about the run, oldest first: [action, actor type, actor id]. */
  const runEvents = async (runId: string) =>
    (await t.prisma.auditEvent.findMany({ where: { targetType: 'import-run', targetId: runId }, orderBy: { occurredAt: 'asc' } })).map(
      (event) => [event.action, event.actorType, event.actorId],
    );
  const changeRequest = async (spaceId: string) => {
    const res = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: world.admin.token, body: { subject: 'Mine' } });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };

  describe('a run that completes', () => {
    it('imports into a change request created for it, and records the pages it wrote', async () => {
      const target = await space();
      const url = `${site.origin}/docs/`;
      const started = await api().org.startImportRun(org(), { source: { type: 'website', url }, target: { space: target.id } });
      expect(started.status).toBe(201);
      expectMatchesSpec('0202', 'POST', RUNS, 201, started.data);
      expect(started.headers.get('location')).toBe(started.data.urls?.location);
      expect(started.data.urls?.location).toBe(`${t.url}${runPath(started.data.id)}`);
      const changeRequestId = started.data.target?.changeRequest;
      expect(started.data).toMatchObject({
        object: 'import-run',
        status: 'pending',
        source: { type: 'website', url },
        target: { space: target.id, changeRequest: expect.any(String) },
        createdBy: world.admin.userId,
        pages: [],
      });
      const created = await t.request('GET', `/v1/spaces/${target.id}/change-requests/${changeRequestId}`, { token: world.admin.token });
      expect(created.body).toMatchObject({ subject: `Import of ${url}`, status: 'draft', createdBy: { id: world.admin.userId } });

      const run = await ended(started.data.id);
      expect(run).toMatchObject({ status: 'completed', startedAt: expect.any(String), completedAt: expect.any(String) });
      expect(run.reason).toBeUndefined();
      const { lines, ids } = await tree(t, world.admin.token, target.id, changeRequestId!);
      expect(lines).toEqual(['welcome: Welcome', 'guide: Guide', 'guide/install: Install']);
      expect(run.pages).toEqual([
        { id: ids[0], sourceURL: url, type: 'page', status: 'complete' },
        { id: ids[1], sourceURL: `${site.origin}/docs/guide/`, type: 'page', status: 'complete' },
        { id: ids[2], sourceURL: `${site.origin}/docs/guide/install`, type: 'page', status: 'complete' },
      ]);
      // Through the change request only: the space's own content is untouched until it is merged.
      const content = await t.request('GET', `/v1/spaces/${target.id}/content/pages`, { token: world.admin.token });
      expect(content.body.pages).toEqual([]);

      const read = await api().org.getImportRun(org(), run.id);
      expect(read.data).toEqual(run);
      // Started by the admin, with the change request created for it; completed by its job, as the system.
      expect(await runEvents(run.id)).toEqual([
        ['import_run_started', 'user', world.admin.userId],
        ['import_run_completed', 'system', 'system'],
      ]);
      const completed = await t.prisma.auditEvent.findFirstOrThrow({ where: { targetId: run.id, action: 'import_run_completed' } });
      expect(completed).toMatchObject({
        organizationId: org(),
        source: 'workflow',
        targetLabel: url,
        spaceId: target.id,
        payload: { changeRequestId, importedPages: 3 },
      });
      expect(await t.prisma.auditEvent.count({ where: { targetId: changeRequestId, action: 'change_request_created' } })).toBe(1);
    });

    it('imports into a given change request, under a page of it, next to the pages there', async () => {
      const target = await space();
      const changeRequestId = await changeRequest(target.id);
      const edit = await t.request('POST', `/v1/spaces/${target.id}/change-requests/${changeRequestId}/content`, {
        token: world.admin.token,
        body: {
          changes: [
            { operation: 'insert_page', ref: 'parent', title: 'Imported', document: { markdown: 'Below.\n' } },
            { operation: 'insert_page', into: 'parent', title: 'Welcome', document: { markdown: 'Mine.\n' } },
          ],
        },
      });
      expect(edit.status, edit.text).toBe(200);
      const parent = (await tree(t, world.admin.token, target.id, changeRequestId)).ids[0];
      const res = await start({
        source: { type: 'website', url: `${site.origin}/docs/` },
        target: { space: target.id, changeRequest: changeRequestId, page: parent },
        enhance: true,
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.target).toEqual({ space: target.id, changeRequest: changeRequestId, page: parent });
      expect((await ended(res.body.id)).status).toBe('completed');
      expect((await tree(t, world.admin.token, target.id, changeRequestId)).lines).toEqual([
        'imported: Imported',
        'imported/welcome: Welcome',
        'imported/welcome-2: Welcome',
        'imported/guide: Guide',
        'imported/guide/install: Install',
      ]);
    });
  });

  describe('a run that fails', () => {
    it('fails with the reason when the website cannot be read, and writes nothing', async () => {
      const target = await space();
      const res = await start({ source: { type: 'website', url: `${site.origin}/missing` }, target: { space: target.id } });
      expect(res.status, res.text).toBe(201);
      const run = await ended(res.body.id);
      expect(run.status).toBe('failed');
      expect(run.reason).toMatch(/^The website cannot be read: .*answered 404/);
      expect(run.completedAt).toBeUndefined();
      expect((await tree(t, world.admin.token, target.id, run.target.changeRequest)).lines).toEqual([]);
      expect(await runEvents(run.id)).toEqual([
        ['import_run_started', 'user', world.admin.userId],
        ['import_run_failed', 'system', 'system'],
      ]);
      const failed = await t.prisma.auditEvent.findFirstOrThrow({ where: { targetId: run.id, action: 'import_run_failed' } });
      expect(failed.payload).toMatchObject({ reason: run.reason });
    });

    it('fails with the reason when its change request is archived while it reads the site', async () => {
      const target = await space();
      const changeRequestId = await changeRequest(target.id);
      const res = await start({
        source: { type: 'website', url: `${site.origin}/archived/` },
        target: { space: target.id, changeRequest: changeRequestId },
      });
      expect(res.status, res.text).toBe(201);
      await until(
        async () => site.requests,
        (requests) => requests.includes('/archived/next'),
      );
      expect((await get(res.body.id)).body.status).toBe('in-progress');
      const archive = await t.request('PATCH', `/v1/spaces/${target.id}/change-requests/${changeRequestId}`, {
        token: world.admin.token,
        body: { status: 'archived' },
      });
      expect(archive.status, archive.text).toBe(200);
      heldWhileArchived.open();
      const run = await ended(res.body.id);
      expect([run.status, run.reason]).toEqual(['failed', 'The change request is archived: it can no longer change.']);
      expect((await tree(t, world.admin.token, target.id, changeRequestId)).lines).toEqual([]);
    });
  });

  describe('cancelling a run', () => {
    it('ends a pending or in-progress run cancelled: its job stops between pages and writes nothing', async () => {
      const [first, second] = [await space(), await space()];
      const reading = await start({ source: { type: 'website', url: `${site.origin}/held/` }, target: { space: first.id } });
      expect(reading.status, reading.text).toBe(201);
      await until(
        async () => site.requests,
        (requests) => requests.includes('/held/next'),
      );
      expect((await get(reading.body.id)).body.status).toBe('in-progress');
      // The one worker is busy with the first: the second waits.
      const waiting = await start({ source: { type: 'website', url: `${site.origin}/other/` }, target: { space: second.id } });
      expect(waiting.body.status).toBe('pending');

      for (const id of [waiting.body.id, reading.body.id]) {
        const cancelled = await api().org.cancelImportRun(org(), id);
        expect(cancelled.status).toBe(200);
        expectMatchesSpec('0202', 'POST', `${RUN}/cancel`, 200, cancelled.data);
        expect(cancelled.data.status).toBe('cancelled');
      }
      held.open();
      for (const id of [reading.body.id, waiting.body.id]) expect((await jobDone(id))?.state).toBe('succeeded');
      expect((await get(reading.body.id)).body).toMatchObject({ status: 'cancelled', pages: [] });
      expect((await get(waiting.body.id)).body).toMatchObject({ status: 'cancelled', pages: [] });
      expect(site.requests).not.toContain('/held/after');
      expect(site.requests).not.toContain('/other/');
      expect((await tree(t, world.admin.token, first.id, reading.body.target.changeRequest)).lines).toEqual([]);

      const again = await t.request('POST', `${runPath(reading.body.id)}/cancel`, { token: world.admin.token });
      expect([again.status, again.body.error.message]).toEqual([
        400,
        'The import run is cancelled: only a pending or in-progress run can be cancelled.',
      ]);
      // One cancellation each, by the admin; the refused one and the stopped jobs recorded nothing.
      for (const id of [reading.body.id, waiting.body.id]) {
        expect(await runEvents(id)).toEqual([
          ['import_run_started', 'user', world.admin.userId],
          ['import_run_cancelled', 'user', world.admin.userId],
        ]);
      }
    });

    it('refuses to cancel a run that completed or failed, naming its status', async () => {
      const target = await space();
      const completed = await start({ source: { type: 'website', url: `${site.origin}/other/` }, target: { space: target.id } });
      const failed = await start({ source: { type: 'website', url: `${site.origin}/missing` }, target: { space: target.id } });
      for (const [id, status] of [
        [completed.body.id, 'completed'],
        [failed.body.id, 'failed'],
      ]) {
        expect((await ended(id)).status).toBe(status);
        const res = await t.request('POST', `${runPath(id)}/cancel`, { token: world.admin.token });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBe(`The import run is ${status}: only a pending or in-progress run can be cancelled.`);
        expect((await get(id)).body.status).toBe(status);
      }
    });
  });

  describe('the organization’s runs', () => {
    it('lists them newest first, page by page, filtered by space, change request, site and status', async () => {
      const [listed, other] = [await space(), await space()];
      const docs = await buildSite(t.prisma, { organizationId: org() });
      await t.prisma.siteSpace.create({ data: { id: newId(), siteId: docs.id, spaceId: listed.id, path: 'listed' } });
      const url = `${site.origin}/other/`;
      const first = await start({ source: { type: 'website', url }, target: { space: listed.id } });
      const failing = await start({ source: { type: 'website', url: `${site.origin}/missing` }, target: { space: listed.id } });
      const elsewhere = await start({ source: { type: 'website', url }, target: { space: other.id } });
      // Listed under the one site that publishes the space.
      expect(first.body.site).toBe(docs.id);
      expect(elsewhere.body.site).toBeUndefined();
      for (const run of [first, failing, elsewhere]) await ended(run.body.id);
      t.clock.advanceMs(1000);
      const given = await start({ source: { type: 'website', url }, target: { space: other.id }, site: docs.id });
      expect(given.body.site).toBe(docs.id);
      await ended(given.body.id);

      const ids = async (query: string) => {
        const res = await t.request('GET', `/v1/org/${org()}/imports?${query}`, { token: world.admin.token });
        expect(res.status, res.text).toBe(200);
        expectMatchesSpec('0202', 'GET', RUNS, 200, res.body);
        expect(res.body.count).toBe(res.body.items.length);
        return res.body.items.map((item: { id: string }) => item.id);
      };
      expect(await ids(`space=${listed.id}`)).toEqual([failing.body.id, first.body.id].sort().reverse());
      expect(await ids(`changeRequest=${elsewhere.body.target.changeRequest}`)).toEqual([elsewhere.body.id]);
      expect((await ids(`site=${docs.id}`)).sort()).toEqual([first.body.id, failing.body.id, given.body.id].sort());
      expect(await ids(`site=${docs.id}&status=failed`)).toEqual([failing.body.id]);
      expect(await ids(`space=${listed.id}&status=active`)).toEqual([]);
      expect((await ids(`space=${other.id}&status=completed`)).sort()).toEqual([elsewhere.body.id, given.body.id].sort());
      expect((await ids('status=in-progress')).length).toBe(0);

      const listedByClient = await api().org.listImportRuns(org(), { space: other.id });
      expect(listedByClient.data.items.map((item) => item.id)).toEqual([given.body.id, elsewhere.body.id]);
      const { items, pages } = await walk(t, `/v1/org/${org()}/imports?limit=2`, {
        token: world.admin.token,
        eachPage: (res) => expect(res.body.items.length).toBeLessThanOrEqual(2),
      });
      const all = await t.prisma.importRun.count({ where: { organizationId: org() } });
      expect(items).toHaveLength(all);
      expect(pages).toBe(Math.ceil(all / 2));
      const times = items.map((item: { createdAt: string }) => item.createdAt);
      expect(times).toEqual([...times].sort().reverse());
      // As many statements for a page of one as for a page of all, sites shown included.
      const one = await t.counted('GET', `/v1/org/${org()}/imports?limit=1&site=${docs.id}`, { token: world.admin.token });
      const many = await t.counted('GET', `/v1/org/${org()}/imports?limit=1000`, { token: world.admin.token });
      expect([one.body.items.length, many.body.items.length]).toEqual([1, all]);
      expect(one.statements).toBe(many.statements);
    });

    it('answers GraphQL: the runs hang off their organization, and the mutations start and cancel them', async () => {
      const target = await space();
      const res = await t.request('POST', '/graphql', {
        token: world.admin.token,
        body: {
          query: `mutation($org: ID!, $input: StartImportRunInput!) {
            startImportRun(organizationId: $org, input: $input) { id status target { spaceId changeRequestId pageId } }
          }`,
          variables: { org: org(), input: { source: { type: 'website', url: `${site.origin}/other/` }, target: { space: target.id } } },
        },
      });
      expect(res.body.errors, res.text).toBeUndefined();
      const started = res.body.data.startImportRun;
      expect(started.target).toEqual({ spaceId: target.id, changeRequestId: expect.any(String), pageId: null });
      await ended(started.id);
      const read = await t.request('POST', '/graphql', {
        token: world.admin.token,
        body: {
          query: `query($org: ID!, $space: ID!) { organization(id: $org) {
            importRuns(space: $space) { count items { id status pages { pageId sourceURL type status } } } } }`,
          variables: { org: org(), space: target.id },
        },
      });
      expect(read.body.data.organization.importRuns).toEqual({
        count: 1,
        items: [
          {
            id: started.id,
            status: 'completed',
            pages: [{ pageId: expect.any(String), sourceURL: `${site.origin}/other/`, type: 'page', status: 'complete' }],
          },
        ],
      });
    });
  });

  describe('what a run refuses', () => {
    const body = (spaceId: string, extra: Record<string, unknown> = {}) => ({
      source: { type: 'website', url: `${site.origin}/other/` },
      target: { space: spaceId },
      ...extra,
    });

    it('answers 401 without a token, 403 to who may not edit the space, 404 across organizations and to outsiders', async () => {
      const target = await space();
      const before = await t.prisma.importRun.count();
      expect((await start(body(target.id), null)).status).toBe(401);
      for (const person of [world.reader, world.commenter]) expect((await start(body(target.id), person)).status).toBe(403);
      expect((await start(body(target.id), world.guest)).status).toBe(404);
      expect((await start(body(target.id), world.outsider)).status).toBe(404);
      // The space must be of the organization in the path, whoever sees both.
      const second = await buildSpace(t.prisma, { organizationId: world.secondOrganizationId });
      const mismatch = await start(body(target.id), world.admin, world.secondOrganizationId);
      expect([mismatch.status, mismatch.body.error.message]).toEqual([404, 'Space not found']);
      expect((await start(body(second.id), world.admin)).status).toBe(404);
      expect((await start(body(target.id), world.outsider, world.outsiderOrganizationId)).status).toBe(404);
      expect((await start(body('noSuchSpace0000000000'), world.admin)).status).toBe(404);
      expect(await t.prisma.importRun.count()).toBe(before);
      expect(await t.prisma.auditEvent.count({ where: { spaceId: target.id } })).toBe(0);

      const editors = await start(body(target.id), world.editor);
      expect(editors.status, editors.text).toBe(201);
      const id = editors.body.id;
      await ended(id);
      // A reader sees the run; only who may edit the space cancels it; outsiders and other organizations' paths find none.
      expect((await get(id, world.reader)).status).toBe(200);
      expect((await t.request('POST', `${runPath(id)}/cancel`, { token: world.reader.token })).status).toBe(403);
      for (const person of [world.guest, world.outsider]) {
        expect((await get(id, person)).status).toBe(404);
        expect((await t.request('POST', `${runPath(id)}/cancel`, { token: person.token })).status).toBe(404);
      }
      expect((await t.request('GET', runPath(id, world.secondOrganizationId), { token: world.admin.token })).status).toBe(404);
      expect((await t.request('GET', runPath(id), { token: null })).status).toBe(401);
    });

    it('lists to each member only the runs into spaces they can see, and counts only those', async () => {
      const secret = await buildSpace(t.prisma, { organizationId: org(), defaultLevel: null });
      const open = await space();
      const hidden = await start(body(secret.id));
      const shown = await start(body(open.id));
      for (const run of [hidden, shown]) await ended(run.body.id);
      const listOf = async (person: Person) => {
        const res = await t.request('GET', `/v1/org/${org()}/imports?limit=1000`, { token: person.token });
        expect(res.status, res.text).toBe(200);
        return res.body;
      };
      const readers = await listOf(world.reader);
      expect(readers.items.map((item: { id: string }) => item.id)).toContain(shown.body.id);
      expect(JSON.stringify(readers)).not.toContain(secret.id);
      expect(readers.count).toBe(readers.items.length);
      expect((await listOf(world.admin)).items.map((item: { id: string }) => item.id)).toContain(hidden.body.id);
      expect((await get(hidden.body.id, world.reader)).status).toBe(404);
      expect(await listOf(world.guest)).toEqual({ items: [], count: 0 });
      expect((await t.request('GET', `/v1/org/${org()}/imports`, { token: world.outsider.token })).status).toBe(404);
    });

    it('answers 400 naming the field for a file source, a missing or bad URL, an unknown page or site', async () => {
      const target = await space();
      const changeRequestId = await changeRequest(target.id);
      const foreignSite = await buildSite(t.prisma, { organizationId: world.outsiderOrganizationId });
      const url = `${site.origin}/other/`;
      const changeRequestsBefore = await t.prisma.changeRequest.count({ where: { spaceId: target.id } });
      const cases: [unknown, RegExp][] = [
        [
          { source: { type: 'file', files: ['a.docx'] }, target: { space: target.id } },
          /^Invalid "source.type": imports of files need uploads/,
        ],
        [{ source: { type: 'website' }, target: { space: target.id } }, /^Invalid "source.url": is required for a website/],
        [
          { source: { type: 'website', url: 'ftp://example.com/' }, target: { space: target.id } },
          /^Invalid "source.url": must be an http/,
        ],
        [{ source: { type: 'notion', url }, target: { space: target.id } }, /"source.type"/],
        [{ source: { type: 'website', url } }, /"target"/],
        [{ source: { type: 'website', url }, target: {} }, /"target.space"/],
        [body(target.id, { target: { space: target.id, page: 'noSuchPage000000' } }), /^Invalid "target.page": no such page/],
        [
          body(target.id, { target: { space: target.id, changeRequest: changeRequestId, page: 'noSuchPage000000' } }),
          /^Invalid "target.page": no such page/,
        ],
        [body(target.id, { site: foreignSite.id }), /^Invalid "site": no such site in this organization/],
      ];
      for (const [request, message] of cases) {
        const res = await start(request);
        expect(res.status, JSON.stringify(request)).toBe(400);
        expect(res.body.error.message, JSON.stringify(request)).toMatch(message);
      }
      // The change request made for a run that is refused is not made either.
      expect(await t.prisma.changeRequest.count({ where: { spaceId: target.id } })).toBe(changeRequestsBefore);
      expect(await t.prisma.importRun.count({ where: { spaceId: target.id } })).toBe(0);
    });

    it('answers 404 for a change request of another space, 409 for one merged or archived', async () => {
      const [target, other] = [await space(), await space()];
      const elsewhere = await changeRequest(other.id);
      const res = await start(body(target.id, { target: { space: target.id, changeRequest: elsewhere } }));
      expect([res.status, res.body.error.message]).toEqual([404, 'Change request not found']);
      const archived = await changeRequest(target.id);
      await t.request('PATCH', `/v1/spaces/${target.id}/change-requests/${archived}`, {
        token: world.admin.token,
        body: { status: 'archived' },
      });
      const refused = await start(body(target.id, { target: { space: target.id, changeRequest: archived } }));
      expect([refused.status, refused.body.error.message]).toEqual([409, 'The change request is archived: it can no longer change.']);
    });
  });
});

describe('a run whose worker died', () => {
  const opened: TestApp[] = [];
  afterAll(async () => {
    for (const app of opened.reverse()) await app.close();
  });

  it('is resumed by a new worker: in progress with its job released, or silent past the stale time; failed after its attempts', async () => {
    // A service without a worker: the runs wait, as a crash left them.
    const first = await startTestApp({ env: ENV });
    opened.push(first);
    const world = await buildWorld(first.prisma);
    const start = async () => {
      const target = await buildSpace(first.prisma, { organizationId: world.organizationId });
      const res = await first.request('POST', `/v1/org/${world.organizationId}/imports`, {
        token: world.admin.token,
        body: { source: { type: 'website', url: `${site.origin}/docs/` }, target: { space: target.id } },
      });
      expect(res.status, res.text).toBe(201);
      return res.body as { id: string; target: { space: string; changeRequest: string } };
    };
    const [released, silent, exhausted] = [await start(), await start(), await start()];
    const jobOf = async (runId: string) =>
      (await first.prisma.backgroundJob.findFirstOrThrow({ where: { kind: 'import-run', payload: { path: ['runId'], equals: runId } } }))
        .id;
    // Each was in progress under a job that died: one's job was released (a graceful stop fails it back to the queue),
    // the others' stayed locked by the dead worker, for hours.
    const interrupted = { status: 'in_progress' as const, jobId: 'deadJob', startedAt: new Date('2026-01-15T09:00:00Z') };
    await first.prisma.importRun.update({ where: { id: released.id }, data: { ...interrupted, attempts: 1 } });
    await first.prisma.importRun.update({
      where: { id: silent.id },
      data: { ...interrupted, attempts: 1, updatedAt: new Date('2026-01-15T09:00:00Z') },
    });
    await first.prisma.importRun.update({
      where: { id: exhausted.id },
      data: { ...interrupted, attempts: MAX_ATTEMPTS, updatedAt: new Date('2026-01-15T09:00:00Z') },
    });
    for (const run of [silent, exhausted]) {
      await first.prisma.$executeRaw`
        UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'deadWorker', attempts = 1
         WHERE payload->>'jobId' = ${await jobOf(run.id)}`;
    }
    await first.stop();

    const second = await startTestApp({ databaseUrl: first.databaseUrl, jobs: 1, env: ENV });
    opened.push(second);
    const runOf = (id: string) => second.request('GET', `/v1/org/${world.organizationId}/imports/${id}`, { token: world.admin.token });
    const completed = await until(
      () => runOf(released.id),
      (res) => res.body?.status === 'completed',
    );
    expect(completed.body.pages).toHaveLength(3);
    expect(completed.body.startedAt).toBe('2026-01-15T09:00:00.000Z');
    // The others' jobs are still locked: their runs wait for the scheduler's tick.
    expect((await runOf(silent.id)).body.status).toBe('in-progress');
    await resumeImportRuns(second.app.services);
    const resumed = await until(
      () => runOf(silent.id),
      (res) => res.body?.status === 'completed',
    );
    expect(resumed.body.status).toBe('completed');
    const pages = await second.request(
      'GET',
      `/v1/spaces/${silent.target.space}/change-requests/${silent.target.changeRequest}/content/pages`,
      {
        token: world.admin.token,
      },
    );
    expect(pages.body.pages.map((p: { title: string }) => p.title)).toEqual(['Welcome', 'Guide']);
    const gaveUp = await until(
      () => runOf(exhausted.id),
      (res) => res.body?.status === 'failed',
    );
    expect(gaveUp.body.reason).toBe(`The import was interrupted ${MAX_ATTEMPTS} times; start it again.`);
    const rows = await second.prisma.importRun.findMany({ where: { id: { in: [released.id, silent.id, exhausted.id] } } });
    expect(Object.fromEntries(rows.map((row) => [row.id, row.attempts]))).toEqual({
      [released.id]: 2,
      [silent.id]: 2,
      [exhausted.id]: MAX_ATTEMPTS + 1,
    });
  }, 90_000);
});
