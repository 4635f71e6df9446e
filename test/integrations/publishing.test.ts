// Publishing integrations: the publish through GitBook's 0.202 client and spec, republishing (version, owner), every
// limit of the manifest, secrets (sealed, never answered), who may publish, see and unpublish one across
// organizations and visibilities, and the assets the product serves (script with its Content-Security-Policy, icon,
// preview images) at signed, versioned URLs.
import { beforeAll, describe, expect, it } from 'vitest';
import type { PublishIntegration } from '../../node_modules/gitbook-api-0202/dist/client.js';
import { integrationSecretsSealedFor } from '../../src/integrations/service.js';
import { unseal } from '../../src/kernel/sealed.js';
import { useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { buildInstallation, images, manifest } from './fixtures.js';

const ITEM = '/integrations/{integrationName}';

const { t, world } = useApi({ world: true });
let acme: string;

beforeAll(async () => {
  acme = world.organizationId;
  await t.prisma.organization.update({ where: { id: acme }, data: { hostname: 'acme', emailDomains: ['acme.example.com'] } });
});

const publish = (name: string, body: unknown, token = world.admin.token) => t.request('POST', `/v1/integrations/${name}`, { token, body });

async function published(name: string, overrides: Record<string, unknown> = {}, organization = acme) {
  const res = await publish(name, manifest(organization, overrides));
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The path and query of a URL the API answered, to request it from the test server. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describe('POST /v1/integrations/{integrationName}', () => {
  it('publishes an integration through the official client, matching the spec', async () => {
    const client = gitbookClient('0202', t.url, world.admin.token);
    // The client types enumerations as TypeScript enums; the wire values are these strings.
    const body = {
      organization: acme,
      title: 'Acme analytics',
      description: 'Counts page views.',
      summary: '# Analytics\nCounts them.',
      script: 'addEventListener("fetch", () => {});',
      icon: images.png,
      previewImages: [images.jpeg, images.gif, images.svg],
      visibility: 'public',
      target: 'space',
      scopes: ['space:content:read', 'site:script:inject', 'site:script:cookies'],
      categories: ['analytics', 'visitor-auth'],
      blocks: [
        {
          id: 'chart',
          title: 'Chart',
          description: 'A chart.',
          urlUnfurl: ['https://charts.example.com/*'],
          markdown: { codeblock: 'chart', body: 'data' },
        },
      ],
      contentSources: [{ id: 'pages', title: 'Pages', configuration: { componentId: 'configure' } }],
      externalLinks: [{ url: 'https://example.com/help', label: 'Help' }],
      configurations: {
        account: {
          properties: { token: { type: 'string', title: 'API token' }, region: { type: 'string', enum: ['eu', 'us'] } },
          required: ['token'],
        },
        space: { componentId: 'space-config' },
      },
      secrets: { API_KEY: 'sk-very-secret-value' },
      contentSecurityPolicy: { 'script-src': "'self' https://cdn.example.com", 'connect-src': 'https://api.example.com' },
    };
    const { data, status } = await client.integrations.publishIntegration('acme.analytics_v-1', body as unknown as PublishIntegration);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'post', ITEM, 200, data);
    // What the body published comes back as it was, bar the organization, the assets, the secrets and the policy.
    const {
      organization: _organization,
      script: _script,
      icon: _icon,
      previewImages: _previews,
      secrets: _secrets,
      contentSecurityPolicy: _policy,
      ...published
    } = body;
    expect(data).toMatchObject({
      object: 'integration',
      name: 'acme.analytics_v-1',
      version: 1,
      verified: false,
      ...published,
      owner: { object: 'organization', id: acme, title: 'Acme' },
      permissions: { admin: true, install: true },
      contentSecurityPolicy: "script-src 'self' https://cdn.example.com; connect-src https://api.example.com",
    });
    const assets = data.urls.assets;
    expect(assets).toMatch(new RegExp(`^${t.url}/integrations/acme\\.analytics_v-1/v1/[\\w-]{22}/$`));
    expect(data.urls).toEqual({
      location: `${t.url}/v1/integrations/acme.analytics_v-1`,
      icon: `${assets}icon.png`,
      app: `${t.url}/app/integrations/acme.analytics_v-1`,
      assets,
      publicEndpoint: `${t.url}/integrations/acme.analytics_v-1`,
      publicContentEndpoint: `${t.url}/integrations/acme.analytics_v-1`,
    });
    expect(data.previewImages).toEqual([`${assets}preview-0.jpg`, `${assets}preview-1.gif`, `${assets}preview-2.svg`]);
    // The secret is sealed in the row, and no answer carries it.
    expect(JSON.stringify(data)).not.toContain('sk-very-secret-value');
    expect(data).not.toHaveProperty('secrets');
    const row = await t.prisma.integration.findUniqueOrThrow({ where: { name: 'acme.analytics_v-1' } });
    expect(row.secretsCiphertext).not.toContain('sk-very-secret-value');
    expect(JSON.parse(unseal(t.app.services.secret, integrationSecretsSealedFor(row.name), row.secretsCiphertext!))).toEqual({
      API_KEY: 'sk-very-secret-value',
    });
    for (const path of ['/v1/integrations/acme.analytics_v-1', '/v1/integrations?search=analytics']) {
      const res = await t.request('GET', path, { token: world.admin.token });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('sk-very-secret-value');
      expect(res.text).not.toContain('secrets');
    }
    // Recorded in the owner organization, with neither the secret nor its sealed form.
    const events = await t.prisma.auditEvent.findMany({ where: { targetId: row.id } });
    expect(events.map((event) => [event.action, event.organizationId, event.targetLabel, event.actorId])).toEqual([
      ['integration_published', acme, 'Acme analytics', world.admin.userId],
    ]);
    expect(events[0].payload).toMatchObject({ integration: 'acme.analytics_v-1', version: 1, visibility: 'public', target: 'space' });
    for (const secret of ['sk-very-secret-value', row.secretsCiphertext!]) expect(JSON.stringify(events)).not.toContain(secret);
  });

  it('takes the owner organization by subdomain, and defaults what the manifest leaves out', async () => {
    const data = await published('by-subdomain', {}, 'acme');
    expectMatchesSpec('0202', 'post', ITEM, 200, data);
    expect(data).toMatchObject({
      owner: { id: acme },
      visibility: 'private',
      target: 'all',
      categories: [],
      blocks: [],
      contentSources: [],
      externalLinks: [],
      configurations: {},
      previewImages: [],
    });
    expect(data).not.toHaveProperty('summary');
    expect(data).not.toHaveProperty('contentSecurityPolicy');
    expect(data.urls).not.toHaveProperty('icon');
  });

  it('republishes for the owner organization with version + 1, replacing the whole manifest', async () => {
    const first = await published('republished', {
      visibility: 'public',
      blocks: [{ id: 'one', title: 'One' }],
      secrets: { KEY: 'v1' },
      icon: images.png,
    });
    const second = await published('republished', { visibility: 'public', title: 'Renamed', script: 'v2();' });
    expectMatchesSpec('0202', 'post', ITEM, 200, second);
    expect(first.version).toBe(1);
    expect(second).toMatchObject({ version: 2, title: 'Renamed', blocks: [] });
    expect(second.urls).not.toHaveProperty('icon');
    expect(second.urls.assets).not.toBe(first.urls.assets);
    expect((await t.prisma.integration.findUniqueOrThrow({ where: { name: 'republished' } })).secretsCiphertext).toBeNull();
    expect((await published('republished', { visibility: 'public' })).version).toBe(3);
    const events = await t.prisma.auditEvent.findMany({
      where: { action: 'integration_published', payload: { path: ['integration'], equals: 'republished' } },
    });
    expect(events.map((event) => (event.payload as any).version).sort()).toEqual([1, 2, 3]);
    expect(JSON.stringify(events)).not.toContain('v1"');
  });

  it('refuses a name published by another organization (409), whoever asks', async () => {
    await published('taken', { visibility: 'public' });
    const other = await publish('taken', manifest(world.outsiderOrganizationId), world.outsider.token);
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      error: { code: 409, message: 'An integration named "taken" is already published by another organization.' },
    });
    // The admin administers Second too: it is still another organization.
    expect((await publish('taken', manifest(world.secondOrganizationId))).status).toBe(409);
    expect((await t.prisma.integration.findUniqueOrThrow({ where: { name: 'taken' } })).version).toBe(1);
    expect(
      await t.prisma.auditEvent.count({ where: { action: 'integration_published', payload: { path: ['integration'], equals: 'taken' } } }),
    ).toBe(1);
  });

  it('refuses to make private an integration installed in other organizations (409)', async () => {
    const integration = await published('shared', { visibility: 'public' });
    const row = await t.prisma.integration.findUniqueOrThrow({ where: { name: integration.name } });
    await buildInstallation(t.prisma, { integrationId: row.id, organizationId: world.outsiderOrganizationId });
    const res = await publish('shared', manifest(acme, { visibility: 'private' }));
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/installed in 1 other organization: a private integration/);
    expect((await publish('shared', manifest(acme, { visibility: 'unlisted' }))).status).toBe(200);
  });

  it('brings its installations’ status in line with the required account configuration on republish', async () => {
    await published('configured', { visibility: 'public' });
    const row = await t.prisma.integration.findUniqueOrThrow({ where: { name: 'configured' } });
    const configured = await buildInstallation(t.prisma, { integrationId: row.id, organizationId: acme, configuration: { token: 'x' } });
    const bare = await buildInstallation(t.prisma, { integrationId: row.id, organizationId: world.secondOrganizationId });
    const paused = await buildInstallation(t.prisma, {
      integrationId: row.id,
      organizationId: world.outsiderOrganizationId,
      status: 'paused',
    });
    await published('configured', {
      visibility: 'public',
      configurations: { account: { properties: { token: { type: 'string' } }, required: ['token'] } },
    });
    const status = async (id: string) => (await t.prisma.integrationInstallation.findUniqueOrThrow({ where: { id } })).status;
    expect([await status(configured.id), await status(bare.id), await status(paused.id)]).toEqual(['active', 'pending', 'paused']);
    await published('configured', { visibility: 'public' });
    expect([await status(configured.id), await status(bare.id)]).toEqual(['active', 'active']);
  });

  it('answers 401 without a token, 404 for an organization the caller is not in or that does not exist, 403 below admin', async () => {
    expect((await publish('denied', manifest(acme), '')).status).toBe(401);
    for (const organization of [world.outsiderOrganizationId, 'nosuchorganization00', 'nosuchsubdomain']) {
      const res = await publish('denied', manifest(organization));
      expect(res.status, organization).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Organization not found' } });
    }
    for (const person of [world.creator, world.reader, world.guest]) {
      const res = await publish('denied', manifest(acme), person.token);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe(403);
    }
    expect(await t.prisma.integration.count({ where: { name: 'denied' } })).toBe(0);
    expect(await t.prisma.auditEvent.count({ where: { payload: { path: ['integration'], equals: 'denied' } } })).toBe(0);
  });

  it('refuses each limit of the manifest with a 400 naming the field', async () => {
    const bigImage = Buffer.concat([Buffer.from(images.png, 'base64'), Buffer.alloc(256 * 1024)]).toString('base64');
    const cases: [string, string, Record<string, unknown>, RegExp][] = [
      ['name with a slash', 'a%2Fb', {}, /^Invalid "integrationName"/],
      ['name of dots', '...', {}, /^Invalid "integrationName"/],
      ['name with a space', 'a%20b', {}, /^Invalid "integrationName"/],
      ['title too short', 'ok', { title: 'A' }, /^Invalid "title": must be at least 2 characters/],
      ['title too long', 'ok', { title: 'T'.repeat(31) }, /^Invalid "title": must be at most 30 characters/],
      ['description too long', 'ok', { description: 'd'.repeat(101) }, /^Invalid "description": must be at most 100 characters/],
      ['summary too long', 'ok', { summary: 's'.repeat(2049) }, /^Invalid "summary": must be at most 2048 characters/],
      [
        'four preview images',
        'ok',
        { previewImages: [images.png, images.png, images.png, images.png] },
        /^Invalid "previewImages": must have at most 3 items/,
      ],
      [
        'a preview image not base64',
        'ok',
        { previewImages: [images.png, 'not base64!'] },
        /^Invalid "previewImages.1": must be base64 content/,
      ],
      ['an icon not base64', 'ok', { icon: 'data:image/png;base64,xyz' }, /^Invalid "icon": must be base64 content/],
      [
        'an icon that is no image',
        'ok',
        { icon: Buffer.from('just text').toString('base64') },
        /^Invalid "icon": must be a PNG, JPEG, GIF, WebP or SVG image/,
      ],
      ['an icon too large', 'ok', { icon: bigImage }, /^Invalid "icon": must be at most 262144 bytes once decoded/],
      ['an empty script', 'ok', { script: '' }, /^Invalid "script"/],
      ['a script too large', 'ok', { script: 'x'.repeat(512 * 1024 + 1) }, /^Invalid "script": must be at most 524288 bytes/],
      ['an unknown scope', 'ok', { scopes: ['space:everything'] }, /^Invalid "scopes.0": must be one of/],
      ['an unknown category', 'ok', { categories: ['games'] }, /^Invalid "categories.0": must be one of/],
      ['an unknown visibility', 'ok', { visibility: 'secret' }, /^Invalid "visibility": must be one of "public", "private", "unlisted"/],
      ['an unknown target', 'ok', { target: 'page' }, /^Invalid "target": must be one of/],
      ['a block title too short', 'ok', { blocks: [{ id: 'b', title: 'B' }] }, /^Invalid "blocks.0.title": must be at least 2 characters/],
      [
        'two blocks of one id',
        'ok',
        {
          blocks: [
            { id: 'b', title: 'Bee' },
            { id: 'b', title: 'Bee' },
          ],
        },
        /^Invalid "blocks.1": repeats the block id "b"/,
      ],
      [
        'a URL pattern without host',
        'ok',
        { blocks: [{ id: 'b', title: 'Bee', urlUnfurl: ['figma'] }] },
        /^Invalid "blocks.0.urlUnfurl.0"/,
      ],
      [
        'a content source without configuration',
        'ok',
        { contentSources: [{ id: 's', title: 'Source' }] },
        /^Invalid "contentSources.0.configuration"/,
      ],
      [
        'six external links',
        'ok',
        { externalLinks: Array(6).fill({ url: 'https://example.com', label: 'x' }) },
        /^Invalid "externalLinks": must have at most 5 items/,
      ],
      [
        'an external link not http',
        'ok',
        { externalLinks: [{ url: 'javascript:alert(1)', label: 'x' }] },
        /^Invalid "externalLinks.0.url"/,
      ],
      [
        'a required property not declared',
        'ok',
        { configurations: { account: { properties: {}, required: ['token'] } } },
        /^Invalid "configurations.account.required.0": names no property \("token"\)/,
      ],
      [
        'a property of an unknown type',
        'ok',
        { configurations: { space: { properties: { a: { type: 'date' } } } } },
        /^Invalid "configurations.space.properties.a.type"/,
      ],
      [
        'a default of another type',
        'ok',
        { configurations: { site: { properties: { a: { type: 'number', default: 'x' } } } } },
        /^Invalid "configurations.site.properties.a.default"/,
      ],
      ['a component with more', 'ok', { configurations: { site: { componentId: 'c', more: 1 } } }, /^Invalid "configurations.site"/],
      ['an unknown configuration level', 'ok', { configurations: { page: { componentId: 'x' } } }, /^Invalid "configurations"/],
      [
        '21 secrets',
        'ok',
        { secrets: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`K${i}`, 'v'])) },
        /^Invalid "secrets": must have at most 20 secrets/,
      ],
      ['a secret that is no string', 'ok', { secrets: { KEY: 1 } }, /^Invalid "secrets.KEY"/],
      [
        'a policy with a line break',
        'ok',
        { contentSecurityPolicy: "default-src 'self'\r\nSet-Cookie: a=b" },
        /^Invalid "contentSecurityPolicy"/,
      ],
      ['a policy of an unknown directive', 'ok', { contentSecurityPolicy: { 'evil-src': '*' } }, /^Invalid "contentSecurityPolicy"/],
      ['no organization', 'ok', { organization: undefined }, /^Invalid "organization": required/],
    ];
    for (const [label, name, overrides, message] of cases) {
      const res = await publish(name, manifest(acme, overrides));
      expect(res.status, `${label}: ${res.text}`).toBe(400);
      expect(res.body.error, label).toEqual({ code: 400, message: expect.stringMatching(message) });
    }
    expect(await t.prisma.integration.count({ where: { name: 'ok' } })).toBe(0);
  });

  // Issue 22: the router matched no parameter over 100 characters, and REST answered 404 "No endpoint".
  it('takes a name of 100 characters; a longer one is a 400 naming it, through REST, GitBook’s client and GraphQL', async () => {
    expect((await publish('n'.repeat(100), manifest(acme))).status).toBe(200);
    const refused = { error: { code: 400, message: 'Invalid "integrationName": must be at most 100 characters.' } };
    for (const length of [101, 1000, 10_000]) {
      expect(await publish('n'.repeat(length), manifest(acme)), `${length}`).toMatchObject({ status: 400, body: refused });
    }
    const client = gitbookClient('0202', t.url, world.admin.token);
    const error = await client.integrations.publishIntegration('n'.repeat(101), manifest(acme) as unknown as PublishIntegration).then(
      () => undefined,
      (thrown: { code: number; errorMessage: string }) => thrown,
    );
    expect(error).toMatchObject({ code: 400, errorMessage: refused.error.message });
    const res = await t.request('POST', '/graphql', {
      token: world.admin.token,
      body: {
        query:
          'mutation($name: String!, $input: PublishIntegrationInput!) { publishIntegration(integrationName: $name, input: $input) { name } }',
        variables: { name: 'n'.repeat(101), input: manifest(acme, { scopes: ['space_content_read'] }) },
      },
    });
    expect(res.body.errors[0]).toMatchObject({
      message: 'Invalid "integrationName": must be at most 100 characters.',
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  it('takes images of every kind the limits allow, and 0.130’s scopes', async () => {
    const data = await published('all-images', {
      icon: images.webp,
      previewImages: [images.png, images.jpeg, images.svg],
      scopes: ['space:views:read', 'space:script:inject'],
      categories: ['gitsync'],
    });
    expect(data.urls.icon).toMatch(/icon\.webp$/);
    expect(data.previewImages.map((url: string) => url.split('/').pop())).toEqual(['preview-0.png', 'preview-1.jpg', 'preview-2.svg']);
    expect(data.scopes).toEqual(['space:views:read', 'space:script:inject']);
  });
});

describe('GET /v1/integrations/{integrationName}', () => {
  it('answers a public or unlisted integration to anyone, a private one to its organization only', async () => {
    const privateOne = await published('private-one', { visibility: 'private' });
    await published('unlisted-one', { visibility: 'unlisted' });
    await published('public-one', { visibility: 'public' });
    const outsider = gitbookClient('0202', t.url, world.outsider.token);
    for (const name of ['unlisted-one', 'public-one']) {
      const { data } = await outsider.integrations.getIntegrationByName(name);
      expectMatchesSpec('0202', 'get', ITEM, 200, data);
      expect(data.permissions).toEqual({ admin: false, install: true });
    }
    for (const person of [world.outsider, world.guest]) {
      const res = await t.request('GET', '/v1/integrations/private-one', { token: person.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Integration not found' } });
    }
    const reader = await gitbookClient('0202', t.url, world.reader.token).integrations.getIntegrationByName('private-one');
    expectMatchesSpec('0202', 'get', ITEM, 200, reader.data);
    expect(reader.data).toMatchObject({ name: 'private-one', version: privateOne.version, permissions: { admin: false, install: false } });
    expect((await t.request('GET', '/v1/integrations/no-such-one', { token: world.admin.token })).status).toBe(404);
    expect((await t.request('GET', '/v1/integrations/public-one')).status).toBe(401);
  });

  it('shows its owner as the public projection of the organization, whoever asks, with none of its member-only fields', async () => {
    await published('owned', { visibility: 'public' });
    const outsider = await t.request('GET', '/v1/integrations/owned', { token: world.outsider.token });
    expectMatchesSpec('0202', 'get', ITEM, 200, outsider.body);
    expect(outsider.body.owner).toMatchObject({ id: acme, title: 'Acme', emailDomains: [], plan: 'free', mergeRules: { type: 'none' } });
    expect(outsider.body.owner.permissions).toMatchObject({ view: false, admin: false });
    // A member reads the organization itself for the rest; through the integration, it is the same projection.
    const member = await t.request('GET', '/v1/integrations/owned', { token: world.reader.token });
    expect(member.body.owner).toMatchObject({ id: acme, emailDomains: [] });
    expect(member.body.owner.permissions).toMatchObject({ view: true, admin: false });
    // Issue 21, finding 4: the member type, with its custom field definitions, was reachable through the owner.
    await t.prisma.customField.create({ data: { id: 'secretField', organizationId: acme, name: 'secret', type: 'text' } });
    const query = '{ integration(name: "owned") { owner { customFields { items { name } } } } }';
    const graph = await t.request('POST', '/graphql', { token: world.outsider.token, body: { query } });
    expect(graph.body.errors?.[0]?.message).toMatch(/Cannot query field "customFields" on type "PublicOrganization"/);
    expect(graph.text).not.toContain('secret');
  });
});

describe('DELETE /v1/integrations/{integrationName}', () => {
  it('unpublishes for the owner organization’s admins, uninstalling it everywhere', async () => {
    await published('doomed', { visibility: 'public' });
    const row = await t.prisma.integration.findUniqueOrThrow({ where: { name: 'doomed' } });
    const space = await buildSpace(t.prisma, { organizationId: world.outsiderOrganizationId });
    const theirs = await buildInstallation(t.prisma, {
      integrationId: row.id,
      organizationId: world.outsiderOrganizationId,
      spaceSelection: 'selected',
    });
    await t.prisma.installationSpace.create({ data: { installationId: theirs.id, spaceId: space.id } });
    await buildInstallation(t.prisma, { integrationId: row.id, organizationId: acme });
    for (const person of [world.outsider, world.creator, world.reader]) {
      const res = await t.request('DELETE', '/v1/integrations/doomed', { token: person.token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: { code: 403, message: 'You do not have the "admin" permission on this integration.' } });
    }
    const { status } = await gitbookClient('0202', t.url, world.admin.token).integrations.unpublishIntegration('doomed');
    expect(status).toBe(204);
    expect(await t.prisma.integrationInstallation.count({ where: { integrationId: row.id } })).toBe(0);
    expect(await t.prisma.installationSpace.count({ where: { spaceId: space.id } })).toBe(0);
    expect((await t.request('GET', '/v1/integrations/doomed', { token: world.admin.token })).status).toBe(404);
    expect((await t.request('DELETE', '/v1/integrations/doomed', { token: world.admin.token })).status).toBe(404);
    const events = await t.prisma.auditEvent.findMany({ where: { targetId: row.id }, orderBy: { action: 'asc' } });
    expect(events.map((event) => [event.action, event.organizationId])).toEqual([
      ['integration_published', acme],
      ['integration_unpublished', acme],
    ]);
  });

  it('does not find a private integration for anyone outside its organization', async () => {
    await published('hidden', { visibility: 'private' });
    expect((await t.request('DELETE', '/v1/integrations/hidden', { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('DELETE', '/v1/integrations/hidden', { token: world.reader.token })).status).toBe(403);
    expect(await t.prisma.integration.count({ where: { name: 'hidden' } })).toBe(1);
    expect(
      await t.prisma.auditEvent.count({
        where: { action: 'integration_unpublished', payload: { path: ['integration'], equals: 'hidden' } },
      }),
    ).toBe(0);
  });
});

describe('assets at urls.assets', () => {
  it('serves the script with the integration’s Content-Security-Policy, without a token', async () => {
    const data = await published('served', {
      script: 'console.log("served");',
      contentSecurityPolicy: "default-src 'self'; script-src https://cdn.example.com",
    });
    const res = await t.request('GET', pathOf(`${data.urls.assets}script.js`));
    expect(res.status).toBe(200);
    expect(res.text).toBe('console.log("served");');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'self'; script-src https://cdn.example.com");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const head = await t.request('HEAD', pathOf(`${data.urls.assets}script.js`));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-security-policy')).toBe("default-src 'self'; script-src https://cdn.example.com");
  });

  it('serves the icon and preview images with their types under a sandboxing policy', async () => {
    const data = await published('pictured', { icon: images.png, previewImages: [images.gif, images.svg] });
    const icon = await fetch(data.urls.icon);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await icon.arrayBuffer()).toString('base64')).toBe(images.png);
    const [gif, svg] = await Promise.all(data.previewImages.map((url: string) => fetch(url)));
    expect(gif.headers.get('content-type')).toBe('image/gif');
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
  });

  it('does not find an asset under a wrong signature, another version or a wrong name, nor one the integration lacks', async () => {
    const first = await published('versioned', { icon: images.png });
    const second = await published('versioned', { icon: images.gif });
    const script = `${second.urls.assets}script.js`;
    expect((await t.request('GET', pathOf(script))).status).toBe(200);
    const tampered = script.replace(/\/([\w-]{22})\//, (_, signature: string) => `/${signature.slice(1)}A/`);
    const elsewhere = script.replace('/versioned/', '/served/');
    for (const url of [
      `${first.urls.assets}script.js`,
      first.urls.icon,
      tampered,
      elsewhere,
      `${second.urls.assets}icon.png`,
      `${second.urls.assets}preview-0.png`,
    ]) {
      const res = await t.request('GET', pathOf(url));
      expect(res.status, url).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Asset not found' } });
    }
    expect((await t.request('POST', pathOf(script))).status).toBe(405);
  });

  it('serves a private integration’s assets by their signed URL (published sites load them for anonymous visitors)', async () => {
    const data = await published('private-script', { visibility: 'private', script: 'secretive();' });
    const res = await t.request('GET', pathOf(`${data.urls.assets}script.js`));
    expect(res.status).toBe(200);
    expect(res.text).toBe('secretive();');
  });

  it('answers the public endpoints with 501: this server runs no integration code', async () => {
    const data = await published('endpoint');
    const res = await t.request('POST', pathOf(data.urls.publicEndpoint), { body: {} });
    expect(res.status).toBe(501);
    expect(res.body.error.code).toBe(501);
  });
});
