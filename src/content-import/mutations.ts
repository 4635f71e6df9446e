// Importing content into a change request, and starting and cancelling import runs: the inputs (with their
// validation) and the mutations.
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { rules } from '../kernel/validation.js';
import { cancelImportRun, startImportRun } from './runs.js';
import { IMPORT_SOURCES, type ImportSource, importContent } from './service.js';
import { ContentImport, ImportContentSourceEnum, ImportRun, ImportRunSourceTypeEnum } from './types.js';

const ImportContentInput = builder.inputType('ImportContentInput', {
  fields: (t) => ({
    source: t.field({
      type: ImportContentSourceEnum,
      required: true,
      description: 'website (the page and the pages of the same site it links to), html (one page) or markdown (one page).',
      validate: z.enum(IMPORT_SOURCES),
    }),
    url: t.string({
      required: true,
      description: 'The http(s) URL to read, at most 2048 characters.',
      validate: rules.httpUrl(2048),
    }),
  }),
});

builder.mutationField('importContentInChangeRequest', (t) =>
  t.field({
    type: ContentImport,
    description:
      'Imports content from a URL as new pages of the change request, in one new revision. A website import reads at most ' +
      '50 pages of the same origin and path prefix, 3 links deep from the start page, 2 MiB a page and 20 MiB in all, ' +
      'within 60 seconds; pages keep their images and links as absolute URLs. Needs edit on the space.',
    args: {
      spaceId: t.arg.id({ required: true }),
      id: t.arg.id({ required: true, description: 'The change request’s id, or its number in the space.' }),
      input: t.arg({ type: ImportContentInput, required: true }),
    },
    // `source` is one of IMPORT_SOURCES: its validation refused the others.
    resolve: (_root, args, ctx) => importContent(ctx, args.spaceId, args.id, args.input as { source: ImportSource; url: string }),
  }),
);

/** Files of an import: GitBook's limit, though this service takes none. */
const MAX_FILES = 50;

const ImportRunSourceInput = builder.inputType('ImportRunSourceInput', {
  validate: z.any().superRefine((source: { type: string; url?: string | null }, check) => {
    if (source.type === 'website' && !source.url) check.addIssue({ code: 'custom', path: ['url'], message: 'is required for a website' });
  }),
  fields: (t) => ({
    type: t.field({
      type: ImportRunSourceTypeEnum,
      required: true,
      description: 'website; file imports need uploaded files, which this service does not take (400).',
      validate: z.string().refine((type) => type === 'website', 'imports of files need uploads, which this service does not take'),
    }),
    url: t.string({ description: 'The http(s) URL of the website’s start page, at most 2048 characters.', validate: rules.httpUrl(2048) }),
    files: t.stringList({ description: 'Keys of uploaded files (refused).', validate: z.array(z.string()).max(MAX_FILES) }),
  }),
});

const ImportRunTargetInput = builder.inputType('ImportRunTargetInput', {
  fields: (t) => ({
    space: t.id({ required: true, description: 'The space to import into, of the organization.', validate: rules.id }),
    changeRequest: t.id({
      description: 'A change request of the space to write the pages into; left out, a new one is created for the run.',
      validate: rules.id,
    }),
    page: t.id({ description: 'A page to import under; left out, the pages go at the top level.', validate: rules.id }),
  }),
});

const StartImportRunInput = builder.inputType('StartImportRunInput', {
  fields: (t) => ({
    source: t.field({ type: ImportRunSourceInput, required: true }),
    target: t.field({ type: ImportRunTargetInput, required: true }),
    site: t.id({
      description: 'A site of the organization to list the run under; left out, the one site that publishes the space, if one does.',
      validate: rules.id,
    }),
    enhance: t.boolean({ description: 'Accepted and ignored: this service does not rewrite what it imports.' }),
  }),
});

builder.mutationFields((t) => ({
  startImportRun: t.field({
    type: ImportRun,
    description:
      'Starts importing a website into a change request of a space, in the background: the site is read as ' +
      '`importContentInChangeRequest` reads it (at most 50 pages, 3 links deep, 60 seconds), and its pages are written ' +
      'in one revision of the change request when the run completes. Needs edit on the space.',
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: StartImportRunInput, required: true }) },
    resolve: (_root, args, ctx) => startImportRun(ctx, args.organizationId, args.input),
  }),
  cancelImportRun: t.field({
    type: ImportRun,
    description: 'Cancels a pending or in-progress run: it writes nothing. Needs edit on its space.',
    args: { organizationId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => cancelImportRun(ctx, args.organizationId, args.id),
  }),
}));
