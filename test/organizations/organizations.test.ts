// Organizations: GET /v1/orgs, GET and PATCH /v1/orgs/{id}, GET /v1/email-domains/{domain}/orgs.
import { beforeAll, describe, expect, it } from 'vitest';
import { revokeToken } from '../../src/admin/commands.js';
import { type Person, useApi, walk } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildOrganization, buildUser } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let alice: Person; // admin of acme and of two more organizations, "Second" and "Third"
let eve: Person; // editor in acme
let bob: Person; // admin of another organization only
let acme: string;
let other: string;

beforeAll(async () => {
  ({ admin: alice, editor: eve, outsider: bob } = world);
  acme = world.organizationId;
  other = world.outsiderOrganizationId;
  await buildOrganization(t.prisma, { title: 'Third', owner: alice });
});

describe('GET /v1/orgs', () => {
  it('lists the organizations of the caller through the official client, matching the published spec', async () => {
    const api = gitbookClient('0202', t.url, alice.token);
    const { data, status } = await api.orgs.listOrganizationsForAuthenticatedUser();
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'get', '/orgs', 200, data);
    expect(data.count).toBe(3);
    expect(data.items.map((o: { title: string }) => o.title).sort()).toEqual(['Acme', 'Second', 'Third']);
    expect(data.next).toBeUndefined();
  });

  it('walks every organization exactly once, one per page', async () => {
    const { items, pages } = await walk<{ id: string }>(t, '/v1/orgs?limit=1', {
      token: alice.token,
      eachPage: (page) => expect(page.body.count).toBe(3),
    });
    const seen = items.map((o) => o.id);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
  });

  it('runs the same number of SQL statements for limit 1 and limit 1000', async () => {
    const one = await t.counted('GET', '/v1/orgs?limit=1', { token: alice.token });
    const all = await t.counted('GET', '/v1/orgs?limit=1000', { token: alice.token });
    expect(one.body.items).toHaveLength(1);
    expect(all.body.items).toHaveLength(3);
    expect(all.statements).toBe(one.statements);
  });

  it('refuses a page token of another list (400) and a tampered one (400)', async () => {
    const first = await t.request('GET', '/v1/orgs?limit=1', { token: alice.token });
    const token = first.body.next.page as string;
    const foreign = await t.request('GET', `/v1/orgs?limit=1&page=${token}`, { token: eve.token });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toMatch(/page/);
    const tampered = `${token.slice(0, -2)}${token.endsWith('A') ? 'BB' : 'AA'}`;
    const bad = await t.request('GET', `/v1/orgs?limit=1&page=${tampered}`, { token: alice.token });
    expect(bad.status).toBe(400);
  });

  it.each(['-1', '1001', '2.5', 'many'])('rejects limit=%s with 400', async (limit) => {
    const res = await t.request('GET', `/v1/orgs?limit=${limit}`, { token: alice.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining('limit') } });
  });

  it('requires a valid token: missing, unknown and revoked tokens get 401', async () => {
    expect((await t.request('GET', '/v1/orgs')).status).toBe(401);
    expect((await t.request('GET', '/v1/orgs', { token: 'dpa_unknown' })).status).toBe(401);
    const carol = await buildUser(t.prisma, { displayName: 'Carol' });
    expect((await t.request('GET', '/v1/orgs', { token: carol.token })).status).toBe(200);
    await revokeToken(t.prisma, { id: carol.tokenId });
    const res = await t.request('GET', '/v1/orgs', { token: carol.token });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe(401);
  });
});

describe('GET /v1/orgs/{organizationId}', () => {
  it('returns the organization with the caller permissions, matching the published spec', async () => {
    const api = gitbookClient('0202', t.url, eve.token);
    const { data } = await api.orgs.getOrganizationById(acme);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}', 200, data);
    expect(data).toMatchObject({ object: 'organization', id: acme, title: 'Acme' });
    expect(data.permissions).toMatchObject({ view: true, admin: false, createContent: false, listMembers: true });
    expect(data.urls.location).toBe(`${t.url}/v1/orgs/${acme}`);
  });

  it('answers 404 for an organization of which the caller is not a member, as for an unknown one', async () => {
    const foreign = await t.request('GET', `/v1/orgs/${other}`, { token: alice.token });
    const unknown = await t.request('GET', '/v1/orgs/doesNotExist123', { token: alice.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}', 404, foreign.body);
  });
});

