// Three-way merges between a change request's line and the primary content, from their common ancestor (the primary
// content at the change request's baseSeq):
// - merge: the change request into the primary content. What only one side changed is taken from it; what both
//   changed the same way is kept; pages both changed are combined field by field, and their markdown line by line
//   (node-diff3). Any conflict refuses the merge (`result: "conflicts"`): the primary content is never overwritten.
// - update: the primary content into the change request, which then builds on the current primary content. Conflicts
//   do not stop it: they are kept in the change request's new revision, so nothing is lost. In a page's markdown, as
//   Git does, between `<<<<<<< change request`, `=======` and `>>>>>>> main`; for any other field, the change
//   request's value stays; a page one side deleted and the other changed stays, changed; a page left without its
//   parent, or in a cycle of moves, goes to the top level.
// The tree is merged as fields (a move is a change of parentId and position), so moves, inserts and deletes of
// different pages combine.
import { merge as diff3 } from 'node-diff3';
import type { SqlRunner } from '../db/client.js';
import type { FileVersion, PageVersion, Revision } from '../generated/prisma/client.js';
import type { PageVersionHook } from './hooks.js';
import { PAGE_TREE_LEVELS } from './read.js';
import {
  type FileContent,
  fileColumns,
  filesAt,
  MAIN,
  type PageContent,
  pageColumns,
  pagesAt,
  type RevisionChanges,
  type RevisionPoint,
  sameColumns,
  sameValue,
  writeRevision,
} from './store.js';

type Tx = Parameters<typeof writeRevision>[0];

/** The fields that make a page's or a file's content: the rest (ids, validity, Git data, timestamps) says where and when. */
const WHERE_AND_WHEN = new Set(['gitOid', 'gitPath', 'createdAt', 'updatedAt']);
const PAGE_FIELDS = pageColumns.filter((column) => !WHERE_AND_WHEN.has(column));
const FILE_FIELDS = fileColumns.filter((column) => !WHERE_AND_WHEN.has(column));

export interface MergeConflict {
  kind: 'page' | 'file';
  id: string;
  /** What both sides changed differently: field names, `deleted` (one side deleted, the other changed), `tree`. */
  fields: string[];
}

type Entry = Record<string, unknown>;

/**
 * Whether two entries hold the same content. A stored row's content never changes (a row is only ever closed), so two
 * rows with one id are the same without comparing their columns, which spares comparing every page of a large space
 * field by field; an entry made here (merged, or moved by repairTree) is a copy without an id.
 */
const sameEntry = (a: Entry | undefined, b: Entry | undefined, fields: readonly string[]) =>
  (a !== undefined && b !== undefined && a.id !== undefined && a.id === b.id) || sameColumns(a, b, fields);
/** An entry's copy, to change: without the id of the row it came from. */
const copyOf = ({ id: _id, ...entry }: Entry): Entry => entry;

/** Labels of the two sides in a conflicting text, as Git writes them: the first side is `ours`. */
interface Sides {
  ours: string;
  theirs: string;
}

/**
 * The three-way merge of one kind of entry. `ours` wins a field both sides changed (and a conflict is reported);
 * markdown is merged line by line, its conflicts marked.
 */
