// Restricted objects reached through REST the long way round: through a site that publishes them, a collection, an
// integration, the organization's search, a space's grant lists, an invite link and a job. Each answer is as the
// persona's own reading of the object says: what they may not see is left out (and out of the counts), not found, or
// refused; the organization's admin meanwhile sees it all, so that its absence means something. The findings of issue
// 21 that REST reaches are reproduced here; test/kernel/access-walk.test.ts walks the whole graph.
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { type Person, useApi } from '../support/app.js';
import { buildMember } from '../support/factories.js';
import { expectMatchesSpec } from '../support/openapi.js';
import { buildRestrictedWorld, type RestrictedWorld } from '../support/restricted-world.js';

const { t } = useApi();
let w: RestrictedWorld;
let reader: Person;
let admin: Person;

beforeAll(async () => {
  w = await buildRestrictedWorld(t);
  ({ reader, admin } = w.world);
}, 240_000);

const get = (path: string, person: Person) => t.request('GET', path, { token: person.token });
const ids = (items: { id: string }[]) => items.map((item) => item.id).sort();

describe('a site that publishes a space the reader may not see (issue 21, finding 1)', () => {
  const site = () => `/v1/orgs/${w.org}/sites/${w.site}`;

  it('is not found by the reader, directly', async () => {
    expect((await get(`/v1/spaces/${w.secretSpace}`, reader)).status).toBe(404);
    expect((await get(`/v1/spaces/${w.secretSpace}`, admin)).status).toBe(200);
  });

  it('is left out of the site’s site spaces, their count and the site’s count', async () => {
    const mine = await get(`${site()}/site-spaces`, reader);
    expect(mine.status).toBe(200);
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/sites/{siteId}/site-spaces', 200, mine.body);
    expect(mine.body.items.map((item: { space: { id: string } }) => item.space.id)).toEqual([w.openSpace]);
    expect(mine.body.count).toBe(1);
    expect(JSON.stringify(mine.body)).not.toMatch(/LEAK/);
    expect((await get(`${site()}/site-spaces`, admin)).body.count).toBe(3);
    expect((await get(site(), reader)).body.siteSpaces).toBe(1);
    expect((await get(site(), admin)).body.siteSpaces).toBe(3);
  });

  it('is left out of the sections’ site spaces, the structure and the published view', async () => {
    for (const path of ['sections', 'structure', 'published']) {
      const res = await get(`${site()}/${path}`, reader);
      expect(res.status, path).toBe(200);
      expect(JSON.stringify(res.body), path).not.toMatch(/LEAK|secretSpace/);
      expect(JSON.stringify(res.body), path).not.toContain(w.secretInCollection);
      expect(JSON.stringify(await get(`${site()}/${path}`, admin)), path).toContain(w.secretInCollection);
    }
  });

  it('leaves its change requests out of the organization’s, whatever the filter (the site’s, the space’s)', async () => {
    const statuses = 'status=draft&status=open&status=merged';
    for (const filter of ['', `&site=${w.site}`, `&space=${w.secretSpace}`]) {
      const path = `/v1/orgs/${w.org}/change-requests?${statuses}${filter}`;
      const mine = await get(path, reader);
      expect(mine.status, filter).toBe(200);
      expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/change-requests', 200, mine.body);
      expect(JSON.stringify(mine.body), filter).not.toMatch(/LEAK/);
      expect(mine.body.count, filter).toBe(filter.includes('space=') ? 0 : 2);
      expect(JSON.stringify((await get(path, admin)).body), filter).toMatch(/LEAKopencr/);
    }
  });

  it('is published by no site, as far as the reader can tell', async () => {
    expect((await get(`/v1/orgs/${w.org}/sites?space=${w.secretSpace}`, reader)).body).toMatchObject({ items: [], count: 0 });
    expect((await get(`/v1/orgs/${w.org}/sites?space=${w.secretSpace}`, admin)).body.count).toBe(1);
  });

  it('shows none of its pages through GraphQL, as the issue’s query read them', async () => {
    const query = `{ organization(id: "${w.org}") { site(id: "${w.site}") { siteSpaces { count items { space {
      id title content { pages { id title } } changeRequests { items { subject } } } } } } } }`;
    const res = await t.request('POST', '/graphql', { token: reader.token, body: { query } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.organization.site.siteSpaces.count).toBe(1);
    expect(res.text).not.toMatch(/LEAK/);
    const theirs = await t.request('POST', '/graphql', { token: admin.token, body: { query } });
    expect(theirs.text).toMatch(/LEAKpage/);
  });
});

describe('a collection the reader may not see', () => {
  it('is left out of the organization’s collections, and not found, nor its spaces', async () => {
    const collections = await get(`/v1/orgs/${w.org}/collections`, reader);
    expect(ids(collections.body.items)).toEqual([w.openCollection]);
    expect(collections.body.count).toBe(1);
    expect((await get(`/v1/collections/${w.secretCollection}`, reader)).status).toBe(404);
    expect((await get(`/v1/collections/${w.secretCollection}/spaces`, reader)).status).toBe(404);
    expect((await get(`/v1/collections/${w.secretCollection}/spaces`, admin)).body.count).toBe(1);
  });

  it('keeps the reader’s spaces list to what they may see', async () => {
    const spaces = await get(`/v1/orgs/${w.org}/spaces`, reader);
    expect(ids(spaces.body.items)).toEqual([w.openSpace]);
    expect(spaces.body.count).toBe(1);
  });
});

describe('the reviews of a change request in a space the reader may not see', () => {
  const reviews = () => `/v1/spaces/${w.secretSpace}/change-requests/${w.secretChangeRequests[1]}/reviews`;

  it('are not found, nor any one of them, nor what the change request asks for', async () => {
    expect((await get(reviews(), reader)).status).toBe(404);
    expect((await get(`${reviews()}/${w.secretReviews[0]}`, reader)).status).toBe(404);
    expect((await get(reviews().replace(/reviews$/, 'requested-reviewers'), reader)).status).toBe(404);
    const theirs = await get(`${reviews()}/${w.secretReviews[0]}`, admin);
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}', 200, theirs.body);
    expect(theirs.body.comment.body.markdown).toBe('LEAKreview');
  });

  it('are not found through the open space either, by the secret review’s id', async () => {
    const open = `/v1/spaces/${w.openSpace}/change-requests/${w.openChangeRequests[1]}/reviews`;
    expect((await get(`${open}/${w.secretReviews[0]}`, admin)).status).toBe(404);
    const mine = await get(open, reader);
    expect(ids(mine.body.items)).toEqual(w.openReviews);
    expect(JSON.stringify(mine.body)).not.toMatch(/LEAKreview/);
  });
});

