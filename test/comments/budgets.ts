// Statement budgets of the comment and reply routes, on a space and in a change request (see test/support/budgets.ts).
// Each destructive or state-changing call gets a comment of its own, so the calls work in any order.
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';

const COMMENTS = '/v1/spaces/:spaceId/comments';
const CR_COMMENTS = '/v1/spaces/:spaceId/change-requests/:changeRequestId/comments';

/** The route keys of the ten comment routes under `comments`. */
const keys = (comments: string) => {
  const comment = `${comments}/:commentId`;
  const reply = `${comment}/replies/:commentReplyId`;
  return [
    `GET ${comments}`,
    `POST ${comments}`,
    `GET ${comment}`,
    `PUT ${comment}`,
    `DELETE ${comment}`,
    `GET ${comment}/replies`,
    `POST ${comment}/replies`,
    `GET ${reply}`,
    `PUT ${reply}`,
    `DELETE ${reply}`,
  ];
};

/** The budgets of the ten routes under `comments`, in the order of `keys`. */
const budgetsOf = (comments: string, counts: number[]) => Object.fromEntries(keys(comments).map((key, i) => [key, counts[i]]));

export const commentsBudgets: DomainBudgets = {
  budgets: {
    // A write adds its event (src/kernel/events.ts), in a transaction: posting and deleting are BEGIN, the write, the
    // event, COMMIT; an edit of a body adds the event to its transaction (reactions alone record nothing).
    ...budgetsOf(COMMENTS, [8, 11, 8, 13, 8, 8, 11, 8, 11, 8]),
    ...budgetsOf(CR_COMMENTS, [9, 12, 9, 14, 9, 9, 12, 9, 12, 9]),
    // Token, memberships, the space (and the change request), the page of members, their counts, their users.
    'GET /v1/spaces/:spaceId/commenters': 6,
    'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/commenters': 7,
  },
  calls: async ({ t, admin, space }) => {
    const changeRequest = (await t.request('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} })).body
      .id as string;
    /** The calls of the ten routes under `base`, on comments and replies posted there. */
    const callsUnder = async (comments: string, base: string) => {
      const comment = async () =>
        (await t.request('POST', base, { token: admin.token, body: { body: { markdown: 'Budget' } } })).body.id as string;
      const reply = async (commentId: string) =>
        (await t.request('POST', `${base}/${commentId}/replies`, { token: admin.token, body: { body: { markdown: 'Re' } } })).body
          .id as string;
      const [read, updated, deleted, replied] = [await comment(), await comment(), await comment(), await comment()];
      const [readReply, updatedReply, deletedReply] = [await reply(replied), await reply(replied), await reply(replied)];
      const calls: BudgetCall[] = [
        { path: base },
        { path: base, body: { body: { markdown: 'Budget' } } },
        { path: `${base}/${read}` },
        { path: `${base}/${updated}`, body: { resolved: true, addedReactions: ['👍'] } },
        { path: `${base}/${deleted}` },
        { path: `${base}/${replied}/replies` },
        { path: `${base}/${replied}/replies`, body: { body: { markdown: 'Re' } } },
        { path: `${base}/${replied}/replies/${readReply}` },
        { path: `${base}/${replied}/replies/${updatedReply}`, body: { addedReactions: ['👍'] } },
        { path: `${base}/${replied}/replies/${deletedReply}` },
      ];
      return Object.fromEntries(keys(comments).map((key, i) => [key, calls[i]]));
    };
    const calls: Record<string, BudgetCall> = {
      ...(await callsUnder(COMMENTS, `/v1/spaces/${space.id}/comments`)),
      ...(await callsUnder(CR_COMMENTS, `/v1/spaces/${space.id}/change-requests/${changeRequest}/comments`)),
      'GET /v1/spaces/:spaceId/commenters': { path: `/v1/spaces/${space.id}/commenters` },
      'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/commenters': {
        path: `/v1/spaces/${space.id}/change-requests/${changeRequest}/commenters`,
      },
    };
    return calls;
  },
};
