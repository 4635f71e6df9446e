// Statement budgets of the PDF exports (see test/support/budgets.ts): of a change request of two pages, one of which
// shows an image of the content's files, and of a space of its own whose current content is the same.
import { file, page, publish } from '../revisions/content.js';
import type { DomainBudgets } from '../support/budgets.js';
import { buildSpace } from '../support/factories.js';

// Token, memberships, space, change request; then its revision and the space's row (the document's title), the page
// tree, the exported pages' bodies, the files their images may name, and the export's row (written before its bytes).
// Whatever the number of pages.
const CHANGE_REQUEST_PDF = 'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/pdf';
// Token, memberships, space; then its revision, the page tree, the exported pages' bodies, and the files their images
// may name, and the export's row. Whatever the number of pages.
const SPACE_PDF = 'GET /v1/spaces/:spaceId/pdf';

export const pdfBudgets: DomainBudgets = {
  budgets: { [CHANGE_REQUEST_PDF]: 10, [SPACE_PDF]: 8 },
  calls: async ({ t, admin, organizationId, space }) => {
    const base = `/v1/spaces/${space.id}/change-requests`;
    const created = await t.request('POST', base, { token: admin.token, body: { subject: 'Printing' } });
    const changes = [
      { operation: 'insert_files', files: [{ name: 'dot.txt', contentType: 'text/plain', base64: 'ZG90' }] },
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'Text with ![a dot](dot.txt).\n' } },
      { operation: 'insert_page', into: 'guide', title: 'Install', document: { markdown: '## Steps\n\n1. Download\n2. Run\n' } },
    ];
    const edited = await t.request('POST', `${base}/${created.body.id}/content`, { token: admin.token, body: { changes } });
    if (edited.status !== 200) throw new Error(`Cannot build the PDF budget's change request: ${edited.text}`);

    const printed = await buildSpace(t.prisma, { organizationId, title: 'Printed' });
    await publish(t.prisma, printed.id, {
      pages: [
        page('budgetPdfGuide', 'Guide', { markdown: 'Text with ![a dot](dot.txt).\n' }),
        page('budgetPdfInstall', 'Install', { parentId: 'budgetPdfGuide', markdown: '## Steps\n\n1. Download\n2. Run\n' }),
      ],
      files: [file('budgetPdfDot', 'dot.txt', { contentType: 'text/plain' })],
    });
    return {
      [CHANGE_REQUEST_PDF]: { path: `${base}/${created.body.id}/pdf` },
      [SPACE_PDF]: { path: `/v1/spaces/${printed.id}/pdf` },
    };
  },
};
