// Three-way merges of a change request's line with the primary content: clean combinations at the tree level, field by
// field and inside a page's text, of pages and of files; conflicts that refuse a merge and are kept by an update; pages
// whose parent the other side moved or deleted; and the tree kept whole.
import { beforeAll, describe, expect, it } from 'vitest';
import { pageVersionHooks } from '../../src/composition.js';
import type { Revision } from '../../src/generated/prisma/client.js';
import { mergeIntoMain, updateFromMain } from '../../src/revisions/merge.js';
import {
  type FileContent,
  filesAt,
  MAIN,
  type PageContent,
  pageAt,
  pagesAt,
  type RevisionChanges,
  writeRevision,
} from '../../src/revisions/store.js';
import { useDatabase } from '../support/database.js';
import { buildSpace, buildUser } from '../support/factories.js';
import { page as content, file } from './content.js';

const db = useDatabase();
let userId: string;
beforeAll(async () => {
  userId = (await buildUser(db.prisma)).userId;
});

/** A page whose markdown is five lines, one word each. */
const page = (pageId: string, title: string, fields: Partial<PageContent> = {}) =>
  content(pageId, title, { markdown: 'one\ntwo\nthree\nfour\nfive\n', ...fields });

/** A space whose primary content has pages p0..p3 (and these files), and a change request line started from it. */
async function fixture(files: FileContent[] = []) {
  const space = await buildSpace(db.prisma, {});
  const first = await db.prisma.revision.findUniqueOrThrow({ where: { id: space.revisionId! } });
  const write = (parent: Revision, changes: RevisionChanges, line = MAIN, type: Revision['type'] = 'edits', baseSeq?: number) =>
    db.prisma.$transaction((tx) =>
      writeRevision(tx, pageVersionHooks, { spaceId: space.id, line, parent, type, createdById: userId, baseSeq }, changes),
    );
  const main = await write(first, { pages: ['p0', 'p1', 'p2', 'p3'].map((id, i) => page(id, `Page ${i}`, { position: i })), files });
  const line = `cr${Math.random().toString(36).slice(2, 12)}`;
  const cr = await write(main, {}, line);
  return { space, main, cr, line, write };
}
const state = async (at: Revision) =>
  Object.fromEntries((await pagesAt(db.sql, at)).map((p) => [p.pageId, { title: p.title, parentId: p.parentId, markdown: p.markdown }]));
const fileNames = async (at: Revision) => Object.fromEntries((await filesAt(db.sql, at)).map((f) => [f.fileId, f.name]));
const merge = (main: Revision, cr: Revision) =>
  db.prisma.$transaction((tx) => mergeIntoMain(tx, db.sql, pageVersionHooks, main, cr, userId));
const update = (cr: Revision, main: Revision) =>
  db.prisma.$transaction((tx) => updateFromMain(tx, db.sql, pageVersionHooks, cr, main, userId));

