// Checking external links: content written with links to a web server run by the test has them checked by a queued
// job (HEAD, then GET when HEAD is refused; redirects followed; a slow answer is a timeout), broken ones listed broken
// with their status; at most two requests at a time and two a second to one host; a URL checked recently is not
// checked again when written again, one a week old is on the scheduler's tick, and one nothing links to is forgotten;
// and without ALLOW_PRIVATE_NETWORK a loopback URL is never requested.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetUnlinkedChecks, scheduleLinkChecks } from '../../src/links/checking.js';
import { page, publish } from '../revisions/content.js';
import { type TestApp, useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { until } from '../support/until.js';
import type { World } from '../support/world.js';

interface Hit {
  method: string;
  path: string;
  at: number;
}

const hits: Hit[] = [];
let inFlight = 0;
let mostInFlight = 0;
let server: http.Server;
let origin: string;

/** The test's website: each path answers as its name says. */
function answer(req: http.IncomingMessage, res: http.ServerResponse) {
  hits.push({ method: req.method ?? '', path: req.url ?? '/', at: Date.now() });
  const path = new URL(req.url ?? '/', 'http://test').pathname;
  if (path === '/ok') return res.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>');
  if (path === '/missing') return res.writeHead(404).end('missing');
  if (path === '/moved') return res.writeHead(301, { location: '/ok' }).end();
  if (path === '/moved-away') return res.writeHead(302, { location: '/missing' }).end();
  if (path === '/no-head') return res.writeHead(req.method === 'HEAD' ? 405 : 200).end();
  if (path === '/sign-in') return res.writeHead(401).end();
  if (path === '/failing') return res.writeHead(503).end();
  if (path === '/slow') return; // never answers: the check times out
  if (path.startsWith('/busy/')) {
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    setTimeout(() => {
      inFlight--;
      res.writeHead(200).end();
    }, 150);
    return;
  }
  res.writeHead(500).end();
}

beforeAll(async () => {
  server = http.createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface CheckedItem {
  status: string;
  targetReference: { url?: string };
  check: { status: string | null; httpStatus: number | null; error: string | null; checkedAt: string | null } | null;
}

/** The space's link targets with their checks, through GraphQL. */
async function linksOf(t: TestApp, world: World, spaceId: string): Promise<CheckedItem[]> {
  const res = await t.request('POST', '/graphql', {
    token: world.admin.token,
    body: {
      query: `query($id: ID!) { space(id: $id) { links(limit: 100) { items {
        status targetReference { ... on ContentLocationURL { url } } check { status httpStatus error checkedAt } } } } }`,
      variables: { id: spaceId },
    },
  });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.space.links.items;
}

const allChecked = (items: CheckedItem[]) => items.every((item) => item.check === null || item.check.checkedAt !== null);

describe('checking external links, private network allowed', () => {
  const { t, world } = useApi({ world: true, jobs: 1, env: { ALLOW_PRIVATE_NETWORK: 'true', LINK_CHECK_TIMEOUT_SECONDS: '1' } });

  it('checks the URLs a write links to in a job, and lists the broken ones broken with their status', async () => {
    const paths = ['/ok', '/missing', '/moved', '/moved-away', '/no-head', '/sign-in', '/failing', '/slow'];
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
    await publish(t.prisma, space.id, {
      pages: [page('web', 'Web', { markdown: paths.map((path) => `- [${path}](${origin}${path})`).join('\n') })],
    });
    const items = await until(() => linksOf(t, world, space.id), allChecked);
    const byPath = Object.fromEntries(
      items.map((item) => [new URL(item.targetReference.url!).pathname, [item.status, item.check?.status, item.check?.httpStatus]]),
    );
    expect(byPath).toEqual({
      '/ok': ['ok', 'ok', 200],
      '/missing': ['broken', 'broken', 404],
      '/moved': ['ok', 'ok', 200],
      '/moved-away': ['broken', 'broken', 404],
      '/no-head': ['ok', 'ok', 200],
      '/sign-in': ['ok', 'ok', 401],
      '/failing': ['broken', 'broken', 503],
      '/slow': ['broken', 'broken', null],
    });
    const slow = items.find((item) => item.targetReference.url?.endsWith('/slow'));
    expect(slow?.check?.error).toMatch(/^TIMEOUT: /);
    // HEAD first; GET only where HEAD did not answer 2xx.
    // (Twice: /ok, and /moved redirecting there.)
    expect(hits.filter((hit) => hit.path === '/ok').map((hit) => hit.method)).toEqual(['HEAD', 'HEAD']);
    expect(hits.filter((hit) => hit.path === '/no-head').map((hit) => hit.method)).toEqual(['HEAD', 'GET']);

    const res = await t.request('GET', `/v1/spaces/${space.id}/links?status=broken`, { token: world.admin.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((item: any) => new URL(item.targetReference.url).pathname).sort()).toEqual([
      '/failing',
      '/missing',
      '/moved-away',
      '/slow',
    ]);
    expect(res.body.stats).toEqual({ total: 8, broken: { total: 4 } });
  });

  it('sends one host at most two requests at a time and two a second', async () => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const busy = Array.from({ length: 6 }, (_, i) => `${origin}/busy/${i}`);
    await publish(t.prisma, space.id, { pages: [page('busy', 'Busy', { markdown: busy.map((url) => `<${url}>`).join('\n\n') })] });
    const items = await until(() => linksOf(t, world, space.id), allChecked);
    expect(items.map((item) => item.check?.status)).toEqual(Array(6).fill('ok'));
    const starts = hits.filter((hit) => hit.path.startsWith('/busy/')).map((hit) => hit.at);
    expect(starts).toHaveLength(6);
    expect(mostInFlight).toBeLessThanOrEqual(2);
    // Six requests, two per second: the last starts two seconds after the first (a little less: timer precision).
    expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThanOrEqual(1900);
  });

  it('does not check a URL again when a write links it again within a day', async () => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const checks = () => t.prisma.backgroundJob.count({ where: { kind: 'link-check' } });
    const jobsBefore = await checks();
    const hitsBefore = hits.filter((hit) => hit.path === '/ok').length;
    await publish(t.prisma, space.id, { pages: [page('again', 'Again', { markdown: `[again](${origin}/ok)` })] });
    const [item] = await linksOf(t, world, space.id);
    expect(item.check?.status).toBe('ok');
    expect(await checks()).toBe(jobsBefore);
    expect(hits.filter((hit) => hit.path === '/ok').length).toBe(hitsBefore);
  });

  it('has week-old checks done again on the scheduler’s tick, and forgets the checks of URLs nothing links to', async () => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
    await publish(t.prisma, space.id, { pages: [page('old', 'Old', { markdown: `[old](${origin}/ok?old)` })] });
    await until(() => linksOf(t, world, space.id), allChecked);
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
    await t.prisma.linkCheck.update({ where: { url: `${origin}/ok?old` }, data: { checkedAt: eightDaysAgo } });
    await t.prisma.linkCheck.create({ data: { url: `${origin}/ok?unlinked`, status: 'ok', checkedAt: eightDaysAgo } });

    await scheduleLinkChecks(t.app.services);
    const [item] = await until(
      () => linksOf(t, world, space.id),
      ([found]) => new Date(found.check!.checkedAt!) > eightDaysAgo,
    );
    expect(new Date(item.check!.checkedAt!).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(hits.filter((hit) => hit.path === '/ok?old').map((hit) => hit.method)).toEqual(['HEAD', 'HEAD']);

    await forgetUnlinkedChecks(t.app.services);
    const urls = (await t.prisma.linkCheck.findMany({ select: { url: true } })).map((row) => row.url);
    expect(urls).toContain(`${origin}/ok?old`);
    expect(urls).not.toContain(`${origin}/ok?unlinked`);
  });
});

describe('checking external links, private network refused', () => {
  const { t, world } = useApi({ world: true, jobs: 1 });

  it('never requests a loopback URL: its check is skipped, and the link is not broken', async () => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const before = hits.length;
    await publish(t.prisma, space.id, { pages: [page('local', 'Local', { markdown: `[local](${origin}/missing)` })] });
    const [item] = await until(() => linksOf(t, world, space.id), allChecked);
    expect(item.status).toBe('ok');
    expect(item.check).toMatchObject({ status: 'skipped', httpStatus: null });
    expect(item.check?.error).toMatch(/^PRIVATE_ADDRESS: /);
    expect(hits.length).toBe(before);
  });
});
