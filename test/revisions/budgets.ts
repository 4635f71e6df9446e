// Statement budgets of the content reads (see test/support/budgets.ts), over a space of their own with a page under a
// page and a file. Each read: the token, the viewer's membership, the space, its current revision (or the revision
// asked for), then the page tree, the files or the file (the page reads add the page's body). A revision's changes
// read its parent and both sides' pages and files; a document is one statement after the space.

import type { BudgetCall, DomainBudgets } from '../support/budgets.js';
import { buildSpace } from '../support/factories.js';
import { file, page, publish } from './content.js';

const CONTENT = 'GET /v1/spaces/:spaceId/content';
const REVISION = 'GET /v1/spaces/:spaceId/revisions/:revisionId';

export const revisionBudgets: DomainBudgets = {
  budgets: {
    [CONTENT]: 6,
    [`${CONTENT}/pages`]: 5,
    [`${CONTENT}/files`]: 5,
    [`${CONTENT}/files/:fileId`]: 5,
    [`${CONTENT}/page/:pageId`]: 6,
    [`${CONTENT}/path/:pagePath`]: 6,
    [`${CONTENT}/page/:pageId/meta-links`]: 5,
    [REVISION]: 6,
    [`${REVISION}/pages`]: 5,
    [`${REVISION}/files`]: 5,
    [`${REVISION}/files/:fileId`]: 5,
    [`${REVISION}/page/:pageId`]: 6,
    [`${REVISION}/page/:pageId/document`]: 6,
    [`${REVISION}/page/:pageId/meta-links`]: 5,
    [`${REVISION}/path/:pagePath`]: 6,
    [`${REVISION}/changes`]: 9,
    'GET /v1/spaces/:spaceId/documents/:documentId': 4,
  },
  calls: async ({ t, organizationId }) => {
    const space = await buildSpace(t.prisma, { organizationId, title: 'Content' });
    const revision = await publish(t.prisma, space.id, {
      pages: [page('budgetGuide', 'Guide'), page('budgetInstall', 'Install', { parentId: 'budgetGuide' })],
      files: [file('budgetLogo', 'logo.png')],
    });
    const install = await t.prisma.pageVersion.findFirstOrThrow({ where: { spaceId: space.id, pageId: 'budgetInstall' } });
    const base = `/v1/spaces/${space.id}/content`;
    const byId = `/v1/spaces/${space.id}/revisions/${revision.id}`;
    const calls: Record<string, BudgetCall> = {
      [CONTENT]: { path: base },
      [`${CONTENT}/pages`]: { path: `${base}/pages` },
      [`${CONTENT}/files`]: { path: `${base}/files` },
      [`${CONTENT}/files/:fileId`]: { path: `${base}/files/budgetLogo` },
      [`${CONTENT}/page/:pageId`]: { path: `${base}/page/budgetInstall` },
      [`${CONTENT}/path/:pagePath`]: { path: `${base}/path/${encodeURIComponent('guide/install')}` },
      [`${CONTENT}/page/:pageId/meta-links`]: { path: `${base}/page/budgetInstall/meta-links` },
      [REVISION]: { path: byId },
      [`${REVISION}/pages`]: { path: `${byId}/pages` },
      [`${REVISION}/files`]: { path: `${byId}/files` },
      [`${REVISION}/files/:fileId`]: { path: `${byId}/files/budgetLogo` },
      [`${REVISION}/page/:pageId`]: { path: `${byId}/page/budgetInstall` },
      [`${REVISION}/page/:pageId/document`]: { path: `${byId}/page/budgetInstall/document` },
      [`${REVISION}/page/:pageId/meta-links`]: { path: `${byId}/page/budgetInstall/meta-links` },
      [`${REVISION}/path/:pagePath`]: { path: `${byId}/path/guide/install` },
      [`${REVISION}/changes`]: { path: `${byId}/changes` },
      'GET /v1/spaces/:spaceId/documents/:documentId': { path: `/v1/spaces/${space.id}/documents/${install.id}` },
    };
    return calls;
  },
};
