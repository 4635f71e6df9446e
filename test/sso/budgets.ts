// Statement budgets of the SAML provider and SSO routes (see test/support/budgets.ts).
import { newId } from '../../src/kernel/ids.js';
import type { DomainBudgets } from '../support/budgets.js';

export const ssoBudgets: DomainBudgets = {
  budgets: {
    'GET /v1/orgs/:organizationId/saml': 6,
    'POST /v1/orgs/:organizationId/saml': 12,
    'GET /v1/orgs/:organizationId/saml/:samlProviderId': 6,
    'PATCH /v1/orgs/:organizationId/saml/:samlProviderId': 10,
    'DELETE /v1/orgs/:organizationId/saml/:samlProviderId': 6,
    'GET /v1/orgs/:organizationId/sso': 3,
  },
  calls: async ({ t, organizationId, team }) => {
    // An active provider with a default team (its Team is resolved in full), and one for the delete.
    const provider = (label: string) =>
      t.prisma.samlProvider.create({
        data: {
          id: newId(),
          organizationId,
          label,
          entityID: 'https://idp.test/metadata',
          certificate: 'PEM',
          ssoURL: 'https://idp.test/sso',
          defaultTeamId: team,
          status: 'active',
        },
      });
    const [kept, doomed] = [await provider('Kept'), await provider('Doomed')];
    const saml = `/v1/orgs/${organizationId}/saml`;
    return {
      'GET /v1/orgs/:organizationId/saml': { path: saml },
      'POST /v1/orgs/:organizationId/saml': { path: saml, body: { label: 'New', defaultTeam: team } },
      'GET /v1/orgs/:organizationId/saml/:samlProviderId': { path: `${saml}/${kept.id}` },
      'PATCH /v1/orgs/:organizationId/saml/:samlProviderId': {
        path: `${saml}/${kept.id}`,
        body: { label: 'Kept, renamed', defaultTeam: team },
      },
      'DELETE /v1/orgs/:organizationId/saml/:samlProviderId': { path: `${saml}/${doomed.id}` },
      'GET /v1/orgs/:organizationId/sso': { path: `/v1/orgs/${organizationId}/sso` },
    };
  },
};
