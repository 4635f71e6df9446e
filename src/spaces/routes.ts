// REST endpoints of spaces.
import { route } from '../../rest/route.js';

export const spaceFields = /* GraphQL */ `
  fragment SpaceFields on Space {
    object id title emoji visibility createdAt updatedAt deletedAt editMode mergeRules organization parent language
    visitorAuth { backend }
    revision defaultLevel comments changeRequests changeRequestsOpen changeRequestsDraft
    urls { location app published public icon }
    permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration }
  }`;

const mutationOnSpace = (name: string, field: string, input?: string) => `
  mutation ${name}($spaceId: ID!${input ? `, $input: ${input}!` : ''}) {
    ${field}(id: $spaceId${input ? ', input: $input' : ''}) { ...SpaceFields }
  } ${spaceFields}`;

export const spaceRoutes = [
  route({
    method: 'GET',
    path: '/v1/spaces/:spaceId',
    status: 200,
    operation: `query getSpaceById($spaceId: ID!) { space(id: $spaceId) { ...SpaceFields } } ${spaceFields}`,
  }),
  route({ method: 'PATCH', path: '/v1/spaces/:spaceId', status: 200, operation: mutationOnSpace('updateSpaceById', 'updateSpace', 'UpdateSpaceInput') }),
  route({
    method: 'DELETE',
    path: '/v1/spaces/:spaceId',
    status: 205,
    operation: `mutation deleteSpaceById($spaceId: ID!) { deleteSpace(id: $spaceId) }`,
  }),
  route({ method: 'POST', path: '/v1/spaces/:spaceId/duplicate', status: 201, operation: mutationOnSpace('duplicateSpace', 'duplicateSpace') }),
  route({ method: 'POST', path: '/v1/spaces/:spaceId/restore', status: 200, operation: mutationOnSpace('restoreSpace', 'restoreSpace') }),
  route({ method: 'POST', path: '/v1/spaces/:spaceId/move', status: 200, operation: mutationOnSpace('moveSpace', 'moveSpace', 'MoveContentInput') }),
  route({ method: 'POST', path: '/v1/spaces/:spaceId/transfer', status: 200, operation: mutationOnSpace('transferSpace', 'transferSpace', 'TransferSpaceInput') }),
  route({
    method: 'GET',
    path: '/v1/orgs/:organizationId/spaces',
    status: 200,
    body: 'organization.spaces',
    operation: `query listSpacesInOrganizationById($organizationId: ID!, $page: String, $limit: Int) {
      organization(id: $organizationId) { spaces(page: $page, limit: $limit) { items { ...SpaceFields } next { page } count } }
    } ${spaceFields}`,
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:organizationId/spaces',
    status: 201,
    operation: `mutation createSpace($organizationId: ID!, $input: CreateSpaceInput!) {
      createSpace(organizationId: $organizationId, input: $input) { ...SpaceFields }
    } ${spaceFields}`,
  }),
];
