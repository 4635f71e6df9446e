// A statement budget per route: each REST route, called once as an organization admin over a small fixed world, runs
// exactly the number of SQL statements in the table below. A change in either direction fails, so that a new round
// trip is a decision (raise the budget) and a saved one is recorded (lower it).
// Domains added later keep their budgets beside their tests (test/<domain>/budgets.ts), over the same world.
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../rest/route.js';
import { restModules } from '../../src/schema.js';
import { type Person, useApi } from '../support/app.js';
import type { BudgetCall } from '../support/budgets.js';
import { buildRouteCalls, domains, routeCallsEnv } from '../support/route-calls.js';

const routes = restModules.flatMap((module) => module.routes);
const keyOf = (route: RouteDefinition) => `${route.method} ${route.path}`;

// Per request: token lookup, memberships, the selected rows and their counters; mutations add BEGIN, writes, level
// refreshes, their events (src/kernel/events.ts: one statement), COMMIT.
const budgets: Record<string, number> = Object.assign(
  {
    'GET /v1/': 1,
    'GET /v1/user': 2,
    'GET /v1/users/:userId': 3,
    'PATCH /v1/users/:userId': 8,
    'GET /v1/orgs': 3,
    'POST /v1/orgs': 8,
    // The organization's row and the viewer's membership in it are one statement.
    'GET /v1/orgs/:organizationId': 2,
    'PATCH /v1/orgs/:organizationId': 8,
    'GET /v1/email-domains/:emailDomain/orgs': 4,
    'GET /v1/orgs/:organizationId/members': 5,
    'GET /v1/orgs/:organizationId/members/:userId': 5,
    'PATCH /v1/orgs/:organizationId/members/:userId': 10,
    'DELETE /v1/orgs/:organizationId/members/:userId': 8,
    // The membership read that authorizes it records the visit, in its own statement.
    'POST /v1/orgs/:organizationId/ping': 2,
    'GET /v1/orgs/:organizationId/teams': 5,
    'GET /v1/orgs/:organizationId/members/:userId/teams': 7,
    'PUT /v1/orgs/:organizationId/teams': 11,
    'GET /v1/orgs/:organizationId/teams/:teamId': 5,
    'PATCH /v1/orgs/:organizationId/teams/:teamId': 9,
    'DELETE /v1/orgs/:organizationId/teams/:teamId': 8,
    'GET /v1/orgs/:organizationId/teams/:teamId/members': 8,
    'PUT /v1/orgs/:organizationId/teams/:teamId/members': 11,
    'PUT /v1/orgs/:organizationId/teams/:teamId/members/:userId': 9,
    'DELETE /v1/orgs/:organizationId/teams/:teamId/members/:userId': 8,
    'GET /v1/collections/:collectionId': 3,
    'PATCH /v1/collections/:collectionId': 8,
    'DELETE /v1/collections/:collectionId': 11,
    'POST /v1/collections/:collectionId/move': 13,
    'POST /v1/collections/:collectionId/transfer': 22,
    'GET /v1/orgs/:organizationId/collections': 3,
    'POST /v1/orgs/:organizationId/collections': 8,
    'GET /v1/spaces/:spaceId': 4,
    'PATCH /v1/spaces/:spaceId': 9,
    'DELETE /v1/spaces/:spaceId': 7,
    'POST /v1/spaces/:spaceId/duplicate': 16,
    'POST /v1/spaces/:spaceId/restore': 11,
    'POST /v1/spaces/:spaceId/move': 13,
    'POST /v1/spaces/:spaceId/transfer': 21,
    'GET /v1/orgs/:organizationId/spaces': 4,
    'GET /v1/collections/:collectionId/spaces': 5,
    'POST /v1/orgs/:organizationId/spaces': 11,
  },
  ...domains.map((domain) => domain.budgets),
);

const { t } = useApi({ env: routeCallsEnv });
let admin: Person;
/** The request each route is called with, by route key; built over the fixed world. */
let calls: Record<string, BudgetCall>;

beforeAll(async () => {
  ({ admin, calls } = await buildRouteCalls(t));
});

describe('statement budgets', () => {
  it('has one budget per route, and none for a route that does not exist', () => {
    expect(Object.keys(budgets).sort()).toEqual(routes.map(keyOf).sort());
  });

  it.each(routes.map((route) => [keyOf(route), route] as const))('%s', async (key, route) => {
    const call = calls[key];
    expect(call, `${key}: no request to call it with`).toBeDefined();
    const res = await t.counted(route.method, call.path, { token: admin.token, body: call.body });
    expect(res.status, `${key}: ${res.text}`).toBe(route.status);
    expect(res.statements, `${key}: statements`).toBe(budgets[key]);
  });
});
