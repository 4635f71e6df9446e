// REST endpoints of comments and their replies, on a space and in a change request (the same operations, scoped by
// the change request's id or number), who commented there, and the REST shapes of a Comment and a CommentReply.
import { type RestModule, type RouteDefinition, route } from '../../rest/route.js';

/** The ten endpoints under `base`, GitBook's operationIds ending in `suffix`, fields reached through `scope`. */
function commentRoutes(base: `/v1${string}`, suffix: string, scope: { query: string; key: string }): RouteDefinition[] {
  const comment = `${base}/:commentId` as const;
  const reply = `${comment}/replies/:commentReplyId` as const;
  const commentField = `${scope.query}.comment(id: $commentId)`;
  const commentKey = `${scope.key}, commentId: $commentId`;
  const replyKey = `${commentKey}, replyId: $commentReplyId`;
  return [
    route(`GET ${base}`, `listComments${suffix}`, `${scope.query}.comments`),
    route(`POST ${base}`, `postComment${suffix}`, `postComment(${scope.key}, input: $body)`),
    route(`GET ${comment}`, `getComment${suffix}`, commentField),
    route(`PUT ${comment}`, `updateComment${suffix}`, `updateComment(${commentKey}, input: $body)`),
    route(`DELETE ${comment}`, `deleteComment${suffix}`, `deleteComment(${commentKey})`, { status: 205 }),
    route(`GET ${comment}/replies`, `listCommentReplies${suffix}`, `${commentField}.replies`),
    route(`POST ${comment}/replies`, `postCommentReply${suffix}`, `postCommentReply(${commentKey}, input: $body)`),
    route(`GET ${reply}`, `getCommentReply${suffix}`, `${commentField}.reply(id: $commentReplyId)`),
    route(`PUT ${reply}`, `updateCommentReply${suffix}`, `updateCommentReply(${replyKey}, input: $body)`),
    route(`DELETE ${reply}`, `deleteCommentReply${suffix}`, `deleteCommentReply(${replyKey})`, { status: 205 }),
  ];
}

export const commentRest: RestModule = {
  fragments: {
    Comment: `object id postedBy postedAt editedAt reactions replies: replyCount repliers body target urls permissions status
      resolvedAt resolvedBy`,
    CommentReply: 'object id postedBy postedAt editedAt reactions body urls permissions',
  },
  routes: [
    ...commentRoutes('/v1/spaces/:spaceId/comments', 'InSpace', { query: 'space(id: $spaceId)', key: 'spaceId: $spaceId' }),
    ...commentRoutes('/v1/spaces/:spaceId/change-requests/:changeRequestId/comments', 'InChangeRequest', {
      query: 'changeRequest(spaceId: $spaceId, id: $changeRequestId)',
      key: 'spaceId: $spaceId, changeRequestId: $changeRequestId',
    }),
    route('GET /v1/spaces/:spaceId/commenters', 'listCommentersInSpace', 'space(id: $spaceId).commenters'),
    route(
      'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/commenters',
      'listCommentersInChangeRequest',
      'changeRequest(spaceId: $spaceId, id: $changeRequestId).commenters',
    ),
  ],
};
