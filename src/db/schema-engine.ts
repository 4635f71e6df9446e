// Prisma's schema engine compiled to WebAssembly, for computing migration SQL without the native engine download.
// The package's entry imports the .wasm file as an ES module, which Node 20 cannot do without a flag, so the
// module is instantiated here by hand.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import pg, { type PoolConfig, type QueryResult } from 'pg';
import { migrationsDir, readMigrations } from './migrations.js';

type SchemaEngineModule = typeof import('@prisma/schema-engine-wasm');

/** The engine reports a Rust panic through this global before it throws; we keep the message for the error. */
const panics = {
  last: '',
  set_message(message: string) {
    this.last = message;
  },
};

async function loadEngineModule(): Promise<SchemaEngineModule> {
  (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: typeof panics }).PRISMA_WASM_PANIC_REGISTRY = panics;
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
  const bindings = await import(path.join(dir, 'schema_engine_bg.js'));
  const { instance } = await WebAssembly.instantiate(readFileSync(path.join(dir, 'schema_engine_bg.wasm')), {
    './schema_engine_bg.js': bindings,
  });
  bindings.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
  return bindings as SchemaEngineModule;
}

const PG_CHAR = 18;
const PG_TEXT = 25;

/**
 * adapter-pg 7.10 has no column type for PostgreSQL's internal `"char"` (found in the catalogs the engine
 * introspects), so results report it as text, which is how node-postgres already returns its values.
 */
function charAsText<R extends QueryResult>(result: R): R {
  for (const field of result.fields ?? []) if (field.dataTypeID === PG_CHAR) field.dataTypeID = PG_TEXT;
  return result;
}

class IntrospectionPool extends pg.Pool {
  constructor(config: PoolConfig) {
    super(config);
    this.on('connect', (client) => {
      const query = client.query.bind(client) as (...a: unknown[]) => unknown;
      client.query = ((...args: unknown[]) => {
        const callback = args.at(-1);
        if (typeof callback === 'function') {
          return query(...args.slice(0, -1), (error: Error, result: QueryResult) => callback(error, result && charAsText(result)));
        }
        return (query(...args) as Promise<QueryResult>).then(charAsText);
      }) as never;
    });
  }
}

/**
 * The adapter factory the engine uses, with a shadow database that is created beside the main one and dropped
 * after its pool is closed (adapter-pg 7.10 drops it while its own pool is still connected, which fails).
 */
class ShadowAwarePg extends PrismaPg {
  constructor(private readonly poolConfig: PoolConfig) {
    super(new IntrospectionPool(poolConfig), { disposeExternalPool: true });
  }

  override async connectToShadowDb() {
    const main = await new PrismaPg(new IntrospectionPool(this.poolConfig), { disposeExternalPool: true }).connect();
    const database = `shadow_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
    await main.executeScript(`CREATE DATABASE "${database}"`);
    const shadow = await new PrismaPg(new IntrospectionPool({ ...this.poolConfig, database }), { disposeExternalPool: true }).connect();
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await main.executeScript(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await main.dispose();
    };
    return shadow;
  }
}

function poolConfigFromUrl(databaseUrl: string): PoolConfig {
  const url = new URL(databaseUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1),
  };
}

/**
 * The SQL without its comments. The WebAssembly engine splits a migration into statements at every semicolon, those
 * inside comments included, so a comment such as `-- shared by instances; see README` broke the shadow replay.
 * Quoted text is kept as it is: string literals, quoted identifiers and dollar-quoted bodies.
 */
export function withoutComments(sql: string): string {
  const token = /('(?:[^']|'')*'|"(?:[^"]|"")*"|(\$\w*\$)[\s\S]*?\2|--[^\n]*|\/\*[\s\S]*?\*\/)/g;
  return sql.replace(token, (match) => (match.startsWith('--') || match.startsWith('/*') ? ' ' : match));
}

/**
 * The SQL without its CHECK constraints, which the replay on the shadow database must not create: the WebAssembly
 * engine reads pg_constraint's `contype` as text where it expects a char and panics ("unreachable") on any constraint
 * but a primary key, unique or foreign key (prisma/orm#29635 is the same fault with PostgreSQL 18's NOT NULL rows).
 * Prisma does not model CHECK constraints, so the diff is the same without them. Each is written, by hand, as one
 * `ALTER TABLE "T" ADD CONSTRAINT "name" CHECK (...);` statement.
 */
export function withoutCheckConstraints(sql: string): string {
  return sql.replace(/ALTER TABLE "[^"]+" ADD CONSTRAINT "[^"]+" CHECK \([^;]*\);/g, ' ');
}

/**
 * The SQL without its trigger functions and triggers, which the replay cannot run: the WebAssembly engine splits a
 * function's dollar-quoted body at its semicolons. Prisma models neither, so the diff is the same without them. Each
 * is written, by hand, as one `CREATE FUNCTION "name"() ... AS $$ ... $$;` or `CREATE TRIGGER "name" ...;` statement.
 */
export function withoutTriggers(sql: string): string {
  return sql.replace(/CREATE FUNCTION "[^"]+"\(\)[^$]*(\$\w*\$)[\s\S]*?\1;/g, ' ').replace(/CREATE TRIGGER "[^"]+" [^;]*;/g, ' ');
}

function migrationList(dir = migrationsDir) {
  return {
    baseDir: dir,
    lockfile: { path: 'migration_lock.toml', content: readLock(dir) },
    shadowDbInitScript: '',
    migrationDirectories: readMigrations(dir).map((m) => ({
      path: m.name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok', value: withoutTriggers(withoutCheckConstraints(withoutComments(m.sql))) },
      },
    })),
  };
}

function readLock(dir: string): string | null {
  try {
    return readFileSync(path.join(dir, 'migration_lock.toml'), 'utf8');
  } catch {
    return null;
  }
}

/**
 * SQL that takes a database built from the migrations directory to the datamodel in `schemaPath`.
 * Empty when the migrations already match the schema. Needs a server where it may create a shadow database.
 */
export async function diffMigrationsToSchema(databaseUrl: string, schemaPath: string, dir = migrationsDir): Promise<string> {
  const engineModule = await loadEngineModule();
  const adapter = bindMigrationAwareSqlAdapterFactory(new ShadowAwarePg(poolConfigFromUrl(databaseUrl)));
  const schema = { files: [{ path: schemaPath, content: readFileSync(schemaPath, 'utf8') }] };
  const engine = await engineModule.SchemaEngine.new({ datamodels: [[schemaPath, schema.files[0].content]] }, () => {}, adapter);
  try {
    const result = await engine.diff({
      from: { tag: 'migrations', ...migrationList(dir) },
      to: { tag: 'schemaDatamodel', ...schema },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    } as never);
    const script = result.stdout ?? '';
    return script.trim() === '-- This is an empty migration.' ? '' : script;
  } catch (error) {
    throw panics.last ? new Error(`Schema engine panicked: ${panics.last}`) : error;
  } finally {
    engine.free();
  }
}
