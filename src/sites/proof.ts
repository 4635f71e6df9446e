// Proof that whoever claims a host controls its DNS: a TXT record at `_docs-platform-challenge.<host>` holding
// `docs-platform-verification=<the claim's token>`. Checks are background jobs: a new claim and an admin's revalidation
// make the claim due and enqueue a check; the scheduler makes unproven claims due at each tick and active ones once
// their last check is HOSTNAME_RECHECK_MINUTES old. A job asks the DNS servers of DNS_SERVERS (else the system's) for
// every due claim, eight at a time. What a check finds:
// - the record: the claim is active (verified);
// - an answer without it (NXDOMAIN, no TXT records, other values): an active claim lapses (failed), a pending one
//   stays pending;
// - no answer (timeout, SERVFAIL, refused): nothing changes but the error recorded; the next check decides.
// The claim's sites (Site.hostnameActive, proxyActive) follow its state in the same transaction. Hostname-check jobs
// share one named queue, so they run one at a time across workers.
import { Resolver } from 'node:dns/promises';
import PQueue from 'p-queue';
import type { Config } from '../config.js';
import { type HostClaim, Prisma } from '../generated/prisma/client.js';
import { defineTask, enqueueing, noJobQueued } from '../jobs/queue.js';
import type { Services } from '../kernel/context.js';

/** The label under the claimed host that holds the proof. */
export const CHALLENGE_LABEL = '_docs-platform-challenge';
/** What the TXT record's value starts with, the claim's token after it. */
export const VERIFICATION_PREFIX = 'docs-platform-verification=';

export interface ProofRecord {
  type: 'TXT';
  name: string;
  value: string;
}

/** The DNS record that proves a claim. */
export const proofRecord = (claim: Pick<HostClaim, 'host' | 'token'>): ProofRecord => ({
  type: 'TXT',
  name: `${CHALLENGE_LABEL}.${claim.host}`,
  value: `${VERIFICATION_PREFIX}${claim.token}`,
});

/** How long one DNS query waits, and how many times it is sent, before the check finds no answer. */
const QUERY_TIMEOUT_MS = 5000;
const QUERY_TRIES = 2;
const AT_ONCE = 8;
/** Due claims read and written per round of a job. */
const BATCH = 50;

/** Answers that say the name holds no such record: NXDOMAIN (ENOTFOUND) and no data of that type (ENODATA). */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA']);

export type ProofOutcome = 'verified' | 'missing' | 'unanswered';

export interface ProofCheck {
  outcome: ProofOutcome;
  /** What was found instead of the record; null when it was found. */
  error: string | null;
}

/** A resolver that asks DNS_SERVERS, or the system's resolvers when it is unset. */
export function proofResolver(config: Pick<Config, 'dnsServers'>): Resolver {
  const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: QUERY_TRIES });
  if (config.dnsServers) resolver.setServers(config.dnsServers);
  return resolver;
}

