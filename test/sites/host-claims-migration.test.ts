// Hostnames and proxies set before proof was required: the claims' migration grandfathers them (active, without
// proof) until their first periodic check, one HOSTNAME_RECHECK_MINUTES after the upgrade; a proxy host that several
// organizations had goes to the organization of the oldest site, and one that was a site's hostname to that hostname.
import { afterAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { newId } from '../../src/kernel/ids.js';
import { scheduleHostnameChecks } from '../../src/sites/proof.js';
import { type TestAppOptions, useUpgradedApi } from '../support/app.js';
import { startDnsServer, type TestDnsServer } from '../support/dns.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesSpec } from '../support/openapi.js';
import { until } from '../support/until.js';
import { buildWorld, type World } from '../support/world.js';

const SITES = 'https://sites.example.com';
const RECHECK_MINUTES = 60;

let dns: TestDnsServer;
let world: World;
/** The sites as they stood before the upgrade, by what they are. */
const sites: Record<'hosted' | 'proxied' | 'sharing' | 'latecomer' | 'underHostname', string> = {
  hosted: '',
  proxied: '',
  sharing: '',
  latecomer: '',
  underHostname: '',
};

// Closed after the service, whose hostname checks ask it: hooks after all run in the reverse order of their declaration.
afterAll(() => dns?.close());
// A database as it stood before claims: the migrations before theirs, and sites with hostnames and proxies.
const { t } = useUpgradedApi('_host_claims', { fill, beforeStart: startDns });

async function fill({ prisma }: Database): Promise<void> {
  world = await buildWorld(prisma);
  const acme = world.organizationId;
  const other = world.outsiderOrganizationId;
  const site = async (organizationId: string, createdAt: string, address: { hostname?: string; proxy?: string }) => {
    const id = newId();
    const space = await buildSpace(prisma, { organizationId });
    await prisma.$executeRaw`
      INSERT INTO "Site" (id, "organizationId", title, hostname, proxy, published, "createdAt", "updatedAt")
      VALUES (${id}, ${organizationId}, 'Before', ${address.hostname ?? null}, ${address.proxy ?? null}, true,
              ${new Date(createdAt)}, ${new Date(createdAt)})`;
    await prisma.$executeRaw`INSERT INTO "SiteSpace" (id, "siteId", "spaceId", path) VALUES (${newId()}, ${id}, ${space.id}, 'guide')`;
    return id;
  };
  sites.hosted = await site(acme, '2025-01-01T00:00:00Z', { hostname: 'old.acme.test' });
  sites.proxied = await site(acme, '2025-01-02T00:00:00Z', { proxy: 'WWW.Acme.test/docs' });
  sites.latecomer = await site(other, '2025-01-03T00:00:00Z', { proxy: 'www.acme.test/theirs' });
  sites.underHostname = await site(other, '2025-01-04T00:00:00Z', { proxy: 'old.acme.test/theirs' });
  sites.sharing = await site(acme, '2025-01-05T00:00:00Z', { proxy: 'www.acme.test/api' });
}

/** The DNS server the service's hostname checks ask. */
async function startDns(): Promise<TestAppOptions> {
  dns = await startDnsServer();
  return { jobs: 1, env: { DNS_SERVERS: dns.address, SITES_URL: SITES, HOSTNAME_RECHECK_MINUTES: String(RECHECK_MINUTES) } };
}

const getClaim = (host: string) => t.request('GET', `/v1/custom-hostnames/${host}`, { token: world.admin.token });
const lookup = async (address: string) =>
  (await t.request('GET', `/v1/urls/published?url=${encodeURIComponent(address)}`, { token: world.reader.token })).body.site ?? null;
const publishedAt = async (siteId: string, org = world.organizationId) => {
  const token = org === world.organizationId ? world.admin.token : world.outsider.token;
  return (await t.request('GET', `/v1/orgs/${org}/sites/${siteId}`, { token })).body.urls.published;
};

it('keeps hostnames and proxies set before as they were, active without proof, one organization per host', async () => {
  const claims = await t.prisma.hostClaim.findMany({ orderBy: { host: 'asc' } });
  expect(claims.map((claim) => [claim.host, claim.kind, claim.organizationId, claim.siteId, claim.state, claim.grandfathered])).toEqual([
    ['old.acme.test', 'hostname', world.organizationId, sites.hosted, 'active', true],
    ['www.acme.test', 'proxy', world.organizationId, null, 'active', true],
  ]);
  expect(new Set(claims.map((claim) => claim.token)).size).toBe(2);

  expect(await publishedAt(sites.hosted)).toBe('https://old.acme.test/');
  expect(await publishedAt(sites.proxied)).toBe('https://www.acme.test/docs/');
  expect(await publishedAt(sites.sharing)).toBe('https://www.acme.test/api/');
  expect(await lookup('https://old.acme.test/intro')).toBe(sites.hosted);
  expect(await lookup('https://www.acme.test/docs/intro')).toBe(sites.proxied);
  expect(await lookup('https://www.acme.test/api/intro')).toBe(sites.sharing);

  // The other organization's proxies on hosts it did not get stay set, without effect.
  const other = world.outsiderOrganizationId;
  expect(await publishedAt(sites.latecomer, other)).toBe(`${SITES}/${other}/${sites.latecomer}/`);
  expect(await publishedAt(sites.underHostname, other)).toBe(`${SITES}/${other}/${sites.underHostname}/`);
  expect(await lookup('https://www.acme.test/theirs/intro')).toBeNull();
  const latecomer = await t.prisma.site.findUniqueOrThrow({ where: { id: sites.latecomer } });
  expect([latecomer.proxy, latecomer.proxyActive]).toEqual(['www.acme.test/theirs', false]);
  // Sent again, or moved on the same host, such a proxy is claimed again, and refused.
  for (const [siteId, proxy] of [
    [sites.latecomer, 'www.acme.test/theirs'],
    [sites.latecomer, 'www.acme.test/elsewhere'],
    [sites.underHostname, 'old.acme.test/theirs'],
  ]) {
    const res = await t.request('PATCH', `/v1/orgs/${other}/sites/${siteId}`, { token: world.outsider.token, body: { proxy } });
    expect(res.status, proxy).toBe(409);
  }

  const read = await getClaim('old.acme.test');
  expectMatchesSpec('0202', 'get', '/custom-hostnames/{hostname}', 200, read.body);
  expect(read.body).toMatchObject({
    isActive: true,
    status: 'dns_passed',
    verification: { state: 'active', grandfathered: true, checkQueued: false, record: { name: '_docs-platform-challenge.old.acme.test' } },
  });
});

it('checks them first one recheck interval after the upgrade: proven, they stay; unproven, they lapse', async () => {
  // Not before: the upgrade counts as their last check.
  await scheduleHostnameChecks(t.app.services);
  expect((await getClaim('old.acme.test')).body.verification.checkQueued).toBe(false);

  const record = (await getClaim('old.acme.test')).body.verification.record;
  dns.setTxt(record.name, [record.value]);
  t.clock.advanceMs(Date.now() - t.clock.now().getTime() + (RECHECK_MINUTES + 1) * 60_000);
  await scheduleHostnameChecks(t.app.services);
  const done = (host: string) =>
    until(
      () => getClaim(host),
      (res) => !res.body.verification.checkQueued,
    );
  expect((await done('old.acme.test')).body).toMatchObject({ isActive: true, verification: { state: 'active', grandfathered: false } });
  expect((await done('www.acme.test')).body).toMatchObject({ isActive: false, verification: { state: 'failed', grandfathered: false } });

  expect(await publishedAt(sites.hosted)).toBe('https://old.acme.test/');
  expect(await publishedAt(sites.proxied)).toBe(`${SITES}/${world.organizationId}/${sites.proxied}/`);
  expect(await lookup('https://www.acme.test/docs/intro')).toBeNull();
});
