// Webhooks: inputs (with their validation) and mutations.
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { notNull, rules } from '../kernel/validation.js';
import * as service from './service.js';
import { Webhook, WebhookDelivery } from './types.js';

/** An event type (an action, snake_case), or `*` for all. */
const eventType = z.string().regex(/^(\*|[a-z][a-z0-9_]{0,63})$/, 'must be an event type (snake_case) or *');

const fields = {
  url: { description: 'Where deliveries are POSTed: an http or https URL, at most 2048 characters.', validate: rules.httpUrl(2048) },
  events: {
    description: 'Event types (`space_created`, ...), or `["*"]` for all: 1 to 100.',
    validate: z.array(eventType).min(1).max(100),
  },
  spaces: {
    description: 'Only events about these spaces of the organization (at most 100); empty: any.',
    validate: z.array(rules.id).max(100),
  },
  description: { description: 'At most 500 characters.', validate: z.string().max(500) },
  active: { description: 'Whether events are delivered; true resumes a webhook the product disabled.' },
};

export const CreateWebhookInput = builder.inputType('CreateWebhookInput', {
  fields: (t) => ({
    url: t.string({ required: true, ...fields.url }),
    events: t.stringList({ required: true, ...fields.events }),
    spaces: t.stringList(fields.spaces),
    description: t.string(fields.description),
    active: t.boolean({ description: `${fields.active.description} Default true.` }),
  }),
});

export const UpdateWebhookInput = builder.inputType('UpdateWebhookInput', {
  validate: notNull('url', 'events', 'active'),
  fields: (t) => ({
    url: t.string(fields.url),
    events: t.stringList(fields.events),
    spaces: t.stringList(fields.spaces),
    description: t.string(fields.description),
    active: t.boolean(fields.active),
  }),
});

const webhookKey = builder.args((t) => ({ organizationId: t.id({ required: true }), webhookId: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: Webhook,
    description: 'Creates a webhook; the answer holds its secret, which is not shown again.',
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateWebhookInput, required: true }) },
    resolve: (_root, args, ctx) => service.createWebhook(ctx, args.organizationId, args.input),
  }),
  updateWebhook: t.field({
    type: Webhook,
    args: { ...webhookKey, input: t.arg({ type: UpdateWebhookInput, required: true }) },
    resolve: (_root, args, ctx) => service.updateWebhook(ctx, args.organizationId, args.webhookId, args.input),
  }),
  deleteWebhook: t.boolean({
    args: webhookKey,
    resolve: async (_root, args, ctx) => {
      await service.deleteWebhook(ctx, args.organizationId, args.webhookId);
      return true;
    },
  }),
  rotateWebhookSecret: t.field({
    type: Webhook,
    description: 'Gives the webhook a new secret, answered once; the old one signs nothing more.',
    args: webhookKey,
    resolve: (_root, args, ctx) => service.rotateWebhookSecret(ctx, args.organizationId, args.webhookId),
  }),
  pingWebhook: t.field({
    type: WebhookDelivery,
    description: 'Sends a `ping` event to the webhook’s URL.',
    args: webhookKey,
    resolve: (_root, args, ctx) => service.pingWebhook(ctx, args.organizationId, args.webhookId),
  }),
  redeliverWebhookDelivery: t.field({
    type: WebhookDelivery,
    description: 'Sends a delivery again, with the same id and body.',
    args: { ...webhookKey, deliveryId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => service.redeliverWebhookDelivery(ctx, args.organizationId, args.webhookId, args.deliveryId),
  }),
}));