/** Looks for the claim's proof record. */
export async function checkProof(resolver: Resolver, claim: Pick<HostClaim, 'host' | 'token'>): Promise<ProofCheck> {
  const { name, value } = proofRecord(claim);
  try {
    // A TXT record is one or more strings of up to 255 bytes; its value is their concatenation (RFC 7208 §3.3).
    const values = (await resolver.resolveTxt(name)).map((strings) => strings.join(''));
    if (values.some((found) => found.trim() === value)) return { outcome: 'verified', error: null };
    return { outcome: 'missing', error: `The TXT records at ${name} do not include "${value}".` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    if (NO_RECORD.has(code))
      return { outcome: 'missing', error: `No TXT record at ${name} (${code === 'ENOTFOUND' ? 'no such name' : 'no TXT data'}).` };
    return { outcome: 'unanswered', error: `The DNS query for ${name} failed (${code}); the claim stays as it was.` };
  }
}

/**
 * The sites whose hostname or proxy host is among `hosts` take their claims' state: hostnameActive when the claim of
 * their hostname is active, proxyActive when their organization's claim of their proxy's host is.
 */
export const refreshingSitesOf = (hosts: readonly string[]) => Prisma.sql`
  UPDATE "Site" s SET
    "hostnameActive" = EXISTS (SELECT 1 FROM "HostClaim" c WHERE c.host = s.hostname AND c."siteId" = s.id AND c.state = 'active'),
    "proxyActive" = EXISTS (SELECT 1 FROM "HostClaim" c
                             WHERE c.host = split_part(s.proxy, '/', 1) AND c.kind = 'proxy'
                               AND c."organizationId" = s."organizationId" AND c.state = 'active')
   WHERE s.hostname = ANY(${[...hosts]}::text[])
      OR s.id IN (SELECT s2.id FROM "HostClaim" c JOIN "Site" s2 ON s2."organizationId" = c."organizationId"
                   WHERE c.host = ANY(${[...hosts]}::text[]) AND c.kind = 'proxy' AND split_part(s2.proxy, '/', 1) = c.host)`;

interface Checked extends ProofCheck {
  host: string;
  token: string;
}

/**
 * Records checks: each claim (unless released or claimed anew since it was read: its token tells) takes the state its
 * outcome gives, then its sites follow, in one transaction; a claim made due again during the check stays due.
 */
async function recordChecks(services: Services, checked: readonly Checked[], started: Date): Promise<void> {
  const now = services.clock.now();
  const changes = await services.prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ host: string; before: HostClaim['state']; after: HostClaim['state'] }[]>(Prisma.sql`
      UPDATE "HostClaim" c SET
        state = CASE WHEN r.outcome = 'verified' THEN 'active'::"HostClaimState"
                     WHEN r.outcome = 'missing' AND c.state = 'active' THEN 'failed'::"HostClaimState"
                     ELSE c.state END,
        grandfathered = c.grandfathered AND r.outcome = 'unanswered',
        "verifiedAt" = CASE WHEN r.outcome = 'verified' THEN ${now} ELSE c."verifiedAt" END,
        "lapsedAt" = CASE WHEN r.outcome = 'missing' AND c.state = 'active' THEN ${now} ELSE c."lapsedAt" END,
        "lastError" = r.error,
        "checkedAt" = ${now},
        "dueAt" = CASE WHEN c."dueAt" <= ${started} THEN NULL ELSE c."dueAt" END
        FROM jsonb_to_recordset(${JSON.stringify(checked)}::jsonb) AS r(host text, token text, outcome text, error text),
             "HostClaim" old
       WHERE c.host = r.host AND c.token = r.token AND old.host = c.host
      RETURNING c.host, old.state AS before, c.state AS after`);
    // A statement of its own, after the claims' rows are locked: a site that joined a claim meanwhile is seen.
    if (rows.length) await tx.$executeRaw(refreshingSitesOf(rows.map((row) => row.host)));
    return rows.filter((row) => row.before !== row.after);
  });
  for (const change of changes) {
    services.logger.info({ job: hostnameCheckTask.name, host: change.host, from: change.before, to: change.after }, 'host claim changed');
  }
}

const dueBy = (started: Date) => Prisma.sql`"dueAt" IS NOT NULL AND "dueAt" <= ${started}`;

export const hostnameCheckTask = defineTask<Record<string, never>>({
  name: 'hostname-check',
  maxAttempts: 3,
  run: async (_payload, { services, progress }) => {
    const started = services.clock.now();
    const resolver = proofResolver(services.config);
    const queries = new PQueue({ concurrency: AT_ONCE });
    const [{ due }] = await services.sql<{ due: number }>(Prisma.sql`SELECT count(*)::int AS due FROM "HostClaim" WHERE ${dueBy(started)}`);
    let done = 0;
    for (;;) {
      const claims = await services.sql<Pick<HostClaim, 'host' | 'token'>>(
        Prisma.sql`SELECT host, token FROM "HostClaim" WHERE ${dueBy(started)} ORDER BY "dueAt", host LIMIT ${BATCH}`,
      );
      if (!claims.length) break;
      const checked = await Promise.all(
        claims.map((claim) =>
          queries.add(async () => ({ host: claim.host, token: claim.token, ...(await checkProof(resolver, claim)) }), {
            throwOnTimeout: true,
          }),
        ),
      );
      await recordChecks(services, checked, started);
      done += claims.length;
      await progress(done, Math.max(due, done));
    }
  },
});

/** No hostname check is waiting to start (a running one may have read its claims already, so it does not count). */
export const noCheckWaiting = noJobQueued(hostnameCheckTask);

/** Options of every hostname check: instance work (no organization's own), on one queue. */
export const checkOptions = { queue: hostnameCheckTask.name };

/**
 * The scheduler's part: unproven claims (pending, failed) become due at every tick, active ones once their last check
 * is HOSTNAME_RECHECK_MINUTES old (grandfathered ones were last "checked" when they were grandfathered), and a check
 * is enqueued while any claim is due. One statement.
 */
export async function scheduleHostnameChecks(services: Services): Promise<void> {
  const now = services.clock.now();
  const stale = new Date(now.getTime() - services.config.hostnameRecheckMinutes * 60_000);
  await services.prisma.$queryRaw(Prisma.sql`
    WITH fresh AS (
      UPDATE "HostClaim" SET "dueAt" = ${now}
       WHERE "dueAt" IS NULL AND (state <> 'active' OR "checkedAt" IS NULL OR "checkedAt" <= ${stale})
      RETURNING host
    ),
    waiting AS (SELECT host FROM fresh UNION ALL (SELECT host FROM "HostClaim" WHERE "dueAt" IS NOT NULL LIMIT 1)),
    ${enqueueing(hostnameCheckTask, {}, checkOptions, Prisma.sql`EXISTS (SELECT 1 FROM waiting) AND ${noCheckWaiting}`)}`);
}
