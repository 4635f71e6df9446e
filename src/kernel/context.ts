// Everything a resolver needs for one request. Created per request by src/app.ts, for REST and GraphQL alike.
import DataLoader from 'dataloader';
import type { Config } from '../config.js';
import type { SqlRunner } from '../db/client.js';
import type { FileStore } from '../files/store.js';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import type { Logger } from '../logger.js';
import type { Mailer } from '../mail.js';
import { unauthorized } from './errors.js';
import type { Preconditions } from './etags.js';
import type { EventRecorder } from './events.js';
import type { Fetcher } from './fetcher.js';
import { API_TOKEN_SHAPE, hashToken } from './ids.js';
import type { PageTokens } from './pagination.js';
import type { Membership } from './permissions.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface Viewer {
  userId: string;
  tokenId: string;
  /** Whether any content is granted to the user or to a team of theirs: lists read grants only then. */
  holdsGrants: boolean;
  /** Whether the user is a guest (a member without role) of an organization: what guests may not see is read only then. */
  guestSomewhere: boolean;
  /**
   * The organizations the token acts in: an SSO session's one, or those its creator scoped it to; null: every
   * organization of its user. Elsewhere the viewer is nobody: not a member, so nothing there exists for them.
   */
  organizations: readonly string[] | null;
  /**
   * The spaces the token sees, when its creator scoped it to some: in their organizations it stands as a guest (it
   * sees the organization, not its members, collections or sites), and those spaces are judged by its user's role and
   * grants. Null: no such scope.
   */
  spaces: readonly string[] | null;
  /** A token scoped to reading: src/kernel/read-only.ts refuses every mutation. */
  readOnly: boolean;
  /** An SSO session's token: its organization's IdP vouched for its user there only, so it mints no token. */
  session: boolean;
  /** When the token stops working; a token it mints expires no later. */
  expiresAt: Date | null;
}

/** Whether the viewer's token may act in the organization at all (its scope, not its membership, decides). */
export const actsIn = (viewer: Viewer, organizationId: string) => !viewer.organizations || viewer.organizations.includes(organizationId);

/**
 * Condition on a Member row (aliased `member`) for a membership through which the viewer acts: theirs, enabled, and
 * in the token's organization when the token has one. Every reading of the viewer's memberships goes through it.
 */
export function viewerMembershipSql(viewer: Viewer, member: 'm' | 'mine' | 'seen'): Prisma.Sql {
  const m = Prisma.raw(member);
  const scope = viewer.organizations ? Prisma.sql`AND ${m}."organizationId" = ANY(${viewer.organizations}::text[])` : Prisma.empty;
  return Prisma.sql`${m}."userId" = ${viewer.userId} AND NOT ${m}.disabled ${scope}`;
}

/**
 * The viewer's standing in an organization from their membership row: a token scoped to spaces stands there as a
 * guest, its spaces judged by the membership as it is (`spaces`).
 */
export function membershipOf(viewer: Viewer, row: { role: Membership['role']; granted: boolean }): Membership {
  const membership = { role: row.role, granted: row.granted };
  return viewer.spaces ? { role: null, granted: false, spaces: membership } : membership;
}

/**
 * The viewer's role in SQL for the Member row aliased `member`, as their standing there is (membershipOf): NULL, a
 * guest's, for a token scoped to spaces.
 */
export const viewerRoleSql = (viewer: Viewer, member: 'm' | 'mine'): Prisma.Sql =>
  viewer.spaces ? Prisma.sql`NULL::"MemberRole"` : Prisma.sql`${Prisma.raw(member)}.role`;

/**
 * The viewer's memberships in the organizations of `organizationIds` (a text[] expression): each one's
 * "organizationId", the viewer's role and whether content is granted to them or to a team of theirs there
 * ("granted"). What the request's `membership` loader reads.
 */
