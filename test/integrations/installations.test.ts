// Installations through GitBook's 0.202 client and spec: installing in an organization (admins; a private integration
// in its owner only), reading, configuring (status follows the required configuration) and uninstalling one; the
// lists of an integration's installations (its owner's admins) and of an organization's; installing on spaces and
// removing them; and what a space shows of the integrations enabled in it (list, blocks, scripts: spec 0.130), with
// statement counts that the number of integrations does not change.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Space } from '../../src/generated/prisma/client.js';
import { useApi } from '../support/app.js';
import { buildMember, buildOrganization, buildSpace } from '../support/factories.js';
import { expectMatchesDocument, expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { buildInstallation, buildIntegration, manifest } from './fixtures.js';

const INSTALLATIONS = '/integrations/{integrationName}/installations';
const INSTALLATION = `${INSTALLATIONS}/{installationId}`;

const { t, world } = useApi({ world: true });
let acme: string;
let other: string;
/** Spaces of Acme. */
let manual: Space;
let guide: Space;

beforeAll(async () => {
  acme = world.organizationId;
  other = world.outsiderOrganizationId;
  manual = await buildSpace(t.prisma, { organizationId: acme, title: 'Manual' });
  guide = await buildSpace(t.prisma, { organizationId: acme, title: 'Guide' });
});

let counter = 0;
/** Publishes an integration of Acme through the API (public unless told), and answers its name. */
async function publishedIntegration(overrides: Record<string, unknown> = {}): Promise<string> {
  const name = `integration-${++counter}`;
  const res = await t.request('POST', `/v1/integrations/${name}`, {
    token: world.admin.token,
    body: manifest(acme, { visibility: 'public', ...overrides }),
  });
  expect(res.status, res.text).toBe(200);
  return name;
}

async function installed(name: string, organization = acme, token = world.admin.token) {
  const res = await t.request('POST', `/v1/integrations/${name}/installations`, { token, body: { organization } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; status: string; spaces: number };
}

/** The events recorded about an installation (src/kernel/events.ts): action, organization and payload. */
const eventsOf = async (installationId: string) =>
  (await t.prisma.auditEvent.findMany({ where: { targetId: installationId } })).map((row) => ({
    action: row.action,
    organizationId: row.organizationId,
    spaceId: row.spaceId,
    payload: row.payload as any,
  }));

describe('POST /v1/integrations/{integrationName}/installations', () => {
  it('installs in an organization its admin administers, through the official client, matching the spec', async () => {
    const name = await publishedIntegration();
    const { data, status, headers } = await gitbookClient('0202', t.url, world.outsider.token).integrations.installIntegration(name, {
      organization: other,
    });
    expect(status).toBe(201);
    expectMatchesSpec('0202', 'post', INSTALLATIONS, 201, data);
    expect(data).toEqual({
      id: expect.any(String),
      status: 'active',
      space_selection: 'all',
      site_selection: 'all',
      spaces: 0,
      configuration: {},
      externalIds: [],
      target: { organization: other },
      createdAt: '2026-01-15T10:00:00.000Z',
      updatedAt: '2026-01-15T10:00:00.000Z',
      urls: {
        location: `${t.url}/v1/integrations/${name}/installations/${data.id}`,
        app: `${t.url}/app/o/${other}/integrations/${name}`,
        publicEndpoint: `${t.url}/integrations/${name}/installations/${data.id}`,
        publicContentEndpoint: `${t.url}/integrations/${name}/installations/${data.id}`,
      },
    });
    expect(headers.get('location')).toBe(data.urls.location);
    expect(await eventsOf(data.id)).toEqual([
      {
        action: 'integration_installed',
        organizationId: other,
        spaceId: null,
        payload: expect.objectContaining({ integration: name, status: 'active' }),
      },
    ]);
  });

  it('installs pending when the integration requires an account configuration, and counts the organization’s spaces', async () => {
    const name = await publishedIntegration({
      configurations: { account: { properties: { token: { type: 'string' } }, required: ['token'] } },
    });
    const installation = await installed(name);
    expect(installation).toMatchObject({
      status: 'pending',
      spaces: await t.prisma.space.count({ where: { organizationId: acme, deletedAt: null } }),
    });
  });

  it('refuses a second installation in the organization (409)', async () => {
    const name = await publishedIntegration();
    await installed(name);
    const again = await t.request('POST', `/v1/integrations/${name}/installations`, {
      token: world.admin.token,
      body: { organization: acme },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: { code: 409, message: 'The integration is already installed in this organization.' } });
    expect(
      await t.prisma.auditEvent.count({ where: { action: 'integration_installed', payload: { path: ['integration'], equals: name } } }),
    ).toBe(1);
  });

  it('installs a private integration in its owner organization only (400 elsewhere, 404 for whoever cannot see it)', async () => {
    const name = await publishedIntegration({ visibility: 'private' });
    const elsewhere = await t.request('POST', `/v1/integrations/${name}/installations`, {
      token: world.admin.token,
      body: { organization: world.secondOrganizationId },
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.message).toMatch(/^Invalid "organization": a private integration is installed only in the organization/);
    const outsider = await t.request('POST', `/v1/integrations/${name}/installations`, {
      token: world.outsider.token,
      body: { organization: other },
    });
    expect(outsider.status).toBe(404);
    expect((await installed(name)).status).toBe('active');
  });

  it('answers 404 for an organization the caller is not in, 403 below admin, 400 for a malformed one, 401 without token', async () => {
    const name = await publishedIntegration();
    const post = (token: string, body: unknown) => t.request('POST', `/v1/integrations/${name}/installations`, { token, body });
    expect((await post(world.outsider.token, { organization: acme })).status).toBe(404);
    expect((await post(world.creator.token, { organization: acme })).status).toBe(403);
    expect((await post(world.admin.token, { organization: 'not an id!' })).body.error.message).toMatch(/^Invalid "organization"/);
    expect((await post(world.admin.token, {})).body.error.message).toBe('Invalid "organization": required.');
    expect((await post('', { organization: acme })).status).toBe(401);
    expect(
      (await t.request('POST', '/v1/integrations/no-such/installations', { token: world.admin.token, body: { organization: acme } }))
        .status,
    ).toBe(404);
  });
});

describe('GET, PATCH and DELETE /v1/integrations/{integrationName}/installations/{installationId}', () => {
  it('shows an installation to its organization’s admins and to the integration owner’s, 403 to its other members, 404 to others', async () => {
    const name = await publishedIntegration();
    const { id } = await installed(name, other, world.outsider.token);
    const { data } = await gitbookClient('0202', t.url, world.outsider.token).integrations.getIntegrationInstallationById(name, id);
    expectMatchesSpec('0202', 'get', INSTALLATION, 200, data);
    expect(data).toMatchObject({ id, target: { organization: other } });
    // Acme's admin owns the integration.
    expect((await t.request('GET', `/v1/integrations/${name}/installations/${id}`, { token: world.admin.token })).status).toBe(200);
    expect((await t.request('GET', `/v1/integrations/${name}/installations/${id}`, { token: world.reader.token })).status).toBe(404);
    const ownInstallation = await installed(name);
    const reader = await t.request('GET', `/v1/integrations/${name}/installations/${ownInstallation.id}`, { token: world.reader.token });
    expect(reader.status).toBe(403);
    expect(reader.body.error.message).toBe('You do not have the "view" permission on this integration installation.');
    expect(
      (await t.request('GET', `/v1/integrations/${name}/installations/${ownInstallation.id}`, { token: world.outsider.token })).status,
    ).toBe(404);
    const otherName = await publishedIntegration();
    expect((await t.request('GET', `/v1/integrations/${otherName}/installations/${id}`, { token: world.outsider.token })).status).toBe(404);
  });

  it('changes external ids, selections and configuration, the status following the required configuration', async () => {
    const name = await publishedIntegration({
      configurations: {
        account: {
          properties: { token: { type: 'string' }, region: { type: 'string', enum: ['eu', 'us'] }, limit: { type: 'number' } },
          required: ['token'],
        },
      },
    });
    const { id } = await installed(name);
    const client = gitbookClient('0202', t.url, world.admin.token);
    t.clock.advanceMs(1000);
    const { data } = await client.integrations.updateIntegrationInstallation(name, id, {
      externalIds: ['acct-1', 'acct-2'],
      configuration: { token: 'abc', region: 'eu', limit: 3 },
      space_selection: 'selected' as never,
    });
    expectMatchesSpec('0202', 'patch', INSTALLATION, 200, data);
    expect(data).toMatchObject({
      status: 'active',
      externalIds: ['acct-1', 'acct-2'],
      configuration: { token: 'abc', region: 'eu', limit: 3 },
      space_selection: 'selected',
      site_selection: 'all',
      spaces: 0,
      updatedAt: '2026-01-15T10:00:01.000Z',
    });
    const unchanged = await t.request('PATCH', `/v1/integrations/${name}/installations/${id}`, {
      token: world.admin.token,
      body: { site_selection: 'selected' },
    });
    expect(unchanged.body).toMatchObject({
      externalIds: ['acct-1', 'acct-2'],
      configuration: { token: 'abc', region: 'eu', limit: 3 },
      site_selection: 'selected',
    });
    const emptied = await t.request('PATCH', `/v1/integrations/${name}/installations/${id}`, {
      token: world.admin.token,
      body: { configuration: {} },
    });
    expect(emptied.body).toMatchObject({ status: 'pending', configuration: {} });
    // The same values again change nothing, and record nothing.
    await t.request('PATCH', `/v1/integrations/${name}/installations/${id}`, { token: world.admin.token, body: { configuration: {} } });

    // The configuration's properties that changed are named; their values (an account's credentials) never kept.
    const updates = (await eventsOf(id)).filter((event) => event.action === 'integration_installation_updated');
    expect(updates).toHaveLength(3);
    expect(updates.map((event) => event.payload.changed)).toEqual(
      expect.arrayContaining([
        {
          externalIds: { from: [], to: ['acct-1', 'acct-2'] },
          space_selection: { from: 'all', to: 'selected' },
          configuration: ['limit', 'region', 'token'],
        },
        { site_selection: { from: 'all', to: 'selected' } },
        { configuration: ['limit', 'region', 'token'] },
      ]),
    );
    expect(JSON.stringify(updates)).not.toContain('abc');
  });

  it('refuses a configuration the integration does not declare, and each limit, with a 400 naming the field', async () => {
    const name = await publishedIntegration({
      configurations: {
        account: {
          properties: { region: { type: 'string', enum: ['eu', 'us'] }, go: { type: 'button', callback_url: '/go', button_text: 'Go' } },
        },
      },
    });
    const { id } = await installed(name);
    const cases: [unknown, RegExp][] = [
      [{ configuration: { region: 'mars' } }, /^Invalid "configuration.region": must be one of "eu", "us"/],
      [{ configuration: { region: 1 } }, /^Invalid "configuration.region": must be a string/],
      [{ configuration: { other: 'x' } }, /^Invalid "configuration.other": the integration declares no such property \(go, region\)/],
      [{ configuration: { go: 'x' } }, /^Invalid "configuration.go": a button takes no value/],
      [{ configuration: { region: { nested: true } } }, /^Invalid "configuration.region"/],
      [{ externalIds: ['1', '2', '3', '4', '5', '6'] }, /^Invalid "externalIds": must have at most 5 items/],
      [{ externalIds: [''] }, /^Invalid "externalIds.0"/],
      [{ space_selection: 'some' }, /^Invalid "space_selection": must be one of "all", "selected"/],
      [{ configuration: null }, /^Invalid "configuration": must not be null/],
    ];
    for (const [body, message] of cases) {
      const res = await t.request('PATCH', `/v1/integrations/${name}/installations/${id}`, { token: world.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await eventsOf(id)).map((event) => event.action)).toEqual(['integration_installed']);
  });

  it('lets the installing organization’s admins change and uninstall it, not the integration’s owner', async () => {
    const name = await publishedIntegration();
    const { id } = await installed(name, other, world.outsider.token);
    const patch = (token: string) =>
      t.request('PATCH', `/v1/integrations/${name}/installations/${id}`, { token, body: { externalIds: ['x'] } });
    expect((await patch(world.admin.token)).status).toBe(403);
    expect((await t.request('DELETE', `/v1/integrations/${name}/installations/${id}`, { token: world.admin.token })).status).toBe(403);
    expect((await patch(world.reader.token)).status).toBe(404);
    expect((await eventsOf(id)).map((event) => event.action)).toEqual(['integration_installed']);
    const { status } = await gitbookClient('0202', t.url, world.outsider.token).integrations.uninstallIntegration(name, id);
    expect(status).toBe(205);
    expect(await t.prisma.integrationInstallation.count({ where: { id } })).toBe(0);
    expect((await t.request('GET', `/v1/integrations/${name}/installations/${id}`, { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('DELETE', `/v1/integrations/${name}/installations/${id}`, { token: world.outsider.token })).status).toBe(404);
    expect((await eventsOf(id)).map((event) => [event.action, event.organizationId]).sort()).toEqual([
      ['integration_installed', other],
      ['integration_uninstalled', other],
    ]);
  });
});

describe('GET /v1/integrations/{integrationName}/installations', () => {
  it('lists its installations everywhere for its owner organization’s admins, filtered by external id', async () => {
    const name = await publishedIntegration();
    const theirs = await installed(name, other, world.outsider.token);
    const ours = await installed(name);
    await t.request('PATCH', `/v1/integrations/${name}/installations/${theirs.id}`, {
      token: world.outsider.token,
      body: { externalIds: ['ext-1'] },
    });
    const client = gitbookClient('0202', t.url, world.admin.token);
    const { data } = await client.integrations.listIntegrationInstallations(name);
    expectMatchesSpec('0202', 'get', INSTALLATIONS, 200, data);
    expect(data.items.map((installation) => installation.id).sort()).toEqual([theirs.id, ours.id].sort());
    expect(data.count).toBe(2);
    const filtered = await client.integrations.listIntegrationInstallations(name, { externalId: 'ext-1' });
    expect(filtered.data.items.map((installation) => installation.id)).toEqual([theirs.id]);
    for (const person of [world.reader, world.outsider]) {
      const res = await t.request('GET', `/v1/integrations/${name}/installations`, { token: person.token });
      expect(res.status).toBe(403);
    }
  });

  it('runs as many statements for one installation as for many', async () => {
    const name = await publishedIntegration();
    const row = await t.prisma.integration.findUniqueOrThrow({ where: { name } });
    await installed(name);
    const one = await t.counted('GET', `/v1/integrations/${name}/installations`, { token: world.admin.token });
    for (let i = 0; i < 30; i++) {
      const { organization } = await buildOrganization(t.prisma, { title: `Org ${i}` });
      await buildInstallation(t.prisma, {
        integrationId: row.id,
        organizationId: organization.id,
        spaceSelection: i % 2 ? 'all' : 'selected',
      });
    }
    const many = await t.counted('GET', `/v1/integrations/${name}/installations?limit=25`, { token: world.admin.token });
    expect([one.body.items.length, many.body.items.length, many.body.count]).toEqual([1, 25, 31]);
    expect(many.statements).toBe(one.statements);
  });
});

describe('GET /v1/orgs/{organizationId}/installations', () => {
  it('lists the organization’s installations with their integrations, for its admins, searched by integration', async () => {
    const first = await publishedIntegration({ title: 'Searchable one' });
    const second = await publishedIntegration({ title: 'Other' });
    const org = (await buildOrganization(t.prisma, { title: 'Installing', owner: world.admin })).organization.id;
    await buildMember(t.prisma, { organizationId: org, user: world.reader, role: 'read' });
    const a = await installed(first, org);
    t.clock.advanceMs(1000);
    const b = await installed(second, org);
    const client = gitbookClient('0202', t.url, world.admin.token);
    const { data } = await client.orgs.listOrganizationInstallations(org);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/installations', 200, data);
    expect(data.items.map((item) => [item.installation.id, item.integration.name])).toEqual([
      [a.id, first],
      [b.id, second],
    ]);
    const searched = await client.orgs.listOrganizationInstallations(org, { search: 'searchable' });
    expect(searched.data.items.map((item) => item.integration.name)).toEqual([first]);
    expect((await t.request('GET', `/v1/orgs/${org}/installations`, { token: world.reader.token })).status).toBe(403);
    expect((await t.request('GET', `/v1/orgs/${org}/installations`, { token: world.outsider.token })).status).toBe(404);
  });

  it('runs as many statements for one installation as for many', async () => {
    const org = (await buildOrganization(t.prisma, { title: 'Counting', owner: world.admin })).organization.id;
    const first = await t.prisma.integration.findUniqueOrThrow({ where: { name: await publishedIntegration() } });
    await buildInstallation(t.prisma, { integrationId: first.id, organizationId: org });
    const one = await t.counted('GET', `/v1/orgs/${org}/installations`, { token: world.admin.token });
    for (let i = 0; i < 20; i++) {
      const integration = await buildIntegration(t.prisma, { ownerOrganizationId: i % 2 ? acme : other });
      await buildInstallation(t.prisma, { integrationId: integration.id, organizationId: org });
    }
    const many = await t.counted('GET', `/v1/orgs/${org}/installations`, { token: world.admin.token });
    expect([one.body.items.length, many.body.items.length]).toEqual([1, 21]);
    expect(many.statements).toBe(one.statements);
  });
});

describe('installations on spaces', () => {
  it('installs on a space of the organization, lists and removes it under a selected selection, through the official client', async () => {
    const name = await publishedIntegration({ target: 'space' });
    const { id } = await installed(name);
    await t.request('PATCH', `/v1/integrations/${name}/installations/${id}`, {
      token: world.admin.token,
      body: { space_selection: 'selected' },
    });
    const client = gitbookClient('0202', t.url, world.creator.token);
    const { data, status, headers } = await client.integrations.installIntegrationOnSpace(name, id, { space: manual.id });
    expect(status).toBe(201);
    expectMatchesSpec('0202', 'post', `${INSTALLATION}/spaces`, 201, data);
    expect(data).toEqual({
      integration: name,
      installation: id,
      status: 'active',
      configuration: {},
      externalIds: [],
      space: manual.id,
      urls: {
        location: `${t.url}/v1/integrations/${name}/installations/${id}/spaces/${manual.id}`,
        publicEndpoint: `${t.url}/integrations/${name}/installations/${id}`,
        publicContentEndpoint: `${t.url}/integrations/${name}/installations/${id}`,
      },
    });
    expect(headers.get('location')).toBe(data.urls.location);
    const again = await t.request('POST', `/v1/integrations/${name}/installations/${id}/spaces`, {
      token: world.admin.token,
      body: { space: manual.id },
    });
    expect(again.status).toBe(409);
    const admin = gitbookClient('0202', t.url, world.admin.token);
    const listed = await admin.integrations.listIntegrationInstallationSpaces(name, id);
    expectMatchesSpec('0202', 'get', `${INSTALLATION}/spaces`, 200, listed.data);
    expect(listed.data.items.map((item) => item.space)).toEqual([manual.id]);
    const installation = await admin.integrations.getIntegrationInstallationById(name, id);
    expect(installation.data.spaces).toBe(1);
    const removed = await client.integrations.uninstallIntegrationFromSpace(name, id, manual.id);
    expect(removed.status).toBe(205);
    expect(
      (await t.request('DELETE', `/v1/integrations/${name}/installations/${id}/spaces/${manual.id}`, { token: world.admin.token })).status,
    ).toBe(404);
    // About the space; the refused second installation and removal recorded nothing.
    const onSpace = (await eventsOf(id)).filter((event) => event.spaceId);
    expect(onSpace.map((event) => [event.action, event.spaceId, event.payload.space]).sort()).toEqual([
      ['integration_installed_on_space', manual.id, manual.id],
      ['integration_uninstalled_from_space', manual.id, manual.id],
    ]);
  });

  it('needs the space’s installIntegration, a space of the installation’s organization, a target that includes spaces', async () => {
    const name = await publishedIntegration();
    const { id } = await installed(name);
    const post = (token: string, space: string, installation = id, integration = name) =>
      t.request('POST', `/v1/integrations/${integration}/installations/${installation}/spaces`, { token, body: { space } });
    const editor = await post(world.editor.token, guide.id);
    expect(editor.status).toBe(403);
    expect(editor.body.error.message).toBe('You do not have the "installIntegration" permission on this space.');
    const foreign = await buildSpace(t.prisma, { organizationId: other });
    expect((await post(world.admin.token, foreign.id)).body.error).toEqual({
      code: 400,
      message: 'Invalid "space": no such space in this organization.',
    });
    expect((await post(world.outsider.token, foreign.id)).status).toBe(404);
    const deleted = await buildSpace(t.prisma, { organizationId: acme, deletedAt: t.clock.now() });
    expect((await post(world.admin.token, deleted.id)).status).toBe(400);
    const siteOnly = await publishedIntegration({ target: 'site' });
    const siteInstallation = await installed(siteOnly);
    // It manages no space, whatever its selection.
    expect(siteInstallation).toMatchObject({ space_selection: 'all', spaces: 0 });
    const refused = await post(world.admin.token, guide.id, siteInstallation.id, siteOnly);
    expect(refused.body.error).toEqual({
      code: 400,
      message: 'Invalid "space": this integration is installed on sites only, not on spaces.',
    });
  });

  it('follows GitBook’s documented flow through the official client: install, configure, then enable on chosen spaces', async () => {
    const name = await publishedIntegration({
      target: 'space',
      configurations: { account: { properties: { token: { type: 'string' } }, required: ['token'] } },
    });
    const admin = gitbookClient('0202', t.url, world.admin.token);
    const installation = (await admin.integrations.installIntegration(name, { organization: acme })).data;
    expect(installation).toMatchObject({ status: 'pending', space_selection: 'all' });
    const configured = await admin.integrations.updateIntegrationInstallation(name, installation.id, { configuration: { token: 'abc' } });
    expect(configured.data).toMatchObject({ status: 'active', space_selection: 'all' });
    const chosen = await buildSpace(t.prisma, { organizationId: acme, title: 'Chosen' });
    const alsoChosen = await buildSpace(t.prisma, { organizationId: acme, title: 'Also chosen' });
    const left = await buildSpace(t.prisma, { organizationId: acme, title: 'Left out' });

    t.clock.advanceMs(1000);
    const first = await admin.integrations.installIntegrationOnSpace(name, installation.id, { space: chosen.id });
    expect(first.status).toBe(201);
    expectMatchesSpec('0202', 'post', `${INSTALLATION}/spaces`, 201, first.data);
    expect(first.data).toMatchObject({ installation: installation.id, space: chosen.id, status: 'active' });
    // Enabled on that space only, from now on: the selection is `selected`.
    const read = async () => (await admin.integrations.getIntegrationInstallationById(name, installation.id)).data;
    const narrowed = await read();
    expect(narrowed).toMatchObject({ space_selection: 'selected', spaces: 1 });
    expect(new Date(narrowed.updatedAt).getTime()).toBe(new Date(configured.data.updatedAt).getTime() + 1000);
    await gitbookClient('0202', t.url, world.creator.token).integrations.installIntegrationOnSpace(name, installation.id, {
      space: alsoChosen.id,
    });
    expect(await read()).toMatchObject({ space_selection: 'selected', spaces: 2 });
    const listed = await admin.integrations.listIntegrationInstallationSpaces(name, installation.id);
    expect(listed.data.items.map((item) => item.space).sort()).toEqual([chosen.id, alsoChosen.id].sort());
    const enabledIn = async (spaceId: string) =>
      (await admin.spaces.listSpaceIntegrations(spaceId)).data.items.some((integration) => integration.name === name);
    expect([await enabledIn(chosen.id), await enabledIn(alsoChosen.id), await enabledIn(left.id)]).toEqual([true, true, false]);
    // And a chosen space can be taken out again.
    expect((await admin.integrations.uninstallIntegrationFromSpace(name, installation.id, chosen.id)).status).toBe(205);
    expect(await read()).toMatchObject({ space_selection: 'selected', spaces: 1 });
  });

  it('narrows an installation enabled in all spaces for the organization’s admins only (403 below), keeping it when refused', async () => {
    const name = await publishedIntegration();
    const { id } = await installed(name);
    const post = (token: string, space: string) =>
      t.request('POST', `/v1/integrations/${name}/installations/${id}/spaces`, { token, body: { space } });
    const refused = await post(world.creator.token, guide.id);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      'The installation is enabled in all spaces: installing it on one space enables it there only, which needs the ' +
        '"installIntegration" permission on the organization.',
    );
    expect((await t.prisma.integrationInstallation.findUniqueOrThrow({ where: { id } })).spaceSelection).toBe('all');
    expect(await t.prisma.installationSpace.count({ where: { installationId: id } })).toBe(0);
    expect((await eventsOf(id)).map((event) => event.action)).toEqual(['integration_installed']);
    // Once selected, creators choose spaces; set back to all, the spaces chosen before come back with the next one.
    expect((await post(world.admin.token, guide.id)).status).toBe(201);
    expect((await post(world.creator.token, manual.id)).status).toBe(201);
    // The first narrowed the selection, and says so.
    const onGuide = (await eventsOf(id)).filter((event) => event.spaceId === guide.id);
    expect(onGuide.map((event) => event.payload.changed)).toEqual([{ space_selection: { from: 'all', to: 'selected' } }]);
    const patch = (body: object) => t.request('PATCH', `/v1/integrations/${name}/installations/${id}`, { token: world.admin.token, body });
    expect((await patch({ space_selection: 'all' })).body).toMatchObject({ space_selection: 'all' });
    const third = await buildSpace(t.prisma, { organizationId: acme, title: 'Third' });
    expect((await post(world.admin.token, third.id)).status).toBe(201);
    expect((await t.request('GET', `/v1/integrations/${name}/installations/${id}`, { token: world.admin.token })).body).toMatchObject({
      space_selection: 'selected',
      spaces: 3,
    });
    // Installed on already under `all`: 409, and the selection stays all.
    await patch({ space_selection: 'all' });
    expect((await post(world.admin.token, third.id)).status).toBe(409);
    expect((await t.prisma.integrationInstallation.findUniqueOrThrow({ where: { id } })).spaceSelection).toBe('all');
  });

  it('refuses to remove a space from an installation enabled in all spaces (409)', async () => {
    const name = await publishedIntegration();
    const { id } = await installed(name);
    expect(
      (
        await t.request('POST', `/v1/integrations/${name}/installations/${id}/spaces`, {
          token: world.admin.token,
          body: { space: guide.id },
        })
      ).status,
    ).toBe(201);
    await t.request('PATCH', `/v1/integrations/${name}/installations/${id}`, {
      token: world.admin.token,
      body: { space_selection: 'all' },
    });
    const res = await t.request('DELETE', `/v1/integrations/${name}/installations/${id}/spaces/${guide.id}`, { token: world.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/enabled in all spaces: set its space_selection to "selected"/);
  });
});

describe('what a space shows of its integrations', () => {
  /** An organization of its own, where the admin and the reader are members, and two of its spaces. */
  let shows: string;
  let space: Space;
  let otherSpace: Space;
  let blocky: string;
  let scripted: string;
  let cookieless: string;

  beforeAll(async () => {
    shows = (await buildOrganization(t.prisma, { title: 'Shows', owner: world.admin })).organization.id;
    await buildMember(t.prisma, { organizationId: shows, user: world.reader, role: 'read' });
    await buildMember(t.prisma, { organizationId: shows, user: world.guest, role: null });
    space = await buildSpace(t.prisma, { organizationId: shows, title: 'Shown' });
    otherSpace = await buildSpace(t.prisma, { organizationId: shows, title: 'Other shown' });
    blocky = await publishedIntegration({
      title: 'Blocky',
      blocks: [{ id: 'chart', title: 'Chart', urlUnfurl: ['https://charts.example.com/*'] }],
    });
    scripted = await publishedIntegration({
      title: 'Scripted',
      scopes: ['site:script:inject', 'site:script:cookies'],
      contentSecurityPolicy: "script-src 'self'",
    });
    cookieless = await publishedIntegration({ title: 'Cookieless', scopes: ['site:script:inject'] });
    const selected = await publishedIntegration({ title: 'Selected', target: 'space' });
    const elsewhere = await publishedIntegration({ title: 'Elsewhere' });
    const pending = await publishedIntegration({
      title: 'Pending',
      configurations: { account: { properties: { key: { type: 'string' } }, required: ['key'] } },
      blocks: [{ id: 'never', title: 'Never' }],
      scopes: ['site:script:inject'],
    });
    const siteOnly = await publishedIntegration({ title: 'Site only', target: 'site', scopes: ['site:script:inject'] });
    const theirs = await publishedIntegration({ title: 'Theirs' });
    for (const name of [blocky, scripted, cookieless, pending, siteOnly]) await installed(name, shows);
    const selection = await installed(selected, shows);
    await t.request('PATCH', `/v1/integrations/${selected}/installations/${selection.id}`, {
      token: world.admin.token,
      body: { space_selection: 'selected' },
    });
    const onSpace = await t.request('POST', `/v1/integrations/${selected}/installations/${selection.id}/spaces`, {
      token: world.admin.token,
      body: { space: space.id },
    });
    expect(onSpace.status, onSpace.text).toBe(201);
    const notHere = await installed(elsewhere, shows);
    await t.request('PATCH', `/v1/integrations/${elsewhere}/installations/${notHere.id}`, {
      token: world.admin.token,
      body: { space_selection: 'selected' },
    });
    const onOther = await t.request('POST', `/v1/integrations/${elsewhere}/installations/${notHere.id}/spaces`, {
      token: world.admin.token,
      body: { space: otherSpace.id },
    });
    expect(onOther.status, onOther.text).toBe(201);
    await installed(theirs, other, world.outsider.token);
  });

  const titles = (items: { title: string }[]) => items.map((item) => item.title);

  it('lists the integrations enabled in the space: all spaces or this one selected, active, a target that includes spaces', async () => {
    const { data } = await gitbookClient('0202', t.url, world.reader.token).spaces.listSpaceIntegrations(space.id);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/integrations', 200, data);
    expect(titles(data.items).sort()).toEqual(['Blocky', 'Cookieless', 'Scripted', 'Selected']);
    const searched = await t.request('GET', `/v1/spaces/${space.id}/integrations?search=SCRIPT`, { token: world.reader.token });
    expect(titles(searched.body.items)).toEqual(['Scripted']);
    const inOther = await t.request('GET', `/v1/spaces/${otherSpace.id}/integrations`, { token: world.reader.token });
    expect(titles(inOther.body.items).sort()).toEqual(['Blocky', 'Cookieless', 'Elsewhere', 'Scripted']);
  });

  it('lists the blocks of those integrations, per integration with blocks', async () => {
    const { data } = await gitbookClient('0202', t.url, world.reader.token).spaces.listSpaceIntegrationsBlocks(space.id);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/integration-blocks', 200, data);
    expect(data).toEqual([{ name: blocky, blocks: [{ id: 'chart', title: 'Chart', urlUnfurl: ['https://charts.example.com/*'] }] }]);
  });

  it('lists the scripts of those allowed to inject one, with their policy and whether they set cookies (spec 0.130)', async () => {
    const { data } = await gitbookClient('0130', t.url, world.reader.token).spaces.listSpaceIntegrationScripts(space.id);
    expectMatchesDocument('0130', 'get', '/spaces/{spaceId}/integration-scripts', 200, data);
    // The shape 0.137.0 (its last spec) gives: a bare array of {script (URL), contentSecurityPolicy, cookies}.
    const url = (name: string, version = 1) =>
      expect.stringMatching(new RegExp(`^${t.url}/integrations/${name}/v${version}/[\\w-]{22}/script\\.js$`));
    expect(data).toHaveLength(2);
    expect(data).toContainEqual({ script: url(scripted), contentSecurityPolicy: "script-src 'self'", cookies: true });
    expect(data).toContainEqual({ script: url(cookieless), cookies: false });
    const served = await fetch(data.find((item) => item.cookies)!.script);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-security-policy')).toBe("script-src 'self'");
    // The scopes of spec 0.130 inject and set cookies too.
    await t.request('POST', `/v1/integrations/${cookieless}`, {
      token: world.admin.token,
      body: manifest(acme, { visibility: 'public', title: 'Cookieless', scopes: ['space:script:inject', 'space:script:cookies'] }),
    });
    const republished = await t.request('GET', `/v1/spaces/${space.id}/integration-scripts`, { token: world.reader.token });
    expectMatchesDocument('0130', 'get', '/spaces/{spaceId}/integration-scripts', 200, republished.body);
    expect(republished.body).toContainEqual({ script: url(cookieless, 2), cookies: true });
  });

  it('answers 404 for a space the caller cannot see, 401 without a token', async () => {
    for (const path of ['integrations', 'integration-blocks', 'integration-scripts']) {
      expect((await t.request('GET', `/v1/spaces/${space.id}/${path}`, { token: world.outsider.token })).status, path).toBe(404);
      expect((await t.request('GET', `/v1/spaces/${space.id}/${path}`, { token: world.guest.token })).status, path).toBe(404);
      expect((await t.request('GET', `/v1/spaces/${space.id}/${path}`)).status, path).toBe(401);
    }
  });

  it('runs as many statements for one enabled integration as for many', async () => {
    const quiet = await buildSpace(t.prisma, { organizationId: world.secondOrganizationId, title: 'Quiet' });
    const first = await buildIntegration(t.prisma, {
      ownerOrganizationId: acme,
      blocks: [{ id: 'b', title: 'Bee' }],
      scopes: ['site:script:inject'],
    });
    await buildInstallation(t.prisma, { integrationId: first.id, organizationId: world.secondOrganizationId });
    const paths = ['integrations', 'integration-blocks', 'integration-scripts'];
    // One at a time: the statement counter is the service's.
    const counted = async () => {
      const answers = [];
      for (const path of paths) answers.push(await t.counted('GET', `/v1/spaces/${quiet.id}/${path}`, { token: world.admin.token }));
      return answers;
    };
    const one = await counted();
    for (let i = 0; i < 20; i++) {
      const integration = await buildIntegration(t.prisma, {
        ownerOrganizationId: i % 2 ? acme : other,
        blocks: [{ id: 'b', title: 'Bee' }],
        scopes: ['site:script:inject'],
      });
      await buildInstallation(t.prisma, { integrationId: integration.id, organizationId: world.secondOrganizationId });
    }
    const many = await counted();
    expect([one[0].body.items.length, one[1].body.length, one[2].body.length]).toEqual([1, 1, 1]);
    expect([many[0].body.items.length, many[1].body.length, many[2].body.length]).toEqual([21, 21, 21]);
    expect(many.map((res) => res.statements)).toEqual(one.map((res) => res.statements));
  });

  it('leaves a transferred space out of its old organization’s installations', async () => {
    const moving = await buildSpace(t.prisma, { organizationId: acme, title: 'Moving' });
    const name = await publishedIntegration({ title: 'Follows' });
    const { id } = await installed(name);
    await t.request('PATCH', `/v1/integrations/${name}/installations/${id}`, {
      token: world.admin.token,
      body: { space_selection: 'selected' },
    });
    await t.request('POST', `/v1/integrations/${name}/installations/${id}/spaces`, {
      token: world.admin.token,
      body: { space: moving.id },
    });
    expect(titles((await t.request('GET', `/v1/spaces/${moving.id}/integrations`, { token: world.admin.token })).body.items)).toContain(
      'Follows',
    );
    const transfer = await t.request('POST', `/v1/spaces/${moving.id}/transfer`, {
      token: world.admin.token,
      body: { organization: world.secondOrganizationId },
    });
    expect(transfer.status, transfer.text).toBe(200);
    expect(await t.prisma.installationSpace.count({ where: { spaceId: moving.id } })).toBe(0);
    const after = await t.request('GET', `/v1/spaces/${moving.id}/integrations`, { token: world.admin.token });
    expect(titles(after.body.items)).not.toContain('Follows');
    expect(titles(after.body.items)).not.toContain('Blocky');
  });
});
