// Statement budget of the PDF export (see test/support/budgets.ts), over a change request of two pages, one of which
// shows an image of the content's files.
import type { DomainBudgets } from '../support/budgets.js';

// Token, memberships, space, change request; then its revision and the space's row (the document's title), the page
// tree, the exported pages' bodies, and the files their images may name. Whatever the number of pages.
const PDF = 'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/pdf';

export const pdfBudgets: DomainBudgets = {
  budgets: { [PDF]: 9 },
  calls: async ({ t, admin, space }) => {
    const base = `/v1/spaces/${space.id}/change-requests`;
    const created = await t.request('POST', base, { token: admin.token, body: { subject: 'Printing' } });
    const changes = [
      { operation: 'insert_files', files: [{ name: 'dot.txt', contentType: 'text/plain', base64: 'ZG90' }] },
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'Text with ![a dot](dot.txt).\n' } },
      { operation: 'insert_page', into: 'guide', title: 'Install', document: { markdown: '## Steps\n\n1. Download\n2. Run\n' } },
    ];
    const edited = await t.request('POST', `${base}/${created.body.id}/content`, { token: admin.token, body: { changes } });
    if (edited.status !== 200) throw new Error(`Cannot build the PDF budget's change request: ${edited.text}`);
    return { [PDF]: { path: `${base}/${created.body.id}/pdf` } };
  },
};
