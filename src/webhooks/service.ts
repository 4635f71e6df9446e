// What an organization's admins do with its webhooks: create, update, delete them, rotate a secret, ping a receiver,
// redeliver a delivery. Each change records its event in its transaction; a secret is sealed to its row and answered
// only by the creation and the rotation that made it. An admin who resumes a webhook (`active: true`) clears the reason
// the product disabled it for, and its count of failures.
import { randomBytes } from 'node:crypto';
import { Prisma, type WebhookDelivery as WebhookDeliveryRow, type Webhook as WebhookRow } from '../generated/prisma/client.js';
import { enqueue } from '../jobs/queue.js';
import { authorize, organizations } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, conflict, notFound } from '../kernel/errors.js';
import { lockIfMatch } from '../kernel/etags.js';
import { type ChangeEvent, changedFields, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { seal } from '../kernel/sealed.js';
import { webhooks } from './access.js';
import { type DeliveryBody, queueOf, webhookDeliveryTask } from './delivery.js';

/** Webhooks an organization may have: each event is matched against all of them in its statement. */
export const MAX_WEBHOOKS = 25;

/** A webhook as its creation and rotation answer it: with its secret, once. */
export type WebhookWithSecret = WebhookRow & { plainSecret: string };

export interface WebhookChange {
  url?: string | null;
  events?: string[] | null;
  spaces?: string[] | null;
  description?: string | null;
  active?: boolean | null;
}

/** `whsec_` and 32 random bytes in base64, as the Standard Webhooks libraries take it. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const sealedSecret = (ctx: Context, webhookId: string, secret: string) =>
  seal(ctx.secret, { purpose: 'webhook-secret', rowId: webhookId }, secret);

const webhookEvent = (
  action: string,
  webhook: Pick<WebhookRow, 'id' | 'organizationId' | 'url'>,
  payload?: Record<string, unknown>,
): ChangeEvent => ({
  action,
  organizationId: webhook.organizationId,
  target: { type: 'webhook', id: webhook.id, label: webhook.url },
  ...(payload && { payload }),
});

/** Refuses spaces that are not the organization's. */
async function checkSpaces(ctx: Context, organizationId: string, spaceIds: readonly string[] | null | undefined): Promise<void> {
  if (!spaceIds?.length) return;
  const found = await ctx.sql<{ id: string }>(
    Prisma.sql`SELECT id FROM "Space" WHERE id = ANY (${[...new Set(spaceIds)]}::text[]) AND "organizationId" = ${organizationId}`,
  );
  if (found.length !== new Set(spaceIds).size) throw badRequest('Invalid "spaces": each must be a space of this organization.');
}

export async function createWebhook(
  ctx: Context,
  organizationId: string,
  input: WebhookChange & { url: string; events: string[] },
): Promise<WebhookWithSecret> {
  await authorize(ctx, organizations, organizationId, 'admin');
  await checkSpaces(ctx, organizationId, input.spaces);
  const id = newId();
  const secret = newSecret();
  const webhook = await ctx.prisma.$transaction(async (tx) => {
    // Serialises creations in the organization, so that two at once cannot both pass the count.
    await tx.$queryRaw`SELECT id FROM "Organization" WHERE id = ${organizationId} FOR UPDATE`;
    if ((await tx.webhook.count({ where: { organizationId } })) >= MAX_WEBHOOKS) {
      throw conflict(`An organization has at most ${MAX_WEBHOOKS} webhooks: delete one first.`);
    }
    const created = await tx.webhook.create({
      data: {
        id,
        organizationId,
        createdById: ctx.viewer.userId,
        url: input.url,
        events: [...new Set(input.events)],
        spaces: [...new Set(input.spaces ?? [])],
        description: input.description ?? null,
        active: input.active ?? true,
        secret: sealedSecret(ctx, id, secret),
        createdAt: ctx.clock.now(),
        updatedAt: ctx.clock.now(),
      },
    });
    await recordEvents(tx, ctx, [webhookEvent('webhook_created', created, { events: created.events, spaces: created.spaces })]);
    return created;
  });
  return { ...webhook, plainSecret: secret };
}

export async function updateWebhook(ctx: Context, organizationId: string, webhookId: string, change: WebhookChange): Promise<WebhookRow> {
  const { row: webhook } = await authorize(ctx, webhooks, { id: webhookId, parent: organizationId }, 'view');
  await checkSpaces(ctx, organizationId, change.spaces);
  const after = {
    url: change.url ?? undefined,
    events: change.events ? [...new Set(change.events)] : undefined,
    spaces: change.spaces === undefined ? undefined : [...new Set(change.spaces ?? [])],
    description: change.description,
    active: change.active ?? undefined,
  };
  const changed = changedFields(webhook, after);
  if (!Object.keys(changed).length) return webhook;
  const resumed = after.active === true && !webhook.active;
  return ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Webhook', webhookId);
    const updated = await tx.webhook.update({
      where: { id: webhookId },
      data: {
        ...after,
        updatedAt: ctx.clock.now(),
        ...(resumed && { disabledReason: null, consecutiveFailures: 0 }),
      },
    });
    await recordEvents(tx, ctx, [webhookEvent('webhook_updated', updated, { changed })]);
    return updated;
  });
}

