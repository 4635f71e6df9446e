// Every change records its events (issue 25): each REST route that is not a GET, called once as it succeeds
// (test/support/route-calls.ts, the statement budgets' calls), must leave more audit events than before, but for the
// routes the "Decided" section exempts (bookkeeping and no-op answers). Every action so recorded must be in
// the actions registry (src/composition.ts auditActions), which listOrganizationAuditEventActions answers.
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../rest/route.js';
import { auditActions } from '../../src/composition.js';
import { newId } from '../../src/kernel/ids.js';
import { restModules, schema } from '../../src/schema.js';
import { type Person, useApi } from '../support/app.js';
import type { BudgetCall } from '../support/budgets.js';
import { buildMember, buildOrganization, buildSpace, buildUser } from '../support/factories.js';
import { buildRouteCalls, routeCallsEnv } from '../support/route-calls.js';

/** Routes that change nothing an audit log is for, by the "Decided": each with why. These stay. */
const bookkeeping: Record<string, string> = {
  'POST /v1/orgs/:organizationId/ping': 'writes the member’s lastSeenAt alone',
  'PATCH /v1/custom-hostnames/:hostname': 'checks the hostname’s proof again: processing state',
  'POST /v1/orgs/:organizationId/webhooks/:webhookId/ping': 'sends a test delivery: no data of the organization changes',
  'POST /v1/orgs/:organizationId/webhooks/:webhookId/deliveries/:deliveryId/redeliver': 'sends a delivery again, as it was',
};

/**
 * Routes whose call in test/support/route-calls.ts changes nothing recorded, though the route records when it does:
 * each with why. Their recording is tested in their domains' tests.
 */
const callsRecordingNothing: Record<string, string> = {
  'DELETE /v1/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers/:userId':
    'removes a reviewer who was not requested (204): a no-op',
  'PUT /v1/spaces/:spaceId/comments/:commentId/replies/:commentReplyId': 'adds a reaction, which records nothing',
  'PUT /v1/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId':
    'adds a reaction, which records nothing',
  'POST /v1/spaces/:spaceId/git/import': 'queues the import, whose job records space_gitsync_started and space_gitsync_completed',
  'POST /v1/orgs/:organizationId/invites/:inviteId': 'joins with a link an admin, whose role it cannot raise: a no-op',
};

const keyOf = (route: RouteDefinition) => `${route.method} ${route.path}`;
const changing = restModules.flatMap((module) => module.routes).filter((route) => route.method !== 'GET');

const { t } = useApi({ env: routeCallsEnv });
let admin: Person;
let calls: Record<string, BudgetCall>;

beforeAll(async () => {
  ({ admin, calls } = await buildRouteCalls(t));
});

describe('every route that changes something records it', () => {
  it('names only routes that exist and change something, each in one list', () => {
    const keys = new Set(changing.map(keyOf));
    expect([...Object.keys(bookkeeping), ...Object.keys(callsRecordingNothing)].filter((key) => !keys.has(key))).toEqual([]);
    expect(Object.keys(bookkeeping).filter((key) => key in callsRecordingNothing)).toEqual([]);
  });

  it.each(changing.map((route) => [keyOf(route), route] as const))('%s', async (key, route) => {
    const call = calls[key];
    expect(call, `${key}: no call in test/support/route-calls.ts`).toBeDefined();
    const before = await t.prisma.auditEvent.count();
    const res = await t.request(route.method, call.path, { token: admin.token, body: call.body });
    expect(res.status, `${key}: ${res.text}`).toBeLessThan(300);
    const recorded = (await t.prisma.auditEvent.count()) - before;
    if (key in bookkeeping) expect(recorded, `${key} is bookkeeping (${bookkeeping[key]})`).toBe(0);
    else if (key in callsRecordingNothing) expect(recorded, `${key}: ${callsRecordingNothing[key]}`).toBe(0);
    else expect(recorded, `${key} recorded no event`).toBeGreaterThan(0);
  });

  it('reaches every mutation of the GraphQL schema through a route, but those called here', () => {
    const mutations = Object.keys(schema.getMutationType()!.getFields());
    const throughRoutes = new Set(
      changing.map((route) => (route.field ? route.field.split(/[(.]/)[0] : /\{\s*(\w+)/.exec(route.operation ?? '')?.[1])),
    );
    expect(mutations.filter((name) => !throughRoutes.has(name))).toEqual(['removeChangeRequestRequestedTeamReviewer']);
  });

  it('records the mutation no route reaches: taking back a team’s review request (GraphQL)', async () => {
    const { organization } = await buildOrganization(t.prisma, { owner: admin, title: 'Team reviews' });
    const space = await buildSpace(t.prisma, { organizationId: organization.id });
    const team = await t.prisma.team.create({ data: { id: newId(), organizationId: organization.id, title: 'Reviewers' } });
    const author = await buildMember(t.prisma, { organizationId: organization.id, role: 'edit', user: await buildUser(t.prisma) });
    const created = await t.request('POST', `/v1/spaces/${space.id}/change-requests`, { token: author.token, body: { subject: 'Teams' } });
    const key = `spaceId: "${space.id}", changeRequestId: "${created.body.id}", teamId: "${team.id}"`;
    const asked = await t.request('POST', `/v1/spaces/${space.id}/change-requests/${created.body.id}/requested-reviewers`, {
      token: admin.token,
      body: { users: [], teams: [team.id] },
    });
    expect(asked.status, asked.text).toBe(200);
    const before = await t.prisma.auditEvent.count();
    const res = await t.request('POST', '/graphql', {
      token: admin.token,
      body: { query: `mutation { removeChangeRequestRequestedTeamReviewer(${key}) }` },
    });
    expect(res.body, res.text).toEqual({ data: { removeChangeRequestRequestedTeamReviewer: true } });
    expect((await t.prisma.auditEvent.count()) - before).toBeGreaterThan(0);
  });

  it('records only actions the registry lists, with their labels', async () => {
    const recorded = await t.prisma.auditEvent.findMany({ distinct: ['action'], select: { action: true } });
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.map(({ action }) => action).filter((action) => !(action in auditActions))).toEqual([]);
    for (const [action, label] of Object.entries(auditActions)) {
      expect(action).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(label.trim(), action).not.toBe('');
    }
  });
});
