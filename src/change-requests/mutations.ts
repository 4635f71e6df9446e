// Creating change requests, changing their subject, description, links and status, merging and updating them: inputs
// (with their validation) and mutations.
import { z } from 'zod';
import { bodyLimit, bytesText } from '../../rest/body.js';
import { builder, restEnum } from '../kernel/builder.js';
import { notNull, rules } from '../kernel/validation.js';
import type { JsonDocument } from '../revisions/document.js';
import type { ContentChange } from '../revisions/edits.js';
import type { MergeConflict as MergeConflictRow } from '../revisions/merge.js';
import { CONTENT_BATCH_BYTES, contentChanges, MAX_BASE64_BYTES, updateChangeRequestContent } from './content.js';
import { ChangeRequestContentUpdateResult } from './content-update.js';
import * as service from './service.js';
import { ChangeRequest, ChangeRequestStatusEnum } from './types.js';
import type { WorkflowOutcome as WorkflowOutcomeRow } from './workflow.js';
import * as workflow from './workflow.js';

/** A change request's subject (also set when asking for reviews). */
export const changeRequestSubject = z.string().max(100);

export const CreateChangeRequestInput = builder.inputType('CreateChangeRequestInput', {
  validate: notNull('subject'),
  fields: (t) => ({ subject: t.string({ description: 'At most 100 characters (default: none).', validate: changeRequestSubject }) }),
});

/** GitBook's JSONDocument, a change request's description: the document's blocks are kept as given. */
export const changeRequestDescription = z.object(
  {
    object: z.literal('document'),
    data: z.record(z.string(), z.unknown(), { error: 'must be an object' }),
    nodes: z.array(z.looseObject({ object: z.literal('block'), type: z.string().min(1) }, { error: 'must be a block' }), {
      error: 'must be an array of blocks',
    }),
    meta: z.looseObject({}, { error: 'must be an object' }).optional(),
  },
  { error: 'must be a JSON document ({object: "document", data, nodes})' },
);

/** At most this many links on a change request, as GitBook's ChangeRequestLinks. */
const MAX_LINKS = 10;

const ChangeRequestLinkRefInput = builder.inputType('ChangeRequestLinkRefInput', {
  description: 'Where a link leads: a URL (GitBook’s ContentRefURL).',
  fields: (t) => ({
    kind: t.string({ required: true, description: 'Always "url".', validate: z.literal('url') }),
    url: t.string({
      required: true,
      description: 'An http or https URL, at most 2048 characters.',
      validate: rules.httpUrl(2048),
    }),
  }),
});

const ChangeRequestLinkInput = builder.inputType('ChangeRequestLinkInput', {
  fields: (t) => ({
    id: t.id({ description: 'The id of one of the change request’s links, to keep it; left out: a new link.' }),
    ref: t.field({ type: ChangeRequestLinkRefInput, required: true }),
    title: t.string({ description: 'At most 128 characters.', validate: z.string().max(128) }),
  }),
});

export const UpdateChangeRequestInput = builder.inputType('UpdateChangeRequestInput', {
  validate: notNull('subject', 'status', 'description', 'links'),
  fields: (t) => ({
    subject: t.string({ description: 'At most 100 characters; a merged change request keeps its own.', validate: changeRequestSubject }),
    description: t.field({
      type: 'JSON',
      description: 'GitBook’s JSON document ({object: "document", data, nodes}); a merged change request keeps its own.',
      validate: changeRequestDescription,
    }),
    links: t.field({
      type: [ChangeRequestLinkInput],
      description: `External links, at most ${MAX_LINKS}: they replace the change request’s links as a whole ([] removes them all).`,
      validate: z.array(z.unknown()).max(MAX_LINKS),
    }),
    status: t.field({
      type: ChangeRequestStatusEnum,
      description: 'draft, open or archived: draft -> open -> draft, draft or open -> archived -> open. Merging is its own operation.',
      validate: z.enum(['draft', 'open', 'archived']),
    }),
  }),
});

const changeRequestKey = builder.args((t) => ({
  spaceId: t.id({ required: true }),
  id: t.id({ required: true, description: 'The change request’s id, or its number in the space.' }),
}));

