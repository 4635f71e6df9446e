// Statement budgets of the audit log's routes (see test/support/budgets.ts).
import { randomUUID } from 'node:crypto';
import type { DomainBudgets } from '../support/budgets.js';

export const auditBudgets: DomainBudgets = {
  budgets: {
    'GET /v1/orgs/:organizationId/audit-events': 3,
    'GET /v1/orgs/:organizationId/audit-events/:auditEventId': 3,
    'GET /v1/orgs/:organizationId/audit-event-actions': 2,
  },
  calls: async ({ t, admin, organizationId, space }) => {
    // An event of its own, whatever the other calls record before this one runs.
    const event = await t.prisma.auditEvent.create({
      data: {
        id: randomUUID(),
        organizationId,
        action: 'space_updated',
        actorType: 'user',
        actorId: admin.userId,
        actorLabel: 'Admin',
        source: 'api',
        targetType: 'space',
        targetId: space.id,
        targetLabel: space.title,
        spaceId: space.id,
        payload: { changed: { title: { from: 'Old', to: space.title } } },
        occurredAt: t.clock.now(),
      },
    });
    const events = `/v1/orgs/${organizationId}/audit-events`;
    return {
      'GET /v1/orgs/:organizationId/audit-events': { path: events },
      'GET /v1/orgs/:organizationId/audit-events/:auditEventId': { path: `${events}/${event.id}` },
      'GET /v1/orgs/:organizationId/audit-event-actions': { path: `/v1/orgs/${organizationId}/audit-event-actions` },
    };
  },
};
