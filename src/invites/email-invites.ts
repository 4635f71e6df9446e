// Inviting by e-mail, and redeeming the single-use join link an invite mails.
//
// An invite is written for each address that is not yet a member (its user created when the address is unknown),
// with a new secret whose SHA-256 alone is stored; the e-mails go out once the invites are committed, and a failed
// delivery is reported, not fatal. An organization mails at most INVITE_MAILS_PER_DAY invites in any 24 hours,
// counted in the database (InviteMailing) one request at a time per organization: a request that would go over it
// writes and sends nothing. An SSO invite mails no link: its user joins by signing in with the organization's
// SAML provider, whose provisioning consumes the invite (src/sso). The join link is redeemed by POST /join/<secret>
// (pages.ts): the statement that checks the invite deletes it, so a link works once, whoever races for it.
import { randomBytes } from 'node:crypto';
import { Prisma } from '../generated/prisma/client.js';
import type { MemberRole } from '../generated/prisma/enums.js';
import { authorize, organizations } from '../kernel/authorize.js';
import type { Context, RequestOrigin, Services } from '../kernel/context.js';
import { ApiError, badRequest } from '../kernel/errors.js';
import { recordEvents, recorderFor } from '../kernel/events.js';
import { hashToken, newApiToken, newId } from '../kernel/ids.js';
import { invitationMail, joinUrl, ssoStartUrl } from './mail.js';

export const MAX_INVITEES = 100;
/** How long a join link works. */
export const INVITE_DAYS = 7;
/** E-mails in flight at once: enough for a full invite in a few seconds, without opening a connection per address. */
const MAIL_CONCURRENCY = 5;
/** The window of INVITE_MAILS_PER_DAY. */
const QUOTA_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What inviting by e-mail did. */
export interface InviteUsersOutcome {
  users: string[];
  invited: number;
  failedSSOEmails: string[];
  undeliveredEmails: string[];
}

export interface Invitee {
  email: string;
  /** Absent: the request's default role. */
  role?: MemberRole | null;
}

interface InvitingOrganization {
  title: string;
  defaultRole: MemberRole | null;
  inviter: string;
  providers: string[];
}

/** Runs `work` on every item, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

interface QuotaAndInvite {
  allowed: boolean;
  /** Mails of the last 24 hours, and what this request would send. */
  used: number;
  needed: number;
  /** When the mailing whose expiry makes room for this request was sent; null when none would (or it was allowed). */
  freedBy: Date | null;
  /** A written invite; null on the row of a request that wrote none. */
  email: string | null;
  userId: string;
  sso: boolean;
}

/** The refusal of a request over the quota: 400 when it alone exceeds it, else 429 with when there will be room. */
function overQuota(ctx: Context, { used, needed, freedBy }: QuotaAndInvite): ApiError {
  const limit = ctx.config.inviteMailsPerDay;
  if (!freedBy) {
    return badRequest(
      `Invalid "emails": they would send ${needed} invitation e-mails, more than the ${limit} this organization may send in 24 hours; invite fewer at a time.`,
    );
  }
  const seconds = Math.max(1, Math.ceil((freedBy.getTime() + QUOTA_WINDOW_MS - ctx.clock.now().getTime()) / 1000));
  return new ApiError(
    429,
    `Invitation e-mail quota exceeded: this organization may send ${limit} in 24 hours, has sent ${used}, and this request would send ${needed}. Please try again in ${seconds} seconds.`,
    { 'Retry-After': String(seconds) },
  );
}