export async function deleteWebhook(ctx: Context, organizationId: string, webhookId: string): Promise<void> {
  const { row: webhook } = await authorize(ctx, webhooks, { id: webhookId, parent: organizationId }, 'view');
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Webhook', webhookId);
    // Its deliveries go by cascade; their queued jobs find no delivery and end.
    const deleted = await tx.$executeRaw`DELETE FROM "Webhook" WHERE id = ${webhookId}`;
    if (!deleted) throw notFound('Webhook');
    await recordEvents(tx, ctx, [webhookEvent('webhook_deleted', webhook)]);
  });
}

/** A new secret, answered once; the old one signs nothing more. */
export async function rotateWebhookSecret(ctx: Context, organizationId: string, webhookId: string): Promise<WebhookWithSecret> {
  await authorize(ctx, webhooks, { id: webhookId, parent: organizationId }, 'view');
  const secret = newSecret();
  const webhook = await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Webhook', webhookId);
    const updated = await tx.webhook.update({
      where: { id: webhookId },
      data: { secret: sealedSecret(ctx, webhookId, secret), updatedAt: ctx.clock.now() },
    });
    await recordEvents(tx, ctx, [webhookEvent('webhook_secret_rotated', updated)]);
    return updated;
  });
  return { ...webhook, plainSecret: secret };
}

/**
 * Sends a `ping` to the receiver: a delivery like any other (signed, retried), whatever the webhook's events, so that
 * a receiver can be tried. Bookkeeping of the webhook, not a change of it: no event.
 */
export async function pingWebhook(ctx: Context, organizationId: string, webhookId: string): Promise<WebhookDeliveryRow> {
  const { row: webhook } = await authorize(ctx, webhooks, { id: webhookId, parent: organizationId }, 'view');
  if (!webhook.active) throw conflict('The webhook is not active: resume it first (active: true).');
  const now = ctx.clock.now();
  const body: DeliveryBody = { type: 'ping', timestamp: now.toISOString(), data: { organizationId, webhookId } };
  return ctx.prisma.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.create({
      data: { id: newId(), webhookId, type: 'ping', body: body as never, createdAt: now, nextAttemptAt: now },
    });
    await enqueue(tx, webhookDeliveryTask, { deliveryId: delivery.id }, { organizationId, queue: queueOf(webhookId) });
    return delivery;
  });
}

/**
 * Sends a delivery again, with its id (receivers deduplicate by it) and its body, on a new schedule of attempts. A
 * delivery still pending is refused: it is on its way.
 */
export async function redeliverWebhookDelivery(
  ctx: Context,
  organizationId: string,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDeliveryRow> {
  const { row: webhook } = await authorize(ctx, webhooks, { id: webhookId, parent: organizationId }, 'view');
  if (!webhook.active) throw conflict('The webhook is not active: resume it first (active: true).');
  return ctx.prisma.$transaction(async (tx) => {
    const [delivery] = await tx.$queryRaw<WebhookDeliveryRow[]>`
      SELECT * FROM "WebhookDelivery" WHERE id = ${deliveryId} AND "webhookId" = ${webhookId} FOR UPDATE`;
    if (!delivery) throw notFound('Webhook delivery');
    if (delivery.status === 'pending') throw conflict('The delivery is still pending: it is being sent.');
    const now = ctx.clock.now();
    const again = await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: 'pending', attempts: 0, nextAttemptAt: now },
    });
    await enqueue(tx, webhookDeliveryTask, { deliveryId }, { organizationId, queue: queueOf(webhookId) });
    return again;
  });
}
