// Statement budgets of the change-request routes (see test/support/budgets.ts). The list is read with the status of the
// change request created here, so that its page holds one; the update changes the subject only, so the calls work in
// any order.
import type { DomainBudgets } from '../support/budgets.js';

// Per request: token, space, memberships; then the change request, its facts (comments, outdated) and its creator. Creating
// adds BEGIN, the space's number, its revision, the new revision and the change request, COMMIT (no facts: they are known).
// A content batch, a merge and an update read whole revisions (pages and files of each side: a constant number of
// statements whatever the content's size) and write rows for what changed.

const CHANGE_REQUESTS = '/v1/spaces/:spaceId/change-requests';

export const changeRequestsBudgets: DomainBudgets = {
  budgets: {
    [`GET ${CHANGE_REQUESTS}`]: 6,
    [`POST ${CHANGE_REQUESTS}`]: 10,
    [`GET ${CHANGE_REQUESTS}/:changeRequestId`]: 6,
    [`PATCH ${CHANGE_REQUESTS}/:changeRequestId`]: 7,
    [`POST ${CHANGE_REQUESTS}/:changeRequestId/content`]: 16,
    [`GET ${CHANGE_REQUESTS}/:changeRequestId/changes`]: 9,
    [`POST ${CHANGE_REQUESTS}/:changeRequestId/merge`]: 21,
    [`POST ${CHANGE_REQUESTS}/:changeRequestId/update`]: 18,
  },
  calls: async ({ t, admin, space }) => {
    const base = `/v1/spaces/${space.id}/change-requests`;
    const created = await t.request('POST', base, { token: admin.token, body: { subject: 'Budget' } });
    if (created.status !== 201) throw new Error(`Cannot create the budget's change request: ${created.text}`);
    // Merged by its call, with a page of its own; the other one is then updated from the space's new content.
    const merging = await t.request('POST', base, { token: admin.token, body: { subject: 'Merging' } });
    const page = { operation: 'insert_page', document: { markdown: '# Budget page\n\nText.\n' } };
    await t.request('POST', `${base}/${merging.body.id}/content`, { token: admin.token, body: { changes: [page] } });
    return {
      [`GET ${CHANGE_REQUESTS}`]: { path: `${base}?status=draft` },
      [`POST ${CHANGE_REQUESTS}`]: { path: base, body: { subject: 'Another' } },
      [`GET ${CHANGE_REQUESTS}/:changeRequestId`]: { path: `${base}/${created.body.id}` },
      [`PATCH ${CHANGE_REQUESTS}/:changeRequestId`]: { path: `${base}/${created.body.id}`, body: { subject: 'Budget, renamed' } },
      [`POST ${CHANGE_REQUESTS}/:changeRequestId/content`]: { path: `${base}/${created.body.id}/content`, body: { changes: [page] } },
      [`GET ${CHANGE_REQUESTS}/:changeRequestId/changes`]: { path: `${base}/${created.body.id}/changes` },
      [`POST ${CHANGE_REQUESTS}/:changeRequestId/merge`]: { path: `${base}/${merging.body.id}/merge` },
      [`POST ${CHANGE_REQUESTS}/:changeRequestId/update`]: { path: `${base}/${created.body.id}/update` },
    };
  },
};
