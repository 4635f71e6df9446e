// Rate limits of /v1, /graphql and the sign-in pages (/join, /sso) (rate-limiter-flexible): a fixed window of a minute per API token, and one per
// client address for requests without a token and for failed authentications. Every limited response carries
// GitBook's X-RateLimit-Limit, -Remaining and -Reset (epoch seconds); a refusal is a 429 with Retry-After.
// The counters live in this process, or in PostgreSQL (RATE_LIMIT_STORE=postgres) so that instances share them.
import type Koa from 'koa';
import pg from 'pg';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from './config.js';
import { bearerToken } from './kernel/context.js';
import { hashToken } from './kernel/ids.js';

const WINDOW_SECONDS = 60;
const LIMITED_PATHS = /^\/(v1|graphql|join|sso)(\/|$)/;

export interface RateLimits {
  middleware: Koa.Middleware;
  close(): Promise<void>;
}

interface Limiter {
  points: number;
  store: RateLimiterAbstract;
}

function limiter(points: number, keyPrefix: string, pool: pg.Pool | undefined): Limiter | undefined {
  if (points === 0) return undefined;
  const options = { points, duration: WINDOW_SECONDS, keyPrefix };
  const store = pool
    ? new RateLimiterPostgres({
        ...options,
        storeClient: pool,
        storeType: 'pool',
        tableName: 'RateLimit',
        tableCreated: true,
        clearExpiredByTimeout: true,
        // While the database cannot answer, each instance counts on its own rather than failing the request.
        insuranceLimiter: new RateLimiterMemory(options),
      })
    : new RateLimiterMemory(options);
  return { points, store };
}

function setHeaders(ctx: Koa.Context, { points }: Limiter, state: RateLimiterRes): void {
  ctx.set('X-RateLimit-Limit', String(points));
  ctx.set('X-RateLimit-Remaining', String(Math.max(0, state.remainingPoints)));
  ctx.set('X-RateLimit-Reset', String(Math.ceil((Date.now() + state.msBeforeNext) / 1000)));
}

function refuse(ctx: Koa.Context, limit: Limiter, state: RateLimiterRes): void {
  const seconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  setHeaders(ctx, limit, state);
  ctx.set('Retry-After', String(seconds));
  ctx.status = 429;
  ctx.body = { error: { code: 429, message: `API rate limit exceeded. Please try again in ${seconds} seconds.` } };
}

/** Consumes a point of `key`; the refusal as a RateLimiterRes, any other failure (the store's) thrown. */
async function consume(limit: Limiter, key: string): Promise<{ allowed: boolean; state: RateLimiterRes }> {
  try {
    return { allowed: true, state: await limit.store.consume(key) };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, state: rejection };
    throw rejection;
  }
}

export function createRateLimits(config: Config, databaseUrl: string): RateLimits {
  const { perToken, perAddress, store } = config.rateLimits;
  // Its own small pool: the limiter's statements are not the request's (nor counted as its statements).
  const pool = store === 'postgres' && (perToken || perAddress) ? new pg.Pool({ connectionString: databaseUrl, max: 2 }) : undefined;
  pool?.on('error', () => {});
  const tokens = limiter(perToken, 'token', pool);
  const addresses = limiter(perAddress, 'address', pool);

  const middleware: Koa.Middleware = async (ctx, next) => {
    if (!LIMITED_PATHS.test(ctx.path)) return next();
    const token = bearerToken(ctx.get('authorization'));
    const address = ctx.ip;
    if (token && addresses) {
      // An address that keeps failing authentication is refused before its tokens are looked up.
      const failures = await addresses.store.get(address);
      if (failures && failures.remainingPoints <= 0) return refuse(ctx, addresses, failures);
    }
    const limit = token ? tokens : addresses;
    if (limit) {
      const { allowed, state } = await consume(limit, token ? hashToken(token) : address);
      if (!allowed) return refuse(ctx, limit, state);
      setHeaders(ctx, limit, state);
    }
    await next();
    if (token && addresses && ctx.status === 401) await addresses.store.penalty(address, 1);
  };

  return {
    middleware,
    close: async () => {
      await pool?.end();
    },
  };
}