describe('an import run into a space the reader may not see', () => {
  const runs = () => `/v1/org/${w.org}/imports`;

  it('is left out of the organization’s runs and their count, not found, and cannot be cancelled', async () => {
    const mine = await get(`${runs()}?limit=1000`, reader);
    expect(mine.status).toBe(200);
    expectMatchesSpec('0202', 'get', '/org/{organizationId}/imports', 200, mine.body);
    expect(ids(mine.body.items)).toEqual([w.openImportRun]);
    expect(mine.body.count).toBe(1);
    expect(JSON.stringify(mine.body)).not.toMatch(/LEAK/);
    for (const filter of [`space=${w.secretSpace}`, `changeRequest=${w.secretChangeRequests[1]}`, `site=${w.site}`]) {
      const filtered = await get(`${runs()}?${filter}`, reader);
      expect(ids(filtered.body.items), filter).not.toContain(w.secretImportRun);
    }
    expect((await get(`${runs()}/${w.secretImportRun}`, reader)).status).toBe(404);
    const cancel = await t.request('POST', `${runs()}/${w.secretImportRun}/cancel`, { token: reader.token });
    expect(cancel.status).toBe(404);
    expect(ids((await get(`${runs()}?limit=1000`, admin)).body.items)).toEqual([w.openImportRun, w.secretImportRun].sort());
    expect((await get(`${runs()}/${w.secretImportRun}`, admin)).body.status).toBe('pending');
  });
});

describe('the organization’s search', () => {
  it('finds nothing of a space the reader may not see, the admin finds it', async () => {
    const mine = await get(`/v1/orgs/${w.org}/search?query=LEAKbody`, reader);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ items: [], count: 0 });
    const theirs = await get(`/v1/orgs/${w.org}/search?query=LEAKbody`, admin);
    expect(theirs.body.items.map((item: { id: string }) => item.id)).toEqual([w.secretSpace]);
  });
});

