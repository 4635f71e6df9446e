// Signing in through a SAML provider, once its response is verified (saml.ts): the assertion is consumed, with the
// request it answers; the user it names is found or created; a first sign-in makes them a member; and an API token,
// valid for SSO_SESSION_MINUTES, is their session. One transaction: a refusal at any step leaves nothing behind.
import type { Prisma, SamlProvider as SamlProviderRow } from '../generated/prisma/client.js';
import type { MemberRole } from '../generated/prisma/enums.js';
import type { RequestOrigin, Services } from '../kernel/context.js';
import { recordEvents, recorderFor } from '../kernel/events.js';
import { hashToken, newApiToken, newId } from '../kernel/ids.js';
import { SamlRefusal, type VerifiedAssertion } from './saml.js';

type Transaction = Prisma.TransactionClient;

/** What a successful sign-in answers at the ACS URL. */
export interface SsoSession {
  token: string;
  expiresAt: Date;
  userId: string;
  organizationId: string;
}

/** The user with this address, created (named after the assertion, or the address's local part) when there is none. */
async function userFor(tx: Transaction, assertion: VerifiedAssertion): Promise<{ id: string; created: boolean }> {
  const byEmail = () => tx.$queryRaw<{ id: string }[]>`SELECT id FROM "User" WHERE email = ${assertion.email}`;
  const [known] = await byEmail();
  if (known) return { id: known.id, created: false };
  const displayName = assertion.displayName ?? assertion.email.slice(0, assertion.email.indexOf('@'));
  const [created] = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO "User" (id, email, "displayName") VALUES (${newId()}, ${assertion.email}, ${displayName})
    ON CONFLICT (email) DO NOTHING RETURNING id`;
  // Another sign-in created them in the meantime.
  return created ? { id: created.id, created: true } : { id: (await byEmail())[0].id, created: false };
}

/**
 * Makes the user a member on their first sign-in, and answers the role they joined with (undefined: they were a member). A member keeps their role (a disabled one
 * is refused). A newcomer gets the role of their pending SSO invite, which this consumes, or the provider's default
 * role, and joins its default team. A user the instance knew before, who is neither a member nor invited, is refused:
 * an identity provider vouches for the organization's people, not for accounts that belong to no one it knows of.
 */
async function joinOrganization(
  tx: Transaction,
  provider: SamlProviderRow,
  user: { id: string; created: boolean },
  email: string,
  now: Date,
): Promise<{ role: MemberRole | null } | undefined> {
  const { organizationId } = provider;
  const [member] = await tx.$queryRaw<{ disabled: boolean }[]>`
    SELECT disabled FROM "Member" WHERE "organizationId" = ${organizationId} AND "userId" = ${user.id}`;
  if (member?.disabled) throw new SamlRefusal('member-disabled', 'Your membership of this organization is disabled.');
  if (member) return undefined;
  const [invite] = await tx.$queryRaw<{ role: MemberRole | null }[]>`
    DELETE FROM "EmailInvite" WHERE "organizationId" = ${organizationId} AND email = ${email} AND sso AND "expiresAt" > ${now}
    RETURNING role`;
  if (!invite && !user.created) {
    throw new SamlRefusal('not-member', 'You are not a member of this organization: ask one of its admins for an SSO invite.');
  }
  const role = invite ? invite.role : provider.defaultRole;
  await tx.$executeRaw`
    INSERT INTO "Member" ("organizationId", "userId", role, sso) VALUES (${organizationId}, ${user.id}, ${role}::"MemberRole", TRUE)
    ON CONFLICT DO NOTHING`;
  if (provider.defaultTeamId) {
    // Through the team row: a team deleted since the provider was read is skipped, not an error.
    await tx.$executeRaw`
      INSERT INTO "TeamMember" ("teamId", "organizationId", "userId")
      SELECT id, "organizationId", ${user.id} FROM "Team" WHERE id = ${provider.defaultTeamId} AND "organizationId" = ${organizationId}
      ON CONFLICT DO NOTHING`;
  }
  return { role };
}

/** Signs in the user of a verified assertion; refuses (SamlRefusal) a replayed assertion or a stale request. */
export async function signIn(
  services: Services,
  provider: SamlProviderRow,
  assertion: VerifiedAssertion,
  origin: RequestOrigin = {},
): Promise<SsoSession & { tokenId: string; provisioned: boolean }> {
  const now = services.clock.now();
  return services.prisma.$transaction(async (tx) => {
    // The assertion first, so that a replay is told as one rather than as a request already answered.
    const recorded = await tx.$queryRaw<{ assertionId: string }[]>`
      INSERT INTO "SamlAssertion" ("providerId", "assertionId", "expiresAt") VALUES (${provider.id}, ${assertion.assertionId}, ${assertion.usableUntil})
      ON CONFLICT DO NOTHING RETURNING "assertionId"`;
    if (!recorded.length) throw new SamlRefusal('replay', 'The SAML assertion was already used.');
    // Each request answers once: deleting it is what consumes it.
    const answered = await tx.$queryRaw<{ id: string }[]>`
      DELETE FROM "SamlRequest" WHERE id = ${assertion.requestId} AND "providerId" = ${provider.id} AND "expiresAt" > ${now} RETURNING id`;
    if (!answered.length) throw new SamlRefusal('request', 'The SAML response answers no pending sign-in: start again.');

    const user = await userFor(tx, assertion);
    const joined = await joinOrganization(tx, provider, user, assertion.email, now);
    const token = newApiToken();
    const expiresAt = new Date(now.getTime() + services.config.ssoSessionMinutes * 60_000);
    const { id: tokenId } = await tx.apiToken.create({
      // The organization's IdP vouches for the user in this organization only: the token acts nowhere else.
      data: {
        id: newId(),
        userId: user.id,
        tokenHash: hashToken(token),
        label: `SSO session (${provider.label})`,
        expiresAt,
        organizationId: provider.organizationId,
      },
      select: { id: true },
    });
    // The user signs in: they act. Their session is a token, recorded in the one organization where it acts.
    const { organizationId } = provider;
    const via = { via: 'sso', provider: provider.id };
    await recordEvents(tx, recorderFor(services, { type: 'user', id: user.id, source: 'api', ...origin }), [
      ...(joined
        ? [{ action: 'member_joined', organizationId, target: { type: 'user', id: user.id }, payload: { ...joined, ...via } }]
        : []),
      {
        action: 'api_token_created',
        organizationId,
        target: { type: 'api-token', id: tokenId, label: `SSO session (${provider.label})` },
        payload: { userId: user.id, expiresAt: expiresAt.toISOString(), ...via },
      },
    ]);
    return { token, expiresAt, userId: user.id, organizationId, tokenId, provisioned: joined !== undefined };
  });
}
