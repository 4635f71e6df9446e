// Statement budgets of the files routes (see test/support/budgets.ts).
import type { DomainBudgets } from '../support/budgets.js';

export const filesBudgets: DomainBudgets = {
  // Token, memberships, and the usage in one statement.
  budgets: { 'GET /v1/orgs/:organizationId/storage': 3 },
  calls: async ({ organizationId }) => ({
    'GET /v1/orgs/:organizationId/storage': { path: `/v1/orgs/${organizationId}/storage` },
  }),
};
