// Statement budgets of the invites routes (see test/support/budgets.ts).
import { newId } from '../../src/kernel/ids.js';
import type { DomainBudgets } from '../support/budgets.js';

const links = '/v1/orgs/:organizationId/link-invites';

export const invitesBudgets: DomainBudgets = {
  budgets: {
    // Token, membership; in a transaction (BEGIN, COMMIT) the organization (with the inviter and SSO providers, and the
    // lock that serialises its invites), then one statement checks the mail quota and writes users, invites and the mailing;
    // the invites' events.
    'POST /v1/orgs/:organizationId/invites': 7,
    // Token, the invite with what refuses it, then in a transaction one statement joins (membership and grant), and the
    // events when it changed something (here it does not).
    'POST /v1/orgs/:organizationId/invites/:inviteId': 5,
    [`GET ${links}`]: 3,
    // Token, the space and the viewer's level on it, in a transaction the insert and its event, the space's counters
    // (published URLs among them).
    [`POST ${links}`]: 8,
    [`GET ${links}/:inviteId`]: 5,
    [`PATCH ${links}/:inviteId`]: 7,
    [`DELETE ${links}/:inviteId`]: 7,
  },
  calls: async ({ t, organizationId, space }) => {
    const invite = async (data: { role?: 'read' | 'edit'; spaceId?: string; level?: 'edit' }) =>
      (await t.prisma.linkInvite.create({ data: { id: newId(), organizationId, ...data } })).id;
    const [toOrganization, toSpace, doomed] = [
      await invite({ role: 'read' }),
      await invite({ spaceId: space.id, level: 'edit' }),
      await invite({ role: 'edit' }),
    ];
    const path = `/v1/orgs/${organizationId}/link-invites`;
    return {
      'POST /v1/orgs/:organizationId/invites': {
        path: `/v1/orgs/${organizationId}/invites`,
        body: { emails: ['budget.invitee@example.org'] },
      },
      'POST /v1/orgs/:organizationId/invites/:inviteId': { path: `/v1/orgs/${organizationId}/invites/${toOrganization}` },
      [`GET ${links}`]: { path },
      [`POST ${links}`]: { path, body: { space: space.id, level: 'read' } },
      [`GET ${links}/:inviteId`]: { path: `${path}/${toSpace}` },
      [`PATCH ${links}/:inviteId`]: { path: `${path}/${toOrganization}`, body: { role: 'comment' } },
      [`DELETE ${links}/:inviteId`]: { path: `${path}/${doomed}` },
    };
  },
};
