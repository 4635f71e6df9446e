// Posting, editing, resolving, reacting to and deleting comments and replies: inputs (with their validation) and
// mutations.
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { notNull, rules } from '../kernel/validation.js';
import * as service from './service.js';
import { Comment, CommentReply } from './types.js';

/** The longest markdown body a comment or reply takes. */
const MAX_BODY = 20_000;

/** A comment's or reply's body (a review's comment too). */
export const commentBody = z
  .object({
    markdown: z.string().trim().min(1).max(MAX_BODY).optional(),
    document: z.object({}).passthrough().optional(),
  })
  .strict()
  .refine((value) => (value.markdown === undefined) !== (value.document === undefined), 'must hold either "markdown" or "document"');
export const bodyDescription = `{markdown} (1 to ${MAX_BODY} characters) or {document} (GitBook’s JSON document, kept as markdown).`;
const reactions = z.array(rules.emoji.min(1)).max(50);

const reactionFields = (t: Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0]) => ({
  addedReactions: t.stringList({
    description: 'Emoji the viewer reacts with (at most 50); adding one twice keeps one.',
    validate: reactions,
  }),
  removedReactions: t.stringList({ description: 'Emoji whose reaction of the viewer goes (at most 50).', validate: reactions }),
});

const TableCellInput = builder.inputType('CommentTableCellInput', {
  description: 'A cell of a table on the page: its record (row) and definition (column).',
  fields: (t) => ({
    record: t.string({ required: true, validate: z.string().min(1).max(100) }),
    definition: t.string({ required: true, validate: z.string().min(1).max(100) }),
  }),
});

const PostCommentInput = builder.inputType('PostCommentInput', {
  fields: (t) => ({
    body: t.field({ type: 'JSON', required: true, description: bodyDescription, validate: commentBody }),
    page: t.string({
      description: 'A page of the current content: the space’s, or the change request’s.',
      validate: z.string().min(1).max(100),
    }),
    node: t.string({ description: 'A node of that page (needs `page`).', validate: z.string().min(1).max(100) }),
    tableCell: t.field({ type: TableCellInput, description: 'A cell of a table on that page (needs `page`).' }),
  }),
});
const UpdateCommentInput = builder.inputType('UpdateCommentInput', {
  validate: notNull('body', 'resolved', 'addedReactions', 'removedReactions'),
  fields: (t) => ({
    resolved: t.boolean({ description: 'true resolves (by the viewer, now); false reopens.' }),
    body: t.field({ type: 'JSON', description: `${bodyDescription} Its author only.`, validate: commentBody }),
    ...reactionFields(t),
  }),
});
const PostCommentReplyInput = builder.inputType('PostCommentReplyInput', {
  fields: (t) => ({ body: t.field({ type: 'JSON', required: true, description: bodyDescription, validate: commentBody }) }),
});
const UpdateCommentReplyInput = builder.inputType('UpdateCommentReplyInput', {
  validate: notNull('body', 'addedReactions', 'removedReactions'),
  fields: (t) => ({
    body: t.field({ type: 'JSON', description: `${bodyDescription} Its author only.`, validate: commentBody }),
    ...reactionFields(t),
  }),
});

/** Where the comments are: the space's own, or a change request's (by id or number) when `changeRequestId` is given. */
const scopeKey = builder.args((t) => ({
  spaceId: t.id({ required: true }),
  changeRequestId: t.id({ description: 'A change request of the space, by id or number: its comments rather than the space’s.' }),
}));
const commentKey = builder.args((t) => ({ ...scopeKey, commentId: t.id({ required: true }) }));
const replyKey = builder.args((t) => ({ ...commentKey, replyId: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  postComment: t.field({
    type: Comment,
    args: { ...scopeKey, input: t.arg({ type: PostCommentInput, required: true }) },
    resolve: (_root, args, ctx) => service.postComment(ctx, args, args.input as service.NewComment),
  }),
  updateComment: t.field({
    type: Comment,
    args: { ...commentKey, input: t.arg({ type: UpdateCommentInput, required: true }) },
    resolve: (_root, args, ctx) => service.updateComment(ctx, args, args.commentId, args.input as service.CommentChange),
  }),
  deleteComment: t.boolean({
    description: 'Deletes the comment with its replies and reactions.',
    args: commentKey,
    resolve: async (_root, args, ctx) => {
      await service.deleteComment(ctx, args, args.commentId);
      return true;
    },
  }),
  postCommentReply: t.field({
    type: CommentReply,
    args: { ...commentKey, input: t.arg({ type: PostCommentReplyInput, required: true }) },
    resolve: (_root, args, ctx) => service.postReply(ctx, args, args.commentId, args.input as { body: service.BodyInput }),
  }),
  updateCommentReply: t.field({
    type: CommentReply,
    args: { ...replyKey, input: t.arg({ type: UpdateCommentReplyInput, required: true }) },
    resolve: (_root, args, ctx) => service.updateReply(ctx, args, args.commentId, args.replyId, args.input as service.ReplyChange),
  }),
  deleteCommentReply: t.boolean({
    args: replyKey,
    resolve: async (_root, args, ctx) => {
      await service.deleteReply(ctx, args, args.commentId, args.replyId);
      return true;
    },
  }),
}));
