// REST endpoints of webhooks and their deliveries, and their REST shapes: an extension of GitBook's API (spec
// `extension`), named in its style.
import { type RestModule, route } from '../../rest/route.js';

const webhook = '/v1/orgs/:organizationId/webhooks/:webhookId';
const key = 'organizationId: $organizationId, webhookId: $webhookId';
const extension = { spec: 'extension' } as const;

export const webhookRest: RestModule = {
  fragments: {
    Webhook: 'object id url events spaces active description secret disabledReason createdAt updatedAt urls',
    WebhookDelivery: 'object id type status attempts responseStatus durationMs error createdAt lastAttemptAt nextAttemptAt',
  },
  routes: [
    route(
      'GET /v1/orgs/:organizationId/webhooks',
      'listWebhooksInOrganizationById',
      'organization(id: $organizationId).webhooks',
      extension,
    ),
    route(
      'POST /v1/orgs/:organizationId/webhooks',
      'createOrganizationWebhook',
      'createWebhook(organizationId: $organizationId, input: $body)',
      {
        ...extension,
        status: 201,
      },
    ),
    route(`GET ${webhook}`, 'getOrganizationWebhookById', 'organization(id: $organizationId).webhook(webhookId: $webhookId)', extension),
    route(`PATCH ${webhook}`, 'updateOrganizationWebhookById', `updateWebhook(${key}, input: $body)`, extension),
    route(`DELETE ${webhook}`, 'deleteOrganizationWebhookById', `deleteWebhook(${key})`, { ...extension, status: 204 }),
    route(`POST ${webhook}/secret`, 'rotateOrganizationWebhookSecret', `rotateWebhookSecret(${key})`, extension),
    route(`POST ${webhook}/ping`, 'pingOrganizationWebhook', `pingWebhook(${key})`, extension),
    route(
      `GET ${webhook}/deliveries`,
      'listOrganizationWebhookDeliveries',
      'organization(id: $organizationId).webhook(webhookId: $webhookId).deliveries',
      extension,
    ),
    route(
      `POST ${webhook}/deliveries/:deliveryId/redeliver`,
      'redeliverOrganizationWebhookDelivery',
      `redeliverWebhookDelivery(${key}, deliveryId: $deliveryId)`,
      extension,
    ),
  ],
};
