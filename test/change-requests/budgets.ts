// Statement budgets of the change-request routes (see test/support/budgets.ts). The list is read with the status of the
// change request created here, so that its page holds one; the update changes the subject only, so the calls work in
// any order.
import type { DomainBudgets } from '../support/budgets.js';

// Per request: token, space, memberships; then the change request, its facts (comments, outdated) and its creator. Creating
// adds BEGIN, the space's number, its revision, the new revision, the change request and its event, COMMIT (no facts: they
// are known); an update is BEGIN, the update, its event, COMMIT; a content batch, a merge and an update from the space
// add their events (one statement).
// A content batch reads the pages it names (with their ancestors), and their siblings or subpages where it places or
// deletes pages; a merge and an update read the keys either side changed, then those pages and those files on the three
// sides (one statement each), and the tree's ids and parents only when pages were added, deleted or moved. All write
// rows for what changed: a constant number of statements whatever the content's size. A merge first reads its merge
// rules (one statement while there are none). A content read is the space's content read (test/revisions/budgets.ts)
// and the change request: token, memberships, space, change request, its revision, then the page tree, the files or the
// file (the page reads add the page's body).

const CHANGE_REQUESTS = '/v1/spaces/:spaceId/change-requests';
const CONTENT = `GET ${CHANGE_REQUESTS}/:changeRequestId/content`;

export const changeRequestsBudgets: DomainBudgets = {
  budgets: {
    [`GET ${CHANGE_REQUESTS}`]: 6,
    // Token, memberships, the page, the facts, the spaces of the page (their levels), the creators.
    'GET /v1/orgs/:organizationId/change-requests': 6,
    // Token, memberships, the space, the change request, its contributors in one statement, their users.
    [`GET ${CHANGE_REQUESTS}/:changeRequestId/contributors`]: 6,
    [`POST ${CHANGE_REQUESTS}`]: 11,
    [`GET ${CHANGE_REQUESTS}/:changeRequestId`]: 6,
    [`PATCH ${CHANGE_REQUESTS}/:changeRequestId`]: 10,
    [`POST ${CHANGE_REQUESTS}/:changeRequestId/content`]: 17,
    [`GET ${CHANGE_REQUESTS}/:changeRequestId/changes`]: 9,
    [`POST ${CHANGE_REQUESTS}/:changeRequestId/merge`]: 20,
    [`POST ${CHANGE_REQUESTS}/:changeRequestId/update`]: 16,
    [CONTENT]: 7,
    [`${CONTENT}/pages`]: 6,
    [`${CONTENT}/files`]: 6,
    [`${CONTENT}/files/:fileId`]: 6,
    [`${CONTENT}/page/:pageId`]: 7,
    [`${CONTENT}/path/:pagePath`]: 7,
    [`${CONTENT}/page/:pageId/meta-links`]: 6,
  },
  calls: async ({ t, admin, space, organizationId }) => {
    const base = `/v1/spaces/${space.id}/change-requests`;
    const created = await t.request('POST', base, { token: admin.token, body: { subject: 'Budget' } });
    if (created.status !== 201) throw new Error(`Cannot create the budget's change request: ${created.text}`);
    // Merged by its call, with a page of its own; the other one is then updated from the space's new content.
    const merging = await t.request('POST', base, { token: admin.token, body: { subject: 'Merging' } });
    const page = { operation: 'insert_page', document: { markdown: '# Budget page\n\nText.\n' } };
    await t.request('POST', `${base}/${merging.body.id}/content`, { token: admin.token, body: { changes: [page] } });
    // Read only: a page under a page and a file, each read by the id the change request gave it.
    const reading = await t.request('POST', base, { token: admin.token, body: { subject: 'Reading' } });
    const readBase = `${base}/${reading.body.id}/content`;
    const content = [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'Text.\n' } },
      { operation: 'insert_page', into: 'guide', title: 'Install', document: { markdown: 'Steps.\n' } },
      { operation: 'insert_files', files: [{ name: 'dot.txt', contentType: 'text/plain', base64: 'ZG90' }] },
    ];
    await t.request('POST', readBase, { token: admin.token, body: { changes: content } });
    const [pages, files] = [
      await t.request('GET', `${readBase}/pages`, { token: admin.token }),
      await t.request('GET', `${readBase}/files`, { token: admin.token }),
    ];
    const install = pages.body.pages[0].pages[0];
    if (install?.path !== 'guide/install') throw new Error(`Cannot build the budget's change request content: ${pages.text}`);
    return {
      [`GET ${CHANGE_REQUESTS}`]: { path: `${base}?status=draft` },
      'GET /v1/orgs/:organizationId/change-requests': { path: `/v1/orgs/${organizationId}/change-requests?status=draft&status=open` },
      [`GET ${CHANGE_REQUESTS}/:changeRequestId/contributors`]: { path: `${base}/${created.body.id}/contributors` },
      [`POST ${CHANGE_REQUESTS}`]: { path: base, body: { subject: 'Another' } },
      [`GET ${CHANGE_REQUESTS}/:changeRequestId`]: { path: `${base}/${created.body.id}` },
      [`PATCH ${CHANGE_REQUESTS}/:changeRequestId`]: { path: `${base}/${created.body.id}`, body: { subject: 'Budget, renamed' } },
      [`POST ${CHANGE_REQUESTS}/:changeRequestId/content`]: { path: `${base}/${created.body.id}/content`, body: { changes: [page] } },
      [`GET ${CHANGE_REQUESTS}/:changeRequestId/changes`]: { path: `${base}/${created.body.id}/changes` },
      [`POST ${CHANGE_REQUESTS}/:changeRequestId/merge`]: { path: `${base}/${merging.body.id}/merge` },
      [`POST ${CHANGE_REQUESTS}/:changeRequestId/update`]: { path: `${base}/${created.body.id}/update` },
      [CONTENT]: { path: readBase },
      [`${CONTENT}/pages`]: { path: `${readBase}/pages` },
      [`${CONTENT}/files`]: { path: `${readBase}/files` },
      [`${CONTENT}/files/:fileId`]: { path: `${readBase}/files/${files.body.items[0].id}` },
      [`${CONTENT}/page/:pageId`]: { path: `${readBase}/page/${install.id}` },
      // Nested, with its slash as GitBook's client sends it.
      [`${CONTENT}/path/:pagePath`]: { path: `${readBase}/path/guide/install` },
      [`${CONTENT}/page/:pageId/meta-links`]: { path: `${readBase}/page/${install.id}/meta-links` },
    };
  },
};
