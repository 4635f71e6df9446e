// REST endpoints of a space's comments and their replies, and the REST shapes of a Comment and a CommentReply.
import { type RestModule, route } from '../../rest/route.js';

const comments = '/v1/spaces/:spaceId/comments';
const comment = `${comments}/:commentId`;
const reply = `${comment}/replies/:commentReplyId`;
const commentField = 'space(id: $spaceId).comment(id: $commentId)';
const replyKey = 'spaceId: $spaceId, commentId: $commentId, replyId: $commentReplyId';

export const commentRest: RestModule = {
  fragments: {
    Comment: `object id postedBy postedAt editedAt reactions replies: replyCount repliers body target urls permissions status
      resolvedAt resolvedBy`,
    CommentReply: 'object id postedBy postedAt editedAt reactions body urls permissions',
  },
  routes: [
    route(`GET ${comments}`, 'listCommentsInSpace', 'space(id: $spaceId).comments'),
    route(`POST ${comments}`, 'postCommentInSpace', 'postComment(spaceId: $spaceId, input: $body)'),
    route(`GET ${comment}`, 'getCommentInSpace', commentField),
    route(`PUT ${comment}`, 'updateCommentInSpace', 'updateComment(spaceId: $spaceId, commentId: $commentId, input: $body)'),
    route(`DELETE ${comment}`, 'deleteCommentInSpace', 'deleteComment(spaceId: $spaceId, commentId: $commentId)', { status: 205 }),
    route(`GET ${comment}/replies`, 'listCommentRepliesInSpace', `${commentField}.replies`),
    route(`POST ${comment}/replies`, 'postCommentReplyInSpace', 'postCommentReply(spaceId: $spaceId, commentId: $commentId, input: $body)'),
    route(`GET ${reply}`, 'getCommentReplyInSpace', `${commentField}.reply(id: $commentReplyId)`),
    route(`PUT ${reply}`, 'updateCommentReplyInSpace', `updateCommentReply(${replyKey}, input: $body)`),
    route(`DELETE ${reply}`, 'deleteCommentReplyInSpace', `deleteCommentReply(${replyKey})`, { status: 205 }),
  ],
};
