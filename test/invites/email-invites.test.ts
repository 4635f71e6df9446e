// Inviting by e-mail through a real SMTP server, and the join link the mail carries: its page, single use, expiry,
// SSO invites, roles, tokens; who may invite; the limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../node_modules/gitbook-api-0202/dist/client.js';
import { hashToken } from '../../src/kernel/ids.js';
import { type Person, useApi } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildMember, buildOrganization, buildUser } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { joinSecret, startMailCatcher } from './mail-catcher.js';

// The service's configuration names the mail server, so it listens before the service is set up; registered first, its
// afterAll runs last, once the service has closed.
const smtp = await startMailCatcher();
afterAll(() => smtp.close());
const { t, world } = useApi({ world: true, env: { SMTP_URL: smtp.url, RATE_LIMIT_ANONYMOUS_PER_MINUTE: '0' } });
let acme: string;
beforeAll(() => {
  acme = world.organizationId;
});

const invite = (token: string, body: unknown, org = acme) => t.request('POST', `/v1/orgs/${org}/invites`, { token, body });
const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const join = (secret: string, method = 'POST', headers: Record<string, string> = {}) => t.request(method, `/join/${secret}`, { headers });
const linkOf = (address: string) => {
  const mails = smtp.to(address);
  expect(mails.length, `mail to ${address}`).toBeGreaterThan(0);
  return joinSecret(mails.at(-1)!.text);
};
let addresses = 0;
const newAddress = (name = 'invitee') => `${name}${++addresses}@example.org`;

