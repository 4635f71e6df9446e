// Rate limits of /v1, /graphql and the sign-in pages (/join, /sso) (rate-limiter-flexible), each a fixed window of a
// minute, kept apart so that no one's traffic spends another's budget:
// - a request with a valid API token counts against that token, and only against it;
// - a request whose token is refused (unknown, revoked, expired) counts against its client address, in a budget of
//   failed authentications that refuses only further requests without a valid token;
// - a request without a token (the sign-in pages' always) counts against its client address, in a budget of its own.
// A token is therefore looked up before it is counted: the authentication statement (one read by the unique index of
// the token's hash), which the route then reuses. A request with a token costs no statement more than without limits,
// unless it is refused before its route authenticates (an unknown path, a GraphQL query over its limits): then that
// read. A refused guess costs that one read (none for a token not of our shape, src/kernel/context.ts).
// Every limited response carries GitBook's X-RateLimit-Limit, -Remaining and -Reset (epoch seconds) of the budget it
// counted against; a refusal is a 429 with Retry-After. The counters live in this process, or in PostgreSQL
// (RATE_LIMIT_STORE=postgres) so that instances share them.
import type Koa from 'koa';
import pg from 'pg';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from './config.js';
import { bearerToken, type Viewer } from './kernel/context.js';
import { ApiError } from './kernel/errors.js';

const WINDOW_SECONDS = 60;
const LIMITED_PATHS = /^\/(v1|graphql|join|sso)(\/|$)/;
/** Where a bearer token authenticates the request; elsewhere (the sign-in pages) a request is anonymous. */
const TOKEN_PATHS = /^\/(v1|graphql)(\/|$)/;

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

export function createRateLimits(
  config: Config,
  databaseUrl: string,
  /** The request's viewer, authenticated once per request: the route awaits the same promise. */
  authenticateRequest: (ctx: Koa.Context) => Promise<Viewer>,
): RateLimits {
  const { perToken, anonymousPerAddress, failedAuthenticationsPerAddress, store } = config.rateLimits;
  const anyLimit = perToken || anonymousPerAddress || failedAuthenticationsPerAddress;
  // Its own small pool: the limiter's statements are not the request's (nor counted as its statements).
  const pool = store === 'postgres' && anyLimit ? new pg.Pool({ connectionString: databaseUrl, max: 2 }) : undefined;
  pool?.on('error', () => {});
  const tokens = limiter(perToken, 'token', pool);
  const anonymous = limiter(anonymousPerAddress, 'anonymous', pool);
  const failedAuthentications = limiter(failedAuthenticationsPerAddress, 'failed-auth', pool);

  /** The budget a request counts against, and its key there; undefined when that budget is off. */
  async function counterOf(ctx: Koa.Context): Promise<{ limit: Limiter; key: string } | undefined> {
    const address = ctx.ip;
    const tokenSent = TOKEN_PATHS.test(ctx.path) && bearerToken(ctx.get('authorization')) !== undefined;
    if (!tokenSent) return anonymous && { limit: anonymous, key: address };
    if (!tokens && !failedAuthentications) return undefined;
    try {
      const viewer = await authenticateRequest(ctx);
      return tokens && { limit: tokens, key: viewer.tokenId };
    } catch (error) {
      // Anything but a refused token (the database failing, say) is the route's to answer, as without limits.
      if (!(error instanceof ApiError && error.status === 401)) return undefined;
      return failedAuthentications && { limit: failedAuthentications, key: address };
    }
  }

  const middleware: Koa.Middleware = async (ctx, next) => {
    if (!LIMITED_PATHS.test(ctx.path)) return next();
    const counter = await counterOf(ctx);
    if (counter) {
      const { allowed, state } = await consume(counter.limit, counter.key);
      if (!allowed) return refuse(ctx, counter.limit, state);
      setHeaders(ctx, counter.limit, state);
    }
    await next();
  };

  return {
    middleware,
    close: async () => {
      await pool?.end();
    },
  };
}
