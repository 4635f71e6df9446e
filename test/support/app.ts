// A real service for a test file: its own database (cloned from the migrated template), listening on a free
// loopback port, with a clock the test moves by hand. A test file gets one with useApi(); startTestApp() is for the
// few that start, stop and restart services themselves. Fixtures come from factories.ts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { connectDatabase, type Database } from '../../src/db/client.js';
import { applyMigrations } from '../../src/db/migrations.js';
import { getDatamodel } from '../../src/generated/pothos-prisma-types.js';
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { type AnyTask, startWorker } from '../../src/jobs/queue.js';
import type { Clock } from '../../src/kernel/context.js';
import type { Logger } from '../../src/logger.js';
import { tasks } from '../../src/tasks.js';
import { createDatabaseBefore, createTestDatabase, type TestDatabase } from './database.js';
import { late } from './late.js';
import { buildWorld, type World } from './world.js';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  private current = new Date('2026-01-15T10:00:00.000Z').getTime();

  now() {
    return new Date(this.current);
  }

  advanceDays(days: number) {
    this.advanceMs(days * 24 * 60 * 60 * 1000);
  }

  advanceMs(ms: number) {
    this.current += ms;
  }
}

export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Person {
  userId: string;
  email: string;
  token: string;
  tokenId: string;
}

export interface TestApp {
  url: string;
  /** The database it serves (dropped by close() when it is the test's own, not one given as `databaseUrl`). */
  databaseUrl: string;
  app: App;
  prisma: PrismaClient;
  clock: TestClock;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Response<T>>;
  /** Sends a request and returns it together with the number of SQL statements the service ran for it. */
  /** A request, with the statements it ran and the rows they answered. */
  counted<T = any>(method: string, path: string, options?: RequestOptions): Promise<Response<T> & { statements: number; rows: number }>;
  /** Stops the service (its worker too) and keeps its database, for another to start on it (a restart). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables of the service's configuration. */
  env?: Record<string, string>;
  logger?: Logger;
  /** Another database than one of its own (one that is down, one being upgraded, another service's). */
  databaseUrl?: string;
  /** Run a background-job worker of this concurrency beside the service (none by default). */
  jobs?: number;
  /** Tasks its worker runs besides the product's (src/tasks.ts). */
  tasks?: readonly AnyTask[];
  /** The instance secret (random unless given): another process on the same database opens its sealed values with it. */
  secret?: Buffer;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database: TestDatabase | undefined = options.databaseUrl ? undefined : await createTestDatabase();
  const databaseUrl = options.databaseUrl ?? database!.url;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'api-test-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: '0', ...options.env });
  const clock = new TestClock();
  const app = createApp({
    config,
    databaseUrl,
    secret: options.secret ?? randomBytes(32),
    clock,
    logger: options.logger,
  });
  const url = await app.listen(0, '127.0.0.1');
  const worker = options.jobs
    ? await startWorker(app.services, databaseUrl, options.jobs, [...tasks, ...(options.tasks ?? [])])
    : undefined;
  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    await worker?.stop();
    await app.close();
  }
  // URLs in responses must point at this server.
  config.publicUrl = url;
  config.appUrl = `${url}/app`;
  const prisma = app.db.prisma;

  async function request(method: string, requestPath: string, options: RequestOptions = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${url}${requestPath}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: the raw text is the body.
    }
    return { status: response.status, headers: response.headers, body: parsed as any, text };
  }

  return {
    url,
    databaseUrl,
    app,
    prisma,
    clock,
    request,
    async counted(method, requestPath, options) {
      const [before, rowsBefore] = [app.db.statements.count, app.db.statements.rows];
      const response = await request(method, requestPath, options);
      return { ...response, statements: app.db.statements.count - before, rows: app.db.statements.rows - rowsBefore };
    },
    stop,
    async close() {
      await stop();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface UseApiOptions extends TestAppOptions {
  /** Build the personas of world.ts (one of each role in one organization, and people outside it). */
  world?: boolean;
}

/**
 * The one way a test file gets a running service: started before the file's tests on the file's own database, closed
 * after them. `world` holds the personas when asked for (reading it otherwise throws).
 */
export function useApi(options: UseApiOptions = {}): { t: TestApp; world: World } {
  const { world: withWorld, ...appOptions } = options;
  let app: TestApp | undefined;
  let world: World | undefined;
  beforeAll(async () => {
    app = await startTestApp(appOptions);
    if (withWorld) world = await buildWorld(app.prisma);
  });
  afterAll(() => app?.close());
  return {
    t: late('The test app', () => app),
    world: late(withWorld ? 'The world' : 'The world (ask useApi({ world: true }) for it)', () => world),
  };
}

export interface UpgradeOptions {
  /** Writes into the database as it stood before the upgrade (the earlier migrations applied), the old way. */
  fill(before: Database, url: string): Promise<void>;
  /**
   * Runs once the database is upgraded, before the service starts on it (a server its configuration names started,
   * say), and answers the service's options if it has any.
   */
  beforeStart?(upgraded: Database): Promise<TestAppOptions | undefined>;
}

/**
 * A service for a test of an upgrade: a database as it stood before the migration whose name ends with `suffix`,
 * filled by `fill`, then the remaining migrations applied and the service started on it; all undone after the file.
 * `database` stays connected for the tests, to read what the upgrade left.
 */
export function useUpgradedApi(suffix: string, { fill, beforeStart }: UpgradeOptions): { t: TestApp; database: Database } {
  let upgraded: TestDatabase | undefined;
  let database: Database | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    upgraded = await createDatabaseBefore(suffix);
    database = connectDatabase(upgraded.url);
    const lent = await lendLaterColumns(database);
    await fill(database, upgraded.url);
    await lent.takeBack();
    await applyMigrations(upgraded.url);
    app = await startTestApp({ ...(await beforeStart?.(database)), databaseUrl: upgraded.url });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await upgraded?.drop();
  });
  return { t: late('The test app', () => app), database: late('The database', () => database) };
}

