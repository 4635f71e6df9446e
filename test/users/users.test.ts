// GET /v1/user, GET /v1/users/{userId} and GET /v1/ (what the service says of itself), through GitBook's client.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Person, useApi } from '../support/app.js';
import { eventsOf } from '../support/events.js';
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

describe('PATCH /v1/users/{userId} (updateUserById)', () => {
  it('changes one’s own display name and photo, matching the spec, recorded in one’s organizations', async () => {
    const person = await buildUser(t.prisma, { displayName: 'Before' });
    const { organization } = await buildOrganization(t.prisma, { owner: person });
    const res = await gitbookClient('0202', t.url, person.token).users.updateUserById(person.userId, {
      displayName: 'After',
      photoURL: 'https://example.com/after.png',
    });
    expect(res.status).toBe(200);
    expectMatchesSpec('0202', 'PATCH', '/users/{userId}', 200, res.data);
    expect(res.data).toMatchObject({ id: person.userId, displayName: 'After', photoURL: 'https://example.com/after.png' });
    const [event] = await eventsOf(t.prisma, { organizationId: organization.id }, 'user_updated');
    expect(event.payload).toMatchObject({ changed: { displayName: { from: 'Before', to: 'After' } } });
    const removed = await t.request('PATCH', `/v1/users/${person.userId}`, { token: person.token, body: { photoURL: null } });
    expect(removed.body.photoURL).toBeUndefined();
  });

  it('refuses another user one sees (403), one one does not see (404), and bad input (400)', async () => {
    expect((await t.request('PATCH', `/v1/users/${colleague.userId}`, { token: alice.token, body: { displayName: 'X' } })).status).toBe(
      403,
    );
    expect((await t.request('PATCH', `/v1/users/${stranger.userId}`, { token: alice.token, body: { displayName: 'X' } })).status).toBe(404);
    for (const body of [{ displayName: '' }, { displayName: 'x'.repeat(65) }, { displayName: null }, { photoURL: 'not a url' }]) {
      const res = await t.request('PATCH', `/v1/users/${alice.userId}`, { token: alice.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});
