// A call of every REST route that succeeds, over a small fixed world: the route's path with real objects, and a valid
// body. The statement budgets (test/performance/statement-budgets.test.ts) count each call's statements; the
// robustness sweep (test/api/robustness.test.ts) sends each route's real path bodies of the wrong shape. A domain adds
// the calls of its routes in test/<domain>/budgets.ts.
import { auditBudgets } from '../audit/budgets.js';
import { changeRequestReviewsBudgets } from '../change-request-reviews/budgets.js';
import { changeRequestsBudgets } from '../change-requests/budgets.js';
import { commentsBudgets } from '../comments/budgets.js';
import { contentImportBudgets } from '../content-import/budgets.js';
import { customFieldsBudgets } from '../custom-fields/budgets.js';
import { filesBudgets } from '../files/budgets.js';
import { gitSyncBudgets } from '../git-sync/budgets.js';
import { grantsBudgets } from '../grants/budgets.js';
import { integrationsBudgets } from '../integrations/budgets.js';
import { invitesBudgets } from '../invites/budgets.js';
import { linksBudgets } from '../links/budgets.js';
import { openAPIBudgets } from '../openapi/budgets.js';
import { pdfBudgets } from '../pdf/budgets.js';
import { publishingAuthBudgets } from '../publishing-auth/budgets.js';
import { revisionBudgets } from '../revisions/budgets.js';
import { searchBudgets } from '../search/budgets.js';
import { shareLinkBudgets } from '../share-links/budgets.js';
import { siteRedirectBudgets } from '../site-redirects/budgets.js';
import { siteStructureBudgets } from '../site-structure/budgets.js';
import { sitesBudgets } from '../sites/budgets.js';
import { ssoBudgets } from '../sso/budgets.js';
import { tokensBudgets } from '../tokens/budgets.js';
import { webhooksBudgets } from '../webhooks/budgets.js';
import type { Person, TestApp } from './app.js';
import type { BudgetCall, DomainBudgets } from './budgets.js';
import { buildCollection, buildMember, buildOrganization, buildSpace, buildUser } from './factories.js';

export const domains: DomainBudgets[] = [
  invitesBudgets,
  ssoBudgets,
  grantsBudgets,
  changeRequestsBudgets,
  changeRequestReviewsBudgets,
  revisionBudgets,
  customFieldsBudgets,
  commentsBudgets,
  sitesBudgets,
  siteStructureBudgets,
  siteRedirectBudgets,
  shareLinkBudgets,
  publishingAuthBudgets,
  pdfBudgets,
  contentImportBudgets,
  searchBudgets,
  linksBudgets,
  integrationsBudgets,
  gitSyncBudgets,
  openAPIBudgets,
  auditBudgets,
  webhooksBudgets,
  tokensBudgets,
  filesBudgets,
];

/**
 * What a service answering every call needs: private addresses (the content import reads a page on loopback,
 * test/content-import/budgets.ts), and organizations created by any user.
 */
export const routeCallsEnv = { ALLOW_PRIVATE_NETWORK: 'true', ORGANIZATION_CREATION: 'users' };