describe('PATCH /v1/orgs/{organizationId}', () => {
  it('lets an admin update it, matching the published spec', async () => {
    const api = gitbookClient('0202', t.url, alice.token);
    const { data } = await api.orgs.updateOrganizationById(acme, {
      title: 'Acme Inc',
      emailDomains: ['Acme.example.com'],
      hostname: 'acme-docs',
      defaultRole: null,
      inviteLinks: false,
    });
    expectMatchesSpec('0202', 'patch', '/orgs/{organizationId}', 200, data);
    expect(data).toMatchObject({
      title: 'Acme Inc',
      emailDomains: ['acme.example.com'],
      hostname: 'acme-docs',
      defaultRole: null,
      inviteLinks: false,
    });
    const again = await t.request('GET', `/v1/orgs/${acme}`, { token: alice.token });
    expect(again.body.title).toBe('Acme Inc');
    expect(await eventsOf(t.prisma, { organizationId: acme }, 'organization_updated')).toMatchObject([
      {
        actorId: alice.userId,
        source: 'api',
        targetType: 'organization',
        targetId: acme,
        targetLabel: 'Acme Inc',
        payload: {
          changed: {
            title: { from: 'Acme', to: 'Acme Inc' },
            emailDomains: { from: [], to: ['acme.example.com'] },
            hostname: { from: null, to: 'acme-docs' },
            defaultRole: { from: 'read', to: null },
            inviteLinks: { from: true, to: false },
          },
        },
      },
    ]);
    // Merge rules keep their change; the same settings again record nothing.
    t.clock.advanceMs(1);
    const rules = { type: 'rules', rules: [{ rule: 'require_change_request_subject' }] };
    await t.request('PATCH', `/v1/orgs/${acme}`, { token: alice.token, body: { mergeRules: rules, inviteLinks: false } });
    await t.request('PATCH', `/v1/orgs/${acme}`, { token: alice.token, body: { mergeRules: rules } });
    const events = await eventsOf(t.prisma, { organizationId: acme }, 'organization_updated');
    expect(events).toHaveLength(2);
    expect(events[1].payload).toMatchObject({ changed: { mergeRules: { from: { type: 'none' }, to: rules } } });
    expect(Object.keys((events[1].payload as { changed: object }).changed)).toEqual(['mergeRules']);
  });

  it('is forbidden (403) to a member who is not an admin, and not found (404) to a non-member', async () => {
    expect((await t.request('PATCH', `/v1/orgs/${acme}`, { token: eve.token, body: { title: 'Mine' } })).status).toBe(403);
    expect((await t.request('PATCH', `/v1/orgs/${acme}`, { token: bob.token, body: { title: 'Mine' } })).status).toBe(404);
    const res = await t.request('GET', `/v1/orgs/${acme}`, { token: alice.token });
    expect(res.body.title).toBe('Acme Inc');
    expect(await eventsOf(t.prisma, { organizationId: acme }, 'organization_updated')).toHaveLength(2);
  });

  it.each([
    ['title of 1 character', { title: 'A' }],
    ['title of 256 characters', { title: 'x'.repeat(256) }],
    ['hostname of 2 characters', { hostname: 'ab' }],
    ['hostname of 33 characters', { hostname: 'a'.repeat(33) }],
    ['hostname with upper case and underscore', { hostname: 'Not_Valid' }],
    ['logo of 2049 characters', { logo: `https://example.com/${'l'.repeat(2029)}` }],
    ['logo that is not a URI', { logo: 'not a uri' }],
    ['defaultRole that is not a role', { defaultRole: 'owner' }],
    ['emailDomains with a non-domain', { emailDomains: ['not a domain'] }],
    ['defaultContent naming no site', { defaultContent: { type: 'site', site: 'noSuchSite' } }],
  ])('rejects a %s with a 400 naming the field', async (_case, body) => {
    const res = await t.request('PATCH', `/v1/orgs/${acme}`, { token: alice.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(400);
    expect(res.body.error.message).toContain(Object.keys(body)[0]);
  });

  it('refuses a hostname already used by another organization with 409', async () => {
    const res = await t.request('PATCH', `/v1/orgs/${other}`, { token: bob.token, body: { hostname: 'acme-docs' } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe(409);
    expect(await eventsOf(t.prisma, { organizationId: other }, 'organization_updated')).toEqual([]);
  });

  it('refuses bodies that are not JSON (415) or not valid JSON (400)', async () => {
    const text = await t.request('PATCH', `/v1/orgs/${acme}`, {
      token: alice.token,
      body: 'title=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    const broken = await t.request('PATCH', `/v1/orgs/${acme}`, { token: alice.token, body: '{"title": ' });
    expect(broken.status).toBe(400);
    expect(broken.body.error.message).toMatch(/JSON/);
  });
});

describe('GET /v1/email-domains/{emailDomain}/orgs', () => {
  it('returns the organizations claiming the domain that the caller belongs to', async () => {
    const res = await t.request('GET', '/v1/email-domains/acme.example.com/orgs', { token: eve.token });
    expect(res.status).toBe(200);
    expectMatchesSpec('0202', 'get', '/email-domains/{emailDomain}/orgs', 200, res.body);
    expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([acme]);
  });

  it('does not reveal them to a caller outside the organization with another e-mail domain', async () => {
    const res = await t.request('GET', '/v1/email-domains/acme.example.com/orgs', { token: bob.token });
    expect(res.body).toEqual({ organizations: [] });
  });
});
