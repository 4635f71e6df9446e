// REST endpoints of SAML providers and SSO sign-in choices, and the REST shape of a SAML provider.
import { type RestModule, route } from '../../rest/route.js';

const provider = '/v1/orgs/:organizationId/saml/:samlProviderId';

export const ssoRest: RestModule = {
  fragments: {
    // A null role means guests.
    SamlProvider: 'object id label ssoURL entityID certificate defaultTeam defaultRole @keepNull createdAt status service urls',
  },
  routes: [
    route('GET /v1/orgs/:organizationId/saml', 'listSAMLProvidersInOrganizationById', 'organization(id: $organizationId).samlProviders'),
    route(
      'POST /v1/orgs/:organizationId/saml',
      'createOrganizationSAMLProvider',
      'createSamlProvider(organizationId: $organizationId, input: $body)',
      { status: 201 },
    ),
    route(
      `GET ${provider}`,
      'getOrganizationSAMLProviderById',
      'organization(id: $organizationId).samlProvider(samlProviderId: $samlProviderId)',
    ),
    route(
      `PATCH ${provider}`,
      'updateOrganizationSAMLProvider',
      'updateSamlProvider(organizationId: $organizationId, samlProviderId: $samlProviderId, input: $body)',
    ),
    route(
      `DELETE ${provider}`,
      'deleteOrganizationSAMLProvider',
      'deleteSamlProvider(organizationId: $organizationId, samlProviderId: $samlProviderId)',
      { status: 204 },
    ),
    route('GET /v1/orgs/:organizationId/sso', 'listSSOProviderLoginsInOrganization', 'organization(id: $organizationId).ssoProviderLogins'),
  ],
};
