// Re-seals the secrets stored in the first sealed format (v1, bound to nothing) in the current one, bound to their
// purpose and row (src/kernel/sealed.ts). SQL cannot seal, so this is a data step that runs at start-up after the
// migrations (main.ts, worker.ts), and the first start after a restore of an older backup re-seals what it loaded.
// It runs in one transaction, serialised between processes that start together, and changes nothing once no value of
// the old format is left.
import pg from 'pg';
import { gitCredentialsSealedFor, gitSyncTask } from '../git-sync/task.js';
import { integrationSecretsSealedFor } from '../integrations/service.js';
import { isLegacySealed, type SealedFor, seal, unsealLegacy } from '../kernel/sealed.js';
import type { Logger } from '../logger.js';
import { privateKeySealedFor } from '../publishing-auth/service.js';
import { shareKeySealedFor } from '../share-links/keys.js';

/** Key of the advisory lock that serialises re-sealing (distinct from the migrations' and the bootstrap's). */
const RESEAL_LOCK = 1936024940; // 'seal' as a 32-bit integer

/** Where sealed values are stored: each row's reference (to write it back), the key it is sealed for, the value. */
interface SealedValues {
  name: string;
  sealedFor(key: string): SealedFor;
  /** Rows (`ref`, `key`, `sealed`) whose value is in the old format, locked; `key` null: nothing to seal it for. */
  select: string;
  /** Writes `$2[i]` (null: the value is dropped) into the row `$1[i]`. */
  update: string;
}

const column = (table: string, column: string, key: string, sealedFor: (key: string) => SealedFor): SealedValues => ({
  name: `${table}.${column}`,
  sealedFor,
  select: `SELECT "${key}" AS ref, "${key}" AS key, "${column}" AS sealed FROM "${table}" WHERE "${column}" LIKE 'v1.%' FOR UPDATE`,
  update: `UPDATE "${table}" t SET "${column}" = r.sealed FROM unnest($1::text[], $2::text[]) r(ref, sealed) WHERE t."${key}" = r.ref`,
});

const SEALED: SealedValues[] = [
  column('ShareLink', 'keyCiphertext', 'id', shareKeySealedFor),
  column('PublishingAuth', 'privateKeyCiphertext', 'siteId', privateKeySealedFor),
  column('Integration', 'secretsCiphertext', 'name', integrationSecretsSealedFor),
  column('GitSync', 'credentialsCiphertext', 'spaceId', gitCredentialsSealedFor),
  {
    // A Git sync job carries its space's credentials; one whose operation is gone never runs, and loses them.
    name: 'BackgroundJob.payload.credentials',
    sealedFor: gitCredentialsSealedFor,
    select: `SELECT j.id AS ref, o."spaceId" AS key, j.payload->>'credentials' AS sealed
               FROM "BackgroundJob" j LEFT JOIN "GitSyncOperation" o ON o.id = j.payload->>'operationId'
              WHERE j.kind = '${gitSyncTask.name}' AND j.payload->>'credentials' LIKE 'v1.%' FOR UPDATE OF j`,
    update: `UPDATE "BackgroundJob" j SET payload = jsonb_set(j.payload, '{credentials}', coalesce(to_jsonb(r.sealed), 'null'))
               FROM unnest($1::text[], $2::text[]) r(ref, sealed) WHERE j.id = r.ref`,
  },
];

export interface ResealReport {
  /** Values re-sealed (or dropped, for a job that can no longer run). */
  resealed: number;
  /** Values of the old format that do not open with this instance's secret, by where they are: left as they were. */
  unopened: string[];
}

export async function resealLegacySecrets(databaseUrl: string, secret: Buffer): Promise<ResealReport> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const report: ResealReport = { resealed: 0, unopened: [] };
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [RESEAL_LOCK]);
    for (const values of SEALED) {
      const { rows } = await client.query<{ ref: string; key: string | null; sealed: string }>(values.select);
      const refs: string[] = [];
      const resealed: (string | null)[] = [];
      for (const row of rows.filter((found) => isLegacySealed(found.sealed))) {
        let plaintext: string;
        try {
          plaintext = unsealLegacy(secret, row.sealed);
        } catch {
          report.unopened.push(`${values.name} of ${row.ref}`);
          continue;
        }
        refs.push(row.ref);
        resealed.push(row.key === null ? null : seal(secret, values.sealedFor(row.key), plaintext));
      }
      if (refs.length) await client.query(values.update, [refs, resealed]);
      report.resealed += refs.length;
    }
    await client.query('COMMIT');
    return report;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/** The start-up's data step: re-seals, and logs what it did and what it could not. */
export async function resealSecrets(databaseUrl: string, secret: Buffer, logger: Logger): Promise<void> {
  const { resealed, unopened } = await resealLegacySecrets(databaseUrl, secret);
  if (resealed) logger.info({ resealed }, 'stored secrets re-sealed, bound to their purpose and row');
  if (unopened.length) logger.warn({ unopened }, 'stored secrets sealed under another instance secret: they cannot be read');
}