function threeWay(
  kind: MergeConflict['kind'],
  fields: readonly string[],
  base: Map<string, Entry>,
  ours: Map<string, Entry>,
  theirs: Map<string, Entry>,
  sides: Sides,
): { result: Map<string, Entry>; conflicts: MergeConflict[] } {
  const result = new Map<string, Entry>();
  const conflicts: MergeConflict[] = [];
  for (const id of new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])) {
    const [b, o, t] = [base.get(id), ours.get(id), theirs.get(id)];
    let merged: Entry | undefined;
    if (sameEntry(o, b, fields)) merged = t;
    else if (sameEntry(t, b, fields) || sameEntry(o, t, fields)) merged = o;
    else if (!o || !t) {
      // Deleted on one side, changed on the other: the change is kept.
      merged = o ?? t;
      conflicts.push({ kind, id, fields: ['deleted'] });
    } else {
      merged = copyOf(o);
      const clashing: string[] = [];
      for (const field of fields) {
        const [bf, of, tf] = [b?.[field], o[field], t[field]];
        if (sameValue(of, bf) || sameValue(of, tf)) merged[field] = tf;
        else if (sameValue(tf, bf)) merged[field] = of;
        else if (field === 'markdown' && typeof of === 'string' && typeof tf === 'string') {
          const text = diff3(of.split('\n'), (typeof bf === 'string' ? bf : '').split('\n'), tf.split('\n'), {
            label: { a: sides.ours, b: sides.theirs },
          });
          merged[field] = text.result.join('\n');
          if (text.conflict) clashing.push(field);
        } else clashing.push(field);
      }
      if (clashing.length) conflicts.push({ kind, id, fields: clashing });
    }
    if (merged) result.set(id, merged);
  }
  return { result, conflicts };
}

/**
 * Pages left without their parent, in a cycle of moves, or deeper than the tree may go (moves on both sides can add up)
 * go to the top level; each is a conflict of the tree.
 */
function repairTree(pages: Map<string, Entry>, conflicts: MergeConflict[]): void {
  for (const [id, page] of pages) {
    const seen = new Set([id]);
    let parent = page.parentId as string | null;
    while (parent && pages.has(parent) && !seen.has(parent) && seen.size < PAGE_TREE_LEVELS) {
      seen.add(parent);
      parent = pages.get(parent)!.parentId as string | null;
    }
    if (parent) {
      pages.set(id, { ...copyOf(page), parentId: null });
      conflicts.push({ kind: 'page', id, fields: ['tree'] });
    }
  }
}

const byKey = <Row extends PageVersion | FileVersion>(rows: Row[], key: 'pageId' | 'fileId') =>
  new Map(rows.map((row) => [(row as unknown as Record<string, string>)[key], row as unknown as Entry]));

/** The content of three revisions: six statements, whatever the number of pages. */
async function read(sql: SqlRunner, points: RevisionPoint[]) {
  const pages = await Promise.all(points.map(async (point) => byKey(await pagesAt(sql, point), 'pageId')));
  const files = await Promise.all(points.map(async (point) => byKey(await filesAt(sql, point), 'fileId')));
  return { pages, files };
}

/** An entry's content, to write again: a page's `updatedAt` becomes the merge's time. */
const contentOf = (entry: Entry, now: Date): Entry => {
  const { id: _id, spaceId: _space, line: _line, validFrom: _from, validTo: _to, deleted: _deleted, ...content } = entry;
  if ('updatedAt' in content) content.updatedAt = now;
  return content;
};

export interface MergeOutcome {
  result: 'merge' | 'update' | 'conflicts';
  revision: Revision;
  conflicts: MergeConflict[];
}

/** The primary line's view of a change request's revision: what it builds on. */
const baseOf = (revision: Revision): RevisionPoint => ({
  spaceId: revision.spaceId,
  line: MAIN,
  seq: revision.baseSeq ?? 0,
  baseSeq: null,
});

/**
 * Merges the change request's revision `theirs` into the primary content at `main`: a merge revision on the primary
 * line (parents: main, then the change request), or `conflicts` and nothing written.
 */
