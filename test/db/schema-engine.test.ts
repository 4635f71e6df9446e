// The migration diff (npm run migration:create) replays the migrations on a shadow database with Prisma's WebAssembly
// engine, which splits SQL at every semicolon, those in comments too: comments are removed for that replay. It also
// panics on CHECK constraints, which the replay leaves out (Prisma does not model them; the migrations create them).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { migrationsDir, readMigrations } from '../../src/db/migrations.js';
import { diffMigrationsToSchema, withoutCheckConstraints, withoutComments, withoutTriggers } from '../../src/db/schema-engine.js';
import { createTestDatabase } from '../support/database.js';

it('removes line and block comments, and keeps what is quoted', () => {
  const sql = [
    '-- a comment; with a semicolon',
    `CREATE TABLE "odd--name" (note text DEFAULT 'not -- a comment; nor /* this */', "it''s" int); /* block;`,
    "still the block */ CREATE FUNCTION f() RETURNS text AS $body$ SELECT '-- kept; too' $body$ LANGUAGE sql;",
  ].join('\n');
  expect(withoutComments(sql)).toBe(
    [
      ' ',
      `CREATE TABLE "odd--name" (note text DEFAULT 'not -- a comment; nor /* this */', "it''s" int);   CREATE FUNCTION f() RETURNS text AS $body$ SELECT '-- kept; too' $body$ LANGUAGE sql;`,
    ].join('\n'),
  );
});

it('removes hand-written CHECK constraints, and nothing else', () => {
  const sql = [
    'ALTER TABLE "Grant" ADD CONSTRAINT "Grant_one" CHECK (("a" IS NULL) <> ("b" IS NULL));',
    'ALTER TABLE "Grant" ADD CONSTRAINT "Grant_fkey" FOREIGN KEY ("a") REFERENCES "A"("id");',
  ].join('\n');
  expect(withoutCheckConstraints(sql)).toBe(` \n${sql.split('\n')[1]}`);
});

it('removes hand-written trigger functions and triggers, and nothing else', () => {
  const sql = [
    'CREATE FUNCTION "bump"() RETURNS trigger LANGUAGE plpgsql AS $$',
    'BEGIN',
    '  NEW.v := OLD.v + 1;',
    '  RETURN NEW;',
    'END',
    '$$;',
    'ALTER TABLE "T" ADD COLUMN "v" INTEGER NOT NULL DEFAULT 1;',
    `CREATE TRIGGER "T_v" BEFORE UPDATE ON "T" FOR EACH ROW EXECUTE FUNCTION "bump"('a', 'b');`,
  ].join('\n');
  expect(withoutTriggers(sql)).toBe(' \nALTER TABLE "T" ADD COLUMN "v" INTEGER NOT NULL DEFAULT 1;\n ');
});

it('diffs migrations whose comments hold semicolons, and which create CHECK constraints', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  const database = await createTestDatabase();
  try {
    cpSync(migrationsDir, dir, { recursive: true });
    const last = readMigrations(dir).at(-1)!;
    const file = path.join(dir, last.name, 'migration.sql');
    writeFileSync(file, `-- Written by hand; the engine must not split here.\n${readFileSync(file, 'utf8')}`);
    const schema = path.resolve(migrationsDir, '../schema.prisma');
    expect(await diffMigrationsToSchema(database.url, schema, dir)).toBe('');
  } finally {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
