// A database of its own for a measurement (the benchmark, measure:idle): a new database on DATABASE_URL's server, or
// else an embedded PostgreSQL in a temporary directory; close() removes what was made.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.js';

/** `name`: the database's name, and the prefix of the embedded cluster's directory. */
export async function openDatabase(name: string): Promise<{ url: string; close(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const server = new URL(serverUrl);
    const database = `${name}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    await admin.end();
    server.pathname = `/${database}`;
    return {
      url: server.toString(),
      close: async () => {
        const client = new pg.Client({ connectionString: serverUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
        await client.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), `${name}-pg-`));
  const cluster = await startEmbeddedPostgres(dir, name);
  return {
    url: cluster.url,
    close: async () => {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
