// REST endpoints of collections, and the REST shape of a Collection.
import { type RestModule, route } from '../../rest/route.js';

export const collectionRest: RestModule = {
  fragments: {
    Collection: 'object id title description organization: organizationId parent: parentId defaultLevel @keepNull urls permissions',
  },
  routes: [
    route('GET /v1/collections/:collectionId', 'getCollectionById', 'collection(id: $collectionId)'),
    route('PATCH /v1/collections/:collectionId', 'updateCollectionById', 'updateCollection(id: $collectionId, input: $body)'),
    route('DELETE /v1/collections/:collectionId', 'deleteCollectionById', 'deleteCollection(id: $collectionId)', { status: 205 }),
    route('POST /v1/collections/:collectionId/move', 'moveCollection', 'moveCollection(id: $collectionId, input: $body)'),
    route('POST /v1/collections/:collectionId/transfer', 'transferCollection', 'transferCollection(id: $collectionId, input: $body)'),
    route('GET /v1/orgs/:organizationId/collections', 'listCollectionsInOrganizationById', 'organization(id: $organizationId).collections'),
    route(
      'POST /v1/orgs/:organizationId/collections',
      'createCollection',
      'createCollection(organizationId: $organizationId, input: $body)',
      {
        status: 201,
      },
    ),
  ],
};
