// The Webhook and WebhookDelivery types, and an organization's webhooks and their deliveries (for its admins).
import type { WebhookDelivery as WebhookDeliveryRow, Webhook as WebhookRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { WebhookDeliveryStatus } from '../generated/prisma/enums.js';
import { authorize, organizations } from '../kernel/authorize.js';
import { builder, prismaEnum } from '../kernel/builder.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { apiUrl } from '../kernel/urls.js';
import { Organization } from '../organizations/types.js';
import { webhooks } from './access.js';

/** A webhook, with its secret when the creation or rotation that made it answers it. */
type WebhookShape = WebhookRow & { plainSecret?: string };

const WebhookUrls = builder.objectRef<{ location: string }>('WebhookUrls').implement({
  fields: (t) => ({ location: t.exposeString('location') }),
});

export const Webhook = builder.objectRef<WebhookShape>('Webhook').implement({
  access: webhooks,
  description:
    'A subscription to the organization’s events, delivered signed (Standard Webhooks) to its URL. An extension of GitBook’s API.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'webhook' }),
    id: t.exposeID('id'),
    etag: t.string(etagField(tagOf)),
    url: t.exposeString('url', { description: 'Where deliveries are POSTed.' }),
    events: t.exposeStringList('events', { description: 'The event types delivered, or `["*"]` for all.' }),
    spaces: t.exposeStringList('spaces', { description: 'Only events about these spaces; empty: events about any space, and the others.' }),
    active: t.exposeBoolean('active', { description: 'Whether events are delivered.' }),
    description: t.exposeString('description', { nullable: true }),
    secret: t.string({
      nullable: true,
      description: 'The signing secret (`whsec_...`): only in the answers to the creation and to a rotation.',
      resolve: (webhook) => webhook.plainSecret ?? null,
    }),
    disabledReason: t.exposeString('disabledReason', { nullable: true, description: 'Why the product made it inactive.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    urls: t.field({
      type: WebhookUrls,
      resolve: (webhook, _args, ctx) => ({ location: apiUrl(ctx, `orgs/${webhook.organizationId}/webhooks/${webhook.id}`) }),
    }),
  }),
});
export const WebhookList = listOf('Webhook', Webhook);

const WebhookDeliveryStatusEnum = prismaEnum(
  'WebhookDeliveryStatus',
  WebhookDeliveryStatus,
  'pending (on its way, or waiting for its next attempt), success, or failed (for good).',
);

export const WebhookDelivery = builder.objectRef<WebhookDeliveryRow>('WebhookDelivery').implement({
  description: 'One event sent to one webhook; its id is the `webhook-id` header of every attempt.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'webhook-delivery' }),
    id: t.exposeID('id'),
    type: t.exposeString('type', { description: 'The event type, or `ping`.' }),
    status: t.expose('status', { type: WebhookDeliveryStatusEnum }),
    attempts: t.exposeInt('attempts'),
    responseStatus: t.exposeInt('responseStatus', { nullable: true, description: 'The status the receiver last answered.' }),
    durationMs: t.exposeInt('durationMs', { nullable: true, description: 'How long the last attempt took.' }),
    error: t.exposeString('lastError', {
      nullable: true,
      description: 'Why the last attempt failed, or why none was made (the webhook inactive, the delivery restored from a backup).',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
  }),
});
export const WebhookDeliveryList = listOf('WebhookDelivery', WebhookDelivery);

/** In the order they were added. */
const organizationWebhooks: ListSource<WebhookRow> = {
  table: 'Webhook',
  parentColumn: 'organizationId',
  orderBy: [
    { column: 'createdAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  where: () => Prisma.sql`TRUE`,
  scope: (organizationId) => `webhooks:${organizationId}`,
};

/** Newest first. */
const webhookDeliveries: ListSource<WebhookDeliveryRow> = {
  table: 'WebhookDelivery',
  parentColumn: 'webhookId',
  orderBy: [
    { column: 'createdAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  descending: () => true,
  where: () => Prisma.sql`TRUE`,
  scope: (webhookId) => `webhook-deliveries:${webhookId}`,
};

builder.objectFields(Webhook, (t) => ({
  deliveries: t.field({
    type: WebhookDeliveryList,
    description: 'The webhook’s deliveries, newest first.',
    args: listArgs,
    resolve: (webhook, args, ctx, info) => listPage(webhookDeliveries, ctx, info, webhook.id, args),
  }),
}));

builder.objectFields(Organization, (t) => ({
  webhooks: t.field({
    type: WebhookList,
    description: 'The organization’s webhooks, in the order they were added. Admins only.',
    args: listArgs,
    resolve: async (org, args, ctx, info) => {
      await authorize(ctx, organizations, org.id, 'admin');
      return listPage(organizationWebhooks, ctx, info, org.id, args);
    },
  }),
  webhook: t.field({
    type: Webhook,
    description: 'One webhook of the organization. Admins only.',
    args: { webhookId: t.arg.id({ required: true }) },
    resolve: async (org, args, ctx) => (await authorize(ctx, webhooks, { id: args.webhookId, parent: org.id }, 'view')).row,
  }),
}));
