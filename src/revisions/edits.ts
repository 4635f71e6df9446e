// A batch of content changes (GitBook's updateChangeRequestContent): up to 50 operations applied in order to a change
// request's content, all or nothing, as one new revision. Each operation sees the result of the ones before it. The
// operations change a draft of the content (edits/draft.ts), which reads pages' bodies only where an operation needs
// them; each kind is a handler of its own (edits/insert-page.ts, update-page.ts, delete-page.ts, revert-page.ts,
// insert-files.ts). References in the markdown the batch wrote are resolved once every operation is applied.

import type { EditBatch, EditContext, Operation } from './edits/batch.js';
import type { ContentChange } from './edits/changes.js';
import { deletePage } from './edits/delete-page.js';
import { type AffectedPage, DraftTree } from './edits/draft.js';
import { insertFiles } from './edits/insert-files.js';
import { insertPage } from './edits/insert-page.js';
import { resolveReferences } from './edits/references.js';
import { revertPage } from './edits/revert-page.js';
import { updatePage } from './edits/update-page.js';
import type { FileContent, RevisionChanges } from './store.js';

export type { EditContext } from './edits/batch.js';
export type { ContentChange, DocumentInput, FileInput } from './edits/changes.js';
export type { AffectedPage } from './edits/draft.js';

export interface EditResult {
  changes: RevisionChanges;
  /** What the batch did to each page: in the order operations first touched them, then the subpages deletions took along. */
  affected: AffectedPage[];
  insertedFiles: FileContent[];
}

const operations: { [K in ContentChange['operation']]: Operation<Extract<ContentChange, { operation: K }>> } = {
  insert_page: insertPage,
  update_page: updatePage,
  delete_page: deletePage,
  revert_page: revertPage,
  insert_files: insertFiles,
};

/** The handler of a change's kind. */
const operationOf = <C extends ContentChange>(change: C) => operations[change.operation] as Operation<C>;

/** Applies `operations` in order to the change request's content; throws a 400 naming the operation on bad input. */
export async function applyChanges(context: EditContext, changes: readonly ContentChange[]): Promise<EditResult> {
  const bodiesRead = changes.flatMap((change) => operationOf(change).bodiesRead?.(change) ?? []);
  // Every page a change names (refs too: a ref must not be a page's id), read with the bodies in one read.
  const named = changes.flatMap((change) =>
    [('page' in change && change.page) || null, ('into' in change && change.into) || null, ('ref' in change && change.ref) || null].filter(
      (id): id is string => typeof id === 'string',
    ),
  );
  const batch: EditBatch = {
    context,
    draft: await DraftTree.read(context.pages, [...new Set([...named, ...bodiesRead])], [...new Set(bodiesRead)]),
    refs: new Map(),
    insertedFiles: [],
    bodiesWritten: new Set(),
  };
  for (const [index, change] of changes.entries()) await operationOf(change).apply(batch, change, `changes.${index}`);
  await resolveReferences(batch);
  await batch.draft.checkDepth();
  const { changes: pageChanges, affected } = await batch.draft.changes(batch.refs);
  return { changes: { ...pageChanges, files: batch.insertedFiles }, affected, insertedFiles: batch.insertedFiles };
}
