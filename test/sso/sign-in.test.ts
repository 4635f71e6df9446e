// SAML sign-in end to end, with the test as the identity provider: metadata, the start redirect and its AuthnRequest,
// a signed response posted to the ACS URL; what a first and a later sign-in do to users, members and teams; the
// session token; and every refusal, each of which leaves no user, member or token behind and is logged without the
// assertion's content.
import { Writable } from 'node:stream';
import pino from 'pino';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../node_modules/gitbook-api-0202/dist/client.js';
import { useApi } from '../support/app.js';
import { eventsOf } from '../support/events.js';
import { buildMember, buildSpace, buildUser } from '../support/factories.js';
import { gitbookClient } from '../support/openapi.js';
import {
  createIdentityProvider,
  type IdentityProvider,
  postResponse,
  type ResponseOptions,
  samlResponse,
  startSignIn,
} from './identity-provider.js';

const SESSION_MINUTES = 30;
const logs: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
    done();
  },
});
const { t, world } = useApi({
  world: true,
  env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: '0', SSO_SESSION_MINUTES: String(SESSION_MINUTES) },
  logger: pino({ level: 'info' }, sink),
});
let acme: string;
let idp: IdentityProvider;
let team: string;
/** The active provider of Acme, as created through the API. */
let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };

beforeAll(async () => {
  acme = world.organizationId;
  idp = await createIdentityProvider();
  team = (await t.prisma.team.create({ data: { id: 'ssoTeam0000000000001', organizationId: acme, title: 'Everyone' } })).id;
  const api = gitbookClient('0202', t.url, world.admin.token);
  ({ data: provider } = await api.orgs.createOrganizationSamlProvider(acme, {
    label: 'Acme IdP',
    entityID: idp.entityID,
    certificate: idp.certificate,
    ssoURL: idp.ssoURL,
    defaultTeam: team,
    defaultRole: 'edit' as MemberRole,
  }));
});

let address = 0;
/** An address the instance does not know yet. */
const newAddress = () => `person${++address}@acme.test`;

/** Starts a sign-in and writes the identity provider's answer to it, for `email`; options override the answer's fields. */
async function answerFor(email: string, overrides: Partial<ResponseOptions> = {}, relayState?: string) {
  const request = await startSignIn(provider.service.startURL, relayState);
  const response = samlResponse({
    idp,
    acsURL: provider.service.acsURL,
    audience: provider.service.entityID,
    inResponseTo: request.id,
    now: t.clock.now(),
    nameID: email,
    ...overrides,
  });
  return { request, response };
}

/** Starts a sign-in and answers it as the identity provider, for `email`; options override the response's fields. */
async function signInAs(email: string, overrides: Partial<ResponseOptions> = {}, relayState?: string) {
  const { request, response } = await answerFor(email, overrides, relayState);
  return { request, response, answer: await postResponse(provider.service.acsURL, response, request.relayState ?? undefined) };
}

/** What a refused sign-in must not leave behind. */
const footprint = async () => ({
  users: await t.prisma.user.count(),
  members: await t.prisma.member.count(),
  teamMembers: await t.prisma.teamMember.count(),
  tokens: await t.prisma.apiToken.count(),
  invites: await t.prisma.emailInvite.count(),
});