builder.mutationFields((t) => ({
  createChangeRequest: t.field({
    type: ChangeRequest,
    description: 'Creates a draft change request on the space’s current content.',
    args: { spaceId: t.arg.id({ required: true }), input: t.arg({ type: CreateChangeRequestInput, required: true }) },
    resolve: (_root, args, ctx) => service.createChangeRequest(ctx, args.spaceId, args.input),
  }),
  updateChangeRequest: t.field({
    type: ChangeRequest,
    args: { ...changeRequestKey, input: t.arg({ type: UpdateChangeRequestInput, required: true }) },
    resolve: (_root, args, ctx) =>
      service.updateChangeRequest(ctx, args.spaceId, args.id, {
        ...args.input,
        description: args.input.description as JsonDocument | null,
      }),
  }),
}));

const MergeResultEnum = restEnum('ChangeRequestMergeResult', { merge: 'merge', update: 'update', conflicts: 'conflicts' });
const MergeConflictKindEnum = restEnum('MergeConflictKind', { page: 'page', file: 'file' });

const MergeConflict = builder.objectRef<MergeConflictRow>('MergeConflict').implement({
  description: 'A page or file both sides changed differently.',
  fields: (t) => ({
    kind: t.field({ type: MergeConflictKindEnum, resolve: (conflict) => conflict.kind }),
    id: t.exposeID('id', { description: 'The page’s or file’s id.' }),
    fields: t.exposeStringList('fields', {
      description: 'What clashed: field names, `deleted` (deleted on one side, changed on the other) or `tree` (moves).',
    }),
  }),
});

const WorkflowOutcome = builder.objectRef<WorkflowOutcomeRow>('ChangeRequestMergeOutcome').implement({
  description: 'What a merge or an update did: the revision it left, and its conflicts (none for `merge` and `update`).',
  fields: (t) => ({
    revision: t.exposeID('revision', { description: 'The revision written, or the change request’s own when nothing was.' }),
    result: t.field({ type: MergeResultEnum, resolve: (outcome) => outcome.result }),
    conflicts: t.field({ type: [MergeConflict], resolve: (outcome) => outcome.conflicts }),
  }),
});

builder.mutationFields((t) => ({
  mergeChangeRequest: t.field({
    type: WorkflowOutcome,
    description:
      'Merges the change request into its space (three-way). With conflicts nothing changes: update the change request, resolve, merge again.',
    args: changeRequestKey,
    resolve: (_root, args, ctx) => workflow.mergeChangeRequest(ctx, args.spaceId, args.id),
  }),
  updateChangeRequestFromSpace: t.field({
    type: WorkflowOutcome,
    description: 'Brings the space’s current content into the change request (three-way); conflicts are kept in it, marked.',
    args: changeRequestKey,
    resolve: (_root, args, ctx) => workflow.updateFromSpace(ctx, args.spaceId, args.id),
  }),
}));

const UpdateChangeRequestContentInput = builder.inputType('UpdateChangeRequestContentInput', {
  fields: (t) => ({
    changes: t.field({
      type: 'LargeJSON',
      required: true,
      description:
        '1 to 50 operations applied in order, all or nothing: insert_page, update_page, delete_page, revert_page, insert_files ' +
        `(GitBook’s ChangeRequestContentChange). Files in base64 are at most ${MAX_BASE64_BYTES / 1024 / 1024} MiB each once decoded.`,
      validate: contentChanges,
    }),
  }),
});

builder.mutationField('updateChangeRequestContent', (t) =>
  t.field({
    type: ChangeRequestContentUpdateResult,
    description: `Applies a batch of content changes to the change request, as one new revision. The request body may be up to ${bytesText(CONTENT_BATCH_BYTES)}.`,
    ...bodyLimit(CONTENT_BATCH_BYTES),
    args: {
      ...changeRequestKey,
      input: t.arg({ type: UpdateChangeRequestContentInput, required: true }),
      compat: t.arg.boolean({
        defaultValue: true,
        description:
          'As GitBook’s: true answers the ChangeRequest; false a ChangeRequestContentUpdate, with the pages and files the batch touched.',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const update = await updateChangeRequestContent(ctx, args.spaceId, args.id, args.input.changes as ContentChange[]);
      return args.compat === false ? update : update.changeRequest;
    },
  }),
);
