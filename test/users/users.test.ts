// GET /v1/user, GET /v1/users/{userId} and GET /v1/ (what the service says of itself), through GitBook's client.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Person, useApi } from '../support/app.js';
import { buildMember, buildOrganization, buildUser } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t } = useApi();
let alice: Person;
let colleague: Person;
let guest: Person;
let stranger: Person;

beforeAll(async () => {
  alice = await buildUser(t.prisma, { displayName: 'Alice', photoURL: 'https://example.com/alice.png' });
  const { organization } = await buildOrganization(t.prisma, { owner: alice });
  colleague = await buildMember(t.prisma, { organizationId: organization.id, role: 'read' });
  guest = await buildMember(t.prisma, { organizationId: organization.id, role: null });
  stranger = (await buildOrganization(t.prisma)).owner;
});

describe('GET /v1/user', () => {
  it('answers the token’s user, matching the spec', async () => {
    const res = await gitbookClient('0202', t.url, alice.token).user.getAuthenticatedUser();
    expect(res.status).toBe(200);
    expectMatchesSpec('0202', 'GET', '/user', 200, res.data);
    expect(res.data).toEqual({
      object: 'user',
      id: alice.userId,
      displayName: 'Alice',
      email: alice.email,
      photoURL: 'https://example.com/alice.png',
      urls: { location: `${t.url}/v1/users/${alice.userId}` },
    });
    expect((await t.request('GET', '/v1/user')).status).toBe(401);
  });
});

describe('GET /v1/users/{userId}', () => {
  it('shows a user to themselves and to members of their organizations, guests included', async () => {
    const api = gitbookClient('0202', t.url, alice.token);
    const res = await api.users.getUserById(colleague.userId);
    expectMatchesSpec('0202', 'GET', '/users/{userId}', 200, res.data);
    expect(res.data).toMatchObject({ id: colleague.userId, email: colleague.email });
    expect((await t.request('GET', `/v1/users/${alice.userId}`, { token: guest.token })).status).toBe(200);
    expect((await t.request('GET', `/v1/users/${stranger.userId}`, { token: stranger.token })).status).toBe(200);
  });

  it('answers 404, as for an unknown id, for a user who shares no organization with the caller', async () => {
    const hidden = await t.request('GET', `/v1/users/${stranger.userId}`, { token: alice.token });
    const unknown = await t.request('GET', '/v1/users/AAAAAAAAAAAAAAAAAAAA', { token: alice.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(unknown.body);
    expect(hidden.body).toEqual({ error: { code: 404, message: 'User not found' } });
  });
});

describe('GET /v1/', () => {
  it('says the version and build, matching the spec', async () => {
    const res = await gitbookClient('0202', t.url, alice.token).getApiInformation();
    expect(res.status).toBe(200);
    expectMatchesSpec('0202', 'GET', '/', 200, res.data);
    expect(res.data.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(new Date(res.data.build).toISOString()).toBe(res.data.build);
  });
});