describe('GET /sso/saml/{id} (service provider metadata)', () => {
  it('serves the metadata an identity provider imports, for pending providers too', async () => {
    const res = await fetch(provider.service.entityID);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    const xml = await res.text();
    expect(xml).toContain(`entityID="${provider.service.entityID}"`);
    expect(xml).toContain(`Location="${provider.service.acsURL}"`);
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).toContain('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    const pending = await t.request('POST', `/v1/orgs/${acme}/saml`, { token: world.admin.token, body: { label: 'Pending' } });
    expect((await fetch(pending.body.service.entityID)).status).toBe(200);
    expect((await fetch(`${t.url}/sso/saml/unknownProvider00001`)).status).toBe(404);
    const post = await fetch(provider.service.entityID, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('GET /sso/saml/{id}/start', () => {
  it('redirects to the identity provider with an AuthnRequest it remembers for 10 minutes, and the RelayState', async () => {
    const request = await startSignIn(provider.service.startURL, 'https://app.test/after');
    expect(`${request.location.origin}${request.location.pathname}`).toBe(idp.ssoURL);
    expect(request.relayState).toBe('https://app.test/after');
    expect(request.xml).toContain(`AssertionConsumerServiceURL="${provider.service.acsURL}"`);
    expect(request.xml).toContain(`Destination="${idp.ssoURL}"`);
    expect(request.xml).toMatch(new RegExp(`<saml:Issuer[^>]*>${provider.service.entityID}</saml:Issuer>`));
    const row = await t.prisma.samlRequest.findUniqueOrThrow({ where: { id: request.id } });
    expect(row).toMatchObject({ providerId: provider.id, expiresAt: new Date(t.clock.now().getTime() + 10 * 60_000) });
  });

  it('is not found for a pending or unknown provider; an over-long RelayState is refused', async () => {
    const pending = await t.request('POST', `/v1/orgs/${acme}/saml`, {
      token: world.admin.token,
      body: { label: 'Half', ssoURL: idp.ssoURL },
    });
    for (const url of [pending.body.service.startURL, `${t.url}/sso/saml/unknownProvider00001/start`]) {
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 404, message: 'SAML provider not found' } });
    }
    const long = await fetch(`${provider.service.startURL}?RelayState=${'x'.repeat(2049)}`, { redirect: 'manual' });
    expect(long.status).toBe(400);
  });
});

describe('POST /sso/saml/{id}/acs', () => {
  it('signs a new user in: creates them, makes them an SSO member with the default role and team, and answers a session token', async () => {
    const email = newAddress();
    const { answer } = await signInAs(email.toUpperCase(), { attributes: { displayName: 'Ada Lovelace' } }, 'state-1');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const user = await t.prisma.user.findUniqueOrThrow({ where: { email } });
    expect(answer.body).toEqual({
      token: expect.stringMatching(/^dpa_/),
      expiresAt: new Date(t.clock.now().getTime() + SESSION_MINUTES * 60_000).toISOString(),
      userId: user.id,
      organizationId: acme,
      relayState: 'state-1',
    });
    expect(user.displayName).toBe('Ada Lovelace');
    const member = await t.prisma.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId: acme, userId: user.id } } });
    expect(member).toMatchObject({ role: 'edit', sso: true, disabled: false });
    expect(await t.prisma.teamMember.findUnique({ where: { teamId_userId: { teamId: team, userId: user.id } } })).toMatchObject({
      role: 'member',
    });
    const token = await t.prisma.apiToken.findFirstOrThrow({ where: { userId: user.id } });
    expect(token.label).toBe('SSO session (Acme IdP)');
    // The user acts: they joined, and their session's token acts in this organization.
    const events = (await eventsOf(t.prisma, { organizationId: acme })).filter((event) => [user.id, token.id].includes(event.targetId));
    expect(events.map((event) => [event.action, event.actorId, event.targetId, event.payload]).sort()).toMatchObject([
      ['api_token_created', user.id, token.id, { userId: user.id, via: 'sso', provider: provider.id }],
      ['member_joined', user.id, user.id, { role: 'edit', via: 'sso', provider: provider.id }],
    ]);

    const me = await t.request('GET', '/v1/user', { token: answer.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, email, displayName: 'Ada Lovelace' });
    expect((await t.request('GET', `/v1/orgs/${acme}/members/${user.id}`, { token: answer.body.token })).body).toMatchObject({
      role: 'edit',
      sso: true,
    });
    expect(logs).toContainEqual(
      expect.objectContaining({ msg: 'SAML sign-in', providerId: provider.id, userId: user.id, provisioned: true }),
    );

    t.clock.advanceMs(SESSION_MINUTES * 60_000);
    expect((await t.request('GET', '/v1/user', { token: answer.body.token })).status).toBe(401);
  });

  it('names a new user after the local part without a name attribute, and reads an e-mail attribute when the NameID is not one', async () => {
    const email = newAddress();
    const { answer } = await signInAs('opaque-id-42', {
      nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      attributes: { email },
    });
    expect(answer.status).toBe(200);
    expect(await t.prisma.user.findUniqueOrThrow({ where: { email } })).toMatchObject({ displayName: email.split('@')[0] });
  });

  it('lets an existing member in with their role and teams as they were; a second sign-in of a newcomer changes nothing', async () => {
    const { answer } = await signInAs(world.reader.email);
    expect(answer.status).toBe(200);
    expect(answer.body.userId).toBe(world.reader.userId);
    const member = await t.prisma.member.findUniqueOrThrow({
      where: { organizationId_userId: { organizationId: acme, userId: world.reader.userId } },
    });
    expect(member).toMatchObject({ role: 'read', sso: false });
    expect(await t.prisma.teamMember.count({ where: { userId: world.reader.userId } })).toBe(0);
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: world.reader.userId } })).displayName).toBe('Reader');

    const email = newAddress();
    expect((await signInAs(email)).answer.status).toBe(200);
    const user = await t.prisma.user.findUniqueOrThrow({ where: { email } });
    await t.prisma.member.update({
      where: { organizationId_userId: { organizationId: acme, userId: user.id } },
      data: { role: 'comment' },
    });
    await t.prisma.teamMember.delete({ where: { teamId_userId: { teamId: team, userId: user.id } } });
    expect((await signInAs(email, { attributes: { displayName: 'Renamed' } })).answer.status).toBe(200);
    expect(
      await t.prisma.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId: acme, userId: user.id } } }),
    ).toMatchObject({
      role: 'comment',
    });
    expect(await t.prisma.teamMember.count({ where: { userId: user.id } })).toBe(0);
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).displayName).not.toBe('Renamed');
    // Joined once; each sign-in's session token recorded.
    expect(await eventsOf(t.prisma, { targetId: user.id }, 'member_joined')).toHaveLength(1);
    expect(
      (await eventsOf(t.prisma, { organizationId: acme }, 'api_token_created')).filter((event) => event.actorId === user.id),
    ).toHaveLength(2);
    expect(await eventsOf(t.prisma, { targetId: world.reader.userId }, 'member_joined')).toEqual([]);
  });

  it('answers a token that acts in this organization only, whatever else the user belongs to', async () => {
    // The admin also belongs to Second: the IdP of Acme vouches for them in Acme, not there.
    const elsewhere = await buildSpace(t.prisma, { organizationId: world.secondOrganizationId, title: 'Elsewhere' });
    const { answer } = await signInAs(world.admin.email);
    expect(answer.status).toBe(200);
    const session = answer.body.token;
    expect((await t.request('GET', '/v1/orgs', { token: session })).body.items.map((org: { id: string }) => org.id)).toEqual([acme]);
    expect((await t.request('GET', `/v1/orgs/${world.secondOrganizationId}`, { token: session })).status).toBe(404);
    expect((await t.request('GET', `/v1/spaces/${elsewhere.id}`, { token: session })).status).toBe(404);
    expect((await t.request('GET', `/v1/orgs/${world.secondOrganizationId}/spaces`, { token: session })).status).toBe(404);
    expect((await t.request('GET', `/v1/orgs/${acme}`, { token: session })).body.permissions.admin).toBe(true);
    // The user's own token still reaches both.
    expect((await t.request('GET', `/v1/spaces/${elsewhere.id}`, { token: world.admin.token })).status).toBe(200);
  });

  it('consumes a pending SSO invite, whose role wins over the default role; a guest invite makes a guest', async () => {
    for (const role of ['review', null] as const) {
      const invited = await buildUser(t.prisma, { email: newAddress() });
      await t.prisma.emailInvite.create({
        data: {
          id: `invite${role ?? 'guest'}`.padEnd(20, '0'),
          organizationId: acme,
          email: invited.email,
          userId: invited.userId,
          role,
          sso: true,
          tokenHash: `hash-${role}`,
          expiresAt: new Date(t.clock.now().getTime() + 86_400_000),
        },
      });
      const { answer } = await signInAs(invited.email);
      expect(answer.status).toBe(200);
      expect(answer.body.userId).toBe(invited.userId);
      const member = await t.prisma.member.findUniqueOrThrow({
        where: { organizationId_userId: { organizationId: acme, userId: invited.userId } },
      });
      expect(member).toMatchObject({ role, sso: true });
      expect(await t.prisma.emailInvite.count({ where: { email: invited.email } })).toBe(0);
    }
  });

  describe('refusals', () => {
    let before: Awaited<ReturnType<typeof footprint>>;
    beforeEach(async () => {
      before = await footprint();
      logs.length = 0;
    });

    /** The refusal's status and message, after checking that nothing was written and the log line holds no content. */
    async function expectRefused(answer: Awaited<ReturnType<typeof postResponse>>, status: number, reason: string, email?: string) {
      expect(answer.status, answer.text).toBe(status);
      expect(answer.body).toEqual({ error: { code: status, message: expect.any(String) } });
      expect(await footprint()).toEqual(before);
      const line = logs.findLast((entry) => entry.msg === 'SAML sign-in refused');
      expect(line).toMatchObject({ reason, providerId: provider.id, level: 40 });
      if (email) expect(JSON.stringify(logs)).not.toContain(email);
      logs.length = 0;
      return answer.body.error.message as string;
    }

    it('refuses an unsigned assertion, and one signed with another key', async () => {
      const email = newAddress();
      const unsigned = await signInAs(email, { signingKey: null });
      expect(await expectRefused(unsigned.answer, 403, 'signature', email)).toBe(
        'The SAML assertion is not signed with the provider’s certificate.',
      );
      const impostor = await createIdentityProvider();
      const forged = await signInAs(email, { signingKey: impostor.privateKey });
      await expectRefused(forged.answer, 403, 'signature', email);
    });

    it('refuses an expired assertion, and one not valid yet', async () => {
      const email = newAddress();
      const { response } = await answerFor(email, { lifetimeMs: 60_000 });
      // Past the assertion's NotOnOrAfter and the accepted clock skew, still within the request's 10 minutes.
      t.clock.advanceMs(3 * 60_000);
      const expired = await postResponse(provider.service.acsURL, response);
      expect(await expectRefused(expired, 403, 'expired', email)).toBe('The SAML assertion has expired.');
      const early = await signInAs(email, { now: new Date(t.clock.now().getTime() + 10 * 60_000) });
      await expectRefused(early.answer, 403, 'not-yet-valid', email);
    });

    it('refuses a replayed response', async () => {
      const email = newAddress();
      const first = await signInAs(email);
      expect(first.answer.status).toBe(200);
      before = await footprint();
      const replay = await postResponse(provider.service.acsURL, first.response);
      expect(await expectRefused(replay, 403, 'replay', email)).toBe('The SAML assertion was already used.');
    });

    it('refuses an assertion for another audience, from another issuer, or addressed to another service', async () => {
      const email = newAddress();
      await expectRefused((await signInAs(email, { audience: 'https://other-sp.test/metadata' })).answer, 403, 'audience', email);
      await expectRefused((await signInAs(email, { issuer: 'https://other-idp.test/metadata' })).answer, 403, 'issuer', email);
      const elsewhere = 'https://other-sp.test/acs';
      expect(await expectRefused((await signInAs(email, { destination: elsewhere })).answer, 403, 'destination', email)).toBe(
        'The SAML response is addressed to another service.',
      );
      await expectRefused((await signInAs(email, { recipient: elsewhere })).answer, 403, 'destination', email);
    });

    it('refuses unsolicited (IdP-initiated) responses, unknown or used requests, and requests of another provider', async () => {
      const email = newAddress();
      const unsolicited = await signInAs(email, { inResponseTo: null });
      expect(await expectRefused(unsolicited.answer, 403, 'unsolicited', email)).toMatch(/startURL/);
      await expectRefused((await signInAs(email, { inResponseTo: '_neverIssued' })).answer, 403, 'request', email);

      const other = await t.request('POST', `/v1/orgs/${acme}/saml`, {
        token: world.admin.token,
        body: { label: 'Other', entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL },
      });
      const otherRequest = await startSignIn(other.body.service.startURL);
      before = await footprint();
      await expectRefused((await signInAs(email, { inResponseTo: otherRequest.id })).answer, 403, 'request', email);

      // A request answers once, even with a new assertion.
      const first = await signInAs(email);
      expect(first.answer.status).toBe(200);
      before = await footprint();
      const again = samlResponse({
        idp,
        acsURL: provider.service.acsURL,
        audience: provider.service.entityID,
        inResponseTo: first.request.id,
        now: t.clock.now(),
        nameID: email,
      });
      await expectRefused(await postResponse(provider.service.acsURL, again), 403, 'request', email);
    });

    it('refuses an answer to a request older than 10 minutes, and prunes expired requests', async () => {
      const email = newAddress();
      const request = await startSignIn(provider.service.startURL);
      t.clock.advanceMs(10 * 60_000 + 1);
      const response = samlResponse({
        idp,
        acsURL: provider.service.acsURL,
        audience: provider.service.entityID,
        inResponseTo: request.id,
        now: t.clock.now(),
        nameID: email,
      });
      await expectRefused(await postResponse(provider.service.acsURL, response), 403, 'request', email);
      expect(await t.prisma.samlRequest.count({ where: { providerId: provider.id, expiresAt: { lte: t.clock.now() } } })).toBe(0);
      expect(await t.prisma.samlAssertion.count({ where: { providerId: provider.id, expiresAt: { lte: t.clock.now() } } })).toBe(0);
    });

    it('refuses a disabled member (403), and a known user who is neither a member nor invited', async () => {
      const disabled = await buildMember(t.prisma, { organizationId: acme, role: 'edit', disabled: true });
      before = await footprint();
      expect(await expectRefused((await signInAs(disabled.email)).answer, 403, 'member-disabled')).toBe(
        'Your membership of this organization is disabled.',
      );
      await expectRefused((await signInAs(world.outsider.email)).answer, 403, 'not-member');
      expect(await t.prisma.auditEvent.count({ where: { actorId: { in: [disabled.userId, world.outsider.userId] } } })).toBe(0);
    });

    it('refuses an assertion that names no e-mail address', async () => {
      const answer = await signInAs('opaque-id-43', { nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' });
      await expectRefused(answer.answer, 403, 'no-email');
    });

    it('answers 404 for a pending or unknown provider, 400 for a malformed form, 415 for another body type, 413 past 512 KiB', async () => {
      const email = newAddress();
      const { response } = await answerFor(email);
      const pending = await t.request('POST', `/v1/orgs/${acme}/saml`, { token: world.admin.token, body: { label: 'Pending' } });
      before = await footprint();
      const pendingAnswer = await postResponse(pending.body.service.acsURL, response);
      expect(pendingAnswer.status).toBe(404);
      expect((await postResponse(`${t.url}/sso/saml/unknownProvider00001/acs`, response)).status).toBe(404);
      expect(await footprint()).toEqual(before);
      logs.length = 0;
      await expectRefused(await postResponse(provider.service.acsURL, 'not base64!'), 400, 'body');
      const json = await fetch(provider.service.acsURL, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ SAMLResponse: response }),
      });
      expect(json.status).toBe(415);
      const large = await fetch(provider.service.acsURL, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `SAMLResponse=${'A'.repeat(512 * 1024)}`,
      });
      expect(large.status).toBe(413);
      expect(await large.json()).toEqual({ error: { code: 413, message: 'Request bodies are limited to 512 KiB here.' } });
      const get = await fetch(provider.service.acsURL);
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST');
      // The response, still unanswered, is good.
      expect((await postResponse(provider.service.acsURL, response)).status).toBe(200);
    });
  });
});
