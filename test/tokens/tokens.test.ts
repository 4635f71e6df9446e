// API tokens over the API (an extension of GitBook's): a user's own under /v1/user/tokens, an organization's admins'
// view of the tokens that act in it, and the scopes a token narrows every path with: organizations, spaces, reading.
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/kernel/ids.js';
import { type Person, type TestApp, useApi } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildCollection, buildSpace } from '../support/factories.js';

const { t, world } = useApi({ world: true });

async function mint(app: TestApp, person: Person | string, body: Record<string, unknown>) {
  const token = typeof person === 'string' ? person : person.token;
  const res = await app.request('POST', '/v1/user/tokens', { token, body });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; token: string; [field: string]: unknown };
}

const graphql = (token: string, query: string, variables?: Record<string, unknown>) =>
  t.request('POST', '/graphql', { token, body: { query, variables } });

describe("a user's own tokens", () => {
  it('creates one whose secret is answered once and stored hashed, lists, reads and revokes it', async () => {
    const created = await t.request('POST', '/v1/user/tokens', {
      token: world.editor.token,
      body: { label: 'CI', expiresAt: '2099-01-01T00:00:00.000Z' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      object: 'api-token',
      label: 'CI',
      kind: 'personal',
      user: { id: world.editor.userId },
      organizations: [],
      spaces: [],
      access: 'write',
      reaches: [world.organizationId],
      token: expect.stringMatching(/^dpa_[0-9A-Za-z]{40}$/),
      expiresAt: '2099-01-01T00:00:00.000Z',
      urls: { location: `${t.url}/v1/user/tokens/${created.body.id}` },
    });
    expect(created.headers.get('location')).toBe(created.body.urls.location);
    const row = await t.prisma.apiToken.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.tokenHash).toBe(hashToken(created.body.token));
    expect(JSON.stringify(row)).not.toContain(created.body.token);

    // The new token works, and is never answered again.
    expect((await t.request('GET', '/v1/user', { token: created.body.token })).body.id).toBe(world.editor.userId);
    const listed = await t.request('GET', '/v1/user/tokens', { token: world.editor.token });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toContain(created.body.id);
    expect(listed.text).not.toContain(created.body.token);
    const read = await t.request('GET', `/v1/user/tokens/${created.body.id}`, { token: world.editor.token });
    expect(read.body).toMatchObject({ id: created.body.id, lastUsedAt: expect.any(String) });
    expect(read.body.token).toBeUndefined();

    // Someone else's token is not found, whoever asks under /user.
    expect((await t.request('GET', `/v1/user/tokens/${created.body.id}`, { token: world.reader.token })).status).toBe(404);
    expect((await t.request('DELETE', `/v1/user/tokens/${created.body.id}`, { token: world.reader.token })).status).toBe(404);

    t.clock.advanceMs(1000);
    expect((await t.request('DELETE', `/v1/user/tokens/${created.body.id}`, { token: world.editor.token })).status).toBe(204);
    expect((await t.request('GET', '/v1/user', { token: created.body.token })).status).toBe(401);
    const after = await t.request('GET', '/v1/user/tokens', { token: world.editor.token });
    expect(after.body.items.map((item: { id: string }) => item.id)).not.toContain(created.body.id);
    expect((await eventsOf(t.prisma, { targetId: created.body.id })).map((event) => event.action)).toEqual([
      'api_token_created',
      'api_token_revoked',
    ]);
  });

  it('refuses a bad label, a past expiry, an unknown organization or space, 400 naming the field', async () => {
    const hidden = await buildSpace(t.prisma, { organizationId: world.organizationId, defaultLevel: null });
    for (const [body, message] of [
      [{ label: '' }, /^Invalid "label"/],
      [{ label: 'x'.repeat(101) }, /^Invalid "label"/],
      [{ label: 'Old', expiresAt: '2000-01-01T00:00:00Z' }, /^Invalid "expiresAt": must be in the future/],
      [{ label: 'Elsewhere', organizations: [world.outsiderOrganizationId] }, /^Invalid "organizations.0": no such organization/],
      [{ label: 'Hidden', spaces: [hidden.id] }, /^Invalid "spaces.0": no such space/],
      [{ label: 'Loud', access: 'admin' }, /^Invalid "access"/],
    ] as const) {
      const res = await t.request('POST', '/v1/user/tokens', { token: world.reader.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
  });
});

describe('a token scoped to organizations', () => {
  it('acts in its organizations alone: any other is unknown to it, REST and GraphQL alike', async () => {
    const { token } = await mint(t, world.admin, { label: 'Second only', organizations: [world.secondOrganizationId] });
    const orgs = await t.request('GET', '/v1/orgs', { token });
    expect(orgs.body.items.map((org: { id: string }) => org.id)).toEqual([world.secondOrganizationId]);
    expect((await t.request('GET', `/v1/orgs/${world.organizationId}`, { token })).status).toBe(404);
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
    expect((await t.request('GET', `/v1/spaces/${space.id}`, { token })).status).toBe(404);
    expect((await t.request('PATCH', `/v1/spaces/${space.id}`, { token, body: { title: 'Nope' } })).status).toBe(404);
    const answer = await graphql(token, `{ organizations { items { id } } space(id: "${space.id}") { id } }`);
    expect(answer.body.data).toBeNull();
    expect(answer.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
    const listed = await graphql(token, '{ organizations { items { id } } }');
    expect(listed.body.data.organizations.items).toEqual([{ id: world.secondOrganizationId }]);
  });

  it('mints only within its scope and expiry', async () => {
    const scoped = await mint(t, world.admin, {
      label: 'Second, a day',
      organizations: [world.secondOrganizationId],
      expiresAt: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
    });
    const inherited = await mint(t, scoped.token, { label: 'Child' });
    expect(inherited).toMatchObject({ organizations: [world.secondOrganizationId], expiresAt: scoped.expiresAt });
    const wider = await t.request('POST', '/v1/user/tokens', {
      token: scoped.token,
      body: { label: 'Wider', organizations: [world.organizationId] },
    });
    expect([wider.status, wider.body.error.message]).toEqual([400, 'Invalid "organizations.0": no such organization.']);
    const later = await t.request('POST', '/v1/user/tokens', {
      token: scoped.token,
      body: { label: 'Later', expiresAt: '2099-01-01T00:00:00Z' },
    });
    expect(later.status).toBe(400);
    expect(later.body.error.message).toMatch(/^Invalid "expiresAt": must not be later than this token's own expiry/);
    // It sees the tokens it could have minted, not its user's others.
    const listed = await t.request('GET', '/v1/user/tokens', { token: scoped.token });
    const ids = listed.body.items.map((item: { id: string }) => item.id);
    expect(ids).toEqual(expect.arrayContaining([scoped.id, inherited.id]));
    expect(ids).not.toContain(world.admin.tokenId);
    expect((await t.request('DELETE', `/v1/user/tokens/${world.admin.tokenId}`, { token: scoped.token })).status).toBe(404);
  });

  it('of an SSO session mints none', async () => {
    const session = await mint(t, world.admin, { label: 'Will be a session' });
    await t.prisma.apiToken.update({ where: { id: session.id }, data: { organizationId: world.organizationId } });
    const res = await t.request('POST', '/v1/user/tokens', { token: session.token, body: { label: 'Child' } });
    expect([res.status, res.body.error.message]).toEqual([
      403,
      "An SSO session's token mints no token: create one with a token of your own.",
    ]);
  });
});

describe('a read-only token', () => {
  it('reads what its user reads, and is refused every mutation with 403 naming its scope, before its input is checked', async () => {
    const { token } = await mint(t, world.editor, { label: 'Dashboard', access: 'read' });
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Readable' });
    expect((await t.request('GET', `/v1/spaces/${space.id}`, { token })).body.title).toBe('Readable');
    const refused = await t.request('PATCH', `/v1/spaces/${space.id}`, { token, body: { title: 'Changed' } });
    expect([refused.status, refused.body.error.message]).toEqual([
      403,
      'This token\'s scope is read-only (access: "read"): it may not run updateSpace.',
    ]);
    expect((await t.request('PATCH', `/v1/spaces/${space.id}`, { token, body: { title: '' } })).status).toBe(403);
    const viaGraphql = await graphql(token, `mutation { updateSpace(id: "${space.id}", input: { title: "Changed" }) { id } }`);
    expect(viaGraphql.body.errors[0].message).toMatch(/read-only/);
    expect((await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } })).title).toBe('Readable');
  });
});

describe('a token scoped to spaces', () => {
  it('sees those spaces as its user does, and of their organization its id and title only', async () => {
    const collection = await buildCollection(t.prisma, { organizationId: world.organizationId });
    const mine = await buildSpace(t.prisma, { organizationId: world.organizationId, parentId: collection.id, title: 'Mine' });
    const other = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Other' });
    const scoped = await mint(t, world.editor, { label: 'One space', spaces: [mine.id] });
    expect(scoped).toMatchObject({ organizations: [world.organizationId], spaces: [mine.id] });
    const { token } = scoped;

    const read = await t.request('GET', `/v1/spaces/${mine.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body.parent).toBeUndefined();
    const edited = await t.request('PATCH', `/v1/spaces/${mine.id}`, { token, body: { title: 'Mine, edited' } });
    expect(edited.status, edited.text).toBe(200);
    expect((await t.request('GET', `/v1/spaces/${other.id}`, { token })).status).toBe(404);
    expect((await t.request('GET', `/v1/collections/${collection.id}`, { token })).status).toBe(404);
    const spaces = await t.request('GET', `/v1/orgs/${world.organizationId}/spaces`, { token });
    expect(spaces.body.items.map((space: { id: string }) => space.id)).toEqual([mine.id]);
    const collections = await t.request('GET', `/v1/orgs/${world.organizationId}/collections`, { token });
    expect(collections.body.items).toEqual([]);
    const org = await t.request('GET', `/v1/orgs/${world.organizationId}`, { token });
    expect(org.body).toMatchObject({ id: world.organizationId, title: 'Acme' });
    expect((await t.request('GET', `/v1/orgs/${world.organizationId}/members`, { token })).status).toBe(403);
    // Other organizations are not its: Second is unknown to it.
    expect((await t.request('GET', `/v1/orgs/${world.secondOrganizationId}`, { token })).status).toBe(404);
  });
});

describe("an organization's admins", () => {
  it('list the tokens that act in the organization, and revoke one: it stops working everywhere', async () => {
    const everywhere = await mint(t, world.creator, { label: 'Creator, everywhere' });
    const elsewhere = await mint(t, world.admin, { label: 'Admin, Second', organizations: [world.secondOrganizationId] });
    const base = `/v1/orgs/${world.organizationId}/tokens`;
    const listed = await t.request('GET', base, { token: world.admin.token });
    expect(listed.status).toBe(200);
    const ids = listed.body.items.map((item: { id: string }) => item.id);
    expect(ids).toEqual(expect.arrayContaining([everywhere.id, world.creator.tokenId, world.reader.tokenId]));
    expect(ids).not.toContain(elsewhere.id);
    expect(ids).not.toContain(world.outsider.tokenId);
    const item = listed.body.items.find((candidate: { id: string }) => candidate.id === everywhere.id);
    expect(item).toMatchObject({ user: { id: world.creator.userId }, reaches: [world.organizationId] });
    expect(item.token).toBeUndefined();

    for (const person of [world.creator, world.reader]) {
      expect((await t.request('GET', base, { token: person.token })).status).toBe(403);
      expect((await t.request('DELETE', `${base}/${everywhere.id}`, { token: person.token })).status).toBe(403);
    }
    expect((await t.request('GET', base, { token: world.outsider.token })).status).toBe(404);
    // A token that does not act here is not found here.
    expect((await t.request('DELETE', `${base}/${world.outsider.tokenId}`, { token: world.admin.token })).status).toBe(404);

    expect((await t.request('DELETE', `${base}/${everywhere.id}`, { token: world.admin.token })).status).toBe(204);
    expect((await t.request('GET', '/v1/user', { token: everywhere.token })).status).toBe(401);
    const [revoked] = await eventsOf(t.prisma, { targetId: everywhere.id }, 'api_token_revoked');
    expect(revoked).toMatchObject({ actorId: world.admin.userId, organizationId: world.organizationId });
  });
});

describe('through GraphQL', () => {
  it('mints, lists and revokes as REST does, the secret answered once', async () => {
    const created = await graphql(
      world.reviewer.token,
      `mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { id token access organizations reaches } }`,
      { input: { label: 'GraphQL', access: 'read', organizations: [world.organizationId] } },
    );
    expect(created.body.errors).toBeUndefined();
    const token = created.body.data.createApiToken;
    expect(token).toMatchObject({ access: 'read', organizations: [world.organizationId], reaches: [world.organizationId] });
    const listed = await graphql(world.reviewer.token, '{ apiTokens { items { id token } } }');
    expect(listed.body.data.apiTokens.items).toContainEqual({ id: token.id, token: null });
    const seen = await graphql(world.admin.token, `{ organization(id: "${world.organizationId}") { tokens { items { id } } } }`);
    expect(seen.body.data.organization.tokens.items).toContainEqual({ id: token.id });
    const revoked = await graphql(world.reviewer.token, `mutation { revokeApiToken(tokenId: "${token.id}") }`);
    expect(revoked.body.data).toEqual({ revokeApiToken: true });
    const again = await graphql(world.reviewer.token, `mutation { revokeApiToken(tokenId: "${token.id}") }`);
    expect(again.body.data).toEqual({ revokeApiToken: false });
    expect((await t.request('GET', '/v1/user', { token: token.token })).status).toBe(401);
  });
});
