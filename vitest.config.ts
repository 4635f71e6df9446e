import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One graphql module for everyone: Pothos and graphql-yoga load its CommonJS build, so our code must too
  // (two copies of graphql refuse each other's schema objects).
  resolve: { alias: { graphql: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Files run in parallel, each on its own database cloned from the migrated template. Vitest's default
    // (cores - 1) would serialise everything on a 2-core machine, and these tests mostly wait on PostgreSQL.
    fileParallelism: true,
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Test files share their worker's modules (the app is imported once per worker, not once per file): each file
    // still gets its own service and database from useApi(), and nothing in src/ keeps state between services.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
