// REST endpoints of organizations.
import { route } from '../../rest/route.js';

export const organizationFields = /* GraphQL */ `
  fragment OrganizationFields on Organization {
    object id title createdAt emailDomains hostname customHostname type useCase communityType defaultRole defaultContent
    sso ai inviteLinks plan mergeRules internal_isOnNewTrial
    trial { status count }
    urls { location app logo }
    permissions {
      view access admin ownTeam createContent createOpenAPISpec viewBilling listMembers listTeams listIntegrations
      listInstallations installIntegration
    }
  }`;

export const organizationRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs',
    status: 200,
    operation: `query listOrganizationsForAuthenticatedUser($page: String, $limit: Int) {
      organizations(page: $page, limit: $limit) { items { ...OrganizationFields } next { page } count }
    } ${organizationFields}`,
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:organizationId',
    status: 200,
    operation: `query getOrganizationById($organizationId: ID!) {
      organization(id: $organizationId) { ...OrganizationFields }
    } ${organizationFields}`,
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:organizationId',
    status: 200,
    operation: `mutation updateOrganizationById($organizationId: ID!, $input: UpdateOrganizationInput!) {
      updateOrganization(id: $organizationId, input: $input) { ...OrganizationFields }
    } ${organizationFields}`,
  }),
  route({
    method: 'GET',
    path: '/v1/email-domains/:emailDomain/orgs',
    status: 200,
    body: '',
    operation: `query getOrganizationsForEmailDomain($emailDomain: String!) {
      organizations: organizationsForEmailDomain(emailDomain: $emailDomain) { ...OrganizationFields }
    } ${organizationFields}`,
  }),
];
