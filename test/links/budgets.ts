// Statement budgets of the links routes (see test/support/budgets.ts), over a space of their own whose page links to
// another page, a file and a URL, and a change request of it. Each: the token, the space or change request, the
// viewer's membership, the revision, the page tree, the links (the backlinks read the file first), then the
// locations' organization, space and file shapes (their REST shapes read what GET of each reads), whatever the page size.
import { file, page, publish } from '../revisions/content.js';
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';
import { buildSpace } from '../support/factories.js';

const SPACE = 'GET /v1/spaces/:spaceId/links';
const PAGE = 'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/links';
const BACKLINKS = 'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/backlinks';

export const linksBudgets: DomainBudgets = {
  budgets: { [SPACE]: 11, [PAGE]: 13, [BACKLINKS]: 12 },
  calls: async ({ t, organizationId, admin }) => {
    const space = await buildSpace(t.prisma, { organizationId, title: 'Linked' });
    await publish(t.prisma, space.id, {
      pages: [
        // As a write stores them: the page and the file by id.
        page('budgetLinksGuide', 'Guide', {
          markdown: '[Install](page-id:budgetLinksInstall) ![x](file-id:budgetLinksFile) <https://example.com>\n',
        }),
        page('budgetLinksInstall', 'Install', { parentId: 'budgetLinksGuide' }),
      ],
      files: [file('budgetLinksFile', 'x.png')],
    });
    const cr = await t.request('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: { subject: 'Links' } });
    const base = `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`;
    const calls: Record<string, BudgetCall> = {
      [SPACE]: { path: `/v1/spaces/${space.id}/links` },
      [PAGE]: { path: `${base}/page/budgetLinksGuide/links` },
      [BACKLINKS]: { path: `${base}/files/budgetLinksFile/backlinks` },
    };
    return calls;
  },
};