/** The admin who makes every call, and the call of each route by route key (`METHOD /path/:param`). */
export async function buildRouteCalls(t: TestApp): Promise<{ admin: Person; calls: Record<string, BudgetCall> }> {
  const admin = await buildUser(t.prisma, { displayName: 'Admin' });
  const emailDomain = admin.email.split('@')[1];
  const { organization } = await buildOrganization(t.prisma, { owner: admin, title: 'Budget', emailDomains: [emailDomain] });
  const { organization: target } = await buildOrganization(t.prisma, { owner: admin, title: 'Target' });
  const organizationId = organization.id;
  const collection = (title: string, parentId?: string) => buildCollection(t.prisma, { organizationId, title, parentId });
  const space = (title: string, parentId?: string, deletedAt?: Date) =>
    buildSpace(t.prisma, { organizationId, title, parentId, deletedAt });

  const shelf = await collection('Shelf');
  const [book] = [await space('Book', shelf.id), await space('Second book', shelf.id), await space('Third book', shelf.id)];
  await collection('Nested shelf', shelf.id);
  // Destructive routes get objects of their own, so that every call succeeds whatever ran before it.
  const [movingCollection, doomedCollection, travellingCollection] = [
    await collection('Moving'),
    await collection('Doomed'),
    await collection('Travelling'),
  ];
  const [movingSpace, doomedSpace, travellingSpace] = [
    await space('Moving'),
    await space('Doomed', shelf.id),
    await space('Travelling', shelf.id),
  ];
  const deletedSpace = await space('Deleted', shelf.id, t.clock.now());
  // A transfer carries a subtree: a nested collection and a space.
  await space('Luggage', (await collection('Travelling child', travellingCollection.id)).id);

  const colleague = await buildMember(t.prisma, { organizationId });
  const leaver = await buildMember(t.prisma, { organizationId });
  const team = (await t.prisma.team.create({ data: { id: 'budgetTeam0000000001', organizationId, title: 'Team' } })).id;
  const doomedTeam = (await t.prisma.team.create({ data: { id: 'budgetTeam0000000002', organizationId, title: 'Doomed' } })).id;
  await t.prisma.teamMember.createMany({
    data: [colleague, leaver].map((person) => ({ teamId: team, organizationId, userId: person.userId })),
  });
  const teamPath = `/v1/orgs/${organizationId}/teams/${team}`;
  const calls: Record<string, BudgetCall> = {
    'GET /v1/': { path: '/v1/' },
    'GET /v1/user': { path: '/v1/user' },
    'GET /v1/users/:userId': { path: `/v1/users/${colleague.userId}` },
    'PATCH /v1/users/:userId': { path: `/v1/users/${admin.userId}`, body: { displayName: 'Admin, renamed' } },
    'GET /v1/orgs': { path: '/v1/orgs' },
    'POST /v1/orgs': { path: '/v1/orgs', body: { title: 'Created', emailDomains: ['created.example'] } },
    'GET /v1/orgs/:organizationId': { path: `/v1/orgs/${organizationId}` },
    'PATCH /v1/orgs/:organizationId': { path: `/v1/orgs/${organizationId}`, body: { title: 'Budget, renamed' } },
    'GET /v1/email-domains/:emailDomain/orgs': { path: `/v1/email-domains/${emailDomain}/orgs` },
    'GET /v1/orgs/:organizationId/members': { path: `/v1/orgs/${organizationId}/members` },
    'GET /v1/orgs/:organizationId/members/:userId': { path: `/v1/orgs/${organizationId}/members/${colleague.userId}` },
    'PATCH /v1/orgs/:organizationId/members/:userId': {
      path: `/v1/orgs/${organizationId}/members/${colleague.userId}`,
      body: { role: 'edit' },
    },
    'DELETE /v1/orgs/:organizationId/members/:userId': { path: `/v1/orgs/${organizationId}/members/${leaver.userId}` },
    'POST /v1/orgs/:organizationId/ping': { path: `/v1/orgs/${organizationId}/ping` },
    'GET /v1/orgs/:organizationId/teams': { path: `/v1/orgs/${organizationId}/teams` },
    'GET /v1/orgs/:organizationId/members/:userId/teams': { path: `/v1/orgs/${organizationId}/members/${colleague.userId}/teams` },
    'PUT /v1/orgs/:organizationId/teams': {
      path: `/v1/orgs/${organizationId}/teams`,
      body: { title: 'New team', members: [colleague.userId] },
    },
    'GET /v1/orgs/:organizationId/teams/:teamId': { path: teamPath },
    'PATCH /v1/orgs/:organizationId/teams/:teamId': { path: teamPath, body: { title: 'Team, renamed' } },
    'DELETE /v1/orgs/:organizationId/teams/:teamId': { path: `/v1/orgs/${organizationId}/teams/${doomedTeam}` },
    'GET /v1/orgs/:organizationId/teams/:teamId/members': { path: `${teamPath}/members` },
    'PUT /v1/orgs/:organizationId/teams/:teamId/members': {
      path: `${teamPath}/members`,
      body: { add: [admin.userId], memberships: { [colleague.userId]: { role: 'owner' } } },
    },
    'PUT /v1/orgs/:organizationId/teams/:teamId/members/:userId': {
      path: `${teamPath}/members/${colleague.userId}`,
      body: { role: 'member' },
    },
    'DELETE /v1/orgs/:organizationId/teams/:teamId/members/:userId': { path: `${teamPath}/members/${colleague.userId}` },
    'GET /v1/collections/:collectionId': { path: `/v1/collections/${shelf.id}` },
    'PATCH /v1/collections/:collectionId': { path: `/v1/collections/${shelf.id}`, body: { title: 'Shelf, renamed' } },
    'DELETE /v1/collections/:collectionId': { path: `/v1/collections/${doomedCollection.id}` },
    'POST /v1/collections/:collectionId/move': { path: `/v1/collections/${movingCollection.id}/move`, body: { parent: shelf.id } },
    'POST /v1/collections/:collectionId/transfer': {
      path: `/v1/collections/${travellingCollection.id}/transfer`,
      body: { organization: target.id },
    },
    'GET /v1/orgs/:organizationId/collections': { path: `/v1/orgs/${organizationId}/collections` },
    'POST /v1/orgs/:organizationId/collections': { path: `/v1/orgs/${organizationId}/collections`, body: { title: 'New shelf' } },
    'GET /v1/spaces/:spaceId': { path: `/v1/spaces/${book.id}` },
    'PATCH /v1/spaces/:spaceId': { path: `/v1/spaces/${book.id}`, body: { title: 'Book, renamed' } },
    'DELETE /v1/spaces/:spaceId': { path: `/v1/spaces/${doomedSpace.id}` },
    'POST /v1/spaces/:spaceId/duplicate': { path: `/v1/spaces/${book.id}/duplicate` },
    'POST /v1/spaces/:spaceId/restore': { path: `/v1/spaces/${deletedSpace.id}/restore` },
    'POST /v1/spaces/:spaceId/move': { path: `/v1/spaces/${movingSpace.id}/move`, body: { parent: shelf.id } },
    'POST /v1/spaces/:spaceId/transfer': { path: `/v1/spaces/${travellingSpace.id}/transfer`, body: { organization: target.id } },
    'GET /v1/orgs/:organizationId/spaces': { path: `/v1/orgs/${organizationId}/spaces` },
    'GET /v1/collections/:collectionId/spaces': { path: `/v1/collections/${shelf.id}/spaces` },
    'POST /v1/orgs/:organizationId/spaces': { path: `/v1/orgs/${organizationId}/spaces`, body: { title: 'New book' } },
  };
  const world = { t, admin, organizationId, team, colleague, space: book, collection: shelf };
  for (const domain of domains) Object.assign(calls, await domain.calls(world));
  return { admin, calls };
}
