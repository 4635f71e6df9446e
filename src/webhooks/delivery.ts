// How events leave: the fan-out that turns each recorded event into a delivery per matching webhook, in the event's own
// statement (so a change that rolls back sends nothing, and one that commits is never lost), and the task that sends
// a delivery, signed per the Standard Webhooks specification.
//
// A webhook matches an event when it is active, of the event's organization, subscribed to its action (or `*`), and
// limited to no spaces or to the event's. Only admins hold webhooks, and an admin sees every space of the organization:
// whether the creator still may is checked when a delivery is due (below), not in the fan-out, whose statement every
// change runs (judging each space there cost a sixth of a PATCH's throughput). Each delivery is a job of the webhook's
// own queue (one at a time per webhook, so a slow receiver stalls only itself), run apart from other jobs
// (WEBHOOK_CONCURRENCY). Ordering is not guaranteed: a retry waits while later deliveries go.
//
// An attempt POSTs the body with `webhook-id` (the delivery's id, the same on every attempt: receivers deduplicate by
// it), a fresh `webhook-timestamp` and `webhook-signature`, through the guarded fetcher, within
// WEBHOOK_TIMEOUT_SECONDS. 2xx succeeds. 5xx, 408, 429, a timeout or a connection failure is retried after the next
// wait of WEBHOOK_RETRY_SCHEDULE; any other answer, a refused address, or the schedule's end fails the delivery for
// good. WEBHOOK_FAILURES_TO_DISABLE deliveries failed for good in a row disable the webhook, with its reason and a
// webhook_disabled event. A creator who leaves the organization or loses the admin role disables their webhooks in
// that change's own statement (creatorGoneHook); each attempt checks the creator again.
import { Webhook as Signer } from 'standardwebhooks';
import { Prisma } from '../generated/prisma/client.js';
import { defineTask, enqueue, enqueueingEach } from '../jobs/queue.js';
import type { Services } from '../kernel/context.js';
import { auditEventColumns, type EventHook, recordEvents, recorderFor, systemActor } from '../kernel/events.js';
import { FetchError } from '../kernel/fetcher.js';
import { unseal } from '../kernel/sealed.js';

/** The graphile-worker queue of a webhook's deliveries. */
export const queueOf = (webhookId: string) => `webhook:${webhookId}`;

/** Answers that a later attempt may not get: besides 5xx, a request timeout and too many requests. */
const RETRIED_STATUSES = new Set([408, 429]);
/** What is read of a receiver's answer: it is drained, not kept. */
const ANSWER_BYTES = 64 * 1024;

interface DeliveryPayload {
  deliveryId: string;
}

/** What the fan-out and a ping store: `{type, timestamp, data}`, data without the API URLs (added when sent). */
export interface DeliveryBody {
  type: string;
  timestamp: string;
  data: { organizationId: string; spaceId?: string; [field: string]: unknown };
}

/** Attempts of the job itself (the database unreachable, say); a receiver's failures are retried on the schedule instead. */
const DELIVERY_JOB_ATTEMPTS = 3;

interface AttemptRow {
  id: string;
  webhookId: string;
  type: string;
  body: DeliveryBody;
  status: string;
  attempts: number;
  organizationId: string;
  url: string;
  secret: string;
  active: boolean;
  consecutiveFailures: number;
  creatorIsAdmin: boolean;
}

/** What an attempt came to; `skipped`: none was made (the webhook inactive, or disabled now), which counts no attempt. */
type Outcome =
  | { kind: 'success'; status: number }
  | { kind: 'retry'; status: number | null; error: string }
  | { kind: 'failed'; status: number | null; error: string }
  | { kind: 'skipped'; error: string; disable?: string };

export const webhookDeliveryTask = defineTask<DeliveryPayload>({
  name: 'webhook-delivery',
  maxAttempts: DELIVERY_JOB_ATTEMPTS,
  concurrency: (config) => config.webhooks.concurrency,
  run: async ({ deliveryId }, { services }) => {
    const [delivery] = await services.prisma.$queryRaw<AttemptRow[]>`
      SELECT d.id, d."webhookId", d.type, d.body, d.status::text, d.attempts, w."organizationId", w.url, w.secret, w.active,
             w."consecutiveFailures", coalesce(m.role = 'admin' AND NOT m.disabled, false) AS "creatorIsAdmin"
        FROM "WebhookDelivery" d JOIN "Webhook" w ON w.id = d."webhookId"
        LEFT JOIN "Member" m ON m."organizationId" = w."organizationId" AND m."userId" = w."createdById"
       WHERE d.id = ${deliveryId}`;
    if (delivery?.status !== 'pending') return;
    if (!delivery.active) return settle(services, delivery, { kind: 'skipped', error: 'The webhook is not active.' }, 0);
    if (!delivery.creatorIsAdmin) {
      return settle(services, delivery, { kind: 'skipped', error: CREATOR_GONE, disable: CREATOR_GONE }, 0);
    }
    const started = Date.now();
    const outcome = await attempt(services, delivery);
    await settle(services, delivery, outcome, Date.now() - started);
  },
});

