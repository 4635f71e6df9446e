// Three-way merges of a change request's line with the primary content: clean combinations at the tree level and
// inside a page's text, conflicts that refuse a merge and are kept by an update, and the tree kept whole.
import { beforeAll, describe, expect, it } from 'vitest';
import { pageVersionHooks } from '../../src/composition.js';
import type { Revision } from '../../src/generated/prisma/client.js';
import { mergeIntoMain, updateFromMain } from '../../src/revisions/merge.js';
import { MAIN, type PageContent, pageAt, pagesAt, type RevisionChanges, writeRevision } from '../../src/revisions/store.js';
import { useDatabase } from '../support/database.js';
import { buildSpace, buildUser } from '../support/factories.js';
import { page as content } from './content.js';

const db = useDatabase();
let userId: string;
beforeAll(async () => {
  userId = (await buildUser(db.prisma)).userId;
});

/** A page whose markdown is five lines, one word each. */
const page = (pageId: string, title: string, fields: Partial<PageContent> = {}) =>
  content(pageId, title, { markdown: 'one\ntwo\nthree\nfour\nfive\n', ...fields });

/** A space whose primary content has pages p0..p3, and a change request line started from it. */
async function fixture() {
  const space = await buildSpace(db.prisma, {});
  const first = await db.prisma.revision.findUniqueOrThrow({ where: { id: space.revisionId! } });
  const write = (parent: Revision, changes: RevisionChanges, line = MAIN, type: Revision['type'] = 'edits', baseSeq?: number) =>
    db.prisma.$transaction((tx) =>
      writeRevision(tx, pageVersionHooks, { spaceId: space.id, line, parent, type, createdById: userId, baseSeq }, changes),
    );
  const main = await write(first, { pages: ['p0', 'p1', 'p2', 'p3'].map((id, i) => page(id, `Page ${i}`, { position: i })) });
  const line = `cr${Math.random().toString(36).slice(2, 12)}`;
  const cr = await write(main, {}, line);
  return { space, main, cr, line, write };
}
const state = async (at: Revision) =>
  Object.fromEntries((await pagesAt(db.sql, at)).map((p) => [p.pageId, { title: p.title, parentId: p.parentId, markdown: p.markdown }]));
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
