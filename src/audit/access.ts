// How a request reaches the audit log: through the admin role in its organization (policies.auditEvent). The log
// tells who did what anywhere in the organization, so nobody else reads it.
import type { AuditEvent } from '../generated/prisma/client.js';
import { childResource, organizations } from '../kernel/authorize.js';
import { policies } from '../kernel/permissions.js';

export const auditEvents = childResource<AuditEvent, typeof policies.auditEvent, { id: string }>(organizations, {
  kind: 'Audit event',
  policy: policies.auditEvent,
  table: 'AuditEvent',
  parentKey: 'organizationId',
});

declare module '../kernel/context.js' {
  interface Services {
    /**
     * Every action the product records, with its label: the domains' lists (src/<domain>/events.ts) merged by
     * src/composition.ts, which the audit log lists.
     */
    auditActions: Readonly<Record<string, string>>;
  }
}