describe('POST /v1/orgs/{organizationId}/invites', () => {
  it('invites through the official client, matching the spec: users created, invites stored hashed, one mail each', async () => {
    const [first, second] = [newAddress('New.Person'), newAddress()];
    const api = gitbookClient('0202', t.url, world.admin.token);
    const { data, status } = await api.orgs.inviteUsersToOrganization(acme, {
      emails: [`  ${first.toUpperCase()} `, { email: second, role: 'edit' as MemberRole }, first],
      role: 'comment' as MemberRole,
    });
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/invites', 200, data);
    expect(data).toMatchObject({ invited: 2, failedSSOEmails: [], undeliveredEmails: [] });
    const users = await t.prisma.user.findMany({ where: { email: { in: [first.toLowerCase(), second] } } });
    expect(data.users.sort()).toEqual(users.map((user) => user.id).sort());
    expect(users.find((user) => user.email === first.toLowerCase())?.displayName).toBe(first.toLowerCase().split('@')[0]);
    const invites = await t.prisma.emailInvite.findMany({ where: { organizationId: acme, email: { in: [first.toLowerCase(), second] } } });
    expect(Object.fromEntries(invites.map((row) => [row.email, [row.role, row.sso, row.invitedById]]))).toEqual({
      [first.toLowerCase()]: ['comment', false, world.admin.userId],
      [second]: ['edit', false, world.admin.userId],
    });
    expect(invites[0].expiresAt.getTime() - t.clock.now().getTime()).toBe(7 * 24 * 60 * 60 * 1000);

    const [mail] = smtp.to(first);
    expect(smtp.to(first)).toHaveLength(1);
    expect(mail.subject).toBe('Admin invited you to Acme');
    expect(mail.text).toContain('the role "comment"');
    const secret = linkOf(first);
    expect(mail.text).toContain(`${t.url}/join/${secret}`);
    // Only the hash is stored.
    expect(invites.map((row) => row.tokenHash)).toContain(hashToken(secret));
    expect(JSON.stringify(invites)).not.toContain(secret);
    // One event per invite, never the link's secret.
    const events = await eventsOf(t.prisma, { organizationId: acme }, 'member_invited');
    const ours = events.filter((event) => data.users.includes(event.targetId));
    expect(ours.map((event) => [event.targetLabel, event.payload]).sort()).toMatchObject(
      [
        [first.toLowerCase(), { email: first.toLowerCase(), role: 'comment', sso: false }],
        [second, { email: second, role: 'edit', sso: false }],
      ].sort(),
    );
    expect(ours[0]).toMatchObject({ actorId: world.admin.userId, targetType: 'user' });
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it('takes the organization’s default role when the request gives none, and a role per address (null: a guest)', async () => {
    const { organization, owner } = await buildOrganization(t.prisma, { defaultRole: 'review' });
    const [plain, guest] = [newAddress(), newAddress()];
    const res = await invite(owner.token, { emails: [plain, { email: guest, role: null }] }, organization.id);
    expect(res.status).toBe(200);
    const roles = await t.prisma.emailInvite.findMany({ where: { organizationId: organization.id }, orderBy: { email: 'asc' } });
    expect(Object.fromEntries(roles.map((row) => [row.email, row.role]))).toEqual({ [plain]: 'review', [guest]: null });
    expect(smtp.to(guest)[0].text).toContain('guest access');
  });

  it('skips members: nothing is written or sent to them, and the others are still invited', async () => {
    const sent = smtp.messages.length;
    const fresh = newAddress();
    const res = await invite(world.admin.token, { emails: [world.editor.email, world.guest.email.toUpperCase(), fresh] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ invited: 1, failedSSOEmails: [], undeliveredEmails: [] });
    expect(res.body.users).toHaveLength(1);
    expect(smtp.messages.length).toBe(sent + 1);
    expect(smtp.to(world.editor.email)).toHaveLength(0);
    expect(await t.prisma.emailInvite.count({ where: { email: { in: [world.editor.email, world.guest.email] } } })).toBe(0);
  });

  it('renews an invite sent again: a new link, the old one dead, the new role', async () => {
    const address = newAddress();
    await invite(world.admin.token, { emails: [address], role: 'read' });
    const old = linkOf(address);
    const again = await invite(world.admin.token, { emails: [{ email: address, role: 'edit' }] });
    expect(again.body).toMatchObject({ invited: 1 });
    const renewed = linkOf(address);
    expect(renewed).not.toBe(old);
    expect((await join(old, 'GET')).status).toBe(404);
    const joined = await join(renewed);
    expect(joined.status).toBe(200);
    const member = await t.prisma.member.findUniqueOrThrow({
      where: { organizationId_userId: { organizationId: acme, userId: joined.body.userId } },
    });
    expect(member.role).toBe('edit');
  });

  it('is for admins: 401 without a token, 403 for other members, 404 for another organization’s admin', async () => {
    const body = { emails: [newAddress()] };
    expect((await t.request('POST', `/v1/orgs/${acme}/invites`, { body })).status).toBe(401);
    const refused = await invite(world.creator.token, body);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe(403);
    expect((await invite(world.outsider.token, body)).status).toBe(404);
    expect((await invite(world.admin.token, body, world.outsiderOrganizationId)).status).toBe(404);
    expect(await t.prisma.user.count({ where: { email: body.emails[0] } })).toBe(0);
    expect(await t.prisma.auditEvent.count({ where: { targetLabel: body.emails[0] } })).toBe(0);
  });

  it('enforces its limits, naming the field and the address at fault, and writes nothing', async () => {
    const before = await t.prisma.emailInvite.count();
    const cases: [unknown, string][] = [
      [{}, 'Invalid "emails": required.'],
      [{ emails: [] }, 'Invalid "emails": must have at least 1 items.'],
      [{ emails: Array.from({ length: 101 }, () => newAddress()) }, 'Invalid "emails": must have at most 100 items.'],
      [{ emails: [newAddress(), 'not an address'] }, 'Invalid "emails.1": "not an address" is not an e-mail address.'],
      [{ emails: [{ email: 'a@b' }] }, 'Invalid "emails.0.email": "a@b" is not an e-mail address.'],
      [{ emails: [`${'x'.repeat(310)}@example.org`] }, `Invalid "emails.0": "${'x'.repeat(310)}@example.org" is not an e-mail address.`],
      [
        { emails: [{ email: newAddress(), role: 'owner' }] },
        'Invalid "emails.0.role": must be one of "admin", "create", "review", "edit", "comment", "read", or null.',
      ],
      [{ emails: [42] }, 'Invalid "emails.0": must be an e-mail address or {"email", "role"}.'],
      [{ emails: [newAddress()], role: 'owner' }, 'Invalid "role": must be one of "admin", "create", "review", "edit", "comment", "read".'],
      [{ emails: [newAddress()], sso: 'yes' }, 'Invalid "sso": expected true or false.'],
    ];
    for (const [body, message] of cases) {
      const res = await invite(world.admin.token, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect(await t.prisma.emailInvite.count()).toBe(before);
  });
});

describe('the join link', () => {
  it('shows an escaped page with a form, reads without using the link up, and joins once with a new token', async () => {
    const { organization, owner } = await buildOrganization(t.prisma, { title: '<script>alert(1)</script> & Co' });
    const address = newAddress();
    await invite(owner.token, { emails: [address], role: 'edit' }, organization.id);
    const secret = linkOf(address);

    const page = await join(secret, 'GET', html);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(page.text).not.toContain('<script>');
    expect(page.text).toMatch(/<form method="post">/);
    expect(page.text).toContain(address);
    const described = await join(secret, 'GET');
    expect(described.body).toEqual({
      organizationId: organization.id,
      organizationTitle: organization.title,
      email: address,
      role: 'edit',
      expiresAt: expect.any(String),
    });
    expect((await join(secret, 'HEAD')).status).toBe(200);

    const joined = await join(secret);
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual({ organizationId: organization.id, userId: expect.any(String), token: expect.stringMatching(/^dpa_/) });
    const me = await t.request('GET', '/v1/user', { token: joined.body.token });
    expect(me.body).toMatchObject({ id: joined.body.userId, email: address });
    const orgs = await t.request('GET', `/v1/orgs/${organization.id}/members/${joined.body.userId}`, { token: joined.body.token });
    expect(orgs.body).toMatchObject({ role: 'edit' });
    expect(await t.prisma.emailInvite.count({ where: { organizationId: organization.id } })).toBe(0);
    // The invitee joined, and acts: their first token is recorded where it can act.
    const events = await eventsOf(t.prisma, { organizationId: organization.id }, 'member_joined', 'api_token_created');
    expect(events.map((event) => [event.action, event.actorId, event.source]).sort()).toEqual([
      ['api_token_created', joined.body.userId, 'api'],
      ['member_joined', joined.body.userId, 'api'],
    ]);
    expect(events.find((event) => event.action === 'member_joined')).toMatchObject({
      targetId: joined.body.userId,
      payload: { role: 'edit', via: 'email_invite', requestId: expect.any(String) },
    });

    const second = await join(secret);
    expect(second.status).toBe(404);
    expect(second.body.error.message).toBe('This invite link is unknown or was already used.');
    expect((await join(secret, 'GET', html)).status).toBe(404);
    expect(await eventsOf(t.prisma, { organizationId: organization.id }, 'member_joined')).toHaveLength(1);
  });

  it('answers the form with a page that shows the token once; who holds a live token gets none', async () => {
    const address = newAddress();
    await invite(world.admin.token, { emails: [address] });
    const page = await t.request('POST', `/join/${linkOf(address)}`, {
      headers: { ...html, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const token = /<code>(dpa_\w+)<\/code>/.exec(page.text)?.[1];
    expect(token).toBeDefined();
    expect((await t.request('GET', '/v1/user', { token })).body.email).toBe(address);

    // An existing user with a token of their own: they join, and keep using it.
    const known = await buildUser(t.prisma);
    await invite(world.admin.token, { emails: [known.email] });
    const joined = await join(linkOf(known.email));
    expect(joined.body).toEqual({ organizationId: acme, userId: known.userId });
    expect(await t.prisma.apiToken.count({ where: { userId: known.userId } })).toBe(1);
    const formPage = await (async () => {
      const other = await buildUser(t.prisma);
      await invite(world.admin.token, { emails: [other.email] });
      return join(linkOf(other.email), 'POST', html);
    })();
    expect(formPage.text).toContain('Use the API token you already have');
    expect(formPage.text).not.toMatch(/dpa_/);
  });

  it('never lowers the role of someone who became a member meanwhile', async () => {
    const person = await buildUser(t.prisma);
    await invite(world.admin.token, { emails: [person.email], role: 'read' });
    await buildMember(t.prisma, { organizationId: acme, user: person, role: 'review' });
    expect((await join(linkOf(person.email))).status).toBe(200);
    const member = await t.prisma.member.findUniqueOrThrow({
      where: { organizationId_userId: { organizationId: acme, userId: person.userId } },
    });
    expect(member.role).toBe('review');
  });

  it('lets one of concurrent redemptions win', async () => {
    const address = newAddress();
    await invite(world.admin.token, { emails: [address] });
    const secret = linkOf(address);
    const results = await Promise.all(Array.from({ length: 6 }, () => join(secret)));
    expect(results.map((res) => res.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
    const user = await t.prisma.user.findUniqueOrThrow({ where: { email: address } });
    expect(await t.prisma.member.count({ where: { organizationId: acme, userId: user.id } })).toBe(1);
    expect(await t.prisma.apiToken.count({ where: { userId: user.id } })).toBe(1);
  });

  it('refuses an expired link (410), which a new invite replaces', async () => {
    const address = newAddress();
    await invite(world.admin.token, { emails: [address] });
    const secret = linkOf(address);
    t.clock.advanceDays(7);
    const expired = await join(secret);
    expect(expired.status).toBe(410);
    expect(expired.body.error.message).toBe('This invite link has expired: ask for a new invite.');
    expect((await join(secret, 'GET', html)).status).toBe(410);
    expect(await t.prisma.member.count({ where: { organizationId: acme, user: { email: address } } })).toBe(0);
    await invite(world.admin.token, { emails: [address] });
    expect((await join(linkOf(address))).status).toBe(200);
  });

  it('refuses a disabled member without using the link up', async () => {
    const person = await buildUser(t.prisma);
    await invite(world.admin.token, { emails: [person.email] });
    await buildMember(t.prisma, { organizationId: acme, user: person, role: 'read', disabled: true });
    const secret = linkOf(person.email);
    const refused = await join(secret);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/disabled/);
    expect(await t.prisma.emailInvite.count({ where: { organizationId: acme, userId: person.userId } })).toBe(1);
    await t.prisma.member.update({
      where: { organizationId_userId: { organizationId: acme, userId: person.userId } },
      data: { disabled: false },
    });
    expect((await join(secret)).status).toBe(200);
  });

  it('answers 404 to what cannot be a link, and 405 to other methods', async () => {
    for (const path of ['/join', '/join/', '/join/short', `/join/${'a'.repeat(43)}`, `/join/${'a'.repeat(43)}/more`]) {
      const res = await t.request('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe(404);
    }
    const put = await t.request('PUT', `/join/${'a'.repeat(43)}`);
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});

describe('SSO invites', () => {
  let org: string;
  let owner: Person;
  let providerId: string;
  beforeAll(async () => {
    ({
      organization: { id: org },
      owner,
    } = await buildOrganization(t.prisma, { title: 'Single sign-on' }));
    providerId = (
      await t.prisma.samlProvider.create({
        data: {
          id: 'ssoProvider000000001',
          organizationId: org,
          label: 'IdP',
          entityID: 'idp',
          certificate: 'x',
          ssoURL: 'https://idp.example/sso',
          status: 'active',
        },
      })
    ).id;
  });

  it('mails a pointer to the SSO sign-in and no link; members of another organization get an ordinary invite instead', async () => {
    const address = newAddress();
    const res = await invite(owner.token, { emails: [address, world.outsider.email], sso: true, role: 'edit' }, org);
    expect(res.status).toBe(200);
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/invites', 200, res.body);
    expect(res.body).toMatchObject({ invited: 2, failedSSOEmails: [world.outsider.email], undeliveredEmails: [] });
    const [mail] = smtp.to(address);
    expect(mail.text).toContain(`${t.url}/sso/saml/${providerId}/start`);
    expect(mail.text).not.toContain('/join/');
    expect(() => joinSecret(mail.text)).toThrow();
    const rows = await t.prisma.emailInvite.findMany({ where: { organizationId: org }, orderBy: { email: 'asc' } });
    expect(Object.fromEntries(rows.map((row) => [row.email, [row.sso, row.role]]))).toEqual({
      [address]: [true, 'edit'],
      [world.outsider.email]: [false, 'edit'],
    });
    // The outsider's ordinary invite works as any other.
    const joined = await join(linkOf(world.outsider.email));
    expect(joined.body).toEqual({ organizationId: org, userId: world.outsider.userId });
  });

  it('refuses the link of an SSO invite, pointing to the SSO sign-in', async () => {
    const address = newAddress();
    await invite(owner.token, { emails: [address], sso: true }, org);
    const secret = 'S'.repeat(43);
    await t.prisma.emailInvite.update({
      where: { organizationId_email: { organizationId: org, email: address } },
      data: { tokenHash: hashToken(secret) },
    });
    for (const res of [await join(secret, 'GET'), await join(secret), await join(secret, 'POST', html)]) {
      expect(res.status).toBe(403);
      expect(res.text).toContain(`/sso/saml/${providerId}/start`);
    }
    expect(await t.prisma.emailInvite.count({ where: { organizationId: org, email: address } })).toBe(1);
  });

  it('is refused where no SAML provider is active', async () => {
    const res = await invite(world.admin.token, { emails: [newAddress()], sso: true });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid "sso": the organization has no active SAML provider to sign in with.');
  });
});

describe('GraphQL', () => {
  it('invites with the same mutation, for members of the organization only', async () => {
    const address = newAddress();
    const query = `mutation($org: ID!, $emails: [JSON!]!) { inviteUsersToOrganization(organizationId: $org, input: {emails: $emails}) {
      users invited failedSSOEmails undeliveredEmails } }`;
    const res = await t.request('POST', '/graphql', {
      token: world.admin.token,
      body: { query, variables: { org: acme, emails: [address] } },
    });
    expect(res.body.data.inviteUsersToOrganization).toMatchObject({ invited: 1, undeliveredEmails: [] });
    const refused = await t.request('POST', '/graphql', {
      token: world.reader.token,
      body: { query, variables: { org: acme, emails: [newAddress()] } },
    });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