describe('an organization seen by someone outside it (issue 21, finding 4)', () => {
  it('is its public projection through an integration it publishes, and through an e-mail domain it claims', async () => {
    const { outsider } = w.world;
    const integration = await get(`/v1/integrations/${w.integrationName}`, outsider);
    expect(integration.status).toBe(200);
    expect(integration.body.owner).toMatchObject({ id: w.org, emailDomains: [], inviteLinks: false, plan: 'free' });
    expect(JSON.stringify(integration.body)).not.toContain('leakdomain.example');
    // An outsider whose own address is of the claimed domain learns that the organization exists, no more.
    const joiner = await t.prisma.user.update({ where: { id: outsider.userId }, data: { email: 'someone@leakdomain.example' } });
    const domain = await get('/v1/email-domains/leakdomain.example/orgs', outsider);
    expect(domain.status).toBe(200);
    expectMatchesSpec('0202', 'get', '/email-domains/{emailDomain}/orgs', 200, domain.body);
    expect(domain.body.organizations).toEqual([expect.objectContaining({ id: w.org, emailDomains: [], mergeRules: { type: 'none' } })]);
    await t.prisma.user.update({ where: { id: joiner.id }, data: { email: outsider.email } });
  });
});

describe('a guest granted one space (issue 21, finding 9)', () => {
  it('sees the people granted it by name and photo, never their e-mails', async () => {
    const users = await get(`/v1/spaces/${w.grantedSpace}/permissions/users`, w.guest);
    expect(users.status).toBe(200);
    expect(users.body.items.map((item: { user: { id: string } }) => item.user.id)).toEqual([w.guest.userId]);
    // The guest's own e-mail stays theirs to see; an admin's is not shown to them anywhere.
    expect(users.body.items[0].user.email).toBe(w.guest.email);
    const adminUser = await get(`/v1/users/${admin.userId}`, w.guest);
    expect(adminUser.status).toBe(200);
    expect(adminUser.body).not.toHaveProperty('email');
    expect(adminUser.body.displayName).toBe('Admin');
    expect((await get(`/v1/users/${admin.userId}`, reader)).body.email).toBe(admin.email);
  });

  it('may not list the teams granted it, nor everyone who can access it with their levels', async () => {
    for (const path of ['teams', 'aggregate']) {
      const res = await get(`/v1/spaces/${w.grantedSpace}/permissions/${path}`, w.guest);
      expect(res.status, path).toBe(403);
      expect(res.text, path).not.toContain(admin.email);
    }
    expect((await get(`/v1/spaces/${w.grantedSpace}/permissions/aggregate`, admin)).status).toBe(200);
  });

  it('sees no other member and no team of the organization', async () => {
    expect((await get(`/v1/orgs/${w.org}/members/${admin.userId}`, w.guest)).status).toBe(404);
    expect((await get(`/v1/orgs/${w.org}/members/${w.guest.userId}`, w.guest)).status).toBe(200);
    expect((await get(`/v1/orgs/${w.org}/teams/${w.team}`, w.guest)).status).toBe(404);
    expect((await get(`/v1/orgs/${w.org}/members`, w.guest)).status).toBe(403);
  });
});

describe('a token that acts in one organization (an SSO session’s; issue 21, finding 9)', () => {
  it('joins no other organization by an invite link', async () => {
    // The scoped admin's token acts in Second: Acme's invite link, which the admin could otherwise follow, is not found.
    const stranger = w.scoped;
    await t.prisma.member.delete({ where: { organizationId_userId: { organizationId: w.org, userId: stranger.userId } } });
    const res = await t.request('POST', `/v1/orgs/${w.org}/invites/${w.invite}`, { token: stranger.token });
    expect(res.status).toBe(404);
    expect(await t.prisma.member.count({ where: { organizationId: w.org, userId: stranger.userId } })).toBe(0);
    await buildMember(t.prisma, { organizationId: w.org, user: stranger, role: 'admin' });
  });

  it('sees no job of another organization, not even one its user started', async () => {
    const job = newId();
    await t.prisma.backgroundJob.create({
      data: { id: job, kind: 'import', organizationId: w.org, createdById: w.scoped.userId, payload: {}, maxAttempts: 1 },
    });
    const query = `{ job(id: "${job}") { id kind } }`;
    const scoped = await t.request('POST', '/graphql', { token: w.scoped.token, body: { query } });
    expect(scoped.body.errors[0].message).toBe('Job not found');
    expect(scoped.body.data).toBeNull();
    const own = await t.request('POST', '/graphql', { token: admin.token, body: { query } });
    expect(own.body.data.job).toEqual({ id: job, kind: 'import' });
  });
});
