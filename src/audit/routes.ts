// REST endpoints of the audit log (GitBook 0.202), and the REST shape of an event: the list answers AuditEvent, one
// event AuditEventDetails (with its payload).
import { type RestModule, route } from '../../rest/route.js';

const events = '/v1/orgs/:organizationId/audit-events';

export const auditRest: RestModule = {
  fragments: {
    AuditEvent: 'object id occurredAt action actor source target urls',
  },
  routes: [
    route(`GET ${events}`, 'listOrganizationAuditEvents', 'organization(id: $organizationId).auditEvents'),
    route(
      `GET ${events}/:auditEventId`,
      'getOrganizationAuditEvent',
      'organization(id: $organizationId).auditEvent(auditEventId: $auditEventId)',
      {
        pick: ['object', 'id', 'occurredAt', 'action', 'actor', 'source', 'target', 'urls', 'schemaVersion', 'payload'],
      },
    ),
    route(
      'GET /v1/orgs/:organizationId/audit-event-actions',
      'listOrganizationAuditEventActions',
      'organization(id: $organizationId).auditEventActions',
    ),
  ],
};