describe('merging a change request into the primary content', () => {
  it('combines changes of different pages, moves, inserts and deletes, and writes rows for the changes only', async () => {
    const { space, main, cr, line, write } = await fixture();
    const main2 = await write(main, { pages: [page('p0', 'Main renamed p0')], deletedPages: ['p3'] });
    const cr2 = await write(
      cr,
      { pages: [page('p1', 'CR renamed p1', { parentId: 'p0' }), page('p9', 'New')], deletedPages: ['p2'] },
      line,
    );
    const rows = await db.prisma.pageVersion.count({ where: { spaceId: space.id } });
    const outcome = await merge(main2, cr2);
    expect(outcome.result).toBe('merge');
    expect(outcome.revision).toMatchObject({ line: MAIN, seq: main2.seq + 1, type: 'merge', parents: [main2.id, cr2.id] });
    const merged = await state(outcome.revision);
    expect(Object.keys(merged).sort()).toEqual(['p0', 'p1', 'p9']);
    expect(merged.p0.title).toBe('Main renamed p0');
    expect(merged.p1).toMatchObject({ title: 'CR renamed p1', parentId: 'p0' });
    // p1 and p9 written; p2's row closed, none added.
    expect(await db.prisma.pageVersion.count({ where: { spaceId: space.id } })).toBe(rows + 2);
  });

  it('combines edits of different lines of one page, and refuses edits of the same line, writing nothing', async () => {
    const { main, cr, line, write } = await fixture();
    const main2 = await write(main, { pages: [page('p0', 'Page 0', { markdown: 'ONE\ntwo\nthree\nfour\nfive\n' })] });
    const cr2 = await write(cr, { pages: [page('p0', 'Page 0', { markdown: 'one\ntwo\nthree\nfour\nFIVE\n' })] }, line);
    const clean = await merge(main2, cr2);
    expect(clean.result).toBe('merge');
    expect((await pageAt(db.sql, clean.revision, 'p0'))?.markdown).toBe('ONE\ntwo\nthree\nfour\nFIVE\n');

    const fresh = await fixture();
    const m2 = await fresh.write(fresh.main, { pages: [page('p0', 'Page 0', { markdown: 'one\nTWO (main)\nthree\nfour\nfive\n' })] });
    const c2 = await fresh.write(
      fresh.cr,
      { pages: [page('p0', 'Page 0', { markdown: 'one\nTWO (cr)\nthree\nfour\nfive\n' })] },
      fresh.line,
    );
    const before = await db.prisma.revision.count({ where: { spaceId: fresh.space.id } });
    const refused = await merge(m2, c2);
    expect(refused).toMatchObject({
      result: 'conflicts',
      revision: { id: c2.id },
      conflicts: [{ kind: 'page', id: 'p0', fields: ['markdown'] }],
    });
    expect(await db.prisma.revision.count({ where: { spaceId: fresh.space.id } })).toBe(before);
  });

  it('refuses a delete of what the other side changed, and moves that would make a cycle', async () => {
    const { main, cr, line, write } = await fixture();
    const m2 = await write(main, { pages: [page('p1', 'Page 1', { parentId: 'p0' })], deletedPages: ['p2'] });
    const c2 = await write(cr, { pages: [page('p0', 'Page 0', { parentId: 'p1' }), page('p2', 'Page 2 edited')] }, line);
    const outcome = await merge(m2, c2);
    expect(outcome.result).toBe('conflicts');
    expect(outcome.conflicts).toEqual(
      expect.arrayContaining([
        { kind: 'page', id: 'p2', fields: ['deleted'] },
        expect.objectContaining({ kind: 'page', fields: ['tree'] }),
      ]),
    );
  });

  it('keeps what both sides changed the same way, and combines the fields each side changed of one page', async () => {
    const { space, main, cr, line, write } = await fixture();
    const main2 = await write(main, {
      pages: [page('p0', 'Renamed by both'), page('p1', 'P1 by both', { position: 1, emoji: '1f600' })],
      deletedPages: ['p3'],
    });
    const cr2 = await write(
      cr,
      {
        pages: [page('p0', 'Renamed by both'), page('p1', 'P1 by both', { position: 1, markdown: 'one\ntwo\nthree\nfour\nfive (cr)\n' })],
        deletedPages: ['p3'],
      },
      line,
    );
    const rows = await db.prisma.pageVersion.count({ where: { spaceId: space.id } });
    const outcome = await merge(main2, cr2);
    expect(outcome).toMatchObject({ result: 'merge', conflicts: [] });
    expect(await state(outcome.revision)).toEqual({
      p0: { title: 'Renamed by both', parentId: null, markdown: 'one\ntwo\nthree\nfour\nfive\n' },
      p1: { title: 'P1 by both', parentId: null, markdown: 'one\ntwo\nthree\nfour\nfive (cr)\n' },
      p2: { title: 'Page 2', parentId: null, markdown: 'one\ntwo\nthree\nfour\nfive\n' },
    });
    expect((await pageAt(db.sql, outcome.revision, 'p1'))?.emoji).toBe('1f600');
    // Only p1, combined, is new to the primary content: p0 is its own row already, p3 was gone from it.
    expect(await db.prisma.pageVersion.count({ where: { spaceId: space.id } })).toBe(rows + 1);
  });

  it('refuses a field both sides changed differently; an update keeps the change request’s value, which then merges', async () => {
    const { main, cr, line, write } = await fixture();
    const m2 = await write(main, { pages: [page('p0', 'Main title', { slug: 'page-0' })] });
    const c2 = await write(cr, { pages: [page('p0', 'CR title', { slug: 'page-0' })] }, line);
    const refused = await merge(m2, c2);
    expect(refused).toMatchObject({ result: 'conflicts', conflicts: [{ kind: 'page', id: 'p0', fields: ['title'] }] });
    const updated = await update(c2, m2);
    expect(updated).toMatchObject({ result: 'conflicts', conflicts: [{ kind: 'page', id: 'p0', fields: ['title'] }] });
    expect((await state(updated.revision)).p0.title).toBe('CR title');
    const merged = await merge(m2, updated.revision);
    expect(merged.result).toBe('merge');
    expect((await state(merged.revision)).p0.title).toBe('CR title');
  });

  it('merges files as it merges pages, refusing a file both sides changed differently or one deleted and the other changed', async () => {
    const { main, cr, line, write } = await fixture([file('f0', 'a.png'), file('f1', 'b.png'), file('f2', 'c.png')]);
    const m2 = await write(main, { files: [file('f2', 'c (main).png')], deletedFiles: ['f0'] });
    const c2 = await write(cr, { files: [file('f1', 'b (cr).png'), file('f3', 'd.png')] }, line);
    const merged = await merge(m2, c2);
    expect(merged.result).toBe('merge');
    expect(await fileNames(merged.revision)).toEqual({ f1: 'b (cr).png', f2: 'c (main).png', f3: 'd.png' });

    const c3 = await write(c2, { files: [file('f0', 'a (cr).png'), file('f2', 'c (cr).png')] }, line);
    const conflicts = [
      { kind: 'file', id: 'f0', fields: ['deleted'] },
      { kind: 'file', id: 'f2', fields: ['name'] },
    ];
    expect(await merge(m2, c3)).toMatchObject({ result: 'conflicts', conflicts });
    // An update keeps the change request's side of both.
    const updated = await update(c3, m2);
    expect(updated).toMatchObject({ result: 'conflicts', conflicts });
    expect(await fileNames(updated.revision)).toEqual({ f0: 'a (cr).png', f1: 'b (cr).png', f2: 'c (cr).png', f3: 'd.png' });
  });

  it('merges a change request that changed nothing as a merge revision that writes no row', async () => {
    const { space, main, cr, write } = await fixture();
    const main2 = await write(main, { pages: [page('p0', 'Main renamed p0')] });
    const rows = await db.prisma.pageVersion.count({ where: { spaceId: space.id } });
    const outcome = await merge(main2, cr);
    expect(outcome.result).toBe('merge');
    expect(outcome.revision).toMatchObject({ seq: main2.seq + 1, parents: [main2.id, cr.id] });
    expect(await state(outcome.revision)).toEqual(await state(main2));
    expect(await db.prisma.pageVersion.count({ where: { spaceId: space.id } })).toBe(rows);
  });
});

