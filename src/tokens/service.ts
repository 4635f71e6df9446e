// Minting and revoking API tokens: a user's own over the API (within the scopes and expiry of the token they call
// with; an SSO session's token mints none), an organization's admins revoking its members' tokens, and the admin
// command line. The secret is answered once and stored hashed. Each change records its event in every organization the
// token acts in, in its transaction.
import type { ApiToken } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import {
  authorize,
  authorizeRow,
  can,
  organizations as organizationsResource,
  rowOf,
  spaces as spacesResource,
} from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { ApiError, badRequest, conflict, notFound } from '../kernel/errors.js';
import { type EventRecorder, recordEvents } from '../kernel/events.js';
import { hashToken, newApiToken, newId } from '../kernel/ids.js';
import { actsInSql, apiTokens, liveSql, scopeOf } from './access.js';

/** Live tokens a user may hold: each is a way in, and a list of them is read whole by nobody. */
export const MAX_LIVE_TOKENS = 100;

type Transaction = Prisma.TransactionClient;

/** A token as its creation answers it: with its secret, once. */
export type ApiTokenWithSecret = ApiToken & { secret: string };

export interface TokenScopes {
  /** The organizations it acts in; empty: every organization of its user. */
  organizations: string[];
  /** The spaces it sees; empty: whatever its user sees. */
  spaces: string[];
  readOnly: boolean;
}

export interface NewToken extends Partial<TokenScopes> {
  userId: string;
  label: string | null;
  expiresAt: Date | null;
}

/** A token's row, with the organizations its user is a member of (read in the statement that writes the token). */
type TokenWithMemberships = ApiToken & { memberOf: string[] };

/** What a statement writing the token aliased `token` answers: the row and its user's organizations. */
const withMemberships = Prisma.sql`*, ARRAY(SELECT m."organizationId" FROM "Member" m WHERE m."userId" = "ApiToken"."userId") AS "memberOf"`;

/** Records a token's event in every organization the token acts in (an SSO session's own, or those of its scope). */
async function recordTokenEvent(
  tx: Transaction,
  recorder: EventRecorder,
  action: 'api_token_created' | 'api_token_revoked',
  token: TokenWithMemberships,
  payload: Record<string, unknown>,
): Promise<void> {
  const scope = scopeOf(token);
  await recordEvents(
    tx,
    recorder,
    token.memberOf
      .filter((id) => !scope || scope.includes(id))
      .map((organizationId) => ({
        action,
        organizationId,
        target: { type: 'api-token', id: token.id, label: token.label },
        payload: { userId: token.userId, ...payload },
      })),
  );
}

const tokenOf = ({ memberOf: _memberOf, ...token }: TokenWithMemberships): ApiToken => token;

/** Inserts a token and records its creation: what the API and the admin command line share. */
export async function insertToken(tx: Transaction, recorder: EventRecorder, input: NewToken, now: Date): Promise<ApiTokenWithSecret> {
  const secret = newApiToken();
  const [token] = await tx.$queryRaw<TokenWithMemberships[]>`
    INSERT INTO "ApiToken" (id, "userId", "tokenHash", label, "expiresAt", organizations, spaces, "readOnly", "createdAt")
    VALUES (${newId()}, ${input.userId}, ${hashToken(secret)}, ${input.label}, ${input.expiresAt}, ${input.organizations ?? []}::text[],
            ${input.spaces ?? []}::text[], ${input.readOnly ?? false}, ${now})
    RETURNING ${withMemberships}`;
  await recordTokenEvent(tx, recorder, 'api_token_created', token, {
    expiresAt: token.expiresAt?.toISOString() ?? null,
    organizations: token.organizations,
    spaces: token.spaces,
    access: token.readOnly ? 'read' : 'write',
  });
  return { ...tokenOf(token), secret };
}

export interface CreateTokenInput {
  label: string;
  expiresAt?: Date | null;
  organizations?: string[] | null;
  spaces?: string[] | null;
  access?: 'read' | 'write' | null;
}

const invalid = (field: string, message: string) => badRequest(`Invalid "${field}": ${message}.`);

/** The spaces named, each one the viewer sees (and within their token's scope), with its organization. */
async function scopedSpaces(ctx: Context, ids: readonly string[]): Promise<{ id: string; organizationId: string }[]> {
  const rows = await Promise.all(ids.map((id) => rowOf(ctx, spacesResource, id)));
  return Promise.all(
    rows.map(async (row, i) => {
      if (!row || row.deletedAt || !(await can(ctx, spacesResource, row, 'view'))) throw invalid(`spaces.${i}`, 'no such space');
      return { id: row.id, organizationId: row.organizationId };
    }),
  );
}

