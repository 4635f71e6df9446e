// The organization's invitation mail quota (INVITE_MAILS_PER_DAY, 5 here): counted in PostgreSQL over a rolling 24
// hours, so it holds across instances; a request that would go over it is refused whole (429 with Retry-After, or 400
// for a request that alone exceeds it) and writes and sends nothing; members, who get no mail, do not count.
import type { GitBookAPIError } from 'gitbook-api-0202';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Person, type Response, startTestApp, type TestApp, useApi } from '../support/app.js';
import { buildMember, buildOrganization } from '../support/factories.js';
import { expectMatchesDocument, expectMatchesSpec, gitbookClient } from '../support/openapi.js';
import { startMailCatcher } from './mail-catcher.js';

const QUOTA = 5;
const HOUR_MS = 60 * 60 * 1000;
const env = { INVITE_MAILS_PER_DAY: String(QUOTA), RATE_LIMIT_ANONYMOUS_PER_MINUTE: '0' };

// The services' configuration names the mail server, so it listens before they are set up. After hooks run in reverse
// order: the second instance closes first, the mail server last.
const smtp = await startMailCatcher();
afterAll(() => smtp.close());
const { t } = useApi({ env: { ...env, SMTP_URL: smtp.url } });
/** Another instance on t's database. */
let second: TestApp;
beforeAll(async () => {
  second = await startTestApp({ env: { ...env, SMTP_URL: smtp.url }, databaseUrl: t.databaseUrl });
});
afterAll(() => second?.close());

let addresses = 0;
const newAddresses = (count: number) => Array.from({ length: count }, () => `quota${++addresses}@example.org`);
const invite = (app: TestApp, organizationId: string, owner: Person, emails: string[]) =>
  app.request('POST', `/v1/orgs/${organizationId}/invites`, { token: owner.token, body: { emails } });
const newOrganization = () => buildOrganization(t.prisma);

/** Checks a refusal over the quota: 429, the error shape, Retry-After in seconds; returns them. */
function expectQuotaRefusal(res: Response) {
  expect(res.status, res.text).toBe(429);
  expectMatchesDocument('ours', 'post', '/orgs/{organizationId}/invites', 429, res.body);
  expect(res.body.error.code).toBe(429);
  return { retryAfter: Number(res.headers.get('retry-after')), message: res.body.error.message as string };
}

/** Nothing of the addresses was written, and nothing was sent to them. */
async function expectNothingFor(emails: string[]) {
  expect(await t.prisma.user.count({ where: { email: { in: emails } } })).toBe(0);
  expect(await t.prisma.emailInvite.count({ where: { email: { in: emails } } })).toBe(0);
  for (const email of emails) expect(smtp.to(email)).toHaveLength(0);
}