const SQL_TYPES: Record<string, string> = {
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  String: 'text',
  Boolean: 'boolean',
  DateTime: 'timestamptz',
  Json: 'jsonb',
};

/**
 * Lends the older database, for the fill, the scalar columns today's schema has and its existing tables lack, nullable:
 * the factories a fill uses create rows with today's client, which sends a column's static default and reads back
 * every column. `takeBack` drops them before the upgrade, which then adds them its own way.
 */
async function lendLaterColumns(database: Database): Promise<{ takeBack(): Promise<void> }> {
  const { rows } = await database.pool.query<{ table: string; column: string }>(
    'SELECT table_name AS table, column_name AS column FROM information_schema.columns WHERE table_schema = current_schema()',
  );
  const tables = new Set(rows.map((row) => row.table));
  const present = new Set(rows.map((row) => `${row.table}.${row.column}`));
  const lent = Object.entries(getDatamodel().datamodel.models).flatMap(([table, { fields }]) =>
    tables.has(table)
      ? fields
          .filter((field) => SQL_TYPES[field.type] && !present.has(`${table}.${field.name}`))
          .map((field) => ({ table, column: field.name, type: `${SQL_TYPES[field.type]}${field.isList ? '[]' : ''}` }))
      : [],
  );
  const alter = (clause: (column: (typeof lent)[number]) => string) =>
    Promise.all(lent.map((column) => database.pool.query(`ALTER TABLE "${column.table}" ${clause(column)}`)));
  await alter(({ column, type }) => `ADD COLUMN "${column}" ${type}`);
  return { takeBack: async () => void (await alter(({ column }) => `DROP COLUMN "${column}"`)) };
}

export interface WalkOptions extends RequestOptions {
  /** Called with every page's response (with the statements the service ran for it) before the next is read. */
  eachPage?(page: Response & { statements: number }): void;
}

/** Every item of a paginated list, following `next.page` from the first page; `pages` counts the requests. */
export async function walk<T = any>(
  t: Pick<TestApp, 'counted'>,
  path: string,
  { eachPage, ...options }: WalkOptions = {},
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let pages = 0;
  let page: string | undefined;
  do {
    const url = page ? `${path}${path.includes('?') ? '&' : '?'}page=${encodeURIComponent(page)}` : path;
    const response = await t.counted<{ items: T[]; next?: { page: string } }>('GET', url, options);
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${response.text}`);
    eachPage?.(response);
    items.push(...response.body.items);
    page = response.body.next?.page;
    pages++;
  } while (page);
  return { items, pages };
}
