// Statement budgets of the search routes (see test/support/budgets.ts), over a space of their own with two pages that
// match. The organization search: the token, the viewer's membership, the search. The space search: the token, the
// space, the viewer's membership (for their level on it), the search.
import { page, publish } from '../revisions/content.js';
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';
import { buildSpace } from '../support/factories.js';

const ORGANIZATION = 'GET /v1/orgs/:organizationId/search';
const SPACE = 'GET /v1/spaces/:spaceId/search';

export const searchBudgets: DomainBudgets = {
  budgets: {
    [ORGANIZATION]: 3,
    [SPACE]: 4,
  },
  calls: async ({ t, organizationId }) => {
    const space = await buildSpace(t.prisma, { organizationId, title: 'Searched' });
    await publish(t.prisma, space.id, {
      pages: [
        page('budgetSearchGuide', 'Budget guide', { markdown: '## Budget heading\n\nThe budget text.\n' }),
        page('budgetSearchChild', 'Budget child', { parentId: 'budgetSearchGuide' }),
      ],
    });
    const calls: Record<string, BudgetCall> = {
      [ORGANIZATION]: { path: `/v1/orgs/${organizationId}/search?query=budget` },
      [SPACE]: { path: `/v1/spaces/${space.id}/search?query=budget` },
    };
    return calls;
  },
};
