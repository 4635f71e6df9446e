// Statement budgets of the publishing-auth routes (see test/support/budgets.ts), over a visitor-auth site of the
// budget world whose settings do not exist yet: the first of the calls creates them, and each route costs the same
// whether they exist or not.
import { buildSite } from '../site-redirects/fixtures.js';
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';

const AUTH = '/v1/orgs/:organizationId/sites/:siteId/publishing/auth';

export const publishingAuthBudgets: DomainBudgets = {
  budgets: {
    [`GET ${AUTH}`]: 4,
    [`PATCH ${AUTH}`]: 8,
    [`POST ${AUTH}/regenerate`]: 7,
  },
  calls: async ({ t, organizationId }) => {
    const site = await buildSite(t.prisma, { organizationId, title: 'Publishing auth budget', visibility: 'visitor_auth' });
    const auth = `/v1/orgs/${organizationId}/sites/${site.id}/publishing/auth`;
    const calls: Record<string, BudgetCall> = {
      [`GET ${AUTH}`]: { path: auth },
      [`PATCH ${AUTH}`]: { path: auth, body: { backend: 'custom', fallbackURL: 'https://example.com/login', logoutURL: null } },
      [`POST ${AUTH}/regenerate`]: { path: `${auth}/regenerate` },
    };
    return calls;
  },
};