export function viewerMembershipsSql(viewer: Viewer, organizationIds: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT m."organizationId", m.role, EXISTS (SELECT 1 FROM "ContentGrant" g
      WHERE g."organizationId" = m."organizationId" AND (g."userId" = m."userId" OR g."teamId" IN
        (SELECT tm."teamId" FROM "TeamMember" tm WHERE tm."organizationId" = m."organizationId" AND tm."userId" = m."userId"))
    ) AS granted
    FROM "Member" m
    WHERE ${viewerMembershipSql(viewer, 'm')} AND m."organizationId" = ANY(${organizationIds})`;
}

/** What stays the same for every request of a running service. */
export interface Services {
  prisma: PrismaClient;
  /**
   * Plain SQL on the same pool, without Prisma's per-query cost (about a millisecond of CPU here): for the reads every
   * request makes (token, memberships, list pages, counters), which return ids, numbers and enum strings only.
   */
  sql: SqlRunner;
  config: Config;
  clock: Clock;
  pageTokens: PageTokens;
  mailer: Mailer;
  /** Every outbound request goes through it. */
  fetcher: Fetcher;
  logger: Logger;
  /** The instance secret (src/kernel/secrets.ts), for what a domain must sign or encrypt. */
  secret: Buffer;
  /** Where files' bytes are kept (src/files/store.ts). */
  files: FileStore;
}

export interface Context extends Services, EventRecorder, Preconditions {
  viewer: Viewer;
  /** The viewer's membership per organization id (undefined: not a member). One query per batch. */
  membership: DataLoader<string, Membership | undefined>;
  /** Per-request DataLoaders created on demand by `loaderFor`, keyed by their owners' module-level symbols. */
  loaders: Map<symbol, DataLoader<unknown, unknown>>;
}

/** The request's DataLoader for `key`, created with `batch` on first use (one batch per tick, whatever the fan-out). */
export function loaderFor<K, V, C = K>(
  ctx: Context,
  key: symbol,
  batch: DataLoader.BatchLoadFn<K, V>,
  options?: DataLoader.Options<K, V, C>,
): DataLoader<K, V, C> {
  let loader = ctx.loaders.get(key) as DataLoader<K, V, C> | undefined;
  if (!loader) {
    loader = new DataLoader(batch, options);
    ctx.loaders.set(key, loader as DataLoader<unknown, unknown>);
  }
  return loader;
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
}

/** How stale a token's `lastUsedAt` may get: it is written at most once per this many milliseconds of use. */
export const LAST_USED_PRECISION_MS = 60_000;

const refusedToken = () => unauthorized('The API token is unknown, revoked or expired.');

/**
 * The viewer of an Authorization header. One statement: it reads the token and, when the token is live and its
 * `lastUsedAt` is older than LAST_USED_PRECISION_MS, records the use, so a busy token costs one write a minute.
 * A token of another shape than ours is refused without a statement.
 */
export async function authenticate(services: Services, authorization: string | null | undefined): Promise<Viewer> {
  const secret = bearerToken(authorization);
  if (!secret) throw unauthorized();
  if (!API_TOKEN_SHAPE.test(secret)) throw refusedToken();
  const now = services.clock.now();
  const [token] = await services.sql<{
    id: string;
    userId: string;
    revokedAt: Date | null;
    expiresAt: Date | null;
    scope: string[] | null;
    spaces: string[];
    readOnly: boolean;
    session: boolean;
    holdsGrants: boolean;
    guestSomewhere: boolean;
  }>(
    Prisma.sql`WITH token AS (
        SELECT id, "userId", "revokedAt", "expiresAt", "lastUsedAt", spaces, "readOnly", "organizationId" IS NOT NULL AS session,
               CASE WHEN "organizationId" IS NOT NULL THEN ARRAY["organizationId"]
                    WHEN cardinality(organizations) > 0 THEN organizations END AS scope
          FROM "ApiToken" WHERE "tokenHash" = ${hashToken(secret)}
      ), used AS (
        UPDATE "ApiToken" SET "lastUsedAt" = ${now} FROM token
        WHERE "ApiToken".id = token.id AND token."revokedAt" IS NULL
          AND (token."expiresAt" IS NULL OR token."expiresAt" > ${now})
          AND (token."lastUsedAt" IS NULL OR token."lastUsedAt" <= ${new Date(now.getTime() - LAST_USED_PRECISION_MS)})
      )
      SELECT id, "userId", "revokedAt", "expiresAt", scope, spaces, "readOnly", session, EXISTS (SELECT 1 FROM "ContentGrant" g
          WHERE g."userId" = token."userId"
             OR g."teamId" IN (SELECT tm."teamId" FROM "TeamMember" tm WHERE tm."userId" = token."userId")) AS "holdsGrants",
        EXISTS (SELECT 1 FROM "Member" m WHERE m."userId" = token."userId" AND m.role IS NULL AND NOT m.disabled
                   AND (token.scope IS NULL OR m."organizationId" = ANY(token.scope))) AS "guestSomewhere"
        FROM token`,
  );
  if (!token || token.revokedAt || (token.expiresAt && token.expiresAt <= now)) throw refusedToken();
  return {
    userId: token.userId,
    tokenId: token.id,
    holdsGrants: token.holdsGrants,
    // A token scoped to spaces stands as a guest in their organizations: what guests may not see is read then.
    guestSomewhere: token.guestSomewhere || token.spaces.length > 0,
    organizations: token.scope,
    spaces: token.spaces.length ? token.spaces : null,
    readOnly: token.readOnly,
    session: token.session,
    expiresAt: token.expiresAt,
  };
}

/** Where an HTTP request comes from, for the events it records. */
export interface RequestOrigin {
  requestId?: string;
  address?: string;
}

/** How stale a member's `lastSeenAt` may get: like a token's `lastUsedAt`, written at most once a minute. */
export const LAST_SEEN_PRECISION_MS = LAST_USED_PRECISION_MS;

/**
 * An UPDATE, for a statement's WITH, that records a visit: the memberships `seen` matching `who` (a condition on that
 * alias) in the organizations of `organizationIds` (a text[] expression) get `lastSeenAt` = now when it is older than
 * LAST_SEEN_PRECISION_MS. Bookkeeping: no statement of its own, no event; a membership a transaction holds is
 * skipped rather than waited for. Written by the reads of the viewer's memberships and by recorded changes.
 */
export function memberSeenSql(who: Prisma.Sql, organizationIds: Prisma.Sql, now: Date): Prisma.Sql {
  return Prisma.sql`UPDATE "Member" SET "lastSeenAt" = ${now} WHERE ("organizationId", "userId") IN (
      SELECT seen."organizationId", seen."userId" FROM "Member" seen
       WHERE ${who} AND seen."organizationId" = ANY(${organizationIds})
         AND (seen."lastSeenAt" IS NULL OR seen."lastSeenAt" <= ${new Date(now.getTime() - LAST_SEEN_PRECISION_MS)})
       FOR UPDATE SKIP LOCKED)`;
}

/** viewerMembershipsSql as a statement of its own, which records the viewer's visit to those organizations too. */
function viewerMembershipsSeenSql(viewer: Viewer, organizationIds: Prisma.Sql, now: Date): Prisma.Sql {
  return Prisma.sql`WITH seen AS (${memberSeenSql(viewerMembershipSql(viewer, 'seen'), organizationIds, now)})
    ${viewerMembershipsSql(viewer, organizationIds)}`;
}

export function createContext(services: Services, viewer: Viewer, origin: RequestOrigin = {}): Context {
  return {
    ...services,
    viewer,
    actor: { type: 'user', id: viewer.userId, source: 'api', tokenId: viewer.tokenId, ...origin },
    loaders: new Map(),
    membership: new DataLoader(async (organizationIds) => {
      const rows = await services.sql<Membership & { organizationId: string }>(
        viewerMembershipsSeenSql(viewer, Prisma.sql`${[...organizationIds]}::text[]`, services.clock.now()),
      );
      const byOrg = new Map(rows.map((r) => [r.organizationId, membershipOf(viewer, r)]));
      return organizationIds.map((id) => byOrg.get(id));
    }),
  };
}
