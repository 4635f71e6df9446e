// Statement budgets of the API token routes (see test/support/budgets.ts).
import { hashToken, newApiToken, newId } from '../../src/kernel/ids.js';
import type { DomainBudgets } from '../support/budgets.js';

export const tokensBudgets: DomainBudgets = {
  budgets: {
    'GET /v1/user/tokens': 4,
    'POST /v1/user/tokens': 10,
    'GET /v1/user/tokens/:tokenId': 4,
    'DELETE /v1/user/tokens/:tokenId': 6,
    'GET /v1/orgs/:organizationId/tokens': 6,
    'DELETE /v1/orgs/:organizationId/tokens/:tokenId': 8,
  },
  calls: async ({ t, organizationId, admin, colleague, space }) => {
    const token = (userId: string, label: string) =>
      t.prisma.apiToken.create({ data: { id: newId(), userId, tokenHash: hashToken(newApiToken()), label } });
    const [kept, doomed, colleagues] = [
      await token(admin.userId, 'Kept'),
      await token(admin.userId, 'Doomed'),
      await token(colleague.userId, 'Colleague’s'),
    ];
    return {
      'GET /v1/user/tokens': { path: '/v1/user/tokens' },
      'POST /v1/user/tokens': { path: '/v1/user/tokens', body: { label: 'CI', organizations: [organizationId], spaces: [space.id] } },
      'GET /v1/user/tokens/:tokenId': { path: `/v1/user/tokens/${kept.id}` },
      'DELETE /v1/user/tokens/:tokenId': { path: `/v1/user/tokens/${doomed.id}` },
      'GET /v1/orgs/:organizationId/tokens': { path: `/v1/orgs/${organizationId}/tokens` },
      'DELETE /v1/orgs/:organizationId/tokens/:tokenId': { path: `/v1/orgs/${organizationId}/tokens/${colleagues.id}` },
    };
  },
};