export async function inviteUsers(
  ctx: Context,
  organizationId: string,
  input: { emails: readonly Invitee[]; role?: MemberRole | null; sso?: boolean | null },
): Promise<InviteUsersOutcome> {
  await authorize(ctx, organizations, organizationId, 'admin');
  const sso = input.sso ?? false;
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + INVITE_DAYS * 24 * 60 * 60 * 1000);
  const since = new Date(now.getTime() - QUOTA_WINDOW_MS);
  const limit = ctx.config.inviteMailsPerDay;

  const { organization, roles, emails, secrets, written } = await ctx.prisma.$transaction(async (tx) => {
    // The organization's invites are written one request at a time (this lock, to the end of the transaction), so that
    // each request counts the mails of those before it, whatever the instance.
    const [organization] = await tx.$queryRaw<InvitingOrganization[]>(Prisma.sql`
      SELECT o.title, o."defaultRole", (SELECT u."displayName" FROM "User" u WHERE u.id = ${ctx.viewer.userId}) AS inviter,
             ARRAY(SELECT p.id FROM "SamlProvider" p WHERE p."organizationId" = o.id AND p.status = 'active' ORDER BY p."createdAt", p.id) AS providers
        FROM "Organization" o, pg_advisory_xact_lock(hashtextextended(${`invite-mails:${organizationId}`}, 0))
       WHERE o.id = ${organizationId}`);
    if (sso && !organization.providers.length)
      throw badRequest('Invalid "sso": the organization has no active SAML provider to sign in with.');

    // One invite per address: the first mention wins.
    const defaultRole = input.role !== undefined ? input.role : organization.defaultRole;
    const roles = new Map<string, MemberRole | null>();
    for (const { email, role } of input.emails) if (!roles.has(email)) roles.set(email, role !== undefined ? role : defaultRole);
    const emails = [...roles.keys()];
    const secrets = emails.map(() => randomBytes(32).toString('base64url'));

    // One statement: the quota checked (members get no mail, so they do not count), then, if the request fits, users
    // created for unknown addresses, invites written (or renewed with a new secret) for those who are not members, and
    // the mailing recorded; mailings older than the window are dropped. An SSO invite of someone who belongs to another
    // organization becomes an ordinary one: an SSO login there could not be theirs.
    const rows = await tx.$queryRaw<QuotaAndInvite[]>(Prisma.sql`
      WITH invitee AS (
        SELECT * FROM unnest(${emails}::text[], ${[...roles.values()]}::text[], ${emails.map(() => newId())}::text[],
                             ${secrets.map(hashToken)}::text[], ${emails.map(() => newId())}::text[]) AS v(email, role, id, hash, "userId")
      ), mailing AS (
        SELECT "sentAt", sum(mails) OVER (ORDER BY "sentAt", id)::int AS freed FROM "InviteMailing"
         WHERE "organizationId" = ${organizationId} AND "sentAt" > ${since}
      ), counts AS (
        SELECT coalesce((SELECT max(freed) FROM mailing), 0) AS used,
               (SELECT count(*)::int FROM invitee v WHERE NOT EXISTS (SELECT 1 FROM "User" u JOIN "Member" m ON m."userId" = u.id
                  WHERE u.email = v.email AND m."organizationId" = ${organizationId})) AS needed
      ), quota AS (
        SELECT used, needed, needed = 0 OR ${limit}::int = 0 OR used + needed <= ${limit}::int AS allowed,
               CASE WHEN needed <= ${limit}::int THEN (SELECT min("sentAt") FROM mailing WHERE freed >= used + needed - ${limit}::int) END AS "freedBy"
          FROM counts
      ), person AS (
        INSERT INTO "User" (id, email, "displayName", "createdAt")
        SELECT v."userId", v.email, split_part(v.email, '@', 1), ${now} FROM invitee v WHERE (SELECT allowed FROM quota)
        ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email
        RETURNING id, email
      ), written AS (
        INSERT INTO "EmailInvite" (id, "organizationId", email, "userId", role, sso, "tokenHash", "invitedById", "expiresAt", "createdAt")
        SELECT v.id, ${organizationId}, v.email, p.id, v.role::"MemberRole",
               ${sso}::boolean AND NOT EXISTS (SELECT 1 FROM "Member" o WHERE o."userId" = p.id AND o."organizationId" <> ${organizationId}),
               v.hash, ${ctx.viewer.userId}, ${expiresAt}, ${now}
          FROM invitee v JOIN person p ON p.email = v.email
         WHERE NOT EXISTS (SELECT 1 FROM "Member" m WHERE m."organizationId" = ${organizationId} AND m."userId" = p.id)
        ON CONFLICT ("organizationId", email) DO UPDATE SET "userId" = EXCLUDED."userId", role = EXCLUDED.role, sso = EXCLUDED.sso,
          "tokenHash" = EXCLUDED."tokenHash", "invitedById" = EXCLUDED."invitedById", "expiresAt" = EXCLUDED."expiresAt"
        RETURNING email, "userId", sso
      ), recorded AS (
        INSERT INTO "InviteMailing" (id, "organizationId", mails, "sentAt")
        SELECT ${newId()}, ${organizationId}, count(*), ${now} FROM written HAVING count(*) > 0
      ), forgotten AS (
        DELETE FROM "InviteMailing" WHERE "organizationId" = ${organizationId} AND "sentAt" <= ${since}
      )
      SELECT q.allowed, q.used, q.needed, q."freedBy", w.email, w."userId", w.sso FROM quota q LEFT JOIN written w ON TRUE`);
    if (!rows[0].allowed) throw overQuota(ctx, rows[0]);
    const written = rows.filter((row) => row.email !== null) as (QuotaAndInvite & { email: string })[];
    await recordEvents(
      tx,
      ctx,
      written.map((row) => ({
        action: 'member_invited',
        organizationId,
        target: { type: 'user', id: row.userId, label: row.email },
        payload: { email: row.email, role: roles.get(row.email) ?? null, sso: row.sso },
      })),
    );
    return { organization, roles, emails, secrets, written };
  });

  const byEmail = new Map(written.map((row) => [row.email, row]));
  const invites = emails.flatMap((email, i) => {
    const row = byEmail.get(email);
    return row ? [{ ...row, role: roles.get(email)!, secret: secrets[i] }] : [];
  });
  const undelivered = new Set<string>();
  await eachLimited(invites, MAIL_CONCURRENCY, async (invite) => {
    const mail = invitationMail({
      to: invite.email,
      organization: organization.title,
      inviter: organization.inviter,
      role: invite.role,
      expiresAt,
      ...(invite.sso
        ? { ssoStartUrls: organization.providers.map((id) => ssoStartUrl(ctx, id)) }
        : { joinUrl: joinUrl(ctx, invite.secret) }),
    });
    try {
      await ctx.mailer.send(mail);
    } catch (error) {
      undelivered.add(invite.email);
      // The address and the server's answer, never the message (it holds the link).
      ctx.logger.warn({ organizationId, email: invite.email, error: (error as Error).message }, 'invite e-mail not delivered');
    }
  });
  return {
    users: invites.map((invite) => invite.userId),
    invited: invites.length,
    failedSSOEmails: sso ? invites.filter((invite) => !invite.sso).map((invite) => invite.email) : [],
    undeliveredEmails: emails.filter((email) => undelivered.has(email)),
  };
}

