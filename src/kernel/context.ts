// Everything a resolver needs for one request. Created per request by src/app.ts, for REST and GraphQL alike.
import DataLoader from 'dataloader';
import type { Config } from '../config.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { unauthorized } from './errors.js';
import { hashToken } from './ids.js';
import type { PageTokens } from './pagination.js';
import type { Membership } from './permissions.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface Viewer {
  userId: string;
  tokenId: string;
}

/** What stays the same for every request of a running service. */
export interface Services {
  prisma: PrismaClient;
  config: Config;
  clock: Clock;
  pageTokens: PageTokens;
}

export interface Context extends Services {
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

export async function authenticate(services: Services, authorization: string | null | undefined): Promise<Viewer> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw unauthorized();
  const token = await services.prisma.apiToken.findUnique({
    where: { tokenHash: hashToken(match[1]) },
    select: { id: true, userId: true, revokedAt: true, expiresAt: true },
  });
  const now = services.clock.now();
  if (!token || token.revokedAt || (token.expiresAt && token.expiresAt <= now)) {
    throw unauthorized('The API token is unknown, revoked or expired.');
  }
  return { userId: token.userId, tokenId: token.id };
}

export function createContext(services: Services, viewer: Viewer): Context {
  return {
    ...services,
    viewer,
    loaders: new Map(),
    membership: new DataLoader(async (organizationIds) => {
      const rows = await services.prisma.member.findMany({
        where: { userId: viewer.userId, organizationId: { in: [...organizationIds] }, disabled: false },
        select: { organizationId: true, role: true },
      });
      const byOrg = new Map(rows.map((r) => [r.organizationId, { role: r.role }]));
      return organizationIds.map((id) => byOrg.get(id));
    }),
  };
}
