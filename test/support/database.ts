// A fresh, migrated database per test file (or per test): a copy of the template made by the global setup.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, inject } from 'vitest';
import { connectDatabase, type Database } from '../../src/db/client.js';
import { applyMigrations, readMigrations } from '../../src/db/migrations.js';
import { databaseUrl, withAdminClient } from './global-setup.js';
import { late } from './late.js';

export interface TestDatabase {
  /** Connection URL of the new database. */
  url: string;
  /** Drops the database, disconnecting anyone still connected. Safe to call twice. */
  drop(): Promise<void>;
}

const SOURCE_DATABASE_IN_USE = '55006';

export async function createTestDatabase(): Promise<TestDatabase> {
  const templateUrl = inject('templateDatabaseUrl');
  if (!templateUrl) throw new Error('templateDatabaseUrl is not provided: is test/support/global-setup.ts the globalSetup?');
  const template = decodeURIComponent(new URL(templateUrl).pathname.slice(1));
  const name = `test_${process.pid}_${randomBytes(5).toString('hex')}`;

  await withAdminClient(templateUrl, async (client) => {
    const sql = `CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(template)}`;
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(sql);
        return;
      } catch (error) {
        // "source database is being accessed by other users": a session on the template has not finished closing.
        if ((error as { code?: string }).code !== SOURCE_DATABASE_IN_USE || attempt >= 8) throw error;
        await sleep(100 * attempt);
      }
    }
  });

  return testDatabase(templateUrl, name);
}

/**
 * A new database as it stood before the migration whose name ends with `suffix` (every earlier one applied), for a
 * test of that upgrade: it fills the database the old way, then applies the rest with applyMigrations(url).
 */
export async function createDatabaseBefore(suffix: string): Promise<TestDatabase> {
  const migrations = readMigrations();
  const upgrade = migrations.find((migration) => migration.name.endsWith(suffix));
  if (!upgrade) throw new Error(`No migration's name ends with ${suffix}`);
  const database = await createEmptyDatabase('upgrade');
  await applyMigrations(
    database.url,
    migrations.filter((migration) => migration.name < upgrade.name),
  );
  return database;
}

/** A new database with nothing in it, not even the migrations: what a service given its URL as DATABASE_URL migrates. */
export async function createEmptyDatabase(prefix = 'empty'): Promise<TestDatabase> {
  const serverUrl = inject('templateDatabaseUrl');
  const name = `${prefix}_${process.pid}_${randomBytes(5).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
  return testDatabase(serverUrl, name);
}

function testDatabase(serverUrl: string, name: string): TestDatabase {
  let dropped = false;
  return {
    url: databaseUrl(serverUrl, name),
    async drop() {
      if (dropped) return;
      await withAdminClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`));
      dropped = true;
    },
  };
}

/**
 * A database of the file's own, connected and migrated, without a service: for tests of an engine (the list engine,
 * merges, the revision store) that call it directly. Created before the file's tests, dropped after them.
 */
export function useDatabase(): Database {
  let database: TestDatabase | undefined;
  let connection: Database | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    connection = connectDatabase(database.url, 4);
  });
  afterAll(async () => {
    await connection?.close();
    await database?.drop();
  });
  return late('The database', () => connection);
}
