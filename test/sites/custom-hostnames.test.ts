// Claims of hosts, proven in DNS: a site's hostname and an organization's proxy host are claimed once across the
// instance (409 otherwise, whatever the form), take effect only once a TXT record holds the claim's token (checked by
// the job queue through DNS_SERVERS, here a DNS server of the test's own on loopback), lapse when a periodic check no
// longer finds it, and are read, revalidated and released through GitBook's custom-hostname operations by the admins
// of the claiming organization only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Site } from '../../src/generated/prisma/client.js';
import { scheduleHostnameChecks } from '../../src/sites/proof.js';
import { buildSiteSection, buildSiteSpace } from '../site-redirects/fixtures.js';
import { useApi } from '../support/app.js';
import { startDnsServer } from '../support/dns.js';
import { buildSite, buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { until } from '../support/until.js';

const SITES = 'https://sites.example.com';
const SPEC_PATH = '/custom-hostnames/{hostname}';
const RECHECK_MINUTES = 60;

// The service's configuration names the DNS server: it starts while the file loads, and closes after the service
// (afterAll hooks run last registered first).
const dns = await startDnsServer();
afterAll(() => dns.close());
const { t, world } = useApi({
  world: true,
  jobs: 1,
  env: { DNS_SERVERS: dns.address, SITES_URL: SITES, HOSTNAME_RECHECK_MINUTES: String(RECHECK_MINUTES) },
});
let acme: string;
/** An organization whose admin is `world.outsider`: another organization claiming hosts. */
let other: string;
beforeAll(() => {
  acme = world.organizationId;
  other = world.outsiderOrganizationId;
});

const sitePath = (org: string, siteId: string, rest = '') => `/v1/orgs/${org}/sites/${siteId}${rest}`;
const patchSite = (token: string, org: string, siteId: string, body: object) => t.request('PATCH', sitePath(org, siteId), { token, body });
const claimPath = (host: string) => `/v1/custom-hostnames/${host}`;
const getClaim = (host: string, token = world.admin.token) => t.request('GET', claimPath(host), { token });

/** Asks for a check of the claim now, and waits until it is done. */
async function revalidate(host: string, token = world.admin.token) {
  const res = await t.request('PATCH', claimPath(host), { token });
  expect(res.status, res.text).toBe(204);
  return checked(host, token);
}

/** The claim once no check of it is waiting. */
const checked = (host: string, token = world.admin.token) =>
  until(
    () => getClaim(host, token),
    (res) => res.status === 200 && !res.body.verification.checkQueued,
  );

/** Publishes the proof record of a claim in the test's DNS. */
function prove(claim: { verification: { record: { name: string; value: string } } }) {
  dns.setTxt(claim.verification.record.name, [claim.verification.record.value]);
}

const lookup = (url: string) => t.request('GET', `/v1/urls/published?url=${encodeURIComponent(url)}`, { token: world.reader.token });

/** A published site of `organizationId` with sections guides (default, site space v1) and api (site space reference). */
async function publishedSiteWithSections(organizationId: string, title: string) {
  const site = await buildSite(t.prisma, { organizationId, title, published: true });
  const [guides, api] = [await buildSiteSection(t.prisma, site.id, 'guides'), await buildSiteSection(t.prisma, site.id, 'api')];
  const manual = await buildSpace(t.prisma, { organizationId, title: `${title} manual` });
  const reference = await buildSpace(t.prisma, { organizationId, title: `${title} reference` });
  const v1 = await buildSiteSpace(t.prisma, site.id, manual.id, 'v1', { sectionId: guides.id });
  const ref = await buildSiteSpace(t.prisma, site.id, reference.id, 'reference', { sectionId: api.id });
  await t.prisma.siteSection.update({ where: { id: guides.id }, data: { defaultSiteSpaceId: v1.id } });
  await t.prisma.siteSection.update({ where: { id: api.id }, data: { defaultSiteSpaceId: ref.id } });
  await t.prisma.site.update({ where: { id: site.id }, data: { defaultSiteSectionId: guides.id } });
  return { site, sections: { guides: guides.id, api: api.id }, siteSpaces: { v1: v1.id, ref: ref.id }, spaces: { manual, reference } };
}

type Built = Awaited<ReturnType<typeof publishedSiteWithSections>>;

/** Every published URL of the site the API answers: the site's, its sections', its site spaces', its spaces'. */
async function publishedUrls(built: Built, org = acme) {
  const token = org === acme ? world.admin.token : world.outsider.token;
  const site = await t.request('GET', sitePath(org, built.site.id), { token });
  const sections = await t.request('GET', sitePath(org, built.site.id, '/sections'), { token });
  const siteSpaces = await t.request('GET', sitePath(org, built.site.id, '/site-spaces'), { token });
  const space = await t.request('GET', `/v1/spaces/${built.spaces.reference.id}`, { token });
  const byId = (items: { id: string; urls: { published?: string } }[]) =>
    Object.fromEntries(items.map((item) => [item.id, item.urls.published]));
  return {
    site: site.body.urls.published,
    sections: byId(sections.body.items),
    siteSpaces: byId(siteSpaces.body.items),
    space: [space.body.urls.published, space.body.urls.public],
  };
}

/** What publishedUrls answers when the site is published at `root`. */
const urlsAt = (built: Built, root: string) => ({
  site: root,
  sections: { [built.sections.guides]: root, [built.sections.api]: `${root}api` },
  siteSpaces: { [built.siteSpaces.v1]: root, [built.siteSpaces.ref]: `${root}api` },
  space: [`${root}api`, `${root}api`],
});

describe('a hostname claimed, proven, and lapsing', () => {
  let built: Built;
  let defaultRoot: string;
  const host = 'docs.acme.test';

  beforeAll(async () => {
    built = await publishedSiteWithSections(acme, 'Handbook');
    defaultRoot = `${SITES}/${acme}/${built.site.id}/`;
  });

  it('is pending once claimed: the site is published at its default URL only, everywhere', async () => {
    const set = await patchSite(world.admin.token, acme, built.site.id, { hostname: host });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ hostname: host, urls: { published: defaultRoot } });

    // The claim's first check runs at once, asks the test's DNS server, and finds nothing there yet.
    const client = gitbookClient('0202', t.url, world.admin.token);
    const pending = await checked(host);
    const read = await client.customHostnames.getCustomHostname(host);
    expect(read.status).toBe(200);
    expectMatchesSpec('0202', 'get', SPEC_PATH, 200, read.data);
    expect(read.data).toEqual({
      object: 'custom-hostname',
      hostname: host,
      target: { type: 'site', site: built.site.id },
      isActive: false,
      urls: { location: `${t.url}/v1/custom-hostnames/${host}` },
      verification: {
        state: 'pending',
        kind: 'hostname',
        record: {
          type: 'TXT',
          name: `_docs-platform-challenge.${host}`,
          value: expect.stringMatching(/^docs-platform-verification=[0-9a-f]{32}$/),
        },
        grandfathered: false,
        checkQueued: false,
        checkedAt: '2026-01-15T10:00:00.000Z',
        lastError: `No TXT record at _docs-platform-challenge.${host} (no such name).`,
      },
    });
    expect(pending.body).toEqual(read.data);
    expect(dns.asked).toContain(`_docs-platform-challenge.${host}`);

    expect(await publishedUrls(built)).toEqual(urlsAt(built, defaultRoot));
    expect((await lookup(`https://${host}/api/intro`)).status).toBe(404);
    const atDefault = await lookup(`${defaultRoot}api/intro`);
    expect(atDefault.body).toMatchObject({ site: built.site.id, siteSpace: built.siteSpaces.ref, canonicalUrl: `${defaultRoot}api/intro` });
  });

  it('takes effect once the TXT record holds the token: the hostname is used everywhere', async () => {
    const claim = (await getClaim(host)).body;
    // A record with another value, beside others, proves nothing.
    dns.setTxt(claim.verification.record.name, ['docs-platform-verification=someone-else', 'v=spf1 -all']);
    const wrong = await revalidate(host);
    expect(wrong.body).toMatchObject({ isActive: false, verification: { state: 'pending' } });
    expect(wrong.body.verification.lastError).toBe(
      `The TXT records at ${claim.verification.record.name} do not include "${claim.verification.record.value}".`,
    );

    dns.setTxt(claim.verification.record.name, ['v=spf1 -all', claim.verification.record.value]);
    const client = gitbookClient('0202', t.url, world.admin.token);
    const asked = await client.customHostnames.dnsRevalidateCustomHostname(host);
    expect(asked.status).toBe(204);
    const active = await checked(host);
    expectMatchesSpec('0202', 'get', SPEC_PATH, 200, active.body);
    expect(active.body).toMatchObject({
      isActive: true,
      status: 'dns_passed',
      verification: { state: 'active', verifiedAt: '2026-01-15T10:00:00.000Z', checkQueued: false },
    });
    expect(active.body.verification.lastError).toBeUndefined();

    expect(await publishedUrls(built)).toEqual(urlsAt(built, `https://${host}/`));
    const found = await lookup(`https://${host}/api/intro`);
    expect(found.body).toMatchObject({ site: built.site.id, siteSpace: built.siteSpaces.ref, canonicalUrl: `https://${host}/api/intro` });
  });

  it('is checked again periodically, and lapses when the record is gone; an unanswered query changes nothing', async () => {
    const record = (await getClaim(host)).body.verification.record;
    // Not due before HOSTNAME_RECHECK_MINUTES.
    await scheduleHostnameChecks(t.app.services);
    expect((await getClaim(host)).body.verification.checkQueued).toBe(false);

    // A server failure (SERVFAIL) is no answer: the claim stays active, the error recorded.
    dns.fail(record.name);
    t.clock.advanceMs(RECHECK_MINUTES * 60_000);
    await scheduleHostnameChecks(t.app.services);
    const unanswered = await checked(host);
    expect(unanswered.body).toMatchObject({ isActive: true, verification: { state: 'active', checkedAt: '2026-01-15T11:00:00.000Z' } });
    expect(unanswered.body.verification.lastError).toMatch(/failed \(ESERVFAIL\); the claim stays as it was\.$/);

    dns.remove(record.name);
    t.clock.advanceMs(RECHECK_MINUTES * 60_000);
    await scheduleHostnameChecks(t.app.services);
    const lapsed = await checked(host);
    expect(lapsed.body).toMatchObject({
      isActive: false,
      verification: { state: 'failed', lapsedAt: '2026-01-15T12:00:00.000Z', verifiedAt: '2026-01-15T10:00:00.000Z' },
    });
    expect(lapsed.body.status).toBeUndefined();
    expect(await publishedUrls(built)).toEqual(urlsAt(built, defaultRoot));
    expect((await lookup(`https://${host}/`)).status).toBe(404);

    // A failed claim is checked at every tick: the record back, the claim is active again.
    dns.setTxt(record.name, [record.value]);
    t.clock.advanceMs(60_000);
    await scheduleHostnameChecks(t.app.services);
    expect((await checked(host)).body).toMatchObject({
      isActive: true,
      verification: { state: 'active', lapsedAt: '2026-01-15T12:00:00.000Z' },
    });
    expect((await publishedUrls(built)).site).toBe(`https://${host}/`);
  });

  it('is released by its admins (205, then 204): the site keeps its default URL, and the host is free again', async () => {
    const client = gitbookClient('0202', t.url, world.admin.token);
    const removed = await client.customHostnames.removeCustomHostname(host);
    expect(removed.status).toBe(205);
    const site = await t.request('GET', sitePath(acme, built.site.id), { token: world.admin.token });
    expect(site.body.hostname).toBeUndefined();
    expect(site.body.urls.published).toBe(defaultRoot);
    expect((await getClaim(host)).status).toBe(404);
    expect((await t.request('DELETE', claimPath(host), { token: world.admin.token })).status).toBe(204);
    const released = await t.prisma.auditEvent.findMany({ where: { targetId: built.site.id, action: 'site_hostname_removed' } });
    expect(released.map((event) => [event.actorId, event.payload])).toEqual([
      [world.admin.userId, expect.objectContaining({ hostname: host })],
    ]);

    // Another organization may claim it now; the previous holder's record, still in DNS, does not prove its claim.
    const theirs = await buildSite(t.prisma, { organizationId: other, published: true });
    expect((await patchSite(world.outsider.token, other, theirs.id, { hostname: host })).status).toBe(200);
    const claim = await checked(host, world.outsider.token);
    expect(claim.body).toMatchObject({ isActive: false, target: { type: 'site', site: theirs.id }, verification: { state: 'pending' } });
    expect(claim.body.verification.lastError).toMatch(/do not include/);
  });
});

