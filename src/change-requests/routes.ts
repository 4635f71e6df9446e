// REST endpoints of change requests, and the REST shape of a ChangeRequest.
import { type RestModule, route } from '../../rest/route.js';

const changeRequests = '/v1/spaces/:spaceId/change-requests';
const content = `${changeRequests}/:changeRequestId/content`;
/** The change request's content: the same Revision, pages and files as the space's (src/revisions/routes.ts). */
const contentField = 'changeRequest(spaceId: $spaceId, id: $changeRequestId).content';

export const changeRequestRest: RestModule = {
  fragments: {
    ChangeRequest: `object id number status subject description links createdBy createdAt updatedAt mergedAt space: spaceId revision: revisionId
      revisionInitial: revisionInitialId revisionMergedAncestor: revisionMergedAncestorId revisionMerged: revisionMergedId
      comments: openCommentCount outdated urls`,
    ChangeRequestMergeOutcome: 'revision result',
    RevisionSemanticChanges: 'changes more mergedFrom',
    ChangeRequestContentUpdateChange: 'object ref page',
  },
  routes: [
    route(`GET ${changeRequests}`, 'listChangeRequestsForSpace', 'space(id: $spaceId).changeRequests'),
    route(
      'GET /v1/orgs/:organizationId/change-requests',
      'listChangeRequestsForOrganization',
      'organization(id: $organizationId).changeRequests',
    ),
    route(`POST ${changeRequests}`, 'createChangeRequest', 'createChangeRequest(spaceId: $spaceId, input: $body)', { status: 201 }),
    route(`GET ${changeRequests}/:changeRequestId`, 'getChangeRequestById', 'changeRequest(spaceId: $spaceId, id: $changeRequestId)'),
    route(
      `PATCH ${changeRequests}/:changeRequestId`,
      'updateChangeRequestById',
      'updateChangeRequest(spaceId: $spaceId, id: $changeRequestId, input: $body)',
      { returnPreference: true },
    ),
    route(
      `GET ${changeRequests}/:changeRequestId/contributors`,
      'getContributorsByChangeRequestId',
      'changeRequest(spaceId: $spaceId, id: $changeRequestId).contributors',
    ),
    route(`GET ${content}`, 'getRevisionOfChangeRequestById', contentField),
    // The page tree alone, `{pages}`, as GitBook answers it.
    route(`GET ${content}/pages`, 'listPagesInChangeRequest', contentField, { pick: ['pages'] }),
    route(`GET ${content}/files`, 'listFilesInChangeRequestById', `${contentField}.files`),
    route(`GET ${content}/files/:fileId`, 'getFileInChangeRequestById', `${contentField}.file(id: $fileId)`),
    route(`GET ${content}/page/:pageId`, 'getPageInChangeRequestById', `${contentField}.page(id: $pageId)`),
    route(`GET ${content}/path/:pagePath*`, 'getPageInChangeRequestByPath', `${contentField}.pageByPath(path: $pagePath)`),
    route(`GET ${content}/page/:pageId/meta-links`, 'listChangeRequestPageMetaLinks', `${contentField}.page(id: $pageId).metaLinks`),
    route(
      `POST ${content}`,
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
