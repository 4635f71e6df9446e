// Publishing auth (visitor authentication) of a site: read (created with a fresh key on first read), updated (backend,
// URLs, integration), and its key regenerated, after which tokens signed with the old key are refused at once; the key
// stored sealed, shown to the site's admins only and never logged; through GitBook's 0.202.0 client and spec. The
// visitor tokens it checks: for the site (`aud`), expiring (`exp`) within VISITOR_TOKEN_MAX_HOURS.
import { Writable } from 'node:stream';
import { SignJWT } from 'jose';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SitePublishingAuthUpdate } from '../../node_modules/gitbook-api-0202/dist/client.js';
import type { Site } from '../../src/generated/prisma/client.js';
import type { Context } from '../../src/kernel/context.js';
import { newId } from '../../src/kernel/ids.js';
import { unseal } from '../../src/kernel/sealed.js';
import { privateKeySealedFor } from '../../src/publishing-auth/service.js';
import { verifyVisitorToken } from '../../src/publishing-auth/visitors.js';
import { buildSite, buildSiteSpace } from '../site-redirects/fixtures.js';
import { useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesDocument, expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const AUTH = '/orgs/{organizationId}/sites/{siteId}/publishing/auth';
/** VISITOR_TOKEN_MAX_HOURS of this file's service: not the default, so that the setting is seen to apply. */
const MAX_HOURS = 6;

/** Every log line the service writes, as text. */
const logs: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logs.push(String(chunk));
    done();
  },
});
const { t, world } = useApi({
  world: true,
  logger: pino({ level: 'trace' }, sink),
  env: { VISITOR_TOKEN_MAX_HOURS: String(MAX_HOURS) },
});
let acme: string;
let ctx: Context;
let foreignSite: Site;

beforeAll(async () => {
  acme = world.organizationId;
  ctx = t.app.services as Context;
  foreignSite = await buildSite(t.prisma, { organizationId: world.secondOrganizationId, visibility: 'visitor_auth' });
});

const auth = (siteId: string, org = acme) => `/v1/orgs/${org}/sites/${siteId}/publishing/auth`;
const newSite = () => buildSite(t.prisma, { organizationId: acme, visibility: 'visitor_auth' });
/** Seconds since the epoch, by the service's (test) clock. */
/** The events recorded about the site's visitor authentication (src/kernel/events.ts). */
const eventsOf = (siteId: string) =>
  t.prisma.auditEvent.findMany({ where: { targetId: siteId, action: { startsWith: 'publishing_auth_' } } });
const epoch = () => Math.floor(t.clock.now().getTime() / 1000);
/**
 * A visitor token signed (HS256) with `key`: for the site `aud`, issued now and valid an hour, unless `claims` say
 * otherwise (a claim given as undefined is left out).
 */
function sign(key: string, aud: unknown, claims: Record<string, unknown> = {}) {
  const all = { sub: 'visitor-1', aud, iat: epoch(), exp: epoch() + 3600, ...claims };
  const payload = Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(key));
}

/** An integration of the organization, installed on all its sites or on the ones given. */
async function installIntegration(name: string, sites: 'all' | string[]) {
  const integration = await t.prisma.integration.create({
    data: { id: newId(), name, ownerOrganizationId: acme, title: name, description: name, script: '' },
  });
  const installation = await t.prisma.integrationInstallation.create({
    data: { id: newId(), integrationId: integration.id, organizationId: acme, siteSelection: sites === 'all' ? 'all' : 'selected' },
  });
  if (sites !== 'all') {
    await t.prisma.installationSite.createMany({ data: sites.map((siteId) => ({ installationId: installation.id, siteId })) });
  }
}

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth', () => {
  it('creates the settings on first read with a fresh random key, stored sealed, and answers the same key after', async () => {
    const site = await newSite();
    const client = gitbookClient('0202', t.url, world.admin.token);
    const { data, status } = await client.orgs.getSitePublishingAuthById(acme, site.id);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'get', AUTH, 200, data);
    expect(data).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: expect.stringMatching(/^[\w-]{43}$/) });
    const row = await t.prisma.publishingAuth.findUniqueOrThrow({ where: { siteId: site.id } });
    expect(row.privateKeyCiphertext).not.toContain(data.privateKey);
    expect(unseal(ctx.secret, privateKeySealedFor(row.siteId), row.privateKeyCiphertext)).toBe(data.privateKey);

    expect((await client.orgs.getSitePublishingAuthById(acme, site.id)).data.privateKey).toBe(data.privateKey);
    expect(await t.prisma.publishingAuth.count({ where: { siteId: site.id } })).toBe(1);
    const another = await client.orgs.getSitePublishingAuthById(acme, (await newSite()).id);
    expect(another.data.privateKey).not.toBe(data.privateKey);
  });

  it('shows the key to the site’s admins only: 403 for other members, 404 for guests, outsiders and other organizations', async () => {
    const site = await newSite();
    for (const member of [world.creator, world.editor, world.reader]) {
      const res = await t.request('GET', auth(site.id), { token: member.token });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe('You do not have the "admin" permission on this site.');
    }
    for (const person of [world.guest, world.outsider])
      expect((await t.request('GET', auth(site.id), { token: person.token })).status).toBe(404);
    expect((await t.request('GET', auth(site.id))).status).toBe(401);
    expect((await t.request('GET', auth(foreignSite.id), { token: world.admin.token })).status).toBe(404);
    // Refusals create nothing.
    expect(await t.prisma.publishingAuth.count({ where: { siteId: { in: [site.id, foreignSite.id] } } })).toBe(0);
  });
});

