// Importing content into a change request: the input (with its validation) and the mutation.
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { rules } from '../kernel/validation.js';
import { IMPORT_SOURCES, type ImportSource, importContent } from './service.js';
import { ContentImport, ImportContentSourceEnum } from './types.js';

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