describe('one claim of a host across the instance', () => {
  let mine: Site;
  let theirs: Site;
  /** A published site of the organization, with a site space. */
  const publishedSite = async (title: string) => {
    const site = await buildSite(t.prisma, { organizationId: acme, title, published: true });
    await buildSiteSpace(t.prisma, site.id, (await buildSpace(t.prisma, { organizationId: acme })).id, 'guide');
    return site;
  };

  beforeAll(async () => {
    mine = await publishedSite('Mine');
    theirs = await buildSite(t.prisma, { organizationId: other, title: 'Theirs', published: true });
    expect((await patchSite(world.admin.token, acme, mine.id, { hostname: 'help.acme.test', proxy: 'www.acme.test/docs' })).status).toBe(
      200,
    );
  });

  it('refuses a hostname another organization claims, as a hostname or as a proxy host (409)', async () => {
    const cases: [object, string][] = [
      [{ hostname: 'help.acme.test' }, 'The hostname "help.acme.test" is already used by another site.'],
      [{ hostname: 'www.acme.test' }, 'The hostname "www.acme.test" is already the host of another site\'s proxy.'],
      [{ proxy: 'help.acme.test/docs' }, 'The host "help.acme.test" of the proxy is already a site\'s hostname.'],
      [{ proxy: 'WWW.Acme.test/other' }, 'The host "www.acme.test" of the proxy is already claimed by another organization.'],
    ];
    for (const [body, message] of cases) {
      const res = await patchSite(world.outsider.token, other, theirs.id, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body).toEqual({ error: { code: 409, message } });
    }
    const row = await t.prisma.site.findUniqueOrThrow({ where: { id: theirs.id } });
    expect([row.hostname, row.proxy]).toEqual([null, null]);
    const claims = await t.prisma.hostClaim.findMany({
      where: { host: { in: ['help.acme.test', 'www.acme.test'] } },
      orderBy: { host: 'asc' },
    });
    expect(claims.map((claim) => [claim.host, claim.organizationId, claim.siteId])).toEqual([
      ['help.acme.test', acme, mine.id],
      ['www.acme.test', acme, null],
    ]);
  });

  it('shares a proxy host among the sites of its organization, at other paths, and refuses it as their hostname', async () => {
    const second = await publishedSite('Second');
    const joined = await patchSite(world.admin.token, acme, second.id, { proxy: 'www.acme.test/api' });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body.proxy.origin).toBe('www.acme.test/api');
    const same = await patchSite(world.admin.token, acme, second.id, { proxy: 'www.acme.test/docs' });
    expect(same.status).toBe(409);
    expect(same.body.error.message).toBe('The proxy "www.acme.test/docs" is already used by another site of this organization.');
    expect((await patchSite(world.admin.token, acme, second.id, { hostname: 'www.acme.test' })).status).toBe(409);
    const onOwnHostname = await patchSite(world.admin.token, acme, mine.id, { proxy: 'help.acme.test/docs' });
    expect(onOwnHostname.status).toBe(409);
    expect(onOwnHostname.body.error.message).toBe(
      'The proxy "help.acme.test/docs" is on the site\'s own hostname, which serves that whole host.',
    );

    // One claim for the organization's proxies, whose target is the organization; proven once, for both sites.
    const claim = await checked('www.acme.test');
    expect(claim.body).toMatchObject({
      target: { type: 'organization', organization: acme },
      verification: { kind: 'proxy', state: 'pending' },
    });
    expectMatchesSpec('0202', 'get', SPEC_PATH, 200, claim.body);
    expect((await lookup('https://www.acme.test/api/intro')).status).toBe(404);
    prove(claim.body);
    expect((await revalidate('www.acme.test')).body.isActive).toBe(true);
    expect((await lookup('https://www.acme.test/api/intro')).body).toMatchObject({ site: second.id, siteBasePath: '/api/' });
    expect((await lookup('https://www.acme.test/docs/intro')).body).toMatchObject({ site: mine.id, siteBasePath: '/docs/' });
    const third = await publishedSite('Third');
    const joinedActive = await patchSite(world.admin.token, acme, third.id, { proxy: 'www.acme.test/blog' });
    expect(joinedActive.body.urls.published).toBe('https://www.acme.test/blog/');

    // The claim stays while a site of the organization is on the host, and goes with the last one.
    expect((await t.request('DELETE', sitePath(acme, third.id), { token: world.admin.token })).status).toBe(205);
    expect((await patchSite(world.admin.token, acme, second.id, { proxy: null })).status).toBe(200);
    expect((await getClaim('www.acme.test')).status).toBe(200);
    expect((await patchSite(world.admin.token, acme, mine.id, { proxy: 'docs.example.org/help' })).status).toBe(200);
    expect((await getClaim('www.acme.test')).status).toBe(404);
    expect((await patchSite(world.outsider.token, other, theirs.id, { proxy: 'www.acme.test/theirs' })).status).toBe(200);
  });

  it('does not let another organization take over URLs served behind a proxy', async () => {
    // The organization serves help.example.net/docs behind a proven proxy.
    const served = await publishedSite('Served');
    expect((await patchSite(world.admin.token, acme, served.id, { proxy: 'help.example.net/docs' })).status).toBe(200);
    prove((await checked('help.example.net')).body);
    expect((await revalidate('help.example.net')).body.isActive).toBe(true);
    expect((await lookup('https://help.example.net/docs/start')).body.site).toBe(served.id);

    // Another organization claims the host as its hostname: refused, and the URLs stay the organization's.
    const taker = await buildSite(t.prisma, { organizationId: other, title: 'Taker', published: true });
    await buildSiteSpace(t.prisma, taker.id, (await buildSpace(t.prisma, { organizationId: other })).id, 'guide');
    const taken = await patchSite(world.outsider.token, other, taker.id, { hostname: 'help.example.net' });
    expect(taken.status).toBe(409);
    expect((await lookup('https://help.example.net/docs/start')).body.site).toBe(served.id);
    expect((await lookup('https://help.example.net/')).status).toBe(404);
  });
});