// --- the join link ---------------------------------------------------------------------------------------------------

/** Why a join link does not work: the HTTP status and what to tell its holder. */
export class InviteRefused extends Error {
  constructor(
    readonly status: 403 | 404 | 410,
    message: string,
  ) {
    super(message);
  }
}

export interface PendingInvite {
  organizationId: string;
  organization: string;
  email: string;
  role: MemberRole | null;
  expiresAt: Date;
}

interface InviteState extends PendingInvite {
  sso: boolean;
  disabled: boolean | null;
  providers: string[];
}

/** The invite of a join link, whatever its state; null when the secret is unknown (or was used). */
async function inviteState(services: Services, secret: string): Promise<InviteState | null> {
  const [invite] = await services.sql<InviteState>(Prisma.sql`
    SELECT i."organizationId", o.title AS organization, i.email, i.role, i."expiresAt", i.sso, m.disabled,
           ARRAY(SELECT p.id FROM "SamlProvider" p WHERE p."organizationId" = o.id AND p.status = 'active' ORDER BY p."createdAt", p.id) AS providers
      FROM "EmailInvite" i JOIN "Organization" o ON o.id = i."organizationId"
      LEFT JOIN "Member" m ON m."organizationId" = i."organizationId" AND m."userId" = i."userId"
     WHERE i."tokenHash" = ${hashToken(secret)}`);
  return invite ?? null;
}

/** The refusal for an invite that cannot be redeemed (now), or null when it can. */
function refusal(services: Services, invite: InviteState | null): InviteRefused | null {
  if (!invite) return new InviteRefused(404, 'This invite link is unknown or was already used.');
  if (invite.sso) {
    const where = invite.providers.map((id) => ssoStartUrl(services, id)).join(' or ');
    return new InviteRefused(
      403,
      `This invite is for single sign-on: join by signing in with your organization’s identity provider${where ? ` at ${where}` : ''}.`,
    );
  }
  if (invite.expiresAt <= services.clock.now()) return new InviteRefused(410, 'This invite link has expired: ask for a new invite.');
  if (invite.disabled) return new InviteRefused(403, 'Your membership of this organization is disabled: an admin must enable it again.');
  return null;
}

