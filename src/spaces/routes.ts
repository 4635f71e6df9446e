// REST endpoints of spaces, and the REST shape of a Space.
import { type RestModule, route } from '../../rest/route.js';

export const spaceRest: RestModule = {
  fragments: {
    Space: `object id title emoji visibility createdAt updatedAt deletedAt editMode mergeRules organization: organizationId
      parent: parentId language visitorAuth revision: revisionId defaultLevel @keepNull comments: openCommentCount
      changeRequests: changeRequestCount changeRequestsOpen: openChangeRequestCount changeRequestsDraft: draftChangeRequestCount
      urls permissions gitSync`,
  },
  routes: [
    route('GET /v1/spaces/:spaceId', 'getSpaceById', 'space(id: $spaceId)'),
    route('PATCH /v1/spaces/:spaceId', 'updateSpaceById', 'updateSpace(id: $spaceId, input: $body)'),
    route('DELETE /v1/spaces/:spaceId', 'deleteSpaceById', 'deleteSpace(id: $spaceId)', { status: 205 }),
    route('POST /v1/spaces/:spaceId/duplicate', 'duplicateSpace', 'duplicateSpace(id: $spaceId)', { status: 201 }),
    route('POST /v1/spaces/:spaceId/restore', 'restoreSpace', 'restoreSpace(id: $spaceId)'),
    route('POST /v1/spaces/:spaceId/move', 'moveSpace', 'moveSpace(id: $spaceId, input: $body)'),
    route('POST /v1/spaces/:spaceId/transfer', 'transferSpace', 'transferSpace(id: $spaceId, input: $body)', { spec: '0167' }),
    route('GET /v1/orgs/:organizationId/spaces', 'listSpacesInOrganizationById', 'organization(id: $organizationId).spaces'),
    route('GET /v1/collections/:collectionId/spaces', 'listSpacesInCollectionById', 'collection(id: $collectionId).spaces'),
    route('POST /v1/orgs/:organizationId/spaces', 'createSpace', 'createSpace(organizationId: $organizationId, input: $body)', {
      status: 201,
    }),
  ],
};
