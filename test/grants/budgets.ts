// Statement budgets of the grant routes, of the spaces a member can access, and of making a member an SSO member (see
// test/support/budgets.ts). Deleting a grant that is not there succeeds too, so the calls work in any order.
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';

const SPACE = '/v1/spaces/:spaceId/permissions';
const COLLECTION = '/v1/collections/:collectionId/permissions';

export const grantsBudgets: DomainBudgets = {
  budgets: {
    [`POST ${SPACE}`]: 10,
    [`GET ${SPACE}/users`]: 5,
    [`PATCH ${SPACE}/users/:userId`]: 8,
    [`DELETE ${SPACE}/users/:userId`]: 7,
    [`GET ${SPACE}/teams`]: 7,
    [`PATCH ${SPACE}/teams/:teamId`]: 8,
    [`DELETE ${SPACE}/teams/:teamId`]: 7,
    [`GET ${SPACE}/aggregate`]: 5,
    [`POST ${COLLECTION}`]: 10,
    [`GET ${COLLECTION}/users`]: 5,
    [`PATCH ${COLLECTION}/users/:userId`]: 8,
    [`DELETE ${COLLECTION}/users/:userId`]: 7,
    [`GET ${COLLECTION}/teams`]: 7,
    [`PATCH ${COLLECTION}/teams/:teamId`]: 8,
    [`DELETE ${COLLECTION}/teams/:teamId`]: 7,
    [`GET ${COLLECTION}/aggregate`]: 5,
    'GET /v1/orgs/:organizationId/members/:userId/spaces': 5,
    'POST /v1/orgs/:organizationId/members/:userId/sso': 10,
  },
  calls: async ({ organizationId, team, colleague, space, collection }) => {
    const calls: Record<string, BudgetCall> = {};
    for (const [template, base] of [
      [SPACE, `/v1/spaces/${space.id}/permissions`],
      [COLLECTION, `/v1/collections/${collection.id}/permissions`],
    ]) {
      calls[`POST ${template}`] = { path: base, body: { role: 'edit', users: [colleague.userId], teams: [team] } };
      calls[`GET ${template}/users`] = { path: `${base}/users` };
      calls[`PATCH ${template}/users/:userId`] = { path: `${base}/users/${colleague.userId}`, body: { role: 'review' } };
      calls[`DELETE ${template}/users/:userId`] = { path: `${base}/users/${colleague.userId}` };
      calls[`GET ${template}/teams`] = { path: `${base}/teams` };
      calls[`PATCH ${template}/teams/:teamId`] = { path: `${base}/teams/${team}`, body: { role: 'comment' } };
      calls[`DELETE ${template}/teams/:teamId`] = { path: `${base}/teams/${team}` };
      calls[`GET ${template}/aggregate`] = { path: `${base}/aggregate` };
    }
    calls['GET /v1/orgs/:organizationId/members/:userId/spaces'] = {
      path: `/v1/orgs/${organizationId}/members/${colleague.userId}/spaces`,
    };
    calls['POST /v1/orgs/:organizationId/members/:userId/sso'] = { path: `/v1/orgs/${organizationId}/members/${colleague.userId}/sso` };
    return calls;
  },
};