describe('who reaches a claim', () => {
  it('is its organization’s admins only: 404 for its other members, outsiders and unknown hosts; 401 without a token', async () => {
    const site = await buildSite(t.prisma, { organizationId: acme, title: 'Guarded' });
    expect((await patchSite(world.admin.token, acme, site.id, { hostname: 'guarded.acme.test' })).status).toBe(200);
    for (const person of [world.creator, world.reader, world.guest, world.outsider]) {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const res = await t.request(method, claimPath('guarded.acme.test'), { token: person.token });
        expect(res.status, `${method} as ${person.email}`).toBe(404);
        expect(res.body).toEqual({ error: { code: 404, message: 'Custom hostname not found' } });
      }
    }
    expect((await t.request('GET', claimPath('guarded.acme.test'), {})).status).toBe(401);
    expect((await getClaim('Guarded.Acme.TEST')).body.hostname).toBe('guarded.acme.test');
    expect((await getClaim('unclaimed.acme.test')).status).toBe(404);
    expect((await t.request('PATCH', claimPath('unclaimed.acme.test'), { token: world.admin.token })).status).toBe(404);
    expect((await t.request('DELETE', claimPath('unclaimed.acme.test'), { token: world.outsider.token })).status).toBe(204);
    expect(await t.prisma.site.findUniqueOrThrow({ where: { id: site.id } })).toMatchObject({ hostname: 'guarded.acme.test' });
    expect(await t.prisma.auditEvent.count({ where: { targetId: site.id, action: 'site_hostname_removed' } })).toBe(0);

    const graphql = await t.request('POST', '/graphql', {
      token: world.admin.token,
      body: { query: '{ customHostname(hostname: "guarded.acme.test") { hostname isActive verification { state kind } } }' },
    });
    expect(graphql.body.data.customHostname).toEqual({
      hostname: 'guarded.acme.test',
      isActive: false,
      verification: { state: 'pending', kind: 'hostname' },
    });
  });

  it('releases a proxy host with the proxies of the organization’s sites on it', async () => {
    const [first, second] = [
      await buildSite(t.prisma, { organizationId: acme, title: 'First' }),
      await buildSite(t.prisma, { organizationId: acme, title: 'Second' }),
    ];
    expect((await patchSite(world.admin.token, acme, first.id, { proxy: 'shared.acme.test/one' })).status).toBe(200);
    expect((await patchSite(world.admin.token, acme, second.id, { proxy: 'shared.acme.test/two' })).status).toBe(200);
    expect((await t.request('DELETE', claimPath('shared.acme.test'), { token: world.admin.token })).status).toBe(205);
    const rows = await t.prisma.site.findMany({ where: { id: { in: [first.id, second.id] } } });
    expect(rows.map((row) => [row.proxy, row.proxyActive])).toEqual([
      [null, false],
      [null, false],
    ]);
    const released = await t.prisma.auditEvent.findMany({
      where: { targetId: { in: [first.id, second.id] }, action: 'site_updated' },
      orderBy: { targetLabel: 'asc' },
    });
    // Each site's proxy set (by its PATCH), then removed with the claim.
    expect(released.map((event) => [event.targetLabel, (event.payload as any).changed]).filter(([, changed]) => !changed.proxy.to)).toEqual(
      [
        ['First', { proxy: { from: 'shared.acme.test/one', to: null } }],
        ['Second', { proxy: { from: 'shared.acme.test/two', to: null } }],
      ],
    );
  });
});
