// Statement budget of the content import (see test/support/budgets.ts). The budget app allows private addresses so
// that the import can read a page on loopback: the service's own API reference page (/docs), HTML that reads no
// database. Its statements, whatever the number of pages: the change request through the space's permissions (token,
// memberships, space, change request), the top-level slugs of its content (its revision, then the pages), then the
// content batch of test/change-requests/budgets.ts, which checks the change request again and reads the top level's
// pages where the new ones go, without the reads of its answer (the change request's facts and creator).
import type { DomainBudgets } from '../support/budgets.js';

const IMPORT = 'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/content/import';

export const contentImportBudgets: DomainBudgets = {
  budgets: { [IMPORT]: 18 },
  calls: async ({ t, admin, space }) => {
    const created = await t.request('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: { subject: 'Import' } });
    if (created.status !== 201) throw new Error(`Cannot create the budget's change request: ${created.text}`);
    return {
      [IMPORT]: {
        path: `/v1/spaces/${space.id}/change-requests/${created.body.id}/content/import`,
        body: { source: 'website', url: `${t.url}/docs` },
      },
    };
  },
};
