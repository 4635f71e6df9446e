// REST endpoints of change requests, and the REST shape of a ChangeRequest.
import { type RestModule, route } from '../../rest/route.js';

const changeRequests = '/v1/spaces/:spaceId/change-requests';

export const changeRequestRest: RestModule = {
  fragments: {
    ChangeRequest: `object id number status subject createdBy createdAt updatedAt mergedAt space: spaceId revision: revisionId
      revisionInitial: revisionInitialId revisionMergedAncestor: revisionMergedAncestorId revisionMerged: revisionMergedId
      comments: openCommentCount outdated urls`,
    ChangeRequestMergeOutcome: 'revision result',
    RevisionSemanticChanges: 'changes more',
  },
  routes: [
    route(`GET ${changeRequests}`, 'listChangeRequestsForSpace', 'space(id: $spaceId).changeRequests'),
    route(`POST ${changeRequests}`, 'createChangeRequest', 'createChangeRequest(spaceId: $spaceId, input: $body)', { status: 201 }),
    route(`GET ${changeRequests}/:changeRequestId`, 'getChangeRequestById', 'changeRequest(spaceId: $spaceId, id: $changeRequestId)'),
    route(
      `PATCH ${changeRequests}/:changeRequestId`,
      'updateChangeRequestById',
      'updateChangeRequest(spaceId: $spaceId, id: $changeRequestId, input: $body)',
    ),
    route(
      `POST ${changeRequests}/:changeRequestId/content`,
      'updateChangeRequestContent',
      'updateChangeRequestContent(spaceId: $spaceId, id: $changeRequestId, input: $body)',
    ),
    route(
      `GET ${changeRequests}/:changeRequestId/changes`,
      'getChangeRequestChanges',
      'changeRequest(spaceId: $spaceId, id: $changeRequestId).changes',
    ),
    route(
      `POST ${changeRequests}/:changeRequestId/merge`,
      'mergeChangeRequest',
      'mergeChangeRequest(spaceId: $spaceId, id: $changeRequestId)',
    ),
    route(
      `POST ${changeRequests}/:changeRequestId/update`,
      'updateChangeRequest',
      'updateChangeRequestFromSpace(spaceId: $spaceId, id: $changeRequestId)',
    ),
  ],
};