/** Why a webhook whose creator left the organization, or is no admin of it any more, was disabled. */
const CREATOR_GONE = 'Its creator is no longer an admin of the organization.';

/** The members' events after which a webhook's creator may no longer be an admin. */
const MEMBERSHIP_ENDED_OR_CHANGED = ['member_removed', 'member_role_updated'];

/**
 * The event hook that disables the webhooks of a member who left or lost the admin role (the member's own change is an
 * earlier statement of the transaction, which this one sees), recording a webhook_disabled event for each, by the
 * change's actor and with its request's details.
 */
export const creatorGoneHook: EventHook = {
  actions: MEMBERSHIP_ENDED_OR_CHANGED,
  with: Prisma.sql`
    creator_gone AS (
      UPDATE "Webhook" w SET active = false, "disabledReason" = ${CREATOR_GONE}
        FROM recorded r
       WHERE r.action = ANY(${MEMBERSHIP_ENDED_OR_CHANGED}::text[]) AND r."targetType" = 'user'
         AND w."organizationId" = r."organizationId" AND w."createdById" = r."targetId" AND w.active
         AND NOT EXISTS (SELECT 1 FROM "Member" m WHERE m."organizationId" = w."organizationId" AND m."userId" = w."createdById"
                            AND m.role = 'admin' AND NOT m.disabled)
      RETURNING w.id, w.url, w."organizationId", r."actorType", r."actorId", r."actorLabel", r.source, r.payload, r."occurredAt"
    ),
    creator_gone_recorded AS (
      INSERT INTO "AuditEvent" (${auditEventColumns})
      SELECT gen_random_uuid()::text, g."organizationId", 'webhook_disabled', g."actorType", g."actorId", g."actorLabel", g.source,
             'webhook', g.id, g.url, NULL, jsonb_build_object('reason', ${CREATOR_GONE}::text)
               || jsonb_strip_nulls(jsonb_build_object('requestId', g.payload->'requestId', 'tokenId', g.payload->'tokenId',
                                                       'clientAddress', g.payload->'clientAddress')),
             g."occurredAt"
        FROM creator_gone g
    )`,
};

/** The rows the hook's deliveries are enqueued from, each in its webhook's queue (queueOf's name, in SQL). */
const enqueued = (deliveries: string) =>
  Prisma.sql`SELECT jsonb_build_object('deliveryId', d.id) AS payload, d."organizationId", 'webhook:' || d."webhookId" AS queue,
                    NULL::timestamptz AS "runAt"
               FROM ${Prisma.raw(deliveries)} d`;

/**
 * The event hook: a delivery per matching webhook and recorded event, and its job. The body's data is the event's
 * payload (its request details left out) with the organization, the space, the target and the actor.
 */
export const webhookDeliveryHook: EventHook = {
  with: Prisma.sql`
    webhook_deliveries AS (
      INSERT INTO "WebhookDelivery" (id, "webhookId", type, body, "createdAt", "nextAttemptAt")
      SELECT replace(gen_random_uuid()::text, '-', ''), w.id, r.action,
             jsonb_build_object('type', r.action,
               'timestamp', to_char(r."occurredAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'data', (r.payload - 'requestId' - 'tokenId' - 'clientAddress') || jsonb_strip_nulls(jsonb_build_object(
                 'organizationId', r."organizationId", 'spaceId', r."spaceId",
                 'target', jsonb_build_object('type', r."targetType", 'id', r."targetId", 'label', r."targetLabel"),
                 'actor', jsonb_build_object('type', r."actorType", 'id', r."actorId", 'label', r."actorLabel")))),
             r."occurredAt", r."occurredAt"
        FROM recorded r
        JOIN "Webhook" w ON w."organizationId" = r."organizationId" AND w.active
         AND ('*' = ANY (w.events) OR r.action = ANY (w.events))
         AND (cardinality(w.spaces) = 0 OR r."spaceId" = ANY (w.spaces))
      RETURNING id, "webhookId", (SELECT "organizationId" FROM "Webhook" WHERE id = "webhookId") AS "organizationId"
    ),
    ${enqueueingEach(webhookDeliveryTask, 'webhook_jobs', enqueued('webhook_deliveries'))}`,
};

