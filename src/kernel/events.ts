// One record per change: what happened, to what, by whom, from where, when. A change records its events in its own
// transaction (recordEvents takes the transaction's client), so a change that rolls back records nothing and one that
// commits never loses them. The records are the organization's audit log (src/audit) and what webhooks deliver
// (src/webhooks, through the event hooks the composition root gives the services: they ride in the same statement).
// What records: every change of the product's data by a mutation, an admin command or a job; bookkeeping writes
// (lastUsedAt, lastSeenAt, link checks, the search index, processing state) and no-op answers record nothing.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { PREPARED } from '../db/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { type Clock, memberSeenSql } from './context.js';

/** Who made a change, and through what. */
export interface Actor {
  /** A user (through a token), or the system (a job, the admin command line). */
  type: 'user' | 'system';
  /** The user's id; `system` for the system. */
  id: string;
  /** The published sources: `api` for HTTP, `script` for the admin command line, `workflow` for jobs. */
  source: 'api' | 'script' | 'workflow';
  /** Of an HTTP request: kept in the event's payload. */
  tokenId?: string;
  requestId?: string;
  address?: string;
}

/** A change, as its domain describes it. */
export interface ChangeEvent {
  /** A stable name, snake_case (`space_created`); listed with its label by src/audit. */
  action: string;
  organizationId: string;
  /** What changed. `label` is captured as it is at the time (a title, a name, an e-mail). */
  target: { type: string; id: string; label?: string | null };
  /** The space the change is about, when it is about one: what webhooks limited to spaces and visibility read. */
  spaceId?: string | null;
  /** The details: for settings, the fields that changed (never a secret's value); whatever the action's readers need. */
  payload?: Record<string, unknown>;
}

/**
 * A part of recordEvents' statement that follows the events it inserts: a data-modifying common table expression
 * reading `recorded` (the inserted AuditEvent rows); PostgreSQL runs it whether or not the statement reads it.
 */
export interface EventHook {
  /** The actions whose events it follows; absent: every event. A statement that records none of them leaves it out. */
  actions?: readonly string[];
  with: Prisma.Sql;
}

/** AuditEvent's columns in the order recordEvents inserts them: for a hook that records what it did. */
export const auditEventColumns = Prisma.sql`id, "organizationId", action, "actorType", "actorId", "actorLabel", source, "targetType",
  "targetId", "targetLabel", "spaceId", payload, "occurredAt"`;

declare module './context.js' {
  interface Services {
    /** What follows every recorded event in its statement (webhook deliveries): src/composition.ts. */
    eventHooks: readonly EventHook[];
  }
}

/** What records events: the actor, the time, and the hooks (a request's context, a job's recorder). */
export interface EventRecorder {
  actor: Actor;
  clock: Clock;
  eventHooks: readonly EventHook[];
}

type Tx = { $executeRaw(query: Prisma.Sql): Prisma.PrismaPromise<number> };

/**
 * JSON.stringify's replacer that makes text well-formed: a lone surrogate (which a text column receives as U+FFFD,
 * encoded by Node) would be written `\ud800`, which jsonb refuses.
 */
const wellFormed = (_key: string, value: unknown) => (typeof value === 'string' ? value.replace(/\p{Cs}/gu, '\uFFFD') : value);

/** The system, as a job's or the admin command line's actor. */
export const systemActor = (source: 'workflow' | 'script'): Actor => ({ type: 'system', id: 'system', source });

/**
 * Records the events on `db`, the client of the transaction that makes the change: one statement, with what the event
 * hooks add. The actor's label is read as it is now (a user's display name).
 */
export async function recordEvents(db: Tx, recorder: EventRecorder, events: readonly ChangeEvent[]): Promise<void> {
  if (!events.length) return;
  const { actor } = recorder;
  const occurredAt = recorder.clock.now();
  const context = {
    ...(actor.requestId && { requestId: actor.requestId }),
    ...(actor.tokenId && { tokenId: actor.tokenId }),
    ...(actor.address && { clientAddress: actor.address }),
  };
  const rows = events.map((event) => ({
    id: randomUUID(),
    organizationId: event.organizationId,
    action: event.action,
    actorType: actor.type,
    actorId: actor.id,
    source: actor.source,
    targetType: event.target.type,
    targetId: event.target.id,
    targetLabel: event.target.label ?? null,
    spaceId: event.spaceId ?? null,
    payload: { ...event.payload, ...context },
    occurredAt,
  }));
  const label = actor.type === 'user' ? Prisma.sql`(SELECT u."displayName" FROM "User" u WHERE u.id = ${actor.id})` : Prisma.sql`'System'`;
  const insert = Prisma.sql`
    INSERT INTO "AuditEvent" (${auditEventColumns})
    SELECT r.id, r."organizationId", r.action, r."actorType", r."actorId", ${label}, r.source, r."targetType", r."targetId",
           r."targetLabel", r."spaceId", r.payload, r."occurredAt"
      FROM jsonb_to_recordset(${JSON.stringify(rows, wellFormed)}::jsonb) AS r(id text, "organizationId" text, action text, "actorType" text,
           "actorId" text, source text, "targetType" text, "targetId" text, "targetLabel" text, "spaceId" text, payload jsonb,
           "occurredAt" timestamptz)`;
  // A user who changes something in an organization has visited it: their `lastSeenAt` rides in the same statement.
  const seen =
    actor.type === 'user'
      ? [
          Prisma.sql`seen AS (${memberSeenSql(
            Prisma.sql`seen."userId" = ${actor.id} AND NOT seen.disabled`,
            Prisma.sql`${[...new Set(events.map((event) => event.organizationId))]}::text[]`,
            occurredAt,
          )})`,
        ]
      : [];
  const hooks = recorder.eventHooks.filter((hook) => !hook.actions || events.some((event) => hook.actions?.includes(event.action)));
  const ctes = [...seen, ...hooks.map((hook) => hook.with)];
  // Prepared: planning this statement, with its hooks, costs more than running it (README, "Audit log").
  const statement = ctes.length ? Prisma.sql`WITH recorded AS (${insert} RETURNING *), ${Prisma.join(ctes, ', ')} SELECT 1` : insert;
  await db.$executeRaw(Prisma.sql`${Prisma.raw(PREPARED)}${statement}`);
}

/** The recorder of work without a request: a job's (actor: the system, source `workflow`), the admin command line's. */
export const recorderFor = (services: { clock: Clock; eventHooks: readonly EventHook[] }, actor: Actor): EventRecorder => ({
  actor,
  clock: services.clock,
  eventHooks: services.eventHooks,
});

/** A value as JSON holds it (dates as text, no undefined), so that a column read back compares with what was sent. */
const plain = (value: unknown): unknown => (value === null || typeof value !== 'object' ? value : JSON.parse(JSON.stringify(value)));

/**
 * The fields of `after` whose values differ from `before`'s, each `{ from, to }`: what a settings change's event keeps.
 * Values compare as JSON, whatever the order of an object's keys (jsonb reorders them). Fields left out of `after`
 * (undefined) did not change. A secret's field must not be passed.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, { from: unknown; to: unknown }> {
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, to] of Object.entries(after)) {
    if (to === undefined) continue;
    const from = before[field] ?? null;
    if (!isDeepStrictEqual(plain(from), plain(to ?? null))) changed[field] = { from, to: to ?? null };
  }
  return changed;
}
