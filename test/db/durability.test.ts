// The service says at start when PostgreSQL may lose what it acknowledged: the tests' throwaway cluster runs with
// fsync and synchronous_commit off (test/support/global-setup.ts), so starting on it must warn of both; a cluster
// with both on (the default, and this check's own reading of the settings) warns of none.
import { Writable } from 'node:stream';
import pino from 'pino';
import { expect, it } from 'vitest';
import { durabilityWarnings } from '../../src/db/durability.js';
import { useApi } from '../support/app.js';

const lines: { level: number; msg: string }[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});
const { t } = useApi({ logger: pino({ level: 'info' }, sink) });

it('warns at start of fsync and synchronous_commit off, and of nothing once they are on', async () => {
  const warned = lines.filter((line) => line.level === 40).map((line) => line.msg);
  expect(warned).toEqual(expect.arrayContaining([expect.stringMatching(/fsync off/), expect.stringMatching(/synchronous_commit off/)]));
  // The same reading on one connection where synchronous_commit is turned on, and fsync as the cluster has it.
  const client = await t.app.db.pool.connect();
  try {
    await client.query('SET synchronous_commit = on');
    const sql = (async (query: { text: string; values: unknown[] }) => (await client.query(query.text, query.values)).rows) as never;
    const warnings = await durabilityWarnings(sql);
    expect(warnings.some((warning) => warning.includes('synchronous_commit'))).toBe(false);
    const [{ fsync }] = (await client.query("SELECT current_setting('fsync') AS fsync")).rows;
    expect(warnings.some((warning) => warning.includes('fsync'))).toBe(fsync !== 'on');
  } finally {
    client.release();
  }
});