export async function mergeIntoMain(
  tx: Tx,
  sql: SqlRunner,
  hooks: readonly PageVersionHook[],
  main: Revision,
  theirs: Revision,
  userId: string,
): Promise<MergeOutcome> {
  const { pages, files } = await read(sql, [baseOf(theirs), main, theirs]);
  const sides = { ours: 'main', theirs: 'change request' };
  const mergedPages = threeWay('page', PAGE_FIELDS, pages[0], pages[1], pages[2], sides);
  const mergedFiles = threeWay('file', FILE_FIELDS, files[0], files[1], files[2], sides);
  const conflicts = [...mergedPages.conflicts, ...mergedFiles.conflicts];
  repairTree(mergedPages.result, conflicts);
  if (conflicts.length) return { result: 'conflicts', revision: theirs, conflicts };
  const now = new Date();
  const changes = (current: Map<string, Entry>, result: Map<string, Entry>, fields: readonly string[]) => ({
    written: [...result].filter(([id, entry]) => !sameEntry(current.get(id), entry, fields)).map(([, entry]) => contentOf(entry, now)),
    deleted: [...current.keys()].filter((id) => !result.has(id)),
  });
  const pageChanges = changes(pages[1], mergedPages.result, PAGE_FIELDS);
  const fileChanges = changes(files[1], mergedFiles.result, FILE_FIELDS);
  const revision = await writeRevision(
    tx,
    hooks,
    { spaceId: main.spaceId, line: MAIN, parent: main, type: 'merge', createdById: userId, otherParents: [theirs.id] },
    {
      pages: pageChanges.written as PageContent[],
      deletedPages: pageChanges.deleted,
      files: fileChanges.written as FileContent[],
      deletedFiles: fileChanges.deleted,
    },
  );
  return { result: 'merge', revision, conflicts: [] };
}

/**
 * Brings the primary content at `main` into the change request's revision `ours`: a revision of its line built on
 * `main`, with conflicts kept in it (see the header). Already up to date: `ours` itself.
 */
export async function updateFromMain(
  tx: Tx,
  sql: SqlRunner,
  hooks: readonly PageVersionHook[],
  ours: Revision,
  main: Revision,
  userId: string,
): Promise<MergeOutcome> {
  if (ours.baseSeq === main.seq) return { result: 'update', revision: ours, conflicts: [] };
  const { pages, files } = await read(sql, [baseOf(ours), ours, main]);
  const sides = { ours: 'change request', theirs: 'main' };
  const mergedPages = threeWay('page', PAGE_FIELDS, pages[0], pages[1], pages[2], sides);
  const mergedFiles = threeWay('file', FILE_FIELDS, files[0], files[1], files[2], sides);
  const conflicts = [...mergedPages.conflicts, ...mergedFiles.conflicts];
  repairTree(mergedPages.result, conflicts);
  const now = new Date();
  // The line keeps rows only where it differs from the new primary content: what the line showed through its own
  // rows (where it differed from its old base) or through the primary content, against what it must show now.
  const rebase = (
    base: Map<string, Entry>,
    own: Map<string, Entry>,
    primary: Map<string, Entry>,
    result: Map<string, Entry>,
    fields: readonly string[],
  ) => {
    const out = { written: [] as unknown[], deleted: [] as string[], restored: [] as string[] };
    for (const id of new Set([...own.keys(), ...primary.keys(), ...result.keys(), ...base.keys()])) {
      const ownRow = !sameEntry(own.get(id), base.get(id), fields);
      const shown = ownRow ? own.get(id) : primary.get(id);
      const wanted = result.get(id);
      if (sameEntry(shown, wanted, fields)) continue;
      if (sameEntry(primary.get(id), wanted, fields)) out.restored.push(id);
      else if (wanted) out.written.push(contentOf(wanted, now));
      else out.deleted.push(id);
    }
    return out;
  };
  const pageChanges = rebase(pages[0], pages[1], pages[2], mergedPages.result, PAGE_FIELDS);
  const fileChanges = rebase(files[0], files[1], files[2], mergedFiles.result, FILE_FIELDS);
  const changes: RevisionChanges = {
    pages: pageChanges.written as PageContent[],
    deletedPages: pageChanges.deleted,
    restoredPages: pageChanges.restored,
    files: fileChanges.written as FileContent[],
    deletedFiles: fileChanges.deleted,
    restoredFiles: fileChanges.restored,
  };
  const revision = await writeRevision(
    tx,
    hooks,
    {
      spaceId: ours.spaceId,
      line: ours.line,
      parent: ours,
      baseSeq: main.seq,
      type: 'update',
      createdById: userId,
      otherParents: [main.id],
    },
    changes,
  );
  return { result: conflicts.length ? 'conflicts' : 'update', revision, conflicts };
}