/** What a join link invites to; refused as redeeming it would be. Reads only: mail scanners follow links. */
export async function pendingInvite(services: Services, secret: string): Promise<PendingInvite> {
  const invite = await inviteState(services, secret);
  const refused = refusal(services, invite);
  if (refused) throw refused;
  const { organizationId, organization, email, role, expiresAt } = invite!;
  return { organizationId, organization, email, role, expiresAt };
}

export interface Redeemed {
  organizationId: string;
  organization: string;
  userId: string;
  /** A new API token, when the user held no live one: shown this once. */
  token?: string;
}

/**
 * Redeems a join link in one statement: the invite is deleted by the statement that checks it, its user becomes a
 * member with its role (an existing member keeps a higher role), and a user without a live API token gets one.
 */
export async function redeemInvite(services: Services, secret: string, origin: RequestOrigin = {}): Promise<Redeemed> {
  const now = services.clock.now();
  const token = newApiToken();
  type Joined = Omit<Redeemed, 'token'> & { role: MemberRole | null; tokenId: string | null; organizations: string[] };
  const joined = await services.prisma.$transaction(async (tx) => {
    const [joined] = await tx.$queryRaw<Joined[]>(Prisma.sql`
    WITH invite AS (
      DELETE FROM "EmailInvite" i
       WHERE i."tokenHash" = ${hashToken(secret)} AND NOT i.sso AND i."expiresAt" > ${now}
         AND NOT EXISTS (SELECT 1 FROM "Member" m WHERE m."organizationId" = i."organizationId" AND m."userId" = i."userId" AND m.disabled)
      RETURNING i."organizationId", i."userId", i.role
    ), member AS (
      INSERT INTO "Member" ("organizationId", "userId", role, "joinedAt")
      SELECT "organizationId", "userId", role, ${now} FROM invite
      ON CONFLICT ("organizationId", "userId") DO UPDATE SET role = LEAST("Member".role, EXCLUDED.role) WHERE NOT "Member".disabled
      RETURNING "organizationId", "userId", role
    ), organization AS (
      SELECT o.id, o.title FROM "Organization" o JOIN member ON member."organizationId" = o.id
    ), issued AS (
      INSERT INTO "ApiToken" (id, "userId", "tokenHash", label, "createdAt")
      SELECT ${newId()}, m."userId", ${hashToken(token)}, 'Join link (' || o.title || ')', ${now} FROM member m JOIN organization o ON TRUE
       WHERE NOT EXISTS (SELECT 1 FROM "ApiToken" a WHERE a."userId" = m."userId" AND a."revokedAt" IS NULL
                           AND (a."expiresAt" IS NULL OR a."expiresAt" > ${now}))
      RETURNING id
    )
    SELECT m."organizationId", o.title AS organization, m."userId", m.role, (SELECT id FROM issued) AS "tokenId",
           ARRAY(SELECT x."organizationId" FROM "Member" x WHERE x."userId" = m."userId" AND x."organizationId" <> m."organizationId")
             || m."organizationId" AS organizations
      FROM member m JOIN organization o ON TRUE`);
    if (!joined) return null;
    // The link's holder acts: the invited user. A first token acts in each of their organizations, and is recorded there.
    const recorder = recorderFor(services, { type: 'user', id: joined.userId, source: 'api', ...origin });
    const target = { type: 'user', id: joined.userId, label: null };
    await recordEvents(tx, recorder, [
      { action: 'member_joined', organizationId: joined.organizationId, target, payload: { role: joined.role, via: 'email_invite' } },
      ...(joined.tokenId
        ? joined.organizations.map((organizationId) => ({
            action: 'api_token_created',
            organizationId,
            target: { type: 'api-token', id: joined.tokenId!, label: `Join link (${joined.organization})` },
            payload: { userId: joined.userId },
          }))
        : []),
    ]);
    return joined;
  });
  if (!joined)
    throw (
      refusal(services, await inviteState(services, secret)) ?? new InviteRefused(404, 'This invite link is unknown or was already used.')
    );
  const { organizationId, organization, userId, tokenId } = joined;
  return { organizationId, organization, userId, ...(tokenId && { token }) };
}
