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
// different pages combine. Both read and write only the pages and files either side changed since the change
// request's base (mergeChanges), so that their cost follows the change, not the space.
import { merge as diff3 } from 'node-diff3';
import type { SqlRunner } from '../db/client.js';
import { type FileVersion, type PageVersion, Prisma, type Revision } from '../generated/prisma/client.js';
import type { PageVersionHook } from './hooks.js';
import { PAGE_TREE_LEVELS } from './read.js';
import {
  changedKeys,
  type FileContent,
  fileColumns,
  MAIN,
  type PageContent,
  pageColumns,
  type RevisionChanges,
  type RevisionPoint,
  rowsAt,
  sameColumns,
  sameValue,
  type Versioned,
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
 * The pages to move to the top level: those left without their parent, in a cycle of moves, or deeper than the tree
 * may go (moves on both sides can add up). `parents` is every page's parent; it is changed as pages move, in order.
 */
function detachedPages(parents: Map<string, string | null>): string[] {
  const detached: string[] = [];
  for (const id of parents.keys()) {
    const seen = new Set([id]);
    let parent = parents.get(id) ?? null;
    while (parent && parents.has(parent) && !seen.has(parent) && seen.size < PAGE_TREE_LEVELS) {
      seen.add(parent);
      parent = parents.get(parent) ?? null;
    }
    if (parent) {
      parents.set(id, null);
      detached.push(id);
    }
  }
  return detached;
}

const byKey = <Row extends PageVersion | FileVersion>(rows: Row[], key: 'pageId' | 'fileId') =>
  new Map(rows.map((row) => [(row as unknown as Record<string, string>)[key], row as unknown as Entry]));

/** The rows of `keys` in each of the revisions `points`: one statement, none without keys. */
async function rowsOf(sql: SqlRunner, table: Versioned, points: RevisionPoint[], keys: readonly string[]): Promise<Map<string, Entry>[]> {
  if (!keys.length) return points.map(() => new Map());
  const rows = await sql<(PageVersion | FileVersion) & { __side: number }>(
    Prisma.join(
      points.map((point, side) => Prisma.sql`(SELECT ${side}::int AS "__side", v.* FROM (${rowsAt(table, point, { keys })}) v)`),
      ' UNION ALL ',
    ),
  );
  const key = table === 'PageVersion' ? 'pageId' : 'fileId';
  return points.map((_, side) =>
    byKey(
      rows.filter((row) => row.__side === side).map(({ __side, ...row }) => row as typeof row),
      key,
    ),
  );
}

/** Whether the merged pages may leave the tree broken: a page added, deleted or moved on either side. */
function treeChanged(keys: readonly string[], base: Map<string, Entry>, sides: Map<string, Entry>[]): boolean {
  return keys.some((id) => sides.some((side) => side.get(id)?.parentId !== base.get(id)?.parentId || !side.has(id) !== !base.has(id)));
}

/**
 * The three-way merge of what a change request's line and the primary content changed since the line's base
 * (store.ts changedKeys): every other page and file is the same on all three revisions, and is neither read nor
 * written. `ours` wins what both changed; `primary` names the side that is the primary content. A merge that adds,
 * deletes or moves pages reads the primary content's tree (ids and parents, no bodies) to find the pages it leaves
 * without their parent: those go to the top level, each a conflict of the tree, and a page outside the changes moved so
 * joins them, read whole and added to the primary side.
 */
async function mergeChanges(
  sql: SqlRunner,
  { base, ours, theirs, primary }: { base: RevisionPoint; ours: Revision; theirs: Revision; primary: 'ours' | 'theirs' },
  sides: Sides,
) {
  const [line, main] = primary === 'ours' ? [theirs, ours] : [ours, theirs];
  const keys = await changedKeys(sql, line, line.baseSeq ?? 0, main.seq);
  const points = [base, ours, theirs];
  const pages = await rowsOf(sql, 'PageVersion', points, keys.pages);
  const files = await rowsOf(sql, 'FileVersion', points, keys.files);
  const mergedPages = threeWay('page', PAGE_FIELDS, pages[0], pages[1], pages[2], sides);
  const mergedFiles = threeWay('file', FILE_FIELDS, files[0], files[1], files[2], sides);
  const conflicts = [...mergedPages.conflicts, ...mergedFiles.conflicts];
  const pageKeys = [...keys.pages];
  if (treeChanged(keys.pages, pages[0], [pages[1], pages[2]])) {
    const tree = await sql<{ pageId: string; parentId: string | null }>(
      Prisma.sql`SELECT v."pageId", v."parentId" FROM (${rowsAt('PageVersion', main)}) v`,
    );
    const parents = new Map(tree.map((row) => [row.pageId, row.parentId]));
    for (const id of keys.pages) {
      const merged = mergedPages.result.get(id);
      if (merged) parents.set(id, merged.parentId as string | null);
      else parents.delete(id);
    }
    const detached = detachedPages(parents);
    const outside = detached.filter((id) => !mergedPages.result.has(id));
    const primaryPages = pages[primary === 'ours' ? 1 : 2];
    if (outside.length) for (const [id, entry] of (await rowsOf(sql, 'PageVersion', [main], outside))[0]) primaryPages.set(id, entry);
    pageKeys.push(...outside);
    for (const id of detached) {
      mergedPages.result.set(id, { ...copyOf(mergedPages.result.get(id) ?? primaryPages.get(id)!), parentId: null });
      conflicts.push({ kind: 'page', id, fields: ['tree'] });
    }
  }
  return {
    pages,
    files,
    result: { pages: mergedPages.result, files: mergedFiles.result },
    keys: { pages: pageKeys, files: keys.files },
    conflicts,
  };
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
  const merged = await mergeChanges(
    sql,
    { base: baseOf(theirs), ours: main, theirs, primary: 'ours' },
    { ours: 'main', theirs: 'change request' },
  );
  if (merged.conflicts.length) return { result: 'conflicts', revision: theirs, conflicts: merged.conflicts };
  const now = new Date();
  const changes = (keys: readonly string[], current: Map<string, Entry>, result: Map<string, Entry>, fields: readonly string[]) => ({
    written: keys.flatMap((id) => {
      const entry = result.get(id);
      return entry && !sameEntry(current.get(id), entry, fields) ? [contentOf(entry, now)] : [];
    }),
    deleted: keys.filter((id) => current.has(id) && !result.has(id)),
  });
  const pageChanges = changes(merged.keys.pages, merged.pages[1], merged.result.pages, PAGE_FIELDS);
  const fileChanges = changes(merged.keys.files, merged.files[1], merged.result.files, FILE_FIELDS);
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
  const merged = await mergeChanges(
    sql,
    { base: baseOf(ours), ours, theirs: main, primary: 'theirs' },
    { ours: 'change request', theirs: 'main' },
  );
  const { pages, files, conflicts } = merged;
  const now = new Date();
  // The line keeps rows only where it differs from the new primary content: what the line showed through its own
  // rows (where it differed from its old base) or through the primary content, against what it must show now.
  const rebase = (
    keys: readonly string[],
    [base, own, primary]: Map<string, Entry>[],
    result: Map<string, Entry>,
    fields: readonly string[],
  ) => {
    const out = { written: [] as unknown[], deleted: [] as string[], restored: [] as string[] };
    for (const id of keys) {
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
  const pageChanges = rebase(merged.keys.pages, pages, merged.result.pages, PAGE_FIELDS);
  const fileChanges = rebase(merged.keys.files, files, merged.result.files, FILE_FIELDS);
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