describe('the invitation mail quota', () => {
  it('holds across instances on one database, one request at a time per organization', async () => {
    const { organization, owner } = await newOrganization();
    expect((await invite(t, organization.id, owner, newAddresses(4))).status).toBe(200);
    const refused = await invite(second, organization.id, owner, newAddresses(2));
    expect(expectQuotaRefusal(refused).retryAfter).toBe(24 * 60 * 60);

    // Concurrent requests on both instances: exactly what fits goes through, the rest is refused.
    const { organization: busy, owner: busyOwner } = await newOrganization();
    const batches = Array.from({ length: 16 }, () => newAddresses(1));
    const results = await Promise.all(batches.map((emails, i) => invite(i % 2 ? second : t, busy.id, busyOwner, emails)));
    expect(results.filter((res) => res.status === 200)).toHaveLength(QUOTA);
    expect(results.filter((res) => res.status === 429)).toHaveLength(16 - QUOTA);
    expect(await t.prisma.emailInvite.count({ where: { organizationId: busy.id } })).toBe(QUOTA);
    const mailings = await t.prisma.inviteMailing.findMany({ where: { organizationId: busy.id } });
    expect(mailings.map((row) => row.mails)).toEqual(Array(QUOTA).fill(1));
  });

  it('lets requests through up to the quota, then refuses the next through the official client, sending nothing', async () => {
    const { organization, owner } = await newOrganization();
    const api = gitbookClient('0202', t.url, owner.token);
    const first = await api.orgs.inviteUsersToOrganization(organization.id, { emails: newAddresses(3) });
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/invites', 200, first.data);
    expect(first.data.invited).toBe(3);
    expect((await api.orgs.inviteUsersToOrganization(organization.id, { emails: newAddresses(2) })).data.invited).toBe(2);

    const over = newAddresses(1);
    const sent = smtp.messages.length;
    const error = (await api.orgs.inviteUsersToOrganization(organization.id, { emails: over }).catch((e) => e)) as GitBookAPIError;
    expect(error.code).toBe(429);
    expect(error.errorMessage).toMatch(
      /^Invitation e-mail quota exceeded: this organization may send 5 in 24 hours, has sent 5, and this request would send 1\. Please try again in 86400 seconds\.$/,
    );
    expect(error.response.headers.get('retry-after')).toBe('86400');
    expect(smtp.messages.length).toBe(sent);
    await expectNothingFor(over);
  });

  it('refuses a request that would go over it whole: none of its addresses is invited', async () => {
    const { organization, owner } = await newOrganization();
    expect((await invite(t, organization.id, owner, newAddresses(3))).status).toBe(200);
    const whole = newAddresses(3);
    const { message } = expectQuotaRefusal(await invite(t, organization.id, owner, whole));
    expect(message).toContain('has sent 3, and this request would send 3');
    await expectNothingFor(whole);
    expect((await invite(t, organization.id, owner, newAddresses(2))).status).toBe(200);
  });

  it('refuses with a 400 a request that alone exceeds it, since waiting would not help', async () => {
    const { organization, owner } = await newOrganization();
    const tooMany = newAddresses(QUOTA + 1);
    const res = await invite(t, organization.id, owner, tooMany);
    expect(res.status).toBe(400);
    expectMatchesSpec('0202', 'post', '/orgs/{organizationId}/invites', 400, res.body);
    expect(res.body.error.message).toBe(
      'Invalid "emails": they would send 6 invitation e-mails, more than the 5 this organization may send in 24 hours; invite fewer at a time.',
    );
    expect(res.headers.get('retry-after')).toBeNull();
    await expectNothingFor(tooMany);
  });

  it('counts the mails sent: renewals count, members (who get none) do not', async () => {
    const { organization, owner } = await newOrganization();
    const [renewed] = newAddresses(1);
    for (let i = 0; i < 4; i++) expect((await invite(t, organization.id, owner, [renewed])).status).toBe(200);
    expect(smtp.to(renewed)).toHaveLength(4);
    const members = [await buildMember(t.prisma, { organizationId: organization.id }), owner].map((person) => person.email);
    const onlyMembers = await invite(t, organization.id, owner, members);
    expect(onlyMembers.status).toBe(200);
    expect(onlyMembers.body.invited).toBe(0);
    const mixed = await invite(t, organization.id, owner, [...members, ...newAddresses(1)]);
    expect(mixed.body.invited).toBe(1);
    // 5 of 5: members alone still pass, anyone else is refused.
    expect((await invite(t, organization.id, owner, members)).status).toBe(200);
    expectQuotaRefusal(await invite(t, organization.id, owner, [renewed]));
  });

  it('rolls over 24 hours: Retry-After is when the mailings that make room expire, and then there is room', async () => {
    const { organization, owner } = await newOrganization();
    expect((await invite(t, organization.id, owner, newAddresses(3))).status).toBe(200);
    t.clock.advanceMs(2 * HOUR_MS);
    expect((await invite(t, organization.id, owner, newAddresses(2))).status).toBe(200);
    t.clock.advanceMs(HOUR_MS);
    // Two more need the first mailing (3) gone, 21 hours from now; four more need both, 23 hours from now.
    expect(expectQuotaRefusal(await invite(t, organization.id, owner, newAddresses(2))).retryAfter).toBe(21 * 3600);
    expect(expectQuotaRefusal(await invite(t, organization.id, owner, newAddresses(4))).retryAfter).toBe(23 * 3600);
    t.clock.advanceMs(21 * HOUR_MS - 1000);
    expect(expectQuotaRefusal(await invite(t, organization.id, owner, newAddresses(2))).retryAfter).toBe(1);
    t.clock.advanceMs(1000);
    expect((await invite(t, organization.id, owner, newAddresses(2))).status).toBe(200);
    expectQuotaRefusal(await invite(t, organization.id, owner, newAddresses(2)));
    // Mailings out of the window are forgotten.
    const rows = await t.prisma.inviteMailing.findMany({ where: { organizationId: organization.id }, orderBy: { sentAt: 'asc' } });
    expect(rows.map((row) => row.mails)).toEqual([2, 2]);
  });

  it('is one per organization', async () => {
    const [full, other] = [await newOrganization(), await newOrganization()];
    expect((await invite(t, full.organization.id, full.owner, newAddresses(QUOTA))).status).toBe(200);
    expect((await invite(t, other.organization.id, other.owner, newAddresses(QUOTA))).status).toBe(200);
    expectQuotaRefusal(await invite(t, full.organization.id, full.owner, newAddresses(1)));
  });

  it('refuses through GraphQL with the same message and code', async () => {
    const { organization, owner } = await newOrganization();
    expect((await invite(t, organization.id, owner, newAddresses(QUOTA))).status).toBe(200);
    const res = await t.request('POST', '/graphql', {
      token: owner.token,
      body: {
        query:
          'mutation($org: ID!, $emails: [JSON!]!) { inviteUsersToOrganization(organizationId: $org, input: {emails: $emails}) { invited } }',
        variables: { org: organization.id, emails: newAddresses(1) },
      },
    });
    expect(res.body.errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
    expect(res.body.errors[0].message).toMatch(/^Invitation e-mail quota exceeded/);
  });
});
