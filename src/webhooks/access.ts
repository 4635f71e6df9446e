// How a request reaches a webhook: through the admin role in its organization (policies.webhook). A webhook sends the
// organization's events out, so nobody else learns it exists.
import type { Webhook } from '../generated/prisma/client.js';
import { childResource, organizations } from '../kernel/authorize.js';
import { policies } from '../kernel/permissions.js';

export const webhooks = childResource<Webhook, typeof policies.webhook, { id: string }>(organizations, {
  kind: 'Webhook',
  policy: policies.webhook,
  table: 'Webhook',
  parentKey: 'organizationId',
});
