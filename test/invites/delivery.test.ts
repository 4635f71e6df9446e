// When the mail does not go out: a server that refuses a recipient, a server that is not there, no server configured.
// The invites are written and the request succeeds, naming what was not delivered; the log says why, without the
// link, except for the log-only mailer (no SMTP_URL), whose purpose is to show it.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildOrganization } from '../support/factories.js';
import { closedSmtpUrl, joinSecret, startMailCatcher } from './mail-catcher.js';

type LogLine = Record<string, any>;

/** A service whose log lines the test reads. */
async function loggedApp(env: Record<string, string>) {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      raw.push(String(chunk));
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const t = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: '0', ...env }, logger: pino({ level: 'info' }, sink) });
  const { organization, owner } = await buildOrganization(t.prisma, { title: 'Delivery' });
  const invite = (emails: string[]) => t.request('POST', `/v1/orgs/${organization.id}/invites`, { token: owner.token, body: { emails } });
  return { t, lines, raw, organizationId: organization.id, invite };
}

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((t) => t.close()));
});

describe('a failing mail server', () => {
  it('does not fail the request when the server refuses a recipient: the invite stays, the address is reported and logged', async () => {
    const smtp = await startMailCatcher({ refuse: (recipient) => recipient.startsWith('bounce') });
    try {
      const { t, lines, raw, organizationId, invite } = await loggedApp({ SMTP_URL: smtp.url });
      apps.push(t);
      const res = await invite(['bounce@example.org', 'fine@example.org']);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ invited: 2, failedSSOEmails: [], undeliveredEmails: ['bounce@example.org'] });
      expect(res.body.users).toHaveLength(2);
      expect(await t.prisma.emailInvite.count({ where: { organizationId } })).toBe(2);
      expect(smtp.to('fine@example.org')).toHaveLength(1);
      expect(smtp.to('bounce@example.org')).toHaveLength(0);
      const warning = lines.find((line) => line.msg === 'invite e-mail not delivered');
      expect(warning).toMatchObject({ level: 40, organizationId, email: 'bounce@example.org', error: expect.stringMatching(/550/) });
      const secret = joinSecret(smtp.to('fine@example.org')[0].text);
      expect(raw.join('')).not.toContain(secret);
      expect(raw.join('')).not.toContain('/join/');
    } finally {
      await smtp.close();
    }
  });

  it('does not fail the request when no server listens: every address is reported and logged', async () => {
    const { t, lines, organizationId, invite } = await loggedApp({ SMTP_URL: await closedSmtpUrl() });
    apps.push(t);
    const res = await invite(['one@example.org', 'two@example.org']);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ invited: 2, undeliveredEmails: ['one@example.org', 'two@example.org'] });
    expect(await t.prisma.emailInvite.count({ where: { organizationId } })).toBe(2);
    const warnings = lines.filter((line) => line.msg === 'invite e-mail not delivered');
    expect(warnings.map((line) => line.email).sort()).toEqual(['one@example.org', 'two@example.org']);
    expect(warnings[0].error).toMatch(/ECONNREFUSED/);
  });
});

describe('without SMTP_URL', () => {
  it('writes the mail, link included, to the log, where it works; request lines never show the secret', async () => {
    const { t, lines, invite } = await loggedApp({});
    apps.push(t);
    const res = await invite(['logged@example.org']);
    expect(res.body).toMatchObject({ invited: 1, undeliveredEmails: [] });
    const mail = lines.find((line) => line.mail?.to === 'logged@example.org')?.mail;
    expect(mail?.text).toContain(`${t.url}/join/`);
    const secret = joinSecret(mail.text);
    expect((await t.request('GET', `/join/${secret}`)).status).toBe(200);
    const joined = await t.request('POST', `/join/${secret}`);
    expect(joined.status).toBe(200);
    const requests = lines.filter((line) => line.msg === 'request' && line.path?.startsWith('/join'));
    expect(requests.map((line) => [line.method, line.path, line.status])).toEqual([
      ['GET', '/join/:secret', 200],
      ['POST', '/join/:secret', 200],
    ]);
    const afterMail = lines.slice(lines.findIndex((line) => line.mail)).filter((line) => !line.mail);
    expect(JSON.stringify(afterMail)).not.toContain(secret);
    expect(JSON.stringify(lines)).not.toContain(joined.body.token);
  });
});