describe('a change request’s page under a parent the primary content moved or deleted', () => {
  it('follows its parent where the primary content moved it', async () => {
    const { main, cr, line, write } = await fixture();
    const m2 = await write(main, { pages: [page('p1', 'Page 1', { parentId: 'p0', position: 1 })] });
    const c2 = await write(cr, { pages: [page('new', 'New', { parentId: 'p1' })] }, line);
    const outcome = await merge(m2, c2);
    expect(outcome.result).toBe('merge');
    const merged = await state(outcome.revision);
    expect([merged.new.parentId, merged.p1.parentId]).toEqual(['p1', 'p0']);
  });

  it('is refused where the primary content deleted its parent; an update lifts it to the top level, which then merges', async () => {
    const { main, cr, line, write } = await fixture();
    const m2 = await write(main, { deletedPages: ['p2'] });
    // A page added under p2, and one moved there.
    const c2 = await write(cr, { pages: [page('new', 'New', { parentId: 'p2' }), page('p3', 'Page 3', { parentId: 'p2' })] }, line);
    const refused = await merge(m2, c2);
    expect(refused.result).toBe('conflicts');
    const treeConflicts = [
      { kind: 'page', id: 'new', fields: ['tree'] },
      { kind: 'page', id: 'p3', fields: ['tree'] },
    ];
    expect([...refused.conflicts].sort((a, b) => a.id.localeCompare(b.id))).toEqual(treeConflicts);
    const updated = await update(c2, m2);
    expect(updated.result).toBe('conflicts');
    const lifted = await state(updated.revision);
    expect([lifted.p2, lifted.new.parentId, lifted.p3.parentId]).toEqual([undefined, null, null]);
    const merged = await merge(m2, updated.revision);
    expect(merged.result).toBe('merge');
    expect(Object.keys(await state(merged.revision)).sort()).toEqual(['new', 'p0', 'p1', 'p3']);
  });
});

describe('keeping the tree within its depth', () => {
  it('refuses a merge whose moves add up to pages deeper than 10 levels, and an update lifts them to the top', async () => {
    const { main, cr, line, write } = await fixture();
    // Two chains of five levels: a0..a4 and b0..b4.
    const chain = (name: string) =>
      Array.from({ length: 5 }, (_, i) => page(`${name}${i}`, `${name}${i}`, { parentId: i ? `${name}${i - 1}` : null }));
    const main2 = await write(main, { pages: [...chain('a'), ...chain('b')] });
    const cr2 = await write(cr, {}, line, undefined, main2.seq);
    // The primary content hangs b under a (b4 at level 10); the change request adds c under b4 (its level 6 there).
    const main3 = await write(main2, { pages: [page('b0', 'b0', { parentId: 'a4' })] });
    const cr3 = await write(cr2, { pages: [page('c', 'c', { parentId: 'b4' })] }, line);
    const refused = await merge(main3, cr3);
    expect(refused.result).toBe('conflicts');
    expect(refused.conflicts).toEqual([{ kind: 'page', id: 'c', fields: ['tree'] }]);
    const updated = await update(cr3, main3);
    expect(updated.result).toBe('conflicts');
    expect((await state(updated.revision)).c.parentId).toBeNull();
  });
});

