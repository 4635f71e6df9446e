// The revision store: every revision reads back as it was written, a change request's line shows its own changes
// over the primary content it builds on, and a revision that changes one page of a 1,000-page space writes one page
// row, not a copy of the space. Files are kept as pages are; a change request's line lets the primary content show
// through again where it ends its own rows. What follows page versions through the store's hooks (the search index,
// the links) rides in the statements that write them.
import { beforeAll, describe, expect, it } from 'vitest';
import { pageVersionHooks } from '../../src/composition.js';
import type { Revision } from '../../src/generated/prisma/client.js';
import { copyContent, fileAt, filesAt, MAIN, pageAt, pagesAt, writeRevision } from '../../src/revisions/store.js';
import { useDatabase } from '../support/database.js';
import { buildSpace, buildUser } from '../support/factories.js';
import { page as content, file } from './content.js';

const db = useDatabase();
let userId: string;
beforeAll(async () => {
  userId = (await buildUser(db.prisma)).userId;
});

const page = (pageId: string, title: string, position = 0) => content(pageId, title, { position });
const titles = async (at: Revision) => (await pagesAt(db.sql, at)).map((p) => `${p.pageId}:${p.title}`).sort();

async function spaceWithPages(count: number) {
  const space = await buildSpace(db.prisma, {});
  const first = await db.prisma.revision.findUniqueOrThrow({ where: { id: space.revisionId! } });
  const pages = Array.from({ length: count }, (_, i) => page(`p${i}`, `Page ${i}`, i));
  const revision = await db.prisma.$transaction((tx) =>
    writeRevision(tx, pageVersionHooks, { spaceId: space.id, line: MAIN, parent: first, type: 'edits', createdById: userId }, { pages }),
  );
  return { space, first, revision };
}

const rowCount = async (spaceId: string) => db.prisma.pageVersion.count({ where: { spaceId } });