describe('PATCH /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth', () => {
  const update = (siteId: string, body: unknown, token = world.admin.token) => t.request('PATCH', auth(siteId), { token, body });

  it('sets the backend and URLs through the official client; null unsets a URL, absence keeps it; the key stays', async () => {
    const site = await newSite();
    const client = gitbookClient('0202', t.url, world.admin.token);
    const { data, status } = await client.orgs.updateSitePublishingAuthById(acme, site.id, {
      backend: 'custom',
      fallbackURL: 'https://login.acme.example.com/fallback',
      logoutURL: 'https://login.acme.example.com/logout',
    } as SitePublishingAuthUpdate);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'patch', AUTH, 200, data);
    expect(data).toEqual({
      object: 'publishing-auth',
      backend: 'custom',
      privateKey: expect.stringMatching(/^[\w-]{43}$/),
      fallbackURL: 'https://login.acme.example.com/fallback',
      logoutURL: 'https://login.acme.example.com/logout',
    });
    const kept = await client.orgs.updateSitePublishingAuthById(acme, site.id, {
      backend: 'custom',
      logoutURL: null,
    } as SitePublishingAuthUpdate);
    expectMatchesSpec('0202', 'patch', AUTH, 200, kept.data);
    expect(kept.data).toEqual({
      object: 'publishing-auth',
      backend: 'custom',
      privateKey: data.privateKey,
      fallbackURL: 'https://login.acme.example.com/fallback',
    });
    expect((await client.orgs.getSitePublishingAuthById(acme, site.id)).data).toEqual(kept.data);
    // The same settings again change nothing, and record nothing.
    await client.orgs.updateSitePublishingAuthById(acme, site.id, { backend: 'custom' } as SitePublishingAuthUpdate);

    const events = await eventsOf(site.id);
    expect(events).toHaveLength(2);
    expect(events.map((event) => [event.action, event.actorId, (event.payload as any).changed])).toEqual(
      expect.arrayContaining([
        [
          'publishing_auth_updated',
          world.admin.userId,
          {
            fallbackURL: { from: null, to: 'https://login.acme.example.com/fallback' },
            logoutURL: { from: null, to: 'https://login.acme.example.com/logout' },
          },
        ],
        ['publishing_auth_updated', world.admin.userId, { logoutURL: { from: 'https://login.acme.example.com/logout', to: null } }],
      ]),
    );
    expect(JSON.stringify(events)).not.toContain(data.privateKey);
  });

  it('names an integration installed on the site for the integration backend only; the custom backend clears it', async () => {
    const site = await newSite();
    const elsewhere = await newSite();
    await installIntegration('auth0-acme', [site.id]);
    await installIntegration('okta-acme', [elsewhere.id]);
    await installIntegration('everywhere', 'all');
    const set = await update(site.id, { backend: 'integration', integration: 'auth0-acme' });
    expect(set.status).toBe(200);
    expectMatchesSpec('0202', 'patch', AUTH, 200, set.body);
    expect(set.body).toMatchObject({ backend: 'integration', integration: 'auth0-acme' });
    expect((await update(site.id, { backend: 'integration' })).body).toMatchObject({ backend: 'integration', integration: 'auth0-acme' });
    expect((await update(site.id, { backend: 'integration', integration: 'everywhere' })).body.integration).toBe('everywhere');

    const refused: [unknown, string][] = [
      [{ backend: 'custom', integration: 'auth0-acme' }, 'Invalid "integration": only the "integration" backend takes one.'],
      [
        { backend: 'integration', integration: 'okta-acme' },
        'Invalid "integration": no integration "okta-acme" is installed on this site.',
      ],
      [{ backend: 'integration', integration: 'unknown' }, 'Invalid "integration": no integration "unknown" is installed on this site.'],
    ];
    for (const [body, message] of refused) {
      const res = await update(site.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const custom = await update(site.id, { backend: 'custom' });
    expect(custom.body).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: expect.any(String) });
    expect(await t.prisma.publishingAuth.findUniqueOrThrow({ where: { siteId: site.id } })).toMatchObject({ integration: null });
  });

  it('creates the settings, with a key, when the first call is an update', async () => {
    const site = await newSite();
    const res = await update(site.id, { backend: 'custom', fallbackURL: 'http://intranet.example.com/' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ backend: 'custom', fallbackURL: 'http://intranet.example.com/' });
    const row = await t.prisma.publishingAuth.findUniqueOrThrow({ where: { siteId: site.id } });
    expect(unseal(ctx.secret, privateKeySealedFor(row.siteId), row.privateKeyCiphertext)).toBe(res.body.privateKey);
  });

  it('enforces every limit with a 400 naming the field, and is for the site’s admins', async () => {
    const site = await newSite();
    const refused: [unknown, string][] = [
      [{}, 'backend'],
      [{ fallbackURL: 'https://example.com/' }, 'backend'],
      [{ backend: 'saml' }, 'backend'],
      [{ backend: null }, 'backend'],
      [{ backend: 'custom', fallbackURL: 'example.com/login' }, 'fallbackURL'],
      [{ backend: 'custom', fallbackURL: 'ftp://example.com/login' }, 'fallbackURL'],
      [{ backend: 'custom', fallbackURL: `https://example.com/${'x'.repeat(2029)}` }, 'fallbackURL'],
      [{ backend: 'custom', logoutURL: 'javascript:alert(1)' }, 'logoutURL'],
      [{ backend: 'custom', logoutURL: 42 }, 'logoutURL'],
      [{ backend: 'integration', integration: 'has space' }, 'integration'],
      [{ backend: 'integration', integration: 'x'.repeat(101) }, 'integration'],
    ];
    for (const [body, field] of refused) {
      const res = await update(site.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^Invalid "${field}"`));
    }
    expect((await update(site.id, { backend: 'custom', fallbackURL: `https://example.com/${'x'.repeat(2028)}` })).status).toBe(200);
    for (const member of [world.creator, world.editor])
      expect((await update(site.id, { backend: 'custom' }, member.token)).status).toBe(403);
    for (const person of [world.guest, world.outsider])
      expect((await update(site.id, { backend: 'custom' }, person.token)).status).toBe(404);
    expect((await t.request('PATCH', auth(site.id), { body: { backend: 'custom' } })).status).toBe(401);
    expect((await update(foreignSite.id, { backend: 'custom' })).status).toBe(404);
    // The one change let through is the one event.
    expect((await eventsOf(site.id)).map((event) => Object.keys((event.payload as any).changed))).toEqual([['fallbackURL']]);
    expect(await eventsOf(foreignSite.id)).toEqual([]);
  });
});

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate', () => {
  it('replaces the key through the official client: tokens signed with the old key are refused at once', async () => {
    const site = await newSite();
    const client = gitbookClient('0202', t.url, world.admin.token);
    const before = (await client.orgs.getSitePublishingAuthById(acme, site.id)).data;
    const oldToken = await sign(before.privateKey, site.id);
    expect(await verifyVisitorToken(ctx, site.id, oldToken)).toMatchObject({ ok: true, claims: { sub: 'visitor-1' } });
    // Another site's key does not open this one.
    const otherKey = (await client.orgs.getSitePublishingAuthById(acme, (await newSite()).id)).data.privateKey;
    expect(await verifyVisitorToken(ctx, site.id, await sign(otherKey, site.id))).toMatchObject({ ok: false });

    const { data, status } = await client.orgs.regenerateSitePublishingAuthById(acme, site.id);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'post', `${AUTH}/regenerate`, 200, data);
    expect(data.privateKey).toMatch(/^[\w-]{43}$/);
    expect(data.privateKey).not.toBe(before.privateKey);
    expect(await verifyVisitorToken(ctx, site.id, oldToken)).toEqual({
      ok: false,
      reason: 'The visitor token is not valid for this site.',
    });
    expect(await verifyVisitorToken(ctx, site.id, await sign(data.privateKey, site.id))).toMatchObject({ ok: true });
    expect((await client.orgs.getSitePublishingAuthById(acme, site.id)).data.privateKey).toBe(data.privateKey);
    // The first read's creation of the settings is no change; the regeneration is, and carries neither key.
    const events = await eventsOf(site.id);
    expect(events.map((event) => [event.action, event.organizationId, event.targetType, event.actorId])).toEqual([
      ['publishing_auth_key_regenerated', acme, 'site', world.admin.userId],
    ]);
    for (const key of [before.privateKey, data.privateKey]) expect(JSON.stringify(events)).not.toContain(key);
    const row = await t.prisma.publishingAuth.findUniqueOrThrow({ where: { siteId: site.id } });
    expect(JSON.stringify(events)).not.toContain(row.privateKeyCiphertext);
  });

  it('keeps the other settings, creates them when missing, and is for the site’s admins', async () => {
    const site = await newSite();
    await t.request('PATCH', auth(site.id), {
      token: world.admin.token,
      body: { backend: 'custom', fallbackURL: 'https://example.com/in' },
    });
    const res = await t.request('POST', `${auth(site.id)}/regenerate`, { token: world.admin.token });
    expect(res.body).toMatchObject({ backend: 'custom', fallbackURL: 'https://example.com/in' });
    const fresh = await newSite();
    const created = await t.request('POST', `${auth(fresh.id)}/regenerate`, { token: world.admin.token });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: expect.any(String) });

    const path = `${auth(site.id)}/regenerate`;
    for (const member of [world.creator, world.editor]) expect((await t.request('POST', path, { token: member.token })).status).toBe(403);
    for (const person of [world.guest, world.outsider]) expect((await t.request('POST', path, { token: person.token })).status).toBe(404);
    expect((await t.request('POST', path)).status).toBe(401);
    expect((await t.request('POST', `${auth(foreignSite.id)}/regenerate`, { token: world.admin.token })).status).toBe(404);
    expect((await t.request('GET', auth(site.id), { token: world.admin.token })).body.privateKey).toBe(res.body.privateKey);
    expect((await eventsOf(site.id)).map((event) => event.action).sort()).toEqual([
      'publishing_auth_key_regenerated',
      'publishing_auth_updated',
    ]);
  });
});

