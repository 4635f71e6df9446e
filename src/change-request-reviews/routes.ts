// REST endpoints of change-request reviews and requested reviewers, and their REST shapes.
import { type RestModule, route } from '../../rest/route.js';

const changeRequest = '/v1/spaces/:spaceId/change-requests/:changeRequestId';
const changeRequestField = 'changeRequest(spaceId: $spaceId, id: $changeRequestId)';
const changeRequestKey = 'spaceId: $spaceId, changeRequestId: $changeRequestId';

export const changeRequestReviewRest: RestModule = {
  fragments: {
    ChangeRequestReview: 'object id revision: revisionId reviewer requestedBy status outdated comment createdAt updatedAt urls',
    ChangeRequestRequestedReviewer: 'object kind user team revision: revisionId requestedBy createdAt',
    // GitBook's answer names the users asked; teams are asked through GraphQL only.
    ChangeRequestReviewersRequested: 'users',
  },
  routes: [
    route(`GET ${changeRequest}/reviews`, 'getReviewsByChangeRequestId', `${changeRequestField}.reviews`),
    route(`POST ${changeRequest}/reviews`, 'submitChangeRequestReview', `submitChangeRequestReview(${changeRequestKey}, input: $body)`, {
      status: 201,
    }),
    route(`GET ${changeRequest}/reviews/:reviewId`, 'getChangeRequestReviewById', `${changeRequestField}.review(id: $reviewId)`),
    route(`GET ${changeRequest}/requested-reviewers`, 'getRequestedReviewersByChangeRequestId', `${changeRequestField}.requestedReviewers`),
    route(
      `POST ${changeRequest}/requested-reviewers`,
      'requestReviewersForChangeRequest',
      `requestChangeRequestReviewers(${changeRequestKey}, input: $body)`,
    ),
    // GitBook's spec: 205 when the request was taken back, 204 when there was none.
    route(
      `DELETE ${changeRequest}/requested-reviewers/:userId`,
      'removeRequestedReviewerFromChangeRequest',
      `removeChangeRequestRequestedReviewer(${changeRequestKey}, userId: $userId)`,
      { status: 204, alternateStatus: { status: 205, when: 'removeChangeRequestRequestedReviewer' } },
    ),
  ],
};
