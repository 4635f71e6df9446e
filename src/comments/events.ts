// The changes of comments and their replies that are recorded (src/kernel/events.ts), with their labels. Reactions
// are not recorded: they are a reader's marks, not a change of what the comment says.
import type { Comment, CommentReply, Space } from '../generated/prisma/client.js';
import type { ChangeEvent } from '../kernel/events.js';
import type { StoredBody } from './service.js';

export const commentsActions = {
  comment_created: 'Comment created',
  comment_updated: 'Comment updated',
  comment_resolved: 'Comment resolved',
  comment_reopened: 'Comment reopened',
  comment_deleted: 'Comment deleted',
  comment_reply_created: 'Comment reply created',
  comment_reply_updated: 'Comment reply updated',
  comment_reply_deleted: 'Comment reply deleted',
} as const;

/** The label of a comment or reply: the start of its markdown as it is then. */
const LABEL_LENGTH = 100;
const labelOf = (post: Comment | CommentReply) => (post.body as unknown as StoredBody).markdown.slice(0, LABEL_LENGTH);

/** An event about the comment, in its space's organization. */
export const commentEvent = (
  action: keyof typeof commentsActions,
  space: Pick<Space, 'id' | 'organizationId'>,
  comment: Comment,
): ChangeEvent => ({
  action,
  organizationId: space.organizationId,
  target: { type: 'comment', id: comment.id, label: labelOf(comment) },
  spaceId: space.id,
  payload: {
    ...(comment.changeRequestId && { changeRequestId: comment.changeRequestId }),
    ...(comment.pageId && { pageId: comment.pageId }),
  },
});

/** An event about a reply, in its space's organization; `changeRequestId` when its comment is a change request's. */
export const replyEvent = (
  action: keyof typeof commentsActions,
  space: Pick<Space, 'id' | 'organizationId'>,
  reply: CommentReply,
  changeRequestId: string | null,
): ChangeEvent => ({
  action,
  organizationId: space.organizationId,
  target: { type: 'comment-reply', id: reply.id, label: labelOf(reply) },
  spaceId: space.id,
  payload: { commentId: reply.commentId, ...(changeRequestId && { changeRequestId }) },
});