describe('updating a change request from the primary content', () => {
  it('rebases a clean change request: it then shows the new primary content under its own changes', async () => {
    const { main, cr, line, write } = await fixture();
    const c2 = await write(cr, { pages: [page('p1', 'CR p1')], deletedPages: ['p3'] }, line);
    const m2 = await write(main, { pages: [page('p0', 'Main p0'), page('p8', 'Main new')] });
    const outcome = await update(c2, m2);
    expect(outcome.result).toBe('update');
    expect(outcome.revision).toMatchObject({ line, seq: c2.seq + 1, baseSeq: m2.seq, type: 'update', parents: [c2.id, m2.id] });
    expect(Object.keys(await state(outcome.revision)).sort()).toEqual(['p0', 'p1', 'p2', 'p8']);
    expect((await state(outcome.revision)).p0.title).toBe('Main p0');
    // Up to date: nothing to do, and then the merge is clean.
    expect((await update(outcome.revision, m2)).revision.id).toBe(outcome.revision.id);
    const merged = await merge(m2, outcome.revision);
    expect(merged.result).toBe('merge');
    expect(Object.keys(await state(merged.revision)).sort()).toEqual(['p0', 'p1', 'p2', 'p8']);
  });

  it('keeps both sides of a text conflict in the change request, marked; once resolved, it merges', async () => {
    const { main, cr, line, write } = await fixture();
    const m2 = await write(main, { pages: [page('p0', 'Page 0', { markdown: 'one\nTWO (main)\nthree\nfour\nfive\n' })] });
    const c2 = await write(cr, { pages: [page('p0', 'Page 0', { markdown: 'one\nTWO (cr)\nthree\nfour\nfive\n' })] }, line);
    const outcome = await update(c2, m2);
    expect(outcome.result).toBe('conflicts');
    expect((await pageAt(db.sql, outcome.revision, 'p0'))?.markdown).toBe(
      'one\n<<<<<<< change request\nTWO (cr)\n=======\nTWO (main)\n>>>>>>> main\nthree\nfour\nfive\n',
    );
    // The primary content is untouched.
    expect((await pageAt(db.sql, m2, 'p0'))?.markdown).toBe('one\nTWO (main)\nthree\nfour\nfive\n');
    const resolved = await write(
      outcome.revision,
      { pages: [page('p0', 'Page 0', { markdown: 'one\nTWO (both)\nthree\nfour\nfive\n' })] },
      line,
    );
    const merged = await merge(m2, resolved);
    expect(merged.result).toBe('merge');
    expect((await pageAt(db.sql, merged.revision, 'p0'))?.markdown).toBe('one\nTWO (both)\nthree\nfour\nfive\n');
  });

  it('brings back a page the change request deleted and the primary content changed, ending its tombstone', async () => {
    const { space, main, cr, line, write } = await fixture();
    const c2 = await write(cr, { pages: [page('p0', 'Renamed by both')], deletedPages: ['p2'] }, line);
    const m2 = await write(main, { pages: [page('p0', 'Renamed by both'), page('p2', 'Main p2', { position: 2 })] });
    const rows = await db.prisma.pageVersion.count({ where: { spaceId: space.id } });
    const outcome = await update(c2, m2);
    expect(outcome).toMatchObject({ result: 'conflicts', conflicts: [{ kind: 'page', id: 'p2', fields: ['deleted'] }] });
    // The primary content's page shows through the change request's line again.
    expect(await pageAt(db.sql, outcome.revision, 'p2')).toMatchObject({ title: 'Main p2', line: MAIN });
    expect((await state(outcome.revision)).p0.title).toBe('Renamed by both');
    // Rows ended, none written: not for p2, nor for p0, which both sides changed alike.
    expect(await db.prisma.pageVersion.count({ where: { spaceId: space.id } })).toBe(rows);
  });

  it('keeps a page the change request changed and the primary content deleted, and mends a cycle of moves', async () => {
    const { main, cr, line, write } = await fixture();
    const m2 = await write(main, { pages: [page('p1', 'Page 1', { parentId: 'p0' })], deletedPages: ['p2'] });
    const c2 = await write(cr, { pages: [page('p0', 'Page 0', { parentId: 'p1' }), page('p2', 'Page 2 edited')] }, line);
    const outcome = await update(c2, m2);
    expect(outcome.result).toBe('conflicts');
    const after = await state(outcome.revision);
    expect(after.p2.title).toBe('Page 2 edited');
    // p0 under p1 and p1 under p0: one of them goes to the top level, so the tree has a root again.
    expect([after.p0.parentId, after.p1.parentId]).toContain(null);
  });
});
