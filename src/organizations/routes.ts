// REST endpoints of organizations, and the REST shape of an Organization.
import { operationRoute, type RestModule, route } from '../../rest/route.js';

export const organizationRest: RestModule = {
  fragments: {
    Organization: `object id title createdAt emailDomains hostname customHostname type useCase communityType defaultRole @keepNull
      defaultContent sso ai inviteLinks plan mergeRules internal_isOnNewTrial trial urls permissions`,
    PublicOrganization: 'object id title createdAt emailDomains type inviteLinks plan mergeRules trial urls permissions',
  },
  routes: [
    route('GET /v1/orgs', 'listOrganizationsForAuthenticatedUser', 'organizations'),
    route('POST /v1/orgs', 'createOrganization', 'createOrganization(input: $body, withDefaultSite: $withDefaultSite)', { status: 201 }),
    route('GET /v1/orgs/:organizationId', 'getOrganizationById', 'organization(id: $organizationId)'),
    route('PATCH /v1/orgs/:organizationId', 'updateOrganizationById', 'updateOrganization(id: $organizationId, input: $body)'),
    // The body is `{organizations: [...]}`: an alias around a list, which a field path cannot express.
    operationRoute(
      'GET /v1/email-domains/:emailDomain/orgs',
      `query getOrganizationsForEmailDomain($emailDomain: String!) {
        organizations: organizationsForEmailDomain(emailDomain: $emailDomain) { ...PublicOrganizationFields }
      }`,
      { body: '' },
    ),
  ],
};