/** One POST of the delivery, signed now. */
async function attempt(services: Services, delivery: AttemptRow): Promise<Outcome> {
  const secret = unseal(services.secret, { purpose: 'webhook-secret', rowId: delivery.webhookId }, delivery.secret);
  const body = JSON.stringify(withUrls(services, delivery.body));
  // The wall clock, not the service's: the receiver checks it against its own, to refuse replays.
  const timestamp = new Date();
  const signature = new Signer(secret).sign(delivery.id, timestamp, body);
  try {
    const answer = await services.fetcher.request(delivery.url, {
      method: 'POST',
      body: Buffer.from(body),
      timeoutMs: services.config.webhooks.timeoutSeconds * 1000,
      maxBytes: ANSWER_BYTES,
      maxRedirects: 0,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'docs-platform-webhooks',
        'webhook-id': delivery.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
    });
    await drain(answer.body);
    const status = answer.status;
    if (status >= 200 && status <= 299) return { kind: 'success', status };
    const error = `The receiver answered ${status}.`;
    return status >= 500 || RETRIED_STATUSES.has(status) ? { kind: 'retry', status, error } : { kind: 'failed', status, error };
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    const retried = error.code === 'TIMEOUT' || error.code === 'NETWORK';
    return { kind: retried ? 'retry' : 'failed', status: null, error: error.message };
  }
}

/** The receiver's answer is not kept; a failure while reading it does not change the outcome its status gave. */
async function drain(body: AsyncIterable<Uint8Array>): Promise<void> {
  try {
    for await (const _chunk of body);
  } catch {
    // Too large or cut off: the status already answered.
  }
}

/** The stored body with the API URLs of the organization and the space, as the API answers them now. */
function withUrls(services: Services, body: DeliveryBody): DeliveryBody {
  const api = `${services.config.publicUrl}/v1`;
  const urls = {
    organization: `${api}/orgs/${body.data.organizationId}`,
    ...(body.data.spaceId && { space: `${api}/spaces/${body.data.spaceId}` }),
  };
  return { ...body, data: { ...body.data, urls } };
}

/**
 * Writes what an attempt came to, in one transaction: the delivery's state, the next attempt's job, the webhook's
 * count of failures in a row, and when it is disabled (its creator gone, or too many failures), its reason and its
 * event. A delivery not attempted fails without counting against the receiver.
 */
async function settle(services: Services, delivery: AttemptRow, outcome: Outcome, durationMs: number): Promise<void> {
  const now = services.clock.now();
  const attempted = outcome.kind !== 'skipped';
  const attempts = delivery.attempts + (attempted ? 1 : 0);
  const schedule = services.config.webhooks.retryScheduleMs;
  const retried = outcome.kind === 'retry' && attempts <= schedule.length;
  const nextAttemptAt = retried ? new Date(now.getTime() + schedule[attempts - 1]) : null;
  const status = outcome.kind === 'success' ? 'success' : retried ? 'pending' : 'failed';
  const failures =
    outcome.kind === 'success' ? 0 : status === 'failed' && attempted ? delivery.consecutiveFailures + 1 : delivery.consecutiveFailures;
  const threshold = services.config.webhooks.failuresToDisable;
  const disable = outcome.kind === 'skipped' ? outcome.disable : undefined;
  const reason =
    disable ?? (status === 'failed' && attempted && failures >= threshold ? `Its last ${failures} deliveries failed.` : undefined);
  const responseStatus = outcome.kind === 'skipped' ? null : outcome.status;
  await services.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`
      UPDATE "WebhookDelivery" SET status = ${status}::"WebhookDeliveryStatus", attempts = ${attempts},
             "lastError" = ${outcome.kind === 'success' ? null : outcome.error}, "nextAttemptAt" = ${nextAttemptAt},
             -- What the last attempt met stays when none was made now.
             "responseStatus" = CASE WHEN ${attempted} THEN ${responseStatus}::int ELSE "responseStatus" END,
             "durationMs" = CASE WHEN ${attempted} THEN ${Math.round(durationMs)}::int ELSE "durationMs" END,
             "lastAttemptAt" = CASE WHEN ${attempted} THEN ${now}::timestamptz ELSE "lastAttemptAt" END
       WHERE id = ${delivery.id}`;
    if (nextAttemptAt) {
      await enqueue(
        tx,
        webhookDeliveryTask,
        { deliveryId: delivery.id },
        {
          organizationId: delivery.organizationId,
          queue: queueOf(delivery.webhookId),
          runAt: nextAttemptAt,
        },
      );
    }
    // Disabled now only when it is active: the reason of an earlier disabling stays.
    const disabling = reason !== undefined && delivery.active;
    const [webhook] = await tx.$queryRaw<{ url: string }[]>`
      UPDATE "Webhook" SET "consecutiveFailures" = ${failures}, active = active AND NOT ${disabling},
             "disabledReason" = CASE WHEN ${disabling} AND active THEN ${reason ?? null} ELSE "disabledReason" END
       WHERE id = ${delivery.webhookId}
      RETURNING url`;
    if (disabling && webhook && reason) {
      await recordEvents(tx, recorderFor(services, systemActor('workflow')), [
        {
          action: 'webhook_disabled',
          organizationId: delivery.organizationId,
          target: { type: 'webhook', id: delivery.webhookId, label: webhook.url },
          payload: { reason },
        },
      ]);
    }
  });
}
