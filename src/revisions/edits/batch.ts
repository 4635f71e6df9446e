// What the operations of a content batch share: the draft they change, the batch's refs and files, and where the
// change request's other content comes from. Each operation is a handler of its own (one module each).
import type { PageVersion } from '../../generated/prisma/client.js';
import { badRequest } from '../../kernel/errors.js';
import type { FileHead } from '../addresses.js';
import type { FileContent } from '../store.js';
import type { ContentChange, FileInput } from './changes.js';
import type { DraftSource, DraftTree } from './draft.js';

export interface EditContext {
  /** The change request's current pages. */
  pages: DraftSource;
  /** A page as it is in the revision to revert to (`revision` absent: the change request's base); null when absent there. */
  pageIn(pageId: string, revision: string | null | undefined): Promise<PageVersion | null>;
  /** Stores a file's bytes (from base64 or a URL) and returns its row's content. */
  storeFile(file: FileInput, field: string): Promise<Omit<FileContent, 'fileId'>>;
  /** The change request's current files: read only when a link's path may name one. */
  files(): Promise<readonly FileHead[]>;
  now: Date;
}

export interface EditBatch {
  readonly context: EditContext;
  readonly draft: DraftTree;
  /** The batch-local `ref`s of the pages and files it inserted, to their ids. */
  readonly refs: Map<string, string>;
  readonly insertedFiles: FileContent[];
  /** Pages whose markdown the batch wrote: their references to the batch's files and pages are resolved at the end. */
  readonly bodiesWritten: Set<string>;
}

/** One kind of operation. */
export interface Operation<C extends ContentChange> {
  /** The pages of the change request whose bodies it reads: the draft reads them with the first heads, in one read. */
  bodiesRead?(change: C): readonly string[];
  /** Applies the operation to the batch; `field` names it in errors (`changes.<index>`). */
  apply(batch: EditBatch, change: C, field: string): Promise<void> | void;
}

/** The id of a page named by its id or by a ref the batch gave it. */
export const pageIdOf = (batch: EditBatch, reference: string) => batch.refs.get(reference) ?? reference;

/** The 400 of an operation naming, in `field`, a page that is not in the draft. */
export const noPage = (pageId: string, field: string) =>
  badRequest(`Invalid "${field}": no page ${JSON.stringify(pageId)} in the change request.`);

/** The id of a page in the draft named by its id or ref; a 400 naming `field` when there is none. */
export async function existingPage(batch: EditBatch, reference: string, field: string): Promise<string> {
  const id = pageIdOf(batch, reference);
  if (!(await batch.draft.has(id))) throw noPage(id, field);
  return id;
}
