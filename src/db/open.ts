// The database of a process: DATABASE_URL when set, otherwise the embedded PostgreSQL under DATA_DIR (started, or
// attached to when another process already runs it). Migrations are applied in both cases.
import pg from 'pg';
import type { Config } from '../config.js';
import { installJobQueue } from '../jobs/queue.js';
import type { Logger } from '../logger.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { applyMigrations } from './migrations.js';

export interface OpenedDatabase {
  url: string;
  embedded: boolean;
  /** Stops the embedded server if this process started it; a no-op otherwise. */
  stop(): Promise<void>;
}

/** Failures of a connection that may pass: the server is starting, restarting, or not reachable yet. */
const PASSING = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', '57P03']);

/**
 * Waits until DATABASE_URL's server accepts a connection, retrying once a second for `seconds` (a database started
 * beside the service may come up later than it). Anything else, or still nothing after the wait, is one line.
 */
async function waitForServer(url: string, seconds: number): Promise<void> {
  const { hostname, port } = new URL(url);
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      return;
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as Error).message;
      if (!PASSING.has(code) || Date.now() >= deadline) {
        const waited = PASSING.has(code) ? ` after ${seconds} s` : '';
        throw new Error(
          `Cannot use the database at ${hostname || 'localhost'}${port ? `:${port}` : ''} (${code})${waited}; check DATABASE_URL.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/**
 * The database of `config`, migrated unless `migrate` is false (a restore migrates to the backup's own version).
 * `logger` hears of the embedded cluster's recovery after a crash.
 */
export async function openDatabase(
  config: Config,
  { migrate = true, logger }: { migrate?: boolean; logger?: Logger } = {},
): Promise<OpenedDatabase> {
  let opened: OpenedDatabase;
  if (config.databaseUrl) {
    await waitForServer(config.databaseUrl, config.databaseWaitSeconds);
    opened = { url: config.databaseUrl, embedded: false, stop: async () => {} };
  } else {
    const cluster = await startEmbeddedPostgres(config.dataDir, undefined, logger);
    opened = { url: cluster.url, embedded: true, stop: cluster.owned ? () => cluster.stop() : async () => {} };
  }
  if (!migrate) return opened;
  try {
    await applyMigrations(opened.url);
    await installJobQueue(opened.url);
  } catch (error) {
    await opened.stop().catch(() => {});
    throw error;
  }
  return opened;
}
