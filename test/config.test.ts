// Configuration: every variable validated, one message naming what is wrong; a .env file read without overriding
// the environment.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadEnvFile } from '../src/config.js';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      poolSize: 10,
      purgeIntervalMinutes: 60,
      linkCheckTimeoutSeconds: 10,
      bootstrap: {},
    });
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.graphql).toEqual({ maxTokens: 5000, maxDepth: 15, maxAliases: 50, maxDirectives: 50, maxCost: 20_000_000 });
  });

  it('takes the GraphQL limits', () => {
    const env = { GRAPHQL_MAX_TOKENS: '800', GRAPHQL_MAX_DIRECTIVES: '0', GRAPHQL_MAX_COST: '1000' };
    expect(loadConfig(env).graphql).toMatchObject({ maxTokens: 800, maxDirectives: 0, maxCost: 1000 });
  });

  it.each([
    ['PURGE_INTERVAL_MINUTES', 'abc'],
    ['PURGE_INTERVAL_MINUTES', '0'],
    ['PURGE_INTERVAL_MINUTES', '1.5'],
    ['PORT', '70000'],
    ['LINK_CHECK_TIMEOUT_SECONDS', '0'],
    ['DB_POOL_SIZE', '0'],
    ['DATABASE_URL', 'mysql://root@localhost/docs'],
    ['DATABASE_URL', 'not a url'],
    ['SECRET_KEY', 'short'],
    ['BOOTSTRAP_EMAIL', 'admin@'],
    ['BOOTSTRAP_ORGANIZATION', 'x'],
    ['LOG_LEVEL', 'loud'],
    ['GRAPHQL_MAX_TOKENS', '0'],
    ['GRAPHQL_MAX_DIRECTIVES', '-1'],
    ['GRAPHQL_MAX_COST', '1e12'],
  ])('refuses %s=%s with one line that names it', (name, value) => {
    const attempt = () => loadConfig({ [name]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      new RegExp(`^Invalid configuration: ${name} .*\\(got ${JSON.stringify(JSON.stringify(value)).slice(1, -1)}\\)\\.$`),
    );
  });

  it('takes a PostgreSQL URL in either spelling', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/docs' }).databaseUrl).toBe('postgres://u:p@db:5432/docs');
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/docs' }).databaseUrl).toBe('postgresql://db/docs');
  });
});

describe('loadEnvFile', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'env-file-'));
  afterEach(() => {
    delete process.env.DPA_TEST_FROM_FILE;
    delete process.env.DPA_TEST_BOTH;
  });

  it('reads .env, and the environment wins over it', () => {
    writeFileSync(path.join(directory, '.env'), 'DPA_TEST_FROM_FILE=file\nDPA_TEST_BOTH=file\n');
    process.env.DPA_TEST_BOTH = 'environment';
    loadEnvFile(directory);
    expect(process.env.DPA_TEST_FROM_FILE).toBe('file');
    expect(process.env.DPA_TEST_BOTH).toBe('environment');
    rmSync(directory, { recursive: true, force: true });
  });

  it('does nothing without a .env file', () => {
    expect(() => loadEnvFile(path.join(directory, 'missing'))).not.toThrow();
  });
});
