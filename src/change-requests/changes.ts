// What a change request changes: the semantic diff (src/revisions/changes.ts) between the content it builds on and
// its own, as GitBook's getChangeRequestChanges answers it, first `limit` changes and how many more there are; and
// what a revision changes against its first parent (getRevisionSemanticChanges), with the change request a merge
// revision merged.

import { downloadUrl } from '../files/download.js';
import type { ChangeRequest as ChangeRequestRow, Revision } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { builder } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { MAX_LIMIT, MIN_LIMIT } from '../kernel/pagination.js';
import { batchedRowById } from '../kernel/rows.js';
import { integerRange } from '../kernel/validation.js';
import { type ChangedFile, type ChangedPage, type SemanticChange, semanticChanges } from '../revisions/changes.js';
import { filesAt, MAIN, pagesAt, type RevisionPoint } from '../revisions/store.js';
import { Revision as RevisionContent } from '../revisions/types.js';
import { mergedFromOf } from './content-reads.js';
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

interface SemanticChangesPage {
  changes: SemanticChange[];
  more: number;
  /** The revision whose changes these are, when a revision's. */
  revision?: Revision;
}

const SemanticChanges = builder.objectRef<SemanticChangesPage>('RevisionSemanticChanges').implement({
  fields: (t) => ({
    changes: t.field({ type: [Change], resolve: (result) => result.changes }),
    more: t.exposeInt('more', { description: 'How many changes are left out beyond the limit.' }),
    mergedFrom: t.field({
      type: ChangeRequest,
      nullable: true,
      description: 'Of a merge revision’s changes: the change request whose merge made them.',
      resolve: (result, _args, ctx) => (result.revision ? mergedFromOf(ctx, result.revision) : null),
    }),
  }),
});

/** The semantic diff between two contents (none: the empty content before a space's first revision): four reads. */
async function changesBetween(ctx: Context, before: RevisionPoint | null, after: RevisionPoint) {
  const [beforePages, beforeFiles, pages, files] = await Promise.all([
    before ? pagesAt(ctx.sql, before) : [],
    before ? filesAt(ctx.sql, before) : [],
    pagesAt(ctx.sql, after),
    filesAt(ctx.sql, after),
  ]);
  return semanticChanges({ pages: beforePages, files: beforeFiles }, { pages, files }, (file) => downloadUrl(ctx, file, after.spaceId));
}

/** The semantic diff of a change request against the content it builds on, whatever the sizes. */
async function changesOf(ctx: Context, changeRequest: ChangeRequestRow) {
  const [own] = await ctx.sql<Revision>(Prisma.sql`SELECT * FROM "Revision" WHERE id = ${changeRequest.revisionId}`);
  return changesBetween(ctx, { spaceId: own.spaceId, line: MAIN, seq: own.baseSeq ?? 0, baseSeq: null }, own);
}

/**
 * The semantic diff of a revision against its first parent: the revision before it on its line, or for the first of a
 * change request's, the primary content it started from (a merge's and an update's other side is the second).
 */
async function changesSinceParent(ctx: Context, revision: Revision) {
  const [parentId] = revision.parents;
  return changesBetween(ctx, parentId ? await batchedRowById<Revision>(ctx, 'Revision', parentId) : null, revision);
}

const limitArgs = builder.args((t) => ({
  limit: t.int({
    defaultValue: DEFAULT_CHANGES,
    ...integerRange(MIN_LIMIT, MAX_LIMIT, (range) => `At most this many changes, ${range} (default ${DEFAULT_CHANGES}).`),
  }),
}));

const firstOf = (all: SemanticChange[], limit: number | null | undefined) => {
  const taken = limit ?? DEFAULT_CHANGES;
  return { changes: all.slice(0, taken), more: Math.max(0, all.length - taken) };
};

builder.objectField(ChangeRequest, 'changes', (t) =>
  t.field({
    type: SemanticChanges,
    description: 'What the change request changes in the content it builds on, in tree order.',
    args: limitArgs,
    resolve: async (changeRequest, args, ctx) => firstOf(await changesOf(ctx, changeRequest), args.limit),
  }),
);

// A revision's changes are read by whoever reads the revision: its space's readers.
builder.objectField(RevisionContent, 'changes', (t) =>
  t.field({
    type: SemanticChanges,
    description: 'What the revision changes against its first parent, in tree order.',
    args: limitArgs,
    resolve: async ({ revision }, args, ctx) => ({ ...firstOf(await changesSinceParent(ctx, revision), args.limit), revision }),
  }),
);
