// Statement budgets of the comment and reply routes (see test/support/budgets.ts). Each destructive or state-changing
// call gets a comment of its own, so the calls work in any order.
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';

const COMMENTS = '/v1/spaces/:spaceId/comments';
const COMMENT = `${COMMENTS}/:commentId`;
const REPLY = `${COMMENT}/replies/:commentReplyId`;

export const commentsBudgets: DomainBudgets = {
  budgets: {
    [`GET ${COMMENTS}`]: 8,
    [`POST ${COMMENTS}`]: 8,
    [`GET ${COMMENT}`]: 9,
    [`PUT ${COMMENT}`]: 12,
    [`DELETE ${COMMENT}`]: 5,
    [`GET ${COMMENT}/replies`]: 9,
    [`POST ${COMMENT}/replies`]: 8,
    [`GET ${REPLY}`]: 10,
    [`PUT ${REPLY}`]: 11,
    [`DELETE ${REPLY}`]: 5,
  },
  calls: async ({ t, admin, space }) => {
    const base = `/v1/spaces/${space.id}/comments`;
    const comment = async () =>
      (await t.request('POST', base, { token: admin.token, body: { body: { markdown: 'Budget' } } })).body.id as string;
    const reply = async (commentId: string) =>
      (await t.request('POST', `${base}/${commentId}/replies`, { token: admin.token, body: { body: { markdown: 'Re' } } })).body
        .id as string;
    const [read, updated, deleted, replied] = [await comment(), await comment(), await comment(), await comment()];
    const [readReply, updatedReply, deletedReply] = [await reply(replied), await reply(replied), await reply(replied)];
    const calls: Record<string, BudgetCall> = {
      [`GET ${COMMENTS}`]: { path: base },
      [`POST ${COMMENTS}`]: { path: base, body: { body: { markdown: 'Budget' } } },
      [`GET ${COMMENT}`]: { path: `${base}/${read}` },
      [`PUT ${COMMENT}`]: { path: `${base}/${updated}`, body: { resolved: true, addedReactions: ['👍'] } },
      [`DELETE ${COMMENT}`]: { path: `${base}/${deleted}` },
      [`GET ${COMMENT}/replies`]: { path: `${base}/${replied}/replies` },
      [`POST ${COMMENT}/replies`]: { path: `${base}/${replied}/replies`, body: { body: { markdown: 'Re' } } },
      [`GET ${REPLY}`]: { path: `${base}/${replied}/replies/${readReply}` },
      [`PUT ${REPLY}`]: { path: `${base}/${replied}/replies/${updatedReply}`, body: { addedReactions: ['👍'] } },
      [`DELETE ${REPLY}`]: { path: `${base}/${replied}/replies/${deletedReply}` },
    };
    return calls;
  },
};
