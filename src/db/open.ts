// The database of a process: DATABASE_URL when set, otherwise the embedded PostgreSQL under DATA_DIR (started, or
// attached to when another process already runs it). Migrations are applied in both cases.
import type { Config } from '../config.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { applyMigrations } from './migrations.js';

export interface OpenedDatabase {
  url: string;
  embedded: boolean;
  /** Stops the embedded server if this process started it; a no-op otherwise. */
  stop(): Promise<void>;
}

export async function openDatabase(config: Config): Promise<OpenedDatabase> {
  let opened: OpenedDatabase;
  if (config.databaseUrl) {
    opened = { url: config.databaseUrl, embedded: false, stop: async () => {} };
  } else {
    const cluster = await startEmbeddedPostgres(config.dataDir);
    opened = { url: cluster.url, embedded: true, stop: cluster.owned ? () => cluster.stop() : async () => {} };
  }
  try {
    await applyMigrations(opened.url);
  } catch (error) {
    await opened.stop().catch(() => {});
    throw error;
  }
  return opened;
}
