// The HTTP service: REST at /v1, GraphQL (with GraphiQL) at /graphql, JSON errors everywhere else.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import cors from '@koa/cors';
import Koa from 'koa';
import { compileRoutes } from '../rest/compile.js';
import { restMiddleware } from '../rest/middleware.js';
import { apiReference } from './api-reference.js';
import { createServices } from './composition.js';
import type { Config } from './config.js';
import { connectDatabase, type Database } from './db/client.js';
import { durabilityWarnings } from './db/durability.js';
import { fileDownloads } from './files/index.js';
import { graphqlMiddleware } from './graphql.js';
import { integrationAssets } from './integrations/index.js';
import { invitesPages } from './invites/index.js';
import { authenticate, type Clock, type Context, createContext, type Services, type Viewer } from './kernel/context.js';
import { idempotencyStore } from './kernel/idempotency.js';
import { ID_PATTERN } from './kernel/ids.js';
import { createLogger, type Logger } from './logger.js';
import { createMonitoring } from './monitoring.js';
import { createRateLimits } from './rate-limits.js';
import { restModules, schema } from './schema.js';
import { ssoPages } from './sso/index.js';

export interface AppOptions {
  config: Config;
  databaseUrl: string;
  /** The instance secret (src/kernel/secrets.ts). */
  secret: Buffer;
  clock?: Clock;
  logger?: Logger;
}

export interface App {
  server: http.Server;
  db: Database;
  services: Services;
  logger: Logger;
  /** Starts listening; resolves to the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** Stops accepting connections, lets in-flight requests finish (closing their connections), then closes the database pool. */
  close(): Promise<void>;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function createApp(options: AppOptions): App {
  const logger = options.logger ?? createLogger(options.config.logLevel);
  const db = connectDatabase(options.databaseUrl, options.config.poolSize, (error) =>
    logger.warn({ err: error }, 'database connection closed by the server; the pool reconnects'),
  );
  const services = createServices({ db, config: options.config, secret: options.secret, logger, clock: options.clock });

  /** The request's viewer, its token looked up once however many ask (the rate limits first, then the route). */
  const viewerOf = (ctx: Koa.Context): Promise<Viewer> => {
    ctx.state.viewer ??= authenticate(services, ctx.get('authorization') || undefined);
    return ctx.state.viewer;
  };
  /**
   * The request's context, once its token is checked; its actor goes into the request's log line. Made once a
   * request: /graphql may need it before reading a body, and yoga asks for it again.
   */
  const contextOf = (ctx: Koa.Context): Promise<Context> =>
    (ctx.state.context ??= (async () => {
      const viewer = await viewerOf(ctx);
      ctx.state.actor = { userId: viewer.userId, tokenId: viewer.tokenId };
      return createContext(services, viewer, { requestId: ctx.state.requestId, address: ctx.ip });
    })());

  const monitoring = createMonitoring(db);
  const rateLimits = createRateLimits(options.config, options.databaseUrl, viewerOf);
  const routes = compileRoutes(schema, restModules);
  // ctx.ip, for the rate limits and the log: with N trusted proxies, the Nth address from the right of
  // X-Forwarded-For (the one the outermost proxy appended; what a client sends itself stays to its left).
  const { trustedProxies } = options.config;
  const koa = new Koa({ proxy: trustedProxies > 0, maxIpsCount: trustedProxies });
  let closing = false;
  // Once the service closes, every answer closes its connection: server.close() waits for every open connection, and
  // a client (a load balancer's pool) that keeps sending on one would keep the process serving, and running, forever.
  koa.use(async (ctx, next) => {
    await next();
    if (closing) ctx.set('Connection', 'close');
  });
  koa.use(monitoring.measure);
  const { corsOrigins } = options.config;
  if (corsOrigins?.length) {
    koa.use(
      cors({
        // Only the configured origins get CORS headers; any other origin's browser is refused by the browser itself.
        origin: (ctx) => (corsOrigins.includes('*') ? '*' : corsOrigins.includes(ctx.get('origin')) ? ctx.get('origin') : ''),
        allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key', 'If-Match', 'If-None-Match'],
        exposeHeaders: [
          'X-Request-Id',
          'Location',
          'ETag',
          'Retry-After',
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
          'Idempotent-Replayed',
        ],
        maxAge: 600,
      }),
    );
  }
  koa.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', requestId);
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    try {
      await next();
    } catch (error) {
      ctx.state.error = error;
      ctx.status = 500;
      ctx.body = { error: { code: 500, message: 'Internal server error.' } };
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const line = { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, ip: ctx.ip, ...ctx.state.actor };
    if (ctx.state.error) ctx.state.log.error({ ...line, err: ctx.state.error }, 'request failed');
    else ctx.state.log.info(line, 'request');
  });
  koa.use(monitoring.endpoints);
  koa.use(apiReference(options.config, routes));
  koa.use(rateLimits.middleware);
  koa.use(invitesPages(services));
  koa.use(ssoPages(services));
  koa.use(fileDownloads(services));
  koa.use(integrationAssets(services));
  koa.use(
    restMiddleware({
      routes,
      // A copy of the request's context that carries the REST request's If-Match (src/kernel/etags.ts).
      createContext: async (ctx, preconditions) => ({ ...(await contextOf(ctx)), ...preconditions }),
      idPattern: ID_PATTERN,
      idempotency: idempotencyStore(services),
    }),
  );
  koa.use(graphqlMiddleware({ config: options.config, contextOf }));
  koa.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = { error: { code: 404, message: `No endpoint ${ctx.method} ${ctx.path}.` } };
  });

  const server = http.createServer(koa.callback());
  // Idle keep-alive connections stay open longer than clients and proxies keep theirs (load balancers commonly 60 s),
  // so that the server never closes one just as a client sends on it (the client would see a reset).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return {
    server,
    db,
    services,
    logger,
    listen: async (port = options.config.port, host = options.config.host) => {
      // INSTANCE_ADMINS names the users that exist when the service starts: read before the first request is taken.
      await services.instanceAdmins.ready();
      // A database that cannot be asked now is the health checks' to report, not the start's.
      for (const warning of await durabilityWarnings(db.sql).catch(() => [])) logger.warn(warning);
      return new Promise<string>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const { port: actual } = server.address() as AddressInfo;
          resolve(`http://${host.includes(':') ? `[${host}]` : host}:${actual}`);
        });
      });
    },
    close: async () => {
      closing = true;
      monitoring.drain();
      // A load balancer learns of the stop from the readiness check, at its own pace: until it has, new connections are
      // still served (SHUTDOWN_DRAIN_SECONDS), rather than refused.
      if (options.config.shutdownDrainSeconds)
        await new Promise((resolve) => setTimeout(resolve, options.config.shutdownDrainSeconds * 1000));
      await new Promise<void>((resolve) => {
        // Connections that go idle after this (a response begun before the close, streamed to its end) are closed as
        // they do, not after the keep-alive timeout.
        const idle = setInterval(() => server.closeIdleConnections(), 100);
        server.close(() => {
          clearInterval(idle);
          resolve();
        });
        server.closeIdleConnections();
      });
      services.mailer.close();
      await Promise.all([db.close(), rateLimits.close(), services.fetcher.close()]);
    },
  };
}
