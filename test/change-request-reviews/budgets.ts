// Statement budgets of the review and requested-reviewer routes (see test/support/budgets.ts), on a change request of the
// budget world's space by another member, which the admin reviews. A read is the token, the memberships, the space and
// the change request (its level), then the page or the row, and what it shows: users, the review's comment and that
// comment's facts (its page, replies, reactions, mentions, the viewer's level). Submitting adds its transaction (BEGIN,
// the change request locked, the review, the comment, their events, COMMIT); asking for reviews checks the users' levels
// first, then writes in a transaction with its event (BEGIN, the requests, the event, COMMIT), as taking one back does.
import type { DomainBudgets } from '../support/budgets.js';
import { buildMember } from '../support/factories.js';

const CHANGE_REQUEST = '/v1/spaces/:spaceId/change-requests/:changeRequestId';

export const changeRequestReviewsBudgets: DomainBudgets = {
  budgets: {
    [`GET ${CHANGE_REQUEST}/reviews`]: 10,
    [`POST ${CHANGE_REQUEST}/reviews`]: 14,
    [`GET ${CHANGE_REQUEST}/reviews/:reviewId`]: 10,
    [`GET ${CHANGE_REQUEST}/requested-reviewers`]: 6,
    [`POST ${CHANGE_REQUEST}/requested-reviewers`]: 10,
    [`DELETE ${CHANGE_REQUEST}/requested-reviewers/:userId`]: 7,
  },
  calls: async ({ t, admin, organizationId, space }) => {
    const [author, reviewer] = [
      await buildMember(t.prisma, { organizationId, role: 'edit' }),
      await buildMember(t.prisma, { organizationId, role: 'review' }),
    ];
    const created = await t.request('POST', `/v1/spaces/${space.id}/change-requests`, {
      token: author.token,
      body: { subject: 'Reviewed' },
    });
    if (created.status !== 201) throw new Error(`Cannot create the budget's change request: ${created.text}`);
    const base = `/v1/spaces/${space.id}/change-requests/${created.body.id}`;
    const review = await t.request('POST', `${base}/reviews`, {
      token: admin.token,
      body: { status: 'approved', comment: { markdown: 'Reviewed.' } },
    });
    const asked = await t.request('POST', `${base}/requested-reviewers`, { token: author.token, body: { users: [reviewer.userId] } });
    if (review.status !== 201 || asked.status !== 200)
      throw new Error(`Cannot review the budget's change request: ${review.text} ${asked.text}`);
    return {
      [`GET ${CHANGE_REQUEST}/reviews`]: { path: `${base}/reviews` },
      [`POST ${CHANGE_REQUEST}/reviews`]: { path: `${base}/reviews`, body: { status: 'approved', comment: { markdown: 'Again.' } } },
      [`GET ${CHANGE_REQUEST}/reviews/:reviewId`]: { path: `${base}/reviews/${review.body.id}` },
      [`GET ${CHANGE_REQUEST}/requested-reviewers`]: { path: `${base}/requested-reviewers` },
      [`POST ${CHANGE_REQUEST}/requested-reviewers`]: { path: `${base}/requested-reviewers`, body: { users: [reviewer.userId] } },
      // Nobody asked of the author: 204 (a request taken back answers 205, with the same one statement).
      [`DELETE ${CHANGE_REQUEST}/requested-reviewers/:userId`]: { path: `${base}/requested-reviewers/${author.userId}` },
    };
  },
};
