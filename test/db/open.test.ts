// Opening DATABASE_URL's database: a server that is not up yet is waited for, for DATABASE_WAIT_SECONDS; anything
// else fails at once, in one line.
import { expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/open.js';
import { databaseUrl } from '../support/global-setup.js';

it('waits for an unreachable server, then says what to check', async () => {
  const config = loadConfig({ DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/docs', DATABASE_WAIT_SECONDS: '2' });
  const started = Date.now();
  await expect(openDatabase(config)).rejects.toThrow(
    'Cannot use the database at 127.0.0.1:1 (ECONNREFUSED) after 2 s; check DATABASE_URL.',
  );
  expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
});

it('fails at once for a database that does not exist', async () => {
  const url = databaseUrl(inject('templateDatabaseUrl'), 'no_such_database');
  const config = loadConfig({ DATABASE_URL: url, DATABASE_WAIT_SECONDS: '30' });
  const started = Date.now();
  await expect(openDatabase(config)).rejects.toThrow(/^Cannot use the database at .* \(3D000\); check DATABASE_URL\.$/);
  expect(Date.now() - started).toBeLessThan(5000);
});
