// npm run migration:create -- <name>
// Writes prisma/migrations/<UTC timestamp>_<name>/migration.sql with the SQL that takes the existing migrations to
// prisma/schema.prisma. It replays the migrations on a shadow database: on DATABASE_URL's server when set,
// otherwise on a throwaway embedded PostgreSQL.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { migrationsDir } from '../src/db/migrations.js';
import { diffMigrationsToSchema } from '../src/db/schema-engine.js';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run migration:create -- <name in lower_snake_case>');
  process.exit(2);
}

const scratch = process.env.DATABASE_URL ? undefined : mkdtempSync(path.join(os.tmpdir(), 'migration-create-'));
let cluster: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;

/** Stops the scratch server and removes its directory, once, whichever way the script ends. */
let cleanedUp = false;
async function cleanUp(): Promise<void> {
  if (cleanedUp) return;
  cleanedUp = true;
  await cluster?.stop().catch(() => {});
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

async function fail(error: unknown): Promise<never> {
  console.error(`migration:create failed: ${(error as Error).message ?? error}`);
  await cleanUp();
  process.exit(1);
}

// A schema-engine panic surfaces as an uncaught exception from a WebAssembly callback.
process.once('uncaughtException', fail);
try {
  cluster = scratch ? await startEmbeddedPostgres(scratch) : undefined;
  const sql = await diffMigrationsToSchema(process.env.DATABASE_URL ?? cluster!.url, path.resolve('prisma/schema.prisma'));
  if (!sql) {
    console.log('prisma/schema.prisma already matches the migrations: nothing to create.');
  } else {
    const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
    const dir = path.join(migrationsDir, `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'migration.sql'), sql);
    console.log(`Created ${path.relative(process.cwd(), dir)}/migration.sql`);
  }
} catch (error) {
  await fail(error);
}
await cleanUp();
