// What load balancers and monitoring ask of the service: liveness, readiness (the database answers; not while the
// service drains for a shutdown) and Prometheus metrics (requests by route template and status, the database pool,
// the process). Documented in README.md, "Health and metrics".
import type { Middleware } from 'koa';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from './db/client.js';
import { Prisma } from './generated/prisma/client.js';

/** How long readiness waits for the database before it answers 503. */
const READINESS_TIMEOUT_MS = 2000;

export interface Monitoring {
  /** Counts and times every request by route template (never by path: ids would make a series per request). */
  measure: Middleware;
  /** GET /health/live, GET /health/ready, GET /metrics. */
  endpoints: Middleware;
  /** From now on readiness answers 503, so that a load balancer stops sending new requests. */
  drain(): void;
}

let processMetrics: Registry | undefined;

/**
 * The process's own metrics (memory, CPU, event loop, GC) describe the process, not one service in it, and each
 * collection starts its own observers: they are collected once per process, whatever number of services it runs.
 */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

export function createMonitoring(db: Database): Monitoring {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests served.', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to serve an HTTP request.',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Connections of the database pool, by state.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'open' }, db.pool.totalCount);
      this.set({ state: 'idle' }, db.pool.idleCount);
      this.set({ state: 'waiting_clients' }, db.pool.waitingCount);
    },
  });
  let reported = 0;
  new Counter({
    name: 'db_statements_total',
    help: 'SQL statements sent to the database.',
    registers: [registry],
    collect() {
      this.inc(db.statements.count - reported);
      reported = db.statements.count;
    },
  });
  const exposed = Registry.merge([processRegistry(), registry]);

  let draining = false;
  const databaseAnswers = async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS);
    });
    try {
      return await Promise.race([db.sql(Prisma.sql`SELECT 1`).then(() => true), timeout]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    measure: async (ctx, next) => {
      const stop = duration.startTimer();
      try {
        await next();
      } finally {
        const labels = { method: ctx.method, route: (ctx.state.route as string | undefined) ?? 'unmatched', status: String(ctx.status) };
        requests.inc(labels);
        stop(labels);
      }
    },
    endpoints: async (ctx, next) => {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      ctx.state.route = ctx.path;
      if (ctx.path === '/health/live') {
        ctx.body = { status: 'ok' };
      } else if (ctx.path === '/health/ready') {
        if (draining) {
          ctx.status = 503;
          ctx.body = { error: { code: 503, message: 'The service is shutting down.' } };
        } else if (await databaseAnswers()) {
          ctx.body = { status: 'ok', database: 'ok' };
        } else {
          ctx.status = 503;
          ctx.body = { error: { code: 503, message: 'The database does not answer.' } };
        }
      } else if (ctx.path === '/metrics') {
        ctx.type = exposed.contentType;
        ctx.body = await exposed.metrics();
      } else {
        ctx.state.route = undefined;
        return next();
      }
    },
    drain: () => {
      draining = true;
    },
  };
}
