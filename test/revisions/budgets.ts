// Statement budgets of the content reads (see test/support/budgets.ts), over a space of their own with a page under a
// page and a file. Each read: the token, the viewer's membership, the space, its current revision, then the page tree,
// the files or the file (the page reads add the page's body).

import type { BudgetCall, DomainBudgets } from '../support/budgets.js';
import { buildSpace } from '../support/factories.js';
import { file, page, publish } from './content.js';

const CONTENT = 'GET /v1/spaces/:spaceId/content';

export const revisionBudgets: DomainBudgets = {
  budgets: {
    [CONTENT]: 6,
    [`${CONTENT}/pages`]: 5,
    [`${CONTENT}/files`]: 5,
    [`${CONTENT}/files/:fileId`]: 5,
    [`${CONTENT}/page/:pageId`]: 6,
    [`${CONTENT}/path/:pagePath`]: 6,
  },
  calls: async ({ t, organizationId }) => {
    const space = await buildSpace(t.prisma, { organizationId, title: 'Content' });
    await publish(t.prisma, space.id, {
      pages: [page('budgetGuide', 'Guide'), page('budgetInstall', 'Install', { parentId: 'budgetGuide' })],
      files: [file('budgetLogo', 'logo.png')],
    });
    const base = `/v1/spaces/${space.id}/content`;
    const calls: Record<string, BudgetCall> = {
      [CONTENT]: { path: base },
      [`${CONTENT}/pages`]: { path: `${base}/pages` },
      [`${CONTENT}/files`]: { path: `${base}/files` },
      [`${CONTENT}/files/:fileId`]: { path: `${base}/files/budgetLogo` },
      [`${CONTENT}/page/:pageId`]: { path: `${base}/page/budgetInstall` },
      [`${CONTENT}/path/:pagePath`]: { path: `${base}/path/${encodeURIComponent('guide/install')}` },
    };
    return calls;
  },
};
