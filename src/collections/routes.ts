// REST endpoints of collections.
import { route } from '../../rest/route.js';
import { spaceFields } from '../spaces/routes.js';

export const collectionFields = /* GraphQL */ `
  fragment CollectionFields on Collection {
    object id title description organization parent defaultLevel
    urls { location app }
    permissions { view admin viewInviteLinks create }
  }`;

const mutationOnCollection = (name: string, field: string, input?: string) => `
  mutation ${name}($collectionId: ID!${input ? `, $input: ${input}!` : ''}) {
    ${field}(id: $collectionId${input ? ', input: $input' : ''}) { ...CollectionFields }
  } ${collectionFields}`;

export const collectionRoutes = [
  route({ method: 'GET', path: '/v1/collections/:collectionId', status: 200, operation: `query getCollectionById($collectionId: ID!) { collection(id: $collectionId) { ...CollectionFields } } ${collectionFields}` }),
  route({
    method: 'PATCH',
    path: '/v1/collections/:collectionId',
    status: 200,
    operation: mutationOnCollection('updateCollectionById', 'updateCollection', 'UpdateCollectionInput'),
  }),
  route({
    method: 'DELETE',
    path: '/v1/collections/:collectionId',
    status: 205,
    operation: `mutation deleteCollectionById($collectionId: ID!) { deleteCollection(id: $collectionId) }`,
  }),
  route({
    method: 'POST',
    path: '/v1/collections/:collectionId/move',
    status: 200,
    operation: mutationOnCollection('moveCollection', 'moveCollection', 'MoveContentInput'),
  }),
  route({
    method: 'POST',
    path: '/v1/collections/:collectionId/transfer',
    status: 200,
    operation: mutationOnCollection('transferCollection', 'transferCollection', 'TransferContentInput'),
  }),
  route({
    method: 'GET',
    path: '/v1/collections/:collectionId/spaces',
    status: 200,
    body: 'collection.spaces',
    operation: `query listSpacesInCollectionById($collectionId: ID!, $page: String, $limit: Int) {
      collection(id: $collectionId) { spaces(page: $page, limit: $limit) { items { ...SpaceFields } next { page } count } }
    } ${spaceFields}`,
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:organizationId/collections',
    status: 200,
    body: 'organization.collections',
    operation: `query listCollectionsInOrganizationById($organizationId: ID!, $page: String, $limit: Int, $nested: Boolean) {
      organization(id: $organizationId) {
        collections(page: $page, limit: $limit, nested: $nested) { items { ...CollectionFields } next { page } count }
      }
    } ${collectionFields}`,
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:organizationId/collections',
    status: 201,
    operation: `mutation createCollection($organizationId: ID!, $input: CreateCollectionInput!) {
      createCollection(organizationId: $organizationId, input: $input) { ...CollectionFields }
    } ${collectionFields}`,
  }),
];
