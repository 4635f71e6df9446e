// Prisma CLI configuration. This project never runs Prisma's native schema engine: migrations are created and
// applied through the WebAssembly engine (src/db/migrations.ts). `prisma generate` only checks that an engine file
// exists, so on machines without the native engine (it is a download this environment cannot make) we point the
// check at the WebAssembly engine.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'prisma/config';

const require = createRequire(import.meta.url);
const enginesDir = path.dirname(require.resolve('@prisma/engines/package.json'));
const hasNativeEngine = existsSync(enginesDir) && readdirSync(enginesDir).some((f) => f.startsWith('schema-engine-'));
if (!hasNativeEngine && !process.env.PRISMA_SCHEMA_ENGINE_BINARY) {
  const wasmPackage = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = path.join(wasmPackage, 'schema_engine_bg.wasm');
}

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
