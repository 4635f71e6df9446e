// What a change request changes: the semantic diff (src/revisions/changes.ts) between the content it builds on and
// its own, as GitBook's getChangeRequestChanges answers it, first `limit` changes and how many more there are.

import { downloadUrl } from '../files/download.js';
import type { ChangeRequest as ChangeRequestRow, Revision } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { builder } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { MAX_LIMIT, MIN_LIMIT } from '../kernel/pagination.js';
import { integerRange } from '../kernel/validation.js';
import { type ChangedFile, type ChangedPage, type SemanticChange, semanticChanges } from '../revisions/changes.js';
import { filesAt, MAIN, pagesAt } from '../revisions/store.js';
import { ChangeRequest } from './types.js';

/** Changes answered when no `limit` is given: GitBook's default. */
const DEFAULT_CHANGES = 10;

const ChangedPageRef = builder.objectRef<ChangedPage>('ChangedRevisionPage').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    type: t.exposeString('type'),
    title: t.exposeString('title'),
    path: t.exposeString('path'),
  }),
});
const ChangedFileRef = builder.objectRef<ChangedFile>('ChangedRevisionFile').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    contentType: t.exposeString('contentType'),
    downloadURL: t.exposeString('downloadURL'),
  }),
});
const ParentChange = builder.objectRef<{ before?: ChangedPage; after?: ChangedPage }>('ChangedRevisionPageParent').implement({
  description: 'A moved page’s parent before and after; absent at the top level.',
  fields: (t) => ({
    before: t.field({ type: ChangedPageRef, nullable: true, resolve: (parent) => parent.before }),
    after: t.field({ type: ChangedPageRef, nullable: true, resolve: (parent) => parent.after }),
  }),
});

const Change = builder.objectRef<SemanticChange>('RevisionSemanticChange').implement({
  description: 'One logical change: page_created, page_edited, page_moved, page_deleted, file_created, file_edited or file_deleted.',
  fields: (t) => ({
    type: t.exposeString('type'),
    page: t.field({ type: ChangedPageRef, nullable: true, resolve: (change) => ('page' in change ? change.page : null) }),
    parent: t.field({ type: ParentChange, nullable: true, resolve: (change) => ('parent' in change ? change.parent : null) }),
    file: t.field({ type: ChangedFileRef, nullable: true, resolve: (change) => ('file' in change ? change.file : null) }),
    attributes: t.field({
      type: 'JSON',
      nullable: true,
      description: 'What an edit changed: {<attribute>: {before, after}}.',
      resolve: (change) => ('attributes' in change ? change.attributes : null),
    }),
  }),
});

const SemanticChanges = builder.objectRef<{ changes: SemanticChange[]; more: number }>('RevisionSemanticChanges').implement({
  fields: (t) => ({
    changes: t.field({ type: [Change], resolve: (result) => result.changes }),
    more: t.exposeInt('more', { description: 'How many changes are left out beyond the limit.' }),
  }),
});

/** The semantic diff of a change request against the content it builds on: four reads, whatever the sizes. */
async function changesOf(ctx: Context, changeRequest: ChangeRequestRow) {
  const [own] = await ctx.sql<Revision>(Prisma.sql`SELECT * FROM "Revision" WHERE id = ${changeRequest.revisionId}`);
  const base = { spaceId: own.spaceId, line: MAIN, seq: own.baseSeq ?? 0, baseSeq: null };
  const [basePages, baseFiles, pages, files] = await Promise.all([
    pagesAt(ctx.sql, base),
    filesAt(ctx.sql, base),
    pagesAt(ctx.sql, own),
    filesAt(ctx.sql, own),
  ]);
  return semanticChanges({ pages: basePages, files: baseFiles }, { pages, files }, (file) => downloadUrl(ctx, file));
}

builder.objectField(ChangeRequest, 'changes', (t) =>
  t.field({
    type: SemanticChanges,
    description: 'What the change request changes in the content it builds on, in tree order.',
    args: {
      limit: t.arg.int({
        defaultValue: DEFAULT_CHANGES,
        ...integerRange(MIN_LIMIT, MAX_LIMIT, (range) => `At most this many changes, ${range} (default ${DEFAULT_CHANGES}).`),
      }),
    },
    resolve: async (changeRequest, args, ctx) => {
      const all = await changesOf(ctx, changeRequest);
      const limit = args.limit ?? DEFAULT_CHANGES;
      return { changes: all.slice(0, limit), more: Math.max(0, all.length - limit) };
    },
  }),
);
