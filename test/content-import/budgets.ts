// Statement budgets of content imports and import runs (see test/support/budgets.ts). The budget app allows private
// addresses so that an import can read a page on loopback: the service's own API reference page (/docs), HTML that
// reads no database; it runs no worker, so that runs stay pending.
// - The import: the change request through the space's permissions (token, memberships, space, change request), the
//   top-level slugs of its content (its revision, then the pages), then the content batch of
//   test/change-requests/budgets.ts, which checks the change request again and reads the top level's pages where the
//   new ones go, and its event, without the reads of its answer (the change request's facts and creator).
// - Starting a run (into a change request created for it): token, memberships, the space; then the change request's
//   creation (BEGIN, the space's number, its revision, the new revision, the change request) with the run and its job
//   in one statement, the run's event, the change request's event, COMMIT.
// - Reading runs: token, the organization with the viewer's membership, the run (or a page of runs, whatever its
//   size), and their spaces' rows (for the viewer's level on each).
// - Cancelling: token, the run, its space, the viewer's membership, then BEGIN, the cancel, its event, COMMIT.
import type { DomainBudgets } from '../support/budgets.js';

const IMPORT = 'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/content/import';
const RUNS = '/v1/org/:organizationId/imports';

export const contentImportBudgets: DomainBudgets = {
  budgets: {
    [IMPORT]: 19,
    [`GET ${RUNS}`]: 4,
    [`POST ${RUNS}`]: 12,
    [`GET ${RUNS}/:importRunId`]: 4,
    [`POST ${RUNS}/:importRunId/cancel`]: 8,
  },
  calls: async ({ t, admin, space, organizationId }) => {
    const created = await t.request('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: { subject: 'Import' } });
    if (created.status !== 201) throw new Error(`Cannot create the budget's change request: ${created.text}`);
    const runs = `/v1/org/${organizationId}/imports`;
    const run = { source: { type: 'website', url: `${t.url}/docs` }, target: { space: space.id } };
    const started = await Promise.all(
      [1, 2].map(async () => {
        const res = await t.request('POST', runs, { token: admin.token, body: run });
        if (res.status !== 201) throw new Error(`Cannot start the budget's import run: ${res.text}`);
        return res.body.id as string;
      }),
    );
    return {
      [IMPORT]: {
        path: `/v1/spaces/${space.id}/change-requests/${created.body.id}/content/import`,
        body: { source: 'website', url: `${t.url}/docs` },
      },
      [`GET ${RUNS}`]: { path: runs },
      [`POST ${RUNS}`]: { path: runs, body: run },
      [`GET ${RUNS}/:importRunId`]: { path: `${runs}/${started[0]}` },
      [`POST ${RUNS}/:importRunId/cancel`]: { path: `${runs}/${started[1]}/cancel` },
    };
  },
};