/**
 * The scopes of a token the viewer mints: what the input names, each within the viewer's own token's scopes, or those
 * scopes when it names none. Spaces without organizations keep the token to the spaces' organizations.
 */
async function scopesOf(ctx: Context, input: CreateTokenInput): Promise<TokenScopes> {
  const { viewer } = ctx;
  const named = (ids: string[] | null | undefined) => (ids?.length ? [...new Set(ids)] : null);
  const spaceIds = named(input.spaces) ?? [...(viewer.spaces ?? [])];
  const spaces = await scopedSpaces(ctx, spaceIds);
  let organizations = named(input.organizations);
  if (organizations) {
    const members = await ctx.membership.loadMany(organizations);
    members.forEach((member, i) => {
      if (!member || member instanceof Error) throw invalid(`organizations.${i}`, 'no such organization');
    });
    spaces.forEach((space, i) => {
      if (!organizations?.includes(space.organizationId)) throw invalid(`spaces.${i}`, "not in one of the token's organizations");
    });
  } else {
    organizations = viewer.organizations ? [...viewer.organizations] : [...new Set(spaces.map((space) => space.organizationId))];
  }
  return { organizations, spaces: spaces.map((space) => space.id), readOnly: input.access === 'read' };
}

export async function createApiToken(ctx: Context, input: CreateTokenInput): Promise<ApiTokenWithSecret> {
  const { viewer } = ctx;
  if (viewer.session) {
    throw new ApiError(403, "An SSO session's token mints no token: create one with a token of your own.");
  }
  const now = ctx.clock.now();
  if (input.expiresAt && input.expiresAt <= now) throw invalid('expiresAt', 'must be in the future');
  if (input.expiresAt && viewer.expiresAt && input.expiresAt > viewer.expiresAt) {
    throw invalid('expiresAt', `must not be later than this token's own expiry (${viewer.expiresAt.toISOString()})`);
  }
  const scopes = await scopesOf(ctx, input);
  return ctx.prisma.$transaction(async (tx) => {
    // Locks the user's row, so that two creations at once cannot both pass the count.
    const [{ live }] = await tx.$queryRaw<{ live: number }[]>`
      SELECT (SELECT count(*)::int FROM "ApiToken" t WHERE t."userId" = u.id AND ${liveSql('t', now)}) AS live
        FROM "User" u WHERE u.id = ${viewer.userId} FOR UPDATE`;
    if (live >= MAX_LIVE_TOKENS) throw conflict(`A user holds at most ${MAX_LIVE_TOKENS} live API tokens: revoke one first.`);
    const token = { userId: viewer.userId, label: input.label, expiresAt: input.expiresAt ?? viewer.expiresAt, ...scopes };
    return insertToken(tx, ctx, token, now);
  });
}

/**
 * Revokes a token, recording it: a conditional update, so that of two concurrent revocations exactly one records.
 * Answers the revoked row, or null when it was revoked already.
 */
export async function revokeToken(tx: Transaction, recorder: EventRecorder, id: string, now: Date): Promise<ApiToken | null> {
  const [revoked] = await tx.$queryRaw<TokenWithMemberships[]>`
    UPDATE "ApiToken" SET "revokedAt" = ${now} WHERE id = ${id} AND "revokedAt" IS NULL RETURNING ${withMemberships}`;
  if (!revoked) return null;
  await recordTokenEvent(tx, recorder, 'api_token_revoked', revoked, {});
  return tokenOf(revoked);
}

/** Revokes one of the viewer's own tokens (within their token's scopes); revoking one already revoked changes nothing. */
export async function revokeOwnApiToken(ctx: Context, tokenId: string): Promise<boolean> {
  const { row } = await authorize(ctx, apiTokens, tokenId, 'revoke');
  if (row.userId !== ctx.viewer.userId) throw notFound('API token');
  return ctx.prisma.$transaction(async (tx) => (await revokeToken(tx, ctx, tokenId, ctx.clock.now())) !== null);
}

/**
 * An organization's admin revokes a token that acts in the organization: the token stops working everywhere, since
 * it is one token.
 */
export async function revokeOrganizationApiToken(ctx: Context, organizationId: string, tokenId: string): Promise<boolean> {
  await authorize(ctx, organizationsResource, organizationId, 'admin');
  const [token] = await ctx.sql<ApiToken>(
    Prisma.sql`SELECT t.* FROM "ApiToken" t WHERE t.id = ${tokenId} AND ${actsInSql('t', Prisma.sql`${organizationId}`)}`,
  );
  if (!token) throw notFound('API token');
  await authorizeRow(ctx, apiTokens, token, 'revoke');
  return ctx.prisma.$transaction(async (tx) => (await revokeToken(tx, ctx, tokenId, ctx.clock.now())) !== null);
}
