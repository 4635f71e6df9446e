// The AuditEvent type (GitBook 0.202's AuditEvent and AuditEventDetails), an organization's audit log with the
// published filters, one event, and the actions the product records. Admins only; nothing edits or deletes an event
// (the retention does, src/audit/retention.ts).
import { z } from 'zod';
import type { AuditEvent as AuditEventRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { authorize, organizations } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { apiUrl } from '../kernel/urls.js';
import { integerRange } from '../kernel/validation.js';
import { Organization } from '../organizations/types.js';
import { auditEvents } from './access.js';

/** GitBook's page size of the audit log: 1 to 100, 20 by default. */
const DEFAULT_AUDIT_LIMIT = 20;
const MAX_AUDIT_LIMIT = 100;

/** The version of the events' payloads: what getOrganizationAuditEvent answers as `schemaVersion`. */
const PAYLOAD_SCHEMA_VERSION = 1;

interface Party {
  type: string;
  id: string;
  label: string | null;
}

const AuditEventActor = builder.objectRef<Party>('AuditEventActor').implement({
  description: 'Who made a change: a user, or the system (a job, the admin command line).',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'user or system.' }),
    id: t.exposeString('id', { description: 'The user’s id, or `system`.' }),
    label: t.exposeString('label', { nullable: true, description: 'Their display name when the event was recorded.' }),
  }),
});

const AuditEventTarget = builder.objectRef<Party>('AuditEventTarget').implement({
  description: 'What a change was made to.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'The kind of object (space, member, ...).' }),
    id: t.exposeString('id'),
    label: t.exposeString('label', { nullable: true, description: 'Its title or name when the event was recorded.' }),
  }),
});

const AuditEventUrls = builder.objectRef<{ location: string }>('AuditEventUrls').implement({
  fields: (t) => ({ location: t.exposeString('location') }),
});

export const AuditEvent = builder.objectRef<AuditEventRow>('AuditEvent').implement({
  access: auditEvents,
  description: 'A change recorded in the organization’s audit log: what happened, to what, by whom, from where, when.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'audit-event' }),
    id: t.exposeID('id', { description: 'A UUID.' }),
    occurredAt: t.field({ type: 'DateTime', resolve: (event) => event.occurredAt }),
    action: t.exposeString('action', { description: 'A stable snake_case name (`space_created`): see `auditEventActions`.' }),
    actor: t.field({
      type: AuditEventActor,
      resolve: (event) => ({ type: event.actorType, id: event.actorId, label: event.actorLabel }),
    }),
    source: t.exposeString('source', { description: 'api (HTTP), script (the admin command line) or workflow (a job).' }),
    target: t.field({
      type: AuditEventTarget,
      resolve: (event) => ({ type: event.targetType, id: event.targetId, label: event.targetLabel }),
    }),
    schemaVersion: t.int({ description: 'The version of the payload’s shape.', resolve: () => PAYLOAD_SCHEMA_VERSION }),
    payload: t.field({
      type: 'JSON',
      description:
        'The details: for a settings change the fields that changed ({field: {from, to}}, never a secret); the request id, token id and client address.',
      resolve: (event) => event.payload,
    }),
    urls: t.field({
      type: AuditEventUrls,
      resolve: (event, _args, ctx) => ({ location: apiUrl(ctx, `orgs/${event.organizationId}/audit-events/${event.id}`) }),
    }),
  }),
});

export const AuditEventList = listOf('AuditEvent', AuditEvent);

interface AuditEventAction {
  id: string;
  label: string;
}

const AuditEventActionRef = builder.objectRef<AuditEventAction>('AuditEventAction').implement({
  description: 'An action the product records, with its label.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'audit-event-action' }),
    id: t.exposeString('id', { description: 'The action’s name, as events carry it.' }),
    label: t.exposeString('label'),
  }),
});

const AuditEventActionList = builder.objectRef<{ items: AuditEventAction[] }>('AuditEventActionList').implement({
  fields: (t) => ({ items: t.field({ type: [AuditEventActionRef], resolve: (list) => list.items }) }),
});

interface AuditEventListArgs {
  from?: Date | null;
  to?: Date | null;
  action?: string | null;
  actor?: string | null;
  target?: string | null;
}

const organizationAuditEvents: ListSource<AuditEventRow, AuditEventListArgs> = {
  table: 'AuditEvent',
  parentColumn: 'organizationId',
  // Newest first; the id breaks ties between events of one change.
  orderBy: [
    { column: 'occurredAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  descending: () => true,
  where: (_ctx, args) => {
    const conditions = [
      args.from && Prisma.sql`t."occurredAt" >= ${args.from}`,
      args.to && Prisma.sql`t."occurredAt" <= ${args.to}`,
      args.action && Prisma.sql`t.action = ${args.action}`,
      args.actor && Prisma.sql`t."actorId" = ${args.actor}`,
      args.target && Prisma.sql`t."targetId" = ${args.target}`,
    ].filter((condition): condition is Prisma.Sql => Boolean(condition));
    return conditions.length ? Prisma.join(conditions, ' AND ') : Prisma.sql`TRUE`;
  },
  scope: (organizationId, args) =>
    `audit-events:${organizationId}:${JSON.stringify([args.from?.toISOString(), args.to?.toISOString(), args.action, args.actor, args.target])}`,
};

const exactFilter = (what: string) => ({
  description: `Only events of this exact ${what}.`,
  validate: z.string().max(256),
});

builder.objectFields(Organization, (t) => ({
  auditEvents: t.field({
    type: AuditEventList,
    description: 'The organization’s audit log, newest first. Admins only.',
    args: {
      ...listArgs,
      limit: t.arg.int({
        ...integerRange(1, MAX_AUDIT_LIMIT, (range) => `Events per page, ${range} (default ${DEFAULT_AUDIT_LIMIT}).`),
      }),
      from: t.arg({ type: 'DateTime', description: 'Only events that occurred at or after this time.' }),
      to: t.arg({ type: 'DateTime', description: 'Only events that occurred at or before this time.' }),
      action: t.arg.string(exactFilter('action name')),
      actor: t.arg.string(exactFilter('actor id (a user’s id, or `system`)')),
      target: t.arg.string(exactFilter('target id')),
    },
    resolve: async (org, args, ctx, info) => {
      await authorize(ctx, organizations, org.id, 'admin');
      return listPage(organizationAuditEvents, ctx, info, org.id, { ...args, limit: args.limit ?? DEFAULT_AUDIT_LIMIT });
    },
  }),
  auditEvent: t.field({
    type: AuditEvent,
    description: 'One event of the audit log, with its payload. Admins only.',
    args: { auditEventId: t.arg.id({ required: true }) },
    resolve: async (org, args, ctx) => {
      // Whoever is not an admin is refused before the event is looked for: they learn nothing of which ids exist.
      await authorize(ctx, organizations, org.id, 'admin');
      return (await authorize(ctx, auditEvents, { id: args.auditEventId, parent: org.id }, 'view')).row;
    },
  }),
  auditEventActions: t.field({
    type: AuditEventActionList,
    description: 'Every action the product records, with its label. Admins only.',
    resolve: async (org, _args, ctx) => {
      await authorize(ctx, organizations, org.id, 'admin');
      return { items: Object.entries(ctx.auditActions).map(([id, label]) => ({ id, label })) };
    },
  }),
}));
