// SAML providers: create, list (pages), get, update, delete through GitBook's client, against its spec; the limits;
// status; who may do what; and the sign-in choices any member sees.

import { beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../node_modules/gitbook-api-0202/dist/client.js';
import { MAX_PROVIDERS } from '../../src/sso/service.js';
import { useApi, walk } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildMember, buildOrganization } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient, specVersions } from '../support/openapi.js';
import { createIdentityProvider, type IdentityProvider } from './identity-provider.js';

const { t, world } = useApi({ world: true });
let acme: string;
let idp: IdentityProvider;
let team: string;

beforeAll(async () => {
  acme = world.organizationId;
  idp = await createIdentityProvider();
  team = (await t.prisma.team.create({ data: { id: 'ssoTeam0000000000001', organizationId: acme, title: 'Engineering' } })).id;
});

const path = (org: string, rest = '') => `/v1/orgs/${org}/saml${rest}`;
const create = (token: string, body: unknown, org = acme) => t.request('POST', path(org), { token, body });
/** The certificate's base64 DER, without PEM armour or line breaks. */
const bareBase64 = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');

describe('POST /v1/orgs/{organizationId}/saml', () => {
  it('creates an active provider through the official client, matching the spec, with a Location and the service URLs', async () => {
    const api = gitbookClient('0202', t.url, world.admin.token);
    const { data, status, headers } = await api.orgs.createOrganizationSamlProvider(acme, {
      label: 'Okta',
      entityID: idp.entityID,
      certificate: idp.certificate,
      ssoURL: idp.ssoURL,
      defaultTeam: team,
      defaultRole: 'edit' as MemberRole,
    });
    expect(status).toBe(201);
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/saml', 201, data);
    const entityID = `${t.url}/sso/saml/${data.id}`;
    expect(data).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      entityID: idp.entityID,
      certificate: idp.certificate.trim(),
      ssoURL: idp.ssoURL,
      defaultRole: 'edit' as MemberRole,
      status: 'active',
      defaultTeam: { object: 'team', id: team, title: 'Engineering', members: 0 },
      service: { entityID, acsURL: `${entityID}/acs`, startURL: `${entityID}/start` },
      urls: { location: `${t.url}${path(acme, `/${data.id}`)}` },
    });
    expect(headers.get('location')).toBe(data.urls.location);
    // Its settings, the certificate as its fingerprint.
    const [event] = await eventsOf(t.prisma, { targetId: data.id });
    expect(event).toMatchObject({
      action: 'saml_provider_created',
      organizationId: acme,
      actorId: world.admin.userId,
      targetType: 'saml-provider',
      targetLabel: 'Okta',
      payload: { entityID: idp.entityID, ssoURL: idp.ssoURL, defaultTeamId: team, defaultRole: 'edit', status: 'active' },
    });
    expect((event.payload as { certificate: string }).certificate).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(event.payload)).not.toContain(bareBase64(idp.certificate).slice(0, 40));
  });

  it('creates a pending provider from a label alone: unset IdP fields, the default role read, no team', async () => {
    const res = await create(world.admin.token, { label: 'Later' });
    expect(res.status).toBe(201);
    for (const version of specVersions) expectMatchesSpec(version, 'post', '/orgs/{organizationId}/saml', 201, res.body);
    expect(res.body).toMatchObject({ status: 'pending', entityID: '', certificate: '', ssoURL: 'about:blank', defaultRole: 'read' });
    expect(res.body).not.toHaveProperty('defaultTeam');
    const guests = await create(world.admin.token, { label: 'Guests', defaultRole: null });
    expect(guests.body.defaultRole).toBeNull();
  });

  it('answers pending providers in every read in the shape of every published version: strings, a URI for ssoURL', async () => {
    const { organization, owner } = await buildOrganization(t.prisma);
    const org = organization.id;
    const pending = (await create(owner.token, { label: 'Pending', entityID: idp.entityID }, org)).body;
    await create(owner.token, { label: 'Active', entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL }, org);
    const { data } = await gitbookClient('0202', t.url, owner.token).orgs.listSamlProvidersInOrganizationById(org);
    const one = (await t.request('GET', path(org, `/${pending.id}`), { token: owner.token })).body;
    for (const version of specVersions) {
      expectMatchesSpec(version, 'get', '/orgs/{organizationId}/saml', 200, data);
      expectMatchesSpec(version, 'get', '/orgs/{organizationId}/saml/{samlProviderId}', 200, one);
    }
    expect(
      data.items.map(({ label, status, entityID, certificate, ssoURL }) => ({ label, status, entityID, certificate, ssoURL })),
    ).toEqual([
      { label: 'Pending', status: 'pending', entityID: idp.entityID, certificate: '', ssoURL: 'about:blank' },
      { label: 'Active', status: 'active', entityID: idp.entityID, certificate: idp.certificate.trim(), ssoURL: idp.ssoURL },
    ]);
    const graphql = await t.request('POST', '/graphql', {
      token: owner.token,
      body: {
        query: 'query ($id: ID!) { organization(id: $id) { samlProviders { items { ssoURL entityID certificate } } } }',
        variables: { id: org },
      },
    });
    expect(graphql.body.data.organization.samlProviders.items[0]).toEqual({
      ssoURL: 'about:blank',
      entityID: idp.entityID,
      certificate: '',
    });
    // Sent back as read, a pending provider stays as it was: the placeholders mean "not set".
    const { id: _id, ...readBack } = one;
    const patched = await t.request('PATCH', path(org, `/${pending.id}`), { token: owner.token, body: readBack });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toEqual(one);
    expect(await t.prisma.samlProvider.findUniqueOrThrow({ where: { id: pending.id } })).toMatchObject({ certificate: null, ssoURL: null });
  });

  it('stores a bare base64 certificate as PEM', async () => {
    const res = await create(world.admin.token, { label: 'Bare', certificate: `  ${bareBase64(idp.certificate)}\n` });
    expect(res.status).toBe(201);
    expect(res.body.certificate).toBe(idp.certificate.trim());
  });

  it('enforces every limit with a 400 naming the field, and writes nothing', async () => {
    const before = await t.prisma.samlProvider.count();
    const pem = idp.certificate.trim();
    const cases: [string, Record<string, unknown>][] = [
      ['label', {}],
      ['label', { label: '' }],
      ['label', { label: '   ' }],
      ['label', { label: 'x'.repeat(31) }],
      ['entityID', { label: 'L', entityID: 'x'.repeat(1025) }],
      ['certificate', { label: 'L', certificate: 'x'.repeat(10001) }],
      ['certificate', { label: 'L', certificate: 'not a certificate' }],
      ['certificate', { label: 'L', certificate: Buffer.from('not a certificate either').toString('base64') }],
      ['certificate', { label: 'L', certificate: `${pem}\n${pem}` }],
      ['certificate', { label: 'L', certificate: `${bareBase64(pem)}AAAA` }],
      ['ssoURL', { label: 'L', ssoURL: 'not a url' }],
      ['ssoURL', { label: 'L', ssoURL: 'ftp://idp.test/sso' }],
      ['ssoURL', { label: 'L', ssoURL: `https://idp.test/${'x'.repeat(2048)}` }],
      ['defaultTeam', { label: 'L', defaultTeam: 'no such team!' }],
      ['defaultTeam', { label: 'L', defaultTeam: 'ssoTeam0000000000404' }],
      ['defaultRole', { label: 'L', defaultRole: 'owner' }],
    ];
    for (const [field, body] of cases) {
      const res = await create(world.admin.token, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^Invalid "${field}"`));
    }
    const { organization } = await buildOrganization(t.prisma, { owner: world.admin });
    const elsewhere = await t.prisma.team.create({
      data: { id: 'ssoTeam0000000000002', organizationId: organization.id, title: 'Theirs' },
    });
    const foreign = await create(world.admin.token, { label: 'L', defaultTeam: elsewhere.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toBe('Invalid "defaultTeam": no such team in this organization.');
    expect(await t.prisma.samlProvider.count()).toBe(before);
  });

  it('is for admins: 401 without a token, 403 for other members, 404 outside the organization', async () => {
    expect((await t.request('POST', path(acme), { body: { label: 'L' } })).status).toBe(401);
    expect((await create(world.creator.token, { label: 'Mine' })).status).toBe(403);
    expect((await create(world.outsider.token, { label: 'Theirs' })).status).toBe(404);
    expect(await t.prisma.samlProvider.count({ where: { label: { in: ['Mine', 'Theirs'] } } })).toBe(0);
    expect(await t.prisma.auditEvent.count({ where: { targetLabel: { in: ['Mine', 'Theirs'] } } })).toBe(0);
  });

  it(`allows ${MAX_PROVIDERS} providers per organization`, async () => {
    const { organization, owner } = await buildOrganization(t.prisma);
    for (let i = 0; i < MAX_PROVIDERS; i++) expect((await create(owner.token, { label: `P${i}` }, organization.id)).status).toBe(201);
    const over = await create(owner.token, { label: 'One too many' }, organization.id);
    expect(over.status).toBe(409);
    expect(over.body.error.message).toBe(`An organization has at most ${MAX_PROVIDERS} SAML providers: delete one first.`);
  });
});

describe('GET /v1/orgs/{organizationId}/saml', () => {
  it('lists providers in the order they were added, matching the spec, walking pages with one statement count', async () => {
    const { organization, owner } = await buildOrganization(t.prisma);
    const org = organization.id;
    const orgTeam = await t.prisma.team.create({ data: { id: 'ssoTeam0000000000003', organizationId: org, title: 'T' } });
    const ids: string[] = [];
    for (const label of ['One', 'Two', 'Three', 'Four', 'Five']) {
      const res = await create(
        owner.token,
        { label, entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL, defaultTeam: orgTeam.id },
        org,
      );
      ids.push(res.body.id);
    }
    const api = gitbookClient('0202', t.url, owner.token);
    const { data } = await api.orgs.listSamlProvidersInOrganizationById(org);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/saml', 200, data);
    expect(data.items.map((item) => item.label)).toEqual(['One', 'Two', 'Three', 'Four', 'Five']);
    expect(data.count).toBe(5);

    const { items, pages } = await walk<{ id: string }>(t, path(org, '?limit=2'), { token: owner.token });
    expect(pages).toBe(3);
    expect(items.map((item) => item.id)).toEqual(ids);
    const one = await t.counted('GET', path(org, '?limit=1'), { token: owner.token });
    const all = await t.counted('GET', path(org, '?limit=1000'), { token: owner.token });
    expect(all.body.items).toHaveLength(5);
    expect(all.statements).toBe(one.statements);
    const foreignPage = await t.request('GET', path(acme, `?page=${one.body.next.page}`), { token: world.admin.token });
    expect(foreignPage.status).toBe(400);
  });

  it('is for admins', async () => {
    expect((await t.request('GET', path(acme))).status).toBe(401);
    expect((await t.request('GET', path(acme), { token: world.editor.token })).status).toBe(403);
    expect((await t.request('GET', path(acme), { token: world.guest.token })).status).toBe(403);
    expect((await t.request('GET', path(acme), { token: world.outsider.token })).status).toBe(404);
  });
});

describe('/v1/orgs/{organizationId}/saml/{samlProviderId}', () => {
  let provider: string;
  beforeAll(async () => {
    provider = (await create(world.admin.token, { label: 'Azure', defaultTeam: team })).body.id;
  });

  it('gets a provider through the official client; 404 for an unknown one or one of another organization', async () => {
    const api = gitbookClient('0202', t.url, world.admin.token);
    const { data } = await api.orgs.getOrganizationSamlProviderById(acme, provider);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/saml/{samlProviderId}', 200, data);
    expect(data).toMatchObject({ id: provider, label: 'Azure', status: 'pending', defaultTeam: { id: team } });
    expect((await t.request('GET', path(acme, '/unknownProvider00001'), { token: world.admin.token })).status).toBe(404);
    expect((await t.request('GET', path(acme, '/not-an-id!'), { token: world.admin.token })).status).toBe(404);
    const { organization, owner } = await buildOrganization(t.prisma);
    const theirs = (await create(owner.token, { label: 'Theirs' }, organization.id)).body.id;
    const crossed = await t.request('GET', path(acme, `/${theirs}`), { token: world.admin.token });
    expect(crossed.status).toBe(404);
    expect(crossed.body.error.message).toBe('SAML provider not found');
    // Only admins see providers: to anyone else one is not found, as if it did not exist.
    expect((await t.request('GET', path(acme, `/${provider}`), { token: world.reader.token })).status).toBe(404);
    expect((await t.request('GET', path(acme, `/${provider}`), { token: world.outsider.token })).status).toBe(404);
  });

  it('updates fields one at a time, deriving the status; null or empty clears; the label may not be null', async () => {
    const api = gitbookClient('0202', t.url, world.admin.token);
    const patch = (body: unknown) => t.request('PATCH', path(acme, `/${provider}`), { token: world.admin.token, body });
    expect((await patch({ entityID: idp.entityID, ssoURL: idp.ssoURL })).body.status).toBe('pending');
    const { data } = await api.orgs.updateOrganizationSamlProvider(acme, provider, { certificate: bareBase64(idp.certificate) });
    expectMatchesSpec('0202', 'patch', '/orgs/{organizationId}/saml/{samlProviderId}', 200, data);
    expect(data).toMatchObject({ status: 'active', certificate: idp.certificate.trim(), label: 'Azure', defaultTeam: { id: team } });
    expect((await patch({ label: 'Entra ID', defaultRole: null, defaultTeam: null })).body).toMatchObject({
      label: 'Entra ID',
      defaultRole: null,
      status: 'active',
    });
    const cleared = await patch({ certificate: '' });
    expect(cleared.body).toMatchObject({ status: 'pending', certificate: '', ssoURL: idp.ssoURL });
    expect(cleared.body).not.toHaveProperty('defaultTeam');
    expect((await patch({ certificate: idp.certificate, ssoURL: null })).body).toMatchObject({ status: 'pending', ssoURL: 'about:blank' });
    expect((await patch({ entityID: '  ', ssoURL: idp.ssoURL })).body).toMatchObject({ status: 'pending', entityID: '' });
    const row = await t.prisma.samlProvider.findUniqueOrThrow({ where: { id: provider } });
    expect(row).toMatchObject({ status: 'pending', entityID: null, ssoURL: idp.ssoURL, defaultTeamId: null, defaultRole: null });

    for (const [field, body] of [
      ['label', { label: null }],
      ['label', { label: 'x'.repeat(31) }],
      ['certificate', { certificate: 'nope' }],
      ['ssoURL', { ssoURL: 'javascript:alert(1)' }],
      ['entityID', { entityID: 'x'.repeat(1025) }],
    ] as const) {
      const res = await patch(body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^Invalid "${field}"`));
    }
    expect((await t.request('PATCH', path(acme, `/${provider}`), { token: world.editor.token, body: { label: 'X' } })).status).toBe(403);
    expect((await t.request('PATCH', path(acme, `/${provider}`), { token: world.outsider.token, body: { label: 'X' } })).status).toBe(404);
    expect((await t.request('PATCH', path(acme, '/unknownProvider00001'), { token: world.admin.token, body: { label: 'X' } })).status).toBe(
      404,
    );
    // One event per change that took, with the fields that changed; the refused ones recorded nothing.
    const events = await eventsOf(t.prisma, { targetId: provider }, 'saml_provider_updated');
    expect(events).toHaveLength(6);
    const changes = events.map((event) => (event.payload as { changed: Record<string, { from: unknown; to: unknown }> }).changed);
    expect(changes).toContainEqual({ entityID: { from: null, to: idp.entityID }, ssoURL: { from: null, to: idp.ssoURL } });
    expect(changes).toContainEqual({
      certificate: { from: null, to: expect.stringMatching(/^sha256:/) },
      status: { from: 'pending', to: 'active' },
    });
    expect(changes).toContainEqual({
      label: { from: 'Azure', to: 'Entra ID' },
      defaultRole: { from: 'read', to: null },
      defaultTeamId: { from: team, to: null },
    });
    expect(JSON.stringify(changes)).not.toContain(bareBase64(idp.certificate).slice(0, 40));
  });

  it('deletes a provider through the official client (204), with its requests; then it is not found', async () => {
    const doomed = (await create(world.admin.token, { label: 'Doomed' })).body.id;
    await t.prisma.samlRequest.create({ data: { id: '_pending', providerId: doomed, expiresAt: t.clock.now() } });
    expect((await t.request('DELETE', path(acme, `/${doomed}`), { token: world.creator.token })).status).toBe(403);
    expect((await t.request('DELETE', path(acme, `/${doomed}`), { token: world.outsider.token })).status).toBe(404);
    const api = gitbookClient('0202', t.url, world.admin.token);
    const { status } = await api.orgs.deleteOrganizationSamlProvider(acme, doomed);
    expect(status).toBe(204);
    expect(await t.prisma.samlRequest.count({ where: { providerId: doomed } })).toBe(0);
    expect((await t.request('DELETE', path(acme, `/${doomed}`), { token: world.admin.token })).status).toBe(404);
    expect((await t.request('GET', path(acme, `/${doomed}`), { token: world.admin.token })).status).toBe(404);
    expect((await eventsOf(t.prisma, { targetId: doomed })).map((event) => [event.action, event.targetLabel]).sort()).toEqual([
      ['saml_provider_created', 'Doomed'],
      ['saml_provider_deleted', 'Doomed'],
    ]);
  });
});

describe('GET /v1/orgs/{organizationId}/sso', () => {
  it('lists the active providers, id, label and start URL only, to any member, matching the spec', async () => {
    const { organization, owner } = await buildOrganization(t.prisma);
    const org = organization.id;
    const active = (
      await create(owner.token, { label: 'Corporate', entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL }, org)
    ).body;
    await create(owner.token, { label: 'Unfinished', entityID: idp.entityID }, org);
    const guest = await buildMember(t.prisma, { organizationId: org, role: null });
    const api = gitbookClient('0202', t.url, guest.token);
    const { data } = await api.orgs.listSsoProviderLoginsInOrganization(org);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/sso', 200, data);
    expect(data).toEqual({ items: [{ id: active.id, label: 'Corporate', startURL: active.service.startURL }] });
    expect((await t.request('GET', `/v1/orgs/${org}/sso`)).status).toBe(401);
    expect((await t.request('GET', `/v1/orgs/${org}/sso`, { token: world.outsider.token })).status).toBe(404);
  });
});
