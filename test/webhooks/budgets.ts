// Statement budgets of the webhook routes (see test/support/budgets.ts).
import { newId } from '../../src/kernel/ids.js';
import type { DomainBudgets } from '../support/budgets.js';

export const webhooksBudgets: DomainBudgets = {
  budgets: {
    'GET /v1/orgs/:organizationId/webhooks': 3,
    'POST /v1/orgs/:organizationId/webhooks': 9,
    'GET /v1/orgs/:organizationId/webhooks/:webhookId': 3,
    'PATCH /v1/orgs/:organizationId/webhooks/:webhookId': 7,
    'DELETE /v1/orgs/:organizationId/webhooks/:webhookId': 7,
    'POST /v1/orgs/:organizationId/webhooks/:webhookId/secret': 7,
    'POST /v1/orgs/:organizationId/webhooks/:webhookId/ping': 7,
    'GET /v1/orgs/:organizationId/webhooks/:webhookId/deliveries': 4,
    'POST /v1/orgs/:organizationId/webhooks/:webhookId/deliveries/:deliveryId/redeliver': 8,
  },
  calls: async ({ t, organizationId, admin, space }) => {
    // Inactive, so that no event of the other calls fans out to them; the ping and the redelivery need an active one.
    const webhook = (active: boolean) =>
      t.prisma.webhook.create({
        data: {
          id: newId(),
          organizationId,
          createdById: admin.userId,
          url: 'https://receiver.test/hook',
          events: ['space_updated'],
          secret: 'sealed',
          active,
        },
      });
    const [kept, doomed, pinged] = [await webhook(false), await webhook(false), await webhook(true)];
    const delivered = (status: 'success' | 'failed') =>
      t.prisma.webhookDelivery.create({
        data: { id: newId(), webhookId: pinged.id, type: 'space_updated', body: {}, status, attempts: 1, createdAt: t.clock.now() },
      });
    await delivered('success');
    const failed = await delivered('failed');
    const base = `/v1/orgs/${organizationId}/webhooks`;
    return {
      'GET /v1/orgs/:organizationId/webhooks': { path: base },
      'POST /v1/orgs/:organizationId/webhooks': {
        path: base,
        body: { url: 'https://receiver.test/new', events: ['space_created'], spaces: [space.id], active: false },
      },
      'GET /v1/orgs/:organizationId/webhooks/:webhookId': { path: `${base}/${kept.id}` },
      'PATCH /v1/orgs/:organizationId/webhooks/:webhookId': { path: `${base}/${kept.id}`, body: { description: 'Renamed' } },
      'DELETE /v1/orgs/:organizationId/webhooks/:webhookId': { path: `${base}/${doomed.id}` },
      'POST /v1/orgs/:organizationId/webhooks/:webhookId/secret': { path: `${base}/${kept.id}/secret` },
      'POST /v1/orgs/:organizationId/webhooks/:webhookId/ping': { path: `${base}/${pinged.id}/ping` },
      'GET /v1/orgs/:organizationId/webhooks/:webhookId/deliveries': { path: `${base}/${pinged.id}/deliveries` },
      'POST /v1/orgs/:organizationId/webhooks/:webhookId/deliveries/:deliveryId/redeliver': {
        path: `${base}/${pinged.id}/deliveries/${failed.id}/redeliver`,
      },
    };
  },
};
