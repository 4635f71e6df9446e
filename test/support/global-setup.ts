// Vitest global setup: one PostgreSQL server for the whole run and one migrated template database on it.
// Each test file clones the template (test/support/database.ts), which is much faster than migrating per file.
//
// - DATABASE_URL set: that server is used; only the template database created here is dropped afterwards.
// - otherwise: one embedded PostgreSQL is started in a fresh temporary directory, stopped and removed afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { type EmbeddedCluster, startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { applyMigrations } from '../../src/db/migrations.js';
import { installJobQueue } from '../../src/jobs/queue.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
  }
}

/** The same server and credentials, another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

export async function withAdminClient<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export default async function setup({ provide }: Pick<TestProject, 'provide'>): Promise<() => Promise<void>> {
  let cluster: EmbeddedCluster | undefined;
  let dataDir: string | undefined;
  let serverUrl = process.env.DATABASE_URL;
  let template: string | undefined;

  const teardown = async (): Promise<void> => {
    const errors: unknown[] = [];
    if (template && serverUrl) {
      const name = template;
      await withAdminClient(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`),
      ).catch((error) => errors.push(error));
      template = undefined;
    }
    if (cluster?.owned) await cluster.stop().catch((error) => errors.push(error));
    cluster = undefined;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    dataDir = undefined;
    if (errors.length) throw new AggregateError(errors, 'Test database teardown failed');
  };

  try {
    if (!serverUrl) {
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'docs-api-test-pg-'));
      cluster = await startEmbeddedPostgres(dataDir);
      serverUrl = cluster.url;
      // A throwaway cluster: durability buys nothing here, and skipping fsync makes commits and CREATE DATABASE cheaper.
      await withAdminClient(serverUrl, async (client) => {
        for (const setting of ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off']) {
          await client.query(`ALTER SYSTEM SET ${setting}`);
        }
        await client.query('SELECT pg_reload_conf()');
      });
    }
    const name = `tmpl_${randomBytes(6).toString('hex')}`;
    await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
    template = name;
    const url = databaseUrl(serverUrl, name);
    await applyMigrations(url);
    await installJobQueue(url);
    // Nobody may connect to the template from now on: CREATE DATABASE ... TEMPLATE fails while anyone is connected.
    await withAdminClient(serverUrl, (client) =>
      client.query(`ALTER DATABASE ${client.escapeIdentifier(name)} WITH ALLOW_CONNECTIONS false`),
    );
    provide('templateDatabaseUrl', url);
  } catch (error) {
    await teardown().catch(() => {});
    throw error;
  }
  return teardown;
}
