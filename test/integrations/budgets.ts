// Statement budgets of the integration routes (see test/support/budgets.ts), over integrations of the budget world's
// organization: one installed (selection `selected`, on the world's space and on a second space), one to install,
// one to unpublish, one installation to remove. Reads of an integration pay for its owner (plugin-prisma's query),
// the viewer's membership and the organizations they administer; an installation adds its row and the memberships.
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';
import { buildSpace } from '../support/factories.js';
import { buildInstallation, buildIntegration, manifest } from './fixtures.js';

const INTEGRATION = '/v1/integrations/:integrationName';
const INSTALLATION = `${INTEGRATION}/installations/:installationId`;

export const integrationsBudgets: DomainBudgets = {
  budgets: {
    'GET /v1/integrations': 5,
    [`GET ${INTEGRATION}`]: 5,
    // One statement more than the write's own: the intent of its assets' bytes (src/files/storage.ts), all at once.
    [`POST ${INTEGRATION}`]: 10,
    [`DELETE ${INTEGRATION}`]: 7,
    [`GET ${INTEGRATION}/installations`]: 4,
    [`POST ${INTEGRATION}/installations`]: 7,
    [`GET ${INSTALLATION}`]: 4,
    [`PATCH ${INSTALLATION}`]: 8,
    [`DELETE ${INSTALLATION}`]: 8,
    [`GET ${INSTALLATION}/spaces`]: 5,
    [`POST ${INSTALLATION}/spaces`]: 9,
    [`DELETE ${INSTALLATION}/spaces/:spaceId`]: 9,
    'GET /v1/orgs/:organizationId/installations': 6,
    'GET /v1/spaces/:spaceId/integrations': 6,
    'GET /v1/spaces/:spaceId/integration-blocks': 4,
    'GET /v1/spaces/:spaceId/integration-scripts': 4,
  },
  calls: async ({ t, organizationId, space }) => {
    const integration = (name: string) =>
      buildIntegration(t.prisma, {
        name,
        ownerOrganizationId: organizationId,
        blocks: [{ id: 'chart', title: 'Chart', urlUnfurl: ['https://charts.example.com/*'] }],
        scopes: ['site:script:inject'],
      });
    const installed = await integration('budget-installed');
    const installation = await buildInstallation(t.prisma, { integrationId: installed.id, organizationId, spaceSelection: 'selected' });
    const second = await buildSpace(t.prisma, { organizationId, title: 'Integrated' });
    const third = await buildSpace(t.prisma, { organizationId, title: 'To integrate' });
    await t.prisma.installationSpace.createMany({
      data: [space, second].map((enabled) => ({ installationId: installation.id, spaceId: enabled.id })),
    });
    await integration('budget-to-install');
    await integration('budget-doomed');
    const removed = await integration('budget-uninstalled');
    const doomedInstallation = await buildInstallation(t.prisma, { integrationId: removed.id, organizationId });
    const path = `/v1/integrations/budget-installed/installations/${installation.id}`;
    const calls: Record<string, BudgetCall> = {
      'GET /v1/integrations': { path: '/v1/integrations?search=budget' },
      [`GET ${INTEGRATION}`]: { path: '/v1/integrations/budget-installed' },
      [`POST ${INTEGRATION}`]: { path: '/v1/integrations/budget-published', body: manifest(organizationId) },
      [`DELETE ${INTEGRATION}`]: { path: '/v1/integrations/budget-doomed' },
      [`GET ${INTEGRATION}/installations`]: { path: '/v1/integrations/budget-installed/installations' },
      [`POST ${INTEGRATION}/installations`]: {
        path: '/v1/integrations/budget-to-install/installations',
        body: { organization: organizationId },
      },
      [`GET ${INSTALLATION}`]: { path },
      [`PATCH ${INSTALLATION}`]: { path, body: { externalIds: ['budget'], configuration: { key: 'value' } } },
      [`DELETE ${INSTALLATION}`]: { path: `/v1/integrations/budget-uninstalled/installations/${doomedInstallation.id}` },
      [`GET ${INSTALLATION}/spaces`]: { path: `${path}/spaces` },
      [`POST ${INSTALLATION}/spaces`]: { path: `${path}/spaces`, body: { space: third.id } },
      [`DELETE ${INSTALLATION}/spaces/:spaceId`]: { path: `${path}/spaces/${second.id}` },
      'GET /v1/orgs/:organizationId/installations': { path: `/v1/orgs/${organizationId}/installations` },
      'GET /v1/spaces/:spaceId/integrations': { path: `/v1/spaces/${space.id}/integrations` },
      'GET /v1/spaces/:spaceId/integration-blocks': { path: `/v1/spaces/${space.id}/integration-blocks` },
      'GET /v1/spaces/:spaceId/integration-scripts': { path: `/v1/spaces/${space.id}/integration-scripts` },
    };
    return calls;
  },
};
