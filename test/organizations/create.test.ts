// POST /v1/orgs (createOrganization): who may create an organization (ORGANIZATION_CREATION, INSTANCE_ADMINS read when
// the service starts), through GitBook's client; the creator is its admin.
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildUser } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const opened: TestApp[] = [];
afterAll(async () => {
  for (const app of opened.reverse()) await app.close();
});
const start = async (env: Record<string, string>, databaseUrl?: string) => {
  const app = await startTestApp({ env, databaseUrl });
  opened.push(app);
  return app;
};
const create = (app: TestApp, token: string, body: Record<string, unknown>, query = '') =>
  app.request('POST', `/v1/orgs${query}`, { token, body });

describe('creating an organization', () => {
  it('is for the instance’s admins by default: users named at start-up, not ones who sign up later with the address', async () => {
    const first = await start({ INSTANCE_ADMINS: 'Root@Example.com, late@example.com' });
    const root = await buildUser(first.prisma, { email: 'root@example.com' });
    const someone = await buildUser(first.prisma);
    // Made after the service started: its address grants nothing yet.
    const late = await buildUser(first.prisma, { email: 'late@example.com' });
    // root@example.com existed neither: the service read the addresses at its start.
    expect((await create(first, root.token, { title: 'Too early' })).status).toBe(403);
    const refused = await create(first, someone.token, { title: 'Nope' });
    expect([refused.status, refused.body.error.message]).toEqual([
      403,
      "Only the instance's admins create organizations here (ORGANIZATION_CREATION=admins).",
    ]);
    await first.stop();

    const second = await start({ INSTANCE_ADMINS: 'root@example.com,late@example.com' }, first.databaseUrl);
    const res = await gitbookClient('0202', second.url, root.token).orgs.createOrganization({
      title: 'Acme',
      emailDomains: ['acme.example'],
    });
    expect(res.status).toBe(201);
    expectMatchesSpec('0202', 'POST', '/orgs', 201, res.data);
    expect(res.data).toMatchObject({ object: 'organization', title: 'Acme', emailDomains: ['acme.example'] });
    expect(res.headers.get('location')).toBe(`${second.url}/v1/orgs/${res.data.id}`);
    const member = await second.prisma.member.findUniqueOrThrow({
      where: { organizationId_userId: { organizationId: res.data.id, userId: root.userId } },
    });
    expect(member.role).toBe('admin');
    expect((await eventsOf(second.prisma, { organizationId: res.data.id })).map((event) => event.action)).toEqual(['organization_created']);
    expect((await create(second, late.token, { title: 'Late, after the restart' })).status).toBe(201);
    expect((await create(second, someone.token, { title: 'Still not' })).status).toBe(403);
  });

  it('is for any user with ORGANIZATION_CREATION=users, but for scoped tokens; refuses bad input and a default site', async () => {
    const app = await start({ ORGANIZATION_CREATION: 'users' });
    const user = await buildUser(app.prisma);
    expect((await create(app, user.token, { title: 'Mine' })).status).toBe(201);
    const scoped = await app.request('POST', '/v1/user/tokens', { token: user.token, body: { label: 'Read', access: 'read' } });
    expect((await create(app, scoped.body.token, { title: 'Read-only' })).status).toBe(403);
    const mine = await app.prisma.organization.findFirstOrThrow({ where: { title: 'Mine' } });
    const inOne = await app.request('POST', '/v1/user/tokens', { token: user.token, body: { label: 'One', organizations: [mine.id] } });
    const refused = await create(app, inOne.body.token, { title: 'Outside' });
    expect([refused.status, refused.body.error.message]).toEqual([
      403,
      'A token scoped to organizations or spaces creates no organization: use a token of your own without scopes.',
    ]);
    for (const [body, query, message] of [
      [{ title: '' }, '', /^Invalid "title"/],
      [{}, '', /^Invalid "title"/],
      [{ title: 'Domains', emailDomains: ['not a domain'] }, '', /^Invalid "emailDomains.0"/],
      [{ title: 'Site' }, '?withDefaultSite=true', /^Invalid "withDefaultSite"/],
    ] as const) {
      const res = await create(app, user.token, body, query);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
  });
});