describe('the revision store', () => {
  it('writes one page row for a one-page edit of a 1,000-page space, and reads every revision as it was', async () => {
    const { space, first, revision } = await spaceWithPages(1000);
    expect(await rowCount(space.id)).toBe(1000);
    const before = await rowCount(space.id);
    const edited = await db.prisma.$transaction((tx) =>
      writeRevision(
        tx,
        pageVersionHooks,
        { spaceId: space.id, line: MAIN, parent: revision, type: 'edits', createdById: userId },
        { pages: [page('p7', 'Page seven')] },
      ),
    );
    expect(await rowCount(space.id)).toBe(before + 1);
    expect(edited).toMatchObject({ line: MAIN, seq: 3, parents: [revision.id] });
    expect(await pagesAt(db.sql, first)).toEqual([]);
    expect((await pageAt(db.sql, revision, 'p7'))?.title).toBe('Page 7');
    expect((await pageAt(db.sql, edited, 'p7'))?.title).toBe('Page seven');
    const all = await pagesAt(db.sql, edited);
    expect(all).toHaveLength(1000);
    expect(all.filter((p) => p.title === 'Page seven')).toHaveLength(1);
    // Reading is one statement whatever the size.
    const counted = db.statements.count;
    await pagesAt(db.sql, edited);
    expect(db.statements.count - counted).toBe(1);
  });

  it('shows a change request its own pages over the primary content it builds on, deletions included', async () => {
    const { space, revision: main1 } = await spaceWithPages(3);
    const line = 'changeRequest000001';
    const write = (parent: Revision, changes: Parameters<typeof writeRevision>[3], onLine = line, baseSeq?: number) =>
      db.prisma.$transaction((tx) =>
        writeRevision(
          tx,
          pageVersionHooks,
          { spaceId: space.id, line: onLine, parent, type: 'edits', createdById: userId, baseSeq },
          changes,
        ),
      );

    const start = await write(main1, {});
    expect(start).toMatchObject({ line, seq: 1, baseSeq: main1.seq });
    expect(await titles(start)).toEqual(['p0:Page 0', 'p1:Page 1', 'p2:Page 2']);

    const cr2 = await write(start, { pages: [page('p1', 'Changed in CR'), page('p9', 'New in CR')], deletedPages: ['p2'] });
    expect(await titles(cr2)).toEqual(['p0:Page 0', 'p1:Changed in CR', 'p9:New in CR']);
    expect(await titles(start)).toEqual(['p0:Page 0', 'p1:Page 1', 'p2:Page 2']);

    // The primary content moves on: the change request still sees it as it was at its base.
    const main2 = await write(main1, { pages: [page('p0', 'Changed in main')], deletedPages: ['p1'] }, MAIN);
    expect(await titles(main2)).toEqual(['p0:Changed in main', 'p2:Page 2']);
    expect(await titles(cr2)).toEqual(['p0:Page 0', 'p1:Changed in CR', 'p9:New in CR']);
    // A revision of the change request built on the newer primary content sees that.
    const cr3 = await write(cr2, {}, line, main2.seq);
    expect(await titles(cr3)).toEqual(['p0:Changed in main', 'p1:Changed in CR', 'p9:New in CR']);
    // Restoring a page the change request deleted.
    const cr4 = await write(cr3, { pages: [page('p2', 'Back')] });
    expect(await titles(cr4)).toEqual(['p0:Changed in main', 'p1:Changed in CR', 'p2:Back', 'p9:New in CR']);
  });

  it('keeps files as it keeps pages, and lets the primary content show through where a change request restores', async () => {
    const { space, revision: main1 } = await spaceWithPages(1);
    const line = 'changeRequest000003';
    const write = (parent: Revision, changes: Parameters<typeof writeRevision>[3], onLine = line) =>
      db.prisma.$transaction((tx) =>
        writeRevision(tx, pageVersionHooks, { spaceId: space.id, line: onLine, parent, type: 'edits', createdById: userId }, changes),
      );
    const names = async (at: Revision) => (await filesAt(db.sql, at)).map((f) => `${f.fileId}:${f.name}:${f.line}`).sort();
    const main2 = await write(main1, { files: [file('f0', 'a.png'), file('f1', 'b.png')] }, MAIN);
    expect(await names(main2)).toEqual(['f0:a.png:main', 'f1:b.png:main']);
    expect(await filesAt(db.sql, main1)).toEqual([]);

    const cr1 = await write(main2, { pages: [page('p0', 'Changed in CR')], files: [file('f0', 'a (cr).png')], deletedFiles: ['f1'] });
    expect(await names(cr1)).toEqual([`f0:a (cr).png:${line}`]);
    expect(await fileAt(db.sql, cr1, 'f1')).toBeNull();
    expect((await fileAt(db.sql, main2, 'f1'))?.name).toBe('b.png');

    // Restoring ends the line's own rows (the tombstone too) and writes none.
    const rows = async () =>
      (await db.prisma.pageVersion.count({ where: { spaceId: space.id } })) +
      (await db.prisma.fileVersion.count({ where: { spaceId: space.id } }));
    const before = await rows();
    const cr2 = await write(cr1, { restoredPages: ['p0'], restoredFiles: ['f0', 'f1'] });
    expect(await rows()).toBe(before);
    expect(await names(cr2)).toEqual(['f0:a.png:main', 'f1:b.png:main']);
    expect(await pageAt(db.sql, cr2, 'p0')).toMatchObject({ title: 'Page 0', line: MAIN });
    // The revision before the restore reads as it was.
    expect(await names(cr1)).toEqual([`f0:a (cr).png:${line}`]);
  });

  it('copies a revision into another space as its first revision', async () => {
    const { revision } = await spaceWithPages(5);
    const copy = await buildSpace(db.prisma, {});
    await db.prisma.$transaction((tx) => copyContent(tx, pageVersionHooks, revision, copy.id));
    const first = await db.prisma.revision.findUniqueOrThrow({ where: { id: copy.revisionId! } });
    expect(await titles(first)).toEqual(await titles(revision));
  });

  it('writes, and copies, the search index and the links of pages in the statements that write the pages', async () => {
    const { space, revision } = await spaceWithPages(1);
    const write = async (line: string, parent: Revision, markdown: string) => {
      const before = db.statements.count;
      const written = await db.prisma.$transaction((tx) =>
        writeRevision(
          tx,
          pageVersionHooks,
          { spaceId: space.id, line, parent, type: 'edits', createdById: userId },
          { pages: [content('p0', 'Page 0', { markdown })] },
        ),
      );
      const statements = db.statements.count - before;
      const version = (await pageAt(db.sql, written, 'p0'))!;
      return {
        written,
        statements,
        indexed: await db.prisma.pageSearch.count({ where: { pageVersionId: version.id } }),
        links: await db.prisma.pageLink.count({ where: { pageVersionId: version.id } }),
      };
    };
    const linking = 'See [the guide](https://example.com/guide) and [the rest](https://example.com/rest).\n';
    const plain = await write(MAIN, revision, 'No link here.\n');
    const linked = await write(MAIN, plain.written, linking);
    expect(plain).toMatchObject({ indexed: 1, links: 0 });
    expect(linked).toMatchObject({ indexed: 1, links: 2, statements: plain.statements });
    // A change request's line is not searched; its pages' links are written all the same, in as many statements.
    const line = 'changeRequest000002';
    const draftPlain = await write(line, linked.written, 'No link here.\n');
    const draftLinked = await write(line, draftPlain.written, linking);
    expect(draftPlain).toMatchObject({ indexed: 0, links: 0, statements: plain.statements });
    expect(draftLinked).toMatchObject({ indexed: 0, links: 2, statements: plain.statements });

    const copy = await buildSpace(db.prisma, {});
    const before = db.statements.count;
    await db.prisma.$transaction((tx) => copyContent(tx, pageVersionHooks, linked.written, copy.id));
    // BEGIN, the pages with their index and links, the files, COMMIT.
    expect(db.statements.count - before).toBe(4);
    const copied = (await db.prisma.pageVersion.findFirstOrThrow({ where: { spaceId: copy.id, pageId: 'p0' } })).id;
    expect(await db.prisma.pageSearch.count({ where: { pageVersionId: copied } })).toBe(1);
    expect(await db.prisma.pageLink.count({ where: { pageVersionId: copied } })).toBe(2);
  });
});
