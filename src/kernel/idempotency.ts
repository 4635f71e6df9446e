// Where REST requests' Idempotency-Keys are kept (rest/idempotency.ts has the engine's side): PostgreSQL, so that a
// retry finds the first request's answer on any instance and after a restart. A key belongs to the token that sent
// it; its row is claimed by the first request (one INSERT ... ON CONFLICT, which also answers what is there), then
// holds that request's answer, sealed, until IDEMPOTENCY_KEY_HOURS after the claim. Every answer is sealed: some
// hold a secret (a created token, a webhook's secret), and the rule is simplest kept whole.
import { createHmac, randomUUID } from 'node:crypto';
import type { IdempotencyStore, KeptAnswer, KeyClaim } from '../../rest/idempotency.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Context, Services } from './context.js';
import { type SealedFor, seal, unseal } from './sealed.js';
import { deriveKey } from './secrets.js';

const HOUR_MS = 3_600_000;
/**
 * How long a claim without an answer holds its key: past it, its request is taken to have died with its instance
 * (an answer that failed is given back at once), and a retry like it runs. Longer than any request runs.
 */
export const CLAIM_LEASE_MS = 5 * 60_000;

interface Row {
  claim: string;
  /** null: the row is this request's claim. */
  request: string | null;
  status: number | null;
  answer: string | null;
}

const sealedFor = (tokenId: string, key: string, claim: string): SealedFor => ({
  purpose: 'idempotent-answer',
  rowId: `${tokenId}\n${key}\n${claim}`,
});

export function idempotencyStore(services: Services): IdempotencyStore<Context> {
  const fingerprintKey = deriveKey(services.secret, 'idempotency');
  return {
    async claim({ viewer: { tokenId } }, key, fingerprint): Promise<KeyClaim> {
      const now = services.clock.now();
      const claim = randomUUID();
      const request = createHmac('sha256', fingerprintKey).update(fingerprint).digest('base64url');
      // Claims the key when it is free: new, expired, or held by a claim like this one whose lease ran out. Otherwise
      // answers the row as it stands. A row that a request running at the same instant committed after this statement
      // began is seen by neither part (the SELECT reads the statement's snapshot): no row, which is a running claim.
      const [row] = await services.sql<Row>(
        Prisma.sql`WITH claimed AS (
            INSERT INTO "IdempotencyKey" ("tokenId", key, claim, request, "claimedAt", "expiresAt")
            VALUES (${tokenId}, ${key}, ${claim}, ${request}, ${now}, ${new Date(now.getTime() + services.config.idempotencyKeyHours * HOUR_MS)})
            ON CONFLICT ("tokenId", key) DO UPDATE SET claim = EXCLUDED.claim, request = EXCLUDED.request, status = NULL,
              answer = NULL, "claimedAt" = EXCLUDED."claimedAt", "expiresAt" = EXCLUDED."expiresAt"
            WHERE "IdempotencyKey"."expiresAt" <= ${now}
               OR ("IdempotencyKey".status IS NULL AND "IdempotencyKey".request = EXCLUDED.request
                   AND "IdempotencyKey"."claimedAt" <= ${new Date(now.getTime() - CLAIM_LEASE_MS)})
            RETURNING claim
          )
          SELECT claim, NULL AS request, NULL::integer AS status, NULL AS answer FROM claimed
          UNION ALL
          SELECT claim, request, status, answer FROM "IdempotencyKey"
           WHERE "tokenId" = ${tokenId} AND key = ${key} AND NOT EXISTS (SELECT 1 FROM claimed)`,
      );
      if (!row) return { state: 'running' };
      if (row.request !== null) {
        if (row.request !== request) return { state: 'other-request' };
        if (row.status === null || row.answer === null) return { state: 'running' };
        const kept = JSON.parse(unseal(services.secret, sealedFor(tokenId, key, row.claim), row.answer)) as Omit<KeptAnswer, 'status'>;
        return { state: 'answered', answer: { status: row.status, ...kept } };
      }
      const held = Prisma.sql`"tokenId" = ${tokenId} AND key = ${key} AND claim = ${claim}`;
      return {
        state: 'claimed',
        async keep({ status, headers, body }) {
          const answer = seal(services.secret, sealedFor(tokenId, key, claim), JSON.stringify({ headers, body }));
          await services.sql(Prisma.sql`UPDATE "IdempotencyKey" SET status = ${status}, answer = ${answer} WHERE ${held}`);
        },
        async release() {
          await services.sql(Prisma.sql`DELETE FROM "IdempotencyKey" WHERE ${held}`);
        },
      };
    },
  };
}

/** Deletes the keys past their expiry, answers kept with them; answers how many. */
export async function forgetExpiredIdempotencyKeys(services: Pick<Services, 'prisma' | 'clock'>): Promise<number> {
  const { count } = await services.prisma.idempotencyKey.deleteMany({ where: { expiresAt: { lte: services.clock.now() } } });
  return count;
}
