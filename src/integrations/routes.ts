// REST endpoints of integrations (spec 0.202; the space's scripts follow 0.130, the last installed spec that has them),
// and the REST shapes of an integration and of its installations.
import { type RestModule, route } from '../../rest/route.js';

const integration = '/v1/integrations/:integrationName';
const installation = `${integration}/installations/:installationId`;
const byName = 'integration(name: $integrationName)';
const installationKey = 'integrationName: $integrationName, installationId: $installationId';

export const integrationRest: RestModule = {
  fragments: {
    Integration: `object name version title description summary previewImages target verified visibility scopes categories blocks
      contentSources configurations externalLinks owner urls permissions contentSecurityPolicy`,
    IntegrationInstallation: `id status space_selection: spaceSelection site_selection: siteSelection spaces configuration externalIds
      target createdAt updatedAt urls`,
  },
  routes: [
    route('GET /v1/integrations', 'listIntegrations', 'integrations'),
    route(`GET ${integration}`, 'getIntegrationByName', byName),
    route(`POST ${integration}`, 'publishIntegration', 'publishIntegration(integrationName: $integrationName, input: $body)'),
    route(`DELETE ${integration}`, 'unpublishIntegration', 'unpublishIntegration(integrationName: $integrationName)', { status: 204 }),
    route(`GET ${integration}/installations`, 'listIntegrationInstallations', `${byName}.installations`),
    route(
      `POST ${integration}/installations`,
      'installIntegration',
      'installIntegration(integrationName: $integrationName, input: $body)',
      {
        status: 201,
      },
    ),
    route(`GET ${installation}`, 'getIntegrationInstallationById', `${byName}.installation(id: $installationId)`),
    route(`PATCH ${installation}`, 'updateIntegrationInstallation', `updateIntegrationInstallation(${installationKey}, input: $body)`),
    route(`DELETE ${installation}`, 'uninstallIntegration', `uninstallIntegration(${installationKey})`, { status: 205 }),
    route(
      `GET ${installation}/spaces`,
      'listIntegrationInstallationSpaces',
      `${byName}.installation(id: $installationId).installationSpaces`,
    ),
    route(`POST ${installation}/spaces`, 'installIntegrationOnSpace', `installIntegrationOnSpace(${installationKey}, input: $body)`, {
      status: 201,
    }),
    route(
      `DELETE ${installation}/spaces/:spaceId`,
      'uninstallIntegrationFromSpace',
      `uninstallIntegrationFromSpace(${installationKey}, spaceId: $spaceId)`,
      { status: 205 },
    ),
    route('GET /v1/orgs/:organizationId/installations', 'listOrganizationInstallations', 'organization(id: $organizationId).installations'),
    route('GET /v1/spaces/:spaceId/integrations', 'listSpaceIntegrations', 'space(id: $spaceId).integrations'),
    route('GET /v1/spaces/:spaceId/integration-blocks', 'listSpaceIntegrationsBlocks', 'space(id: $spaceId).integrationBlocks'),
    route('GET /v1/spaces/:spaceId/integration-scripts', 'listSpaceIntegrationScripts', 'space(id: $spaceId).integrationScripts', {
      spec: '0130',
    }),
  ],
};