describe('visitor tokens, checked by GET /v1/urls/published', () => {
  const HOUR = 3600;
  let site: Site;
  let key: string;
  let url: string;
  beforeAll(async () => {
    site = await buildSite(t.prisma, { organizationId: acme, visibility: 'visitor_auth', published: true });
    await buildSiteSpace(t.prisma, site.id, (await buildSpace(t.prisma, { organizationId: acme })).id, 'guide');
    const auth = await t.request('PATCH', `/v1/orgs/${acme}/sites/${site.id}/publishing/auth`, {
      token: world.admin.token,
      body: { backend: 'custom', fallbackURL: 'https://login.acme.example/' },
    });
    key = auth.body.privateKey;
    url = `${ctx.config.sitesUrl}/${acme}/${site.id}/`;
  });
  const lookup = (token: string | undefined, redirectOnError = false) =>
    t.request(
      'GET',
      `/v1/urls/published?url=${encodeURIComponent(url)}${token ? `&visitorAuthToken=${token}` : ''}${redirectOnError ? '&redirectOnError=true' : ''}`,
      { token: world.outsider.token },
    );
  /** The refusal of a token: a 401 naming why, and with redirectOnError the redirect to the fallback URL instead. */
  const refusal = async (token: string) => {
    const res = await lookup(token);
    expect(res.status).toBe(401);
    expectMatchesDocument('ours', 'get', '/urls/published', 401, res.body);
    const redirected = await lookup(token, true);
    expect(redirected.status).toBe(200);
    expectMatchesSpec('0202', 'get', '/urls/published', 200, redirected.body);
    expect(redirected.body).toEqual({ target: 'external', site: site.id, redirect: 'https://login.acme.example/' });
    return res.body.error.message as string;
  };
  const accepted = async (token: string) => {
    const res = await lookup(token);
    expect(res.status).toBe(200);
    // Ours: GitBook's spec requires an `apiToken`, which this service issues to no visitor.
    expectMatchesDocument('ours', 'get', '/urls/published', 200, res.body);
    expect(res.body).toMatchObject({ site: site.id, organization: acme });
  };

  it('accepts a token for the site (its id as `aud`, alone or among others) that expires within the cap', async () => {
    await accepted(await sign(key, site.id));
    await accepted(await sign(key, ['another-audience', site.id]));
    // Exactly the cap, from `iat`, or from now without one.
    await accepted(await sign(key, site.id, { exp: epoch() + MAX_HOURS * HOUR }));
    await accepted(await sign(key, site.id, { iat: epoch() - 2 * HOUR, exp: epoch() + (MAX_HOURS - 2) * HOUR }));
    await accepted(await sign(key, site.id, { iat: undefined, exp: epoch() + MAX_HOURS * HOUR }));
  });

  it('refuses a token without `exp`', async () => {
    expect(await refusal(await sign(key, site.id, { exp: undefined }))).toBe(
      `The visitor token has no expiry: sign it with an "exp" at most ${MAX_HOURS} hours after its "iat".`,
    );
    expect(await refusal(await sign(key, site.id, { exp: undefined, iat: undefined }))).toMatch(/no expiry/);
  });

  it('refuses a token that lives longer than VISITOR_TOKEN_MAX_HOURS, or claims to be issued in the future', async () => {
    const tooLong = `The visitor token lives too long: its "exp" must be at most ${MAX_HOURS} hours after its "iat" (or now).`;
    expect(await refusal(await sign(key, site.id, { exp: epoch() + MAX_HOURS * HOUR + 1 }))).toBe(tooLong);
    // Issued long ago for a long life: refused although little of it is left.
    expect(await refusal(await sign(key, site.id, { iat: epoch() - 30 * 24 * HOUR, exp: epoch() + HOUR }))).toBe(tooLong);
    expect(await refusal(await sign(key, site.id, { iat: undefined, exp: epoch() + MAX_HOURS * HOUR + 60 }))).toBe(tooLong);
    // An `iat` ahead would stretch the life from now past the cap.
    expect(await refusal(await sign(key, site.id, { iat: epoch() + 10 * HOUR, exp: epoch() + 11 * HOUR }))).toBe(
      'The visitor token is not valid yet ("iat").',
    );
    expect(await refusal(await sign(key, site.id, { nbf: epoch() + 2 * HOUR, exp: epoch() + 3 * HOUR }))).toBe(
      'The visitor token is not valid yet ("nbf").',
    );
  });

  it('refuses a token for another audience, or for none', async () => {
    const notForSite = 'The visitor token is not for this site: its "aud" must be the site’s id.';
    const other = await newSite();
    expect(await refusal(await sign(key, other.id))).toBe(notForSite);
    // The published URL is not the audience: it changes with the site's hostname or basename.
    expect(await refusal(await sign(key, url))).toBe(notForSite);
    expect(await refusal(await sign(key, undefined))).toBe(notForSite);
    expect(await refusal(await sign(key, [other.id]))).toBe(notForSite);
  });

  it('refuses a token once it has expired, beyond a minute of clock skew', async () => {
    const token = await sign(key, site.id, { exp: epoch() + HOUR });
    await accepted(token);
    t.clock.advanceMs(HOUR * 1000 + 30_000);
    await accepted(token);
    t.clock.advanceMs(31_000);
    expect(await refusal(token)).toBe('The visitor token has expired.');
  });
});

describe('the private key and the logs', () => {
  it('never appears in what the service logs, whatever the route that shows it', async () => {
    const site = await newSite();
    const keys = [
      (await t.request('GET', auth(site.id), { token: world.admin.token })).body.privateKey,
      (await t.request('PATCH', auth(site.id), { token: world.admin.token, body: { backend: 'custom' } })).body.privateKey,
      (await t.request('POST', `${auth(site.id)}/regenerate`, { token: world.admin.token })).body.privateKey,
    ];
    expect(keys.every((key) => typeof key === 'string' && key.length === 43)).toBe(true);
    const text = logs.join('');
    // The requests were logged, the keys were not.
    expect(text).toContain(`/sites/${site.id}/publishing/auth/regenerate`);
    for (const key of keys) expect(text).not.toContain(key);
  });
});
