// Content change batches, applied to a change request's content: inserts with titles from front matter or the
// leading heading, slugs unique among siblings, moves with into/at, deletes of subtrees, reverts to the base, and
// refusals that name the operation. Over pages in memory, then over the revision store's own draft source on a
// database, which reads the bodies of the pages a batch touches only.
import { beforeAll, describe, expect, it } from 'vitest';
import { pageVersionHooks } from '../../src/composition.js';
import type { PageVersion, Revision } from '../../src/generated/prisma/client.js';
import { type DraftSource, DraftTree, revisionPages } from '../../src/revisions/edits/draft.js';
import { applyChanges, type ContentChange, type EditContext } from '../../src/revisions/edits.js';
import { PAGE_ID_PREFIX } from '../../src/revisions/markdown.js';
import type { PageHead } from '../../src/revisions/read.js';
import { filesAt, MAIN, type PageContent, pageAt, pagesAt, type RevisionChanges, writeRevision } from '../../src/revisions/store.js';
import { useDatabase } from '../support/database.js';
import { buildSpace } from '../support/factories.js';
import { page, pageVersion } from './content.js';

const now = new Date('2026-11-23T12:00:00Z');
const row = (pageId: string, title: string, parentId: string | null, position: number) =>
  pageVersion(pageId, title, { line: 'cr', parentId, position, slug: title.toLowerCase() });

/** One read of a draft's source: which, for which pages, and the heads and bodies it brought. */
interface SourceRead {
  read: keyof DraftSource;
  ids: readonly (string | null)[];
  heads: number;
  bodies: string[];
}

/** Rows as a draft's source reads them, with the reads it was asked for. */
function memorySource(rows: PageVersion[]): DraftSource & { reads: SourceRead[] } {
  const headOf = ({ markdown: _markdown, document: _document, ...head }: PageVersion) => head;
  const byId = new Map(rows.map((r) => [r.pageId, r]));
  const under = (ids: readonly string[]): PageVersion[] => {
    const children = rows.filter((r) => r.parentId !== null && ids.includes(r.parentId));
    return children.length ? [...children, ...under(children.map((r) => r.pageId))] : [];
  };
  const reads: SourceRead[] = [];
  const record = (read: keyof DraftSource, ids: readonly (string | null)[], found: PageVersion[], bodies: string[] = []) => {
    reads.push({ read, ids, heads: found.length, bodies });
    return found.map(headOf);
  };
  const bodiesOf = (ids: readonly string[]) =>
    new Map(rows.filter((r) => ids.includes(r.pageId)).map((r) => [r.pageId, { markdown: r.markdown, document: r.document }]));
  return {
    reads,
    pages: async (ids, withBodies) => {
      const found: PageVersion[] = [];
      for (let at = ids.flatMap((id) => byId.get(id) ?? []); at.length; at = at.flatMap((r) => byId.get(r.parentId ?? '') ?? [])) {
        found.push(...at);
      }
      const bodies = bodiesOf(withBodies.filter((id) => ids.includes(id)));
      return { heads: record('pages', ids, found, [...bodies.keys()]), bodies };
    },
    children: async (ids) =>
      record(
        'children',
        ids,
        rows.filter((r) => ids.includes(r.parentId)),
      ),
    subtrees: async (ids) => record('subtrees', ids, under(ids)),
    all: async () => record('all', [], rows),
    bodies: async (ids) => {
      const bodies = bodiesOf(ids);
      reads.push({ read: 'bodies', ids, heads: 0, bodies: [...bodies.keys()] });
      return bodies;
    },
  };
}

/** Guide (with Install and Usage under it) and FAQ; the base has Guide and FAQ as they are, and no Usage. */
function context(): EditContext & { pages: ReturnType<typeof memorySource> } {
  const rows = [
    row('guide', 'Guide', null, 0),
    row('install', 'Install', 'guide', 0),
    row('usage', 'Usage', 'guide', 1),
    row('faq', 'FAQ', null, 1),
  ];
  const base = new Map(rows.filter((r) => r.pageId !== 'usage').map((r) => [r.pageId, { ...r, title: `${r.title} (base)` }]));
  return {
    pages: memorySource(rows),
    pageIn: async (pageId) => base.get(pageId) ?? null,
    storeFile: async () => {
      throw new Error('no files in these tests');
    },
    files: async () => [],
    now,
  };
}
const apply = (changes: ContentChange[]) => applyChanges(context(), changes);

describe('a batch of content changes', () => {
  it('inserts pages whose title comes from front matter, else the leading heading, else the field', async () => {
    const { changes, affected } = await apply([
      {
        operation: 'insert_page',
        title: 'Ignored',
        document: { markdown: '---\ntitle: From front matter\nhidden: true\n---\n# Heading\n\nBody\n' },
      },
      { operation: 'insert_page', title: 'Ignored too', document: { markdown: '# From the heading\n\nText\n' }, into: 'guide', at: 1 },
      { operation: 'insert_page', title: 'From the field', document: {} },
    ]);
    const [a, b, c] = changes.pages!;
    expect(a).toMatchObject({
      title: 'From front matter',
      hidden: true,
      markdown: '# Heading\n\nBody\n',
      slug: 'from-front-matter',
      parentId: null,
    });
    expect(a.position).toBeGreaterThan(1);
    expect(b).toMatchObject({ title: 'From the heading', parentId: 'guide', slug: 'from-the-heading' });
    // Index 1 among Guide's children: between Install (0) and Usage (1).
    expect(b.position).toBeGreaterThan(0);
    expect(b.position).toBeLessThan(1);
    expect(c).toMatchObject({ title: 'From the field', markdown: null });
    expect(affected.map((entry) => entry.outcome)).toEqual(['created', 'created', 'created']);
  });

  it('keeps slugs unique among siblings: derived ones get a suffix, an explicit clash is refused', async () => {
    const { changes } = await apply([
      { operation: 'insert_page', title: 'FAQ', document: {} },
      { operation: 'insert_page', title: 'FAQ', document: {} },
    ]);
    expect(changes.pages!.map((page) => page.slug)).toEqual(['faq-2', 'faq-3']);
    await expect(apply([{ operation: 'insert_page', title: 'Other', slug: 'faq', document: {} }])).rejects.toThrow(
      'Invalid "changes.0.slug": "faq" is taken by a sibling page.',
    );
  });

  it('moves pages with into and at, and refuses a move under the page itself', async () => {
    const { changes } = await apply([
      { operation: 'update_page', page: 'faq', into: 'guide', at: 0 },
      { operation: 'update_page', page: 'usage', into: null },
    ]);
    const byId = Object.fromEntries(changes.pages!.map((page) => [page.pageId, page]));
    expect(byId.faq.parentId).toBe('guide');
    expect(byId.faq.position).toBeLessThan(0);
    expect(byId.usage.parentId).toBeNull();
    await expect(apply([{ operation: 'update_page', page: 'guide', into: 'install' }])).rejects.toThrow(
      'Invalid "changes.0.into": a page cannot move under itself or its subpages.',
    );
  });

  it('deletes a page with its subpages, and lets later operations see earlier ones (refs included)', async () => {
    const { changes } = await apply([
      { operation: 'insert_page', ref: 'new', title: 'New', document: { markdown: 'x' } },
      { operation: 'update_page', page: 'new', title: 'Renamed new' },
      { operation: 'delete_page', page: 'guide' },
    ]);
    expect([...changes.deletedPages!].sort()).toEqual(['guide', 'install', 'usage']);
    expect(changes.pages!.map((page) => [page.title, page.slug])).toEqual([['Renamed new', 'renamed-new']]);
  });

  it('deletes subpages at every level below the page', async () => {
    const { changes } = await apply([
      { operation: 'insert_page', ref: 'deep', into: 'install', title: 'Deep', document: {} },
      { operation: 'insert_page', ref: 'deeper', into: 'deep', title: 'Deeper', document: {} },
      { operation: 'delete_page', page: 'guide' },
    ]);
    expect([...changes.deletedPages!].sort()).toEqual(['guide', 'install', 'usage']);
    // Inserted, then deleted with Guide: nothing to write.
    expect(changes.pages).toEqual([]);
  });

  it('reverts a page to the base: changed pages show the base again, pages the change request added go', async () => {
    const { changes } = await apply([
      { operation: 'revert_page', page: 'faq' },
      { operation: 'revert_page', page: 'usage' },
    ]);
    expect([...changes.restoredPages!].sort()).toEqual(['faq', 'usage']);
    expect(changes.pages).toEqual([]);
    expect(changes.deletedPages).toEqual([]);
    await expect(apply([{ operation: 'revert_page', page: 'faq', block: ['b1'] }])).rejects.toThrow(/^Invalid "changes.0.block"/);
  });

  it('says what the batch did to each page, judged before and after: first touched first, subpages of a deletion after', async () => {
    const { affected } = await apply([
      { operation: 'update_page', page: 'faq', title: 'Questions' },
      { operation: 'insert_page', title: 'New', document: {}, ref: 'new' },
      { operation: 'insert_page', title: 'Gone again', document: {}, ref: 'fleeting' },
      // Usage is absent from the base: reverting it deletes it.
      { operation: 'revert_page', page: 'usage' },
      { operation: 'delete_page', page: 'guide' },
      { operation: 'update_page', page: 'new', title: 'Newer' },
      { operation: 'delete_page', page: 'fleeting' },
    ]);
    expect(affected).toEqual([
      { pageId: 'faq', outcome: 'updated' },
      { pageId: expect.any(String), outcome: 'created', ref: 'new' },
      { pageId: 'usage', outcome: 'deleted' },
      { pageId: 'guide', outcome: 'deleted' },
      { pageId: 'install', outcome: 'deleted' },
    ]);
  });

  it('resolves references to the batch’s files and to pages, wherever the file comes in the batch, and leaves the rest as written', async () => {
    const withFiles: EditContext = {
      ...context(),
      storeFile: async (file) => ({
        name: file.name,
        contentType: 'image/png',
        storageKey: 'k',
        size: 1,
        width: null,
        height: null,
        gitOid: null,
        gitPath: null,
        createdAt: now,
      }),
    };
    const markdown = [
      '![Diagram](./diagram) and [the same](diagram "title") and [elsewhere](../diagram)',
      '[guide](/pages/guide#setup), [unknown page](/pages/nowhere), [an old file](/files/f0), [site](https://example.com/diagram)',
      '`![not](./diagram)` and [ref][d]',
      '',
      '[d]: ./diagram',
      '',
    ].join('\n');
    const { changes, insertedFiles } = await applyChanges(withFiles, [
      { operation: 'insert_page', title: 'Uses', document: { markdown } },
      { operation: 'insert_files', files: [{ ref: 'diagram', name: 'diagram.png', contentType: 'image/png', base64: 'AA==' }] },
    ]);
    const id = insertedFiles[0].fileId;
    expect(changes.pages![0].markdown).toBe(
      [
        `![Diagram](file-id:${id}) and [the same](file-id:${id} "title") and [elsewhere](file-id:${id})`,
        '[guide](page-id:guide#setup), [unknown page](/pages/nowhere), [an old file](file-id:f0), [site](https://example.com/diagram)',
        '`![not](./diagram)` and [ref][d]',
        '',
        `[d]: file-id:${id}`,
        '',
      ].join('\n'),
    );
  });

  it('refuses pages nested deeper than the tree is written', async () => {
    // Install is at level 2: eight more levels reach 10, the ninth would be 11.
    const nest = (depth: number): ContentChange[] =>
      Array.from({ length: depth }, (_, i) => ({
        operation: 'insert_page',
        ref: `level${i}`,
        into: i === 0 ? 'install' : `level${i - 1}`,
        title: `Level ${i}`,
        document: {},
      }));
    expect((await apply(nest(8))).changes.pages).toHaveLength(8);
    await expect(apply(nest(9))).rejects.toThrow(
      /^Invalid "changes": pages nest at most 10 levels deep; "Level 8" \(.+\) would be at level 11\.$/,
    );
  });

  it('refuses unknown pages and bad front matter, naming the operation', async () => {
    await expect(apply([{ operation: 'update_page', page: 'nope', title: 'x' }])).rejects.toThrow(
      'Invalid "changes.0.page": no page "nope" in the change request.',
    );
    await expect(
      apply([
        { operation: 'delete_page', page: 'faq' },
        { operation: 'delete_page', page: 'faq' },
      ]),
    ).rejects.toThrow(/^Invalid "changes.1.page"/);
    await expect(apply([{ operation: 'insert_page', document: { markdown: '---\n- a\n- b\n---\n' } }])).rejects.toThrow(
      'Invalid "changes.0.document.markdown": its front matter must be a mapping of fields.',
    );
  });

  it('reads the pages it names with their ancestors and the bodies it updates, in one read, then what placing and deleting need', async () => {
    const inserting = context();
    await applyChanges(inserting, [
      { operation: 'insert_page', into: 'guide', title: 'New', document: { markdown: 'Text\n' } },
      { operation: 'delete_page', page: 'faq' },
    ]);
    expect(inserting.pages.reads).toEqual([
      { read: 'pages', ids: ['guide', 'faq'], heads: 2, bodies: [] },
      // The new page's siblings, for its slug and position; what goes with the page deleted.
      { read: 'children', ids: ['guide'], heads: 2, bodies: [] },
      { read: 'subtrees', ids: ['faq'], heads: 0, bodies: [] },
    ]);
    const editing = context();
    const { changes } = await applyChanges(editing, [
      { operation: 'update_page', page: 'install', title: 'Installing' },
      { operation: 'revert_page', page: 'faq' },
      { operation: 'update_page', page: 'install', emoji: '1f600' },
    ]);
    expect(editing.pages.reads).toEqual([
      // Install comes with Guide, above it.
      { read: 'pages', ids: ['install', 'faq'], heads: 3, bodies: ['install', 'faq'] },
      // Renamed: its slug is checked among its siblings.
      { read: 'children', ids: ['guide'], heads: 2, bodies: [] },
    ]);
    // Written whole: the body it was not given is the one it had.
    expect(changes.pages).toEqual([
      expect.objectContaining({ pageId: 'install', title: 'Installing', markdown: '# Install\n\nAbout Install.\n' }),
    ]);
  });

  it('reads the whole tree, heads only, for markdown that links to content by path, and not for text and URLs', async () => {
    const plain = context();
    await applyChanges(plain, [
      { operation: 'update_page', page: 'faq', document: { markdown: 'See [the site](https://example.com) and [below](#below).\n' } },
    ]);
    expect(plain.pages.reads.map((read) => read.read)).toEqual(['pages']);
    const linking = context();
    const { changes } = await applyChanges(linking, [
      { operation: 'update_page', page: 'faq', document: { markdown: 'See [install](guide/install.md).\n' } },
    ]);
    expect(linking.pages.reads.map((read) => [read.read, read.heads])).toEqual([
      ['pages', 1],
      ['all', 4],
    ]);
    expect(changes.pages![0].markdown).toBe(`See [install](${PAGE_ID_PREFIX}install).\n`);
  });

  it('reads a body it was not told of when it is first needed, once', async () => {
    const source = memorySource([row('faq', 'FAQ', null, 0)]);
    const draft = await DraftTree.read(source, ['faq'], []);
    expect((await draft.page('faq'))?.markdown).toBe('# FAQ\n\nAbout FAQ.\n');
    expect((await draft.page('faq'))?.title).toBe('FAQ');
    expect(source.reads).toEqual([
      { read: 'pages', ids: ['faq'], heads: 1, bodies: [] },
      { read: 'bodies', ids: ['faq'], heads: 0, bodies: ['faq'] },
    ]);
  });
});

describe('a batch over the revision store’s pages', () => {
  const db = useDatabase();
  const PAGES = 100;
  let spaceId: string;
  let main: Revision;
  let lines = 0;

  const write = (parent: Revision, changes: RevisionChanges, line: string) =>
    db.prisma.$transaction((tx) =>
      writeRevision(tx, pageVersionHooks, { spaceId, line, parent, type: 'edits', createdById: null }, changes),
    );

  /** A space of 100 pages: p0..p9 at the top level, and under each pN the nine pages p1N..p9N. */
  beforeAll(async () => {
    const space = await buildSpace(db.prisma, {});
    spaceId = space.id;
    const first = await db.prisma.revision.findUniqueOrThrow({ where: { id: space.revisionId! } });
    const pages = Array.from({ length: PAGES }, (_, i) =>
      page(`p${i}`, `Page ${i}`, { parentId: i < 10 ? null : `p${i % 10}`, position: Math.floor(i / 10) }),
    );
    main = await write(first, { pages }, MAIN);
  });

  /**
   * A change request of its own that changed p7 (its own row over the primary content), and a batch's context on its
   * revision through the store's draft source, with what each of the source's reads brought back.
   */
  async function changeRequest(added: PageContent[] = []) {
    const line = `cr${++lines}`;
    const current = await write(
      main,
      { pages: [page('p7', 'Page 7', { position: 0, markdown: 'Changed in the change request.\n' }), ...added] },
      line,
    );
    const source = revisionPages(db.sql, current);
    const reads: { read: string; heads: string[]; bodies: string[] }[] = [];
    const heads = (read: string, found: PageHead[]) => {
      reads.push({ read, heads: found.map((head) => head.pageId).sort(), bodies: [] });
      return found;
    };
    const pages: DraftSource = {
      async pages(pageIds, bodiesOf) {
        const read = await source.pages(pageIds, bodiesOf);
        reads.push({ read: 'pages', heads: read.heads.map((head) => head.pageId).sort(), bodies: [...read.bodies.keys()].sort() });
        return read;
      },
      children: async (parentIds) => heads('children', await source.children(parentIds)),
      subtrees: async (pageIds) => heads('subtrees', await source.subtrees(pageIds)),
      all: async () => heads('all', await source.all()),
      async bodies(pageIds) {
        const read = await source.bodies(pageIds);
        reads.push({ read: 'bodies', heads: [], bodies: [...read.keys()].sort() });
        return read;
      },
    };
    const context: EditContext = {
      pages,
      pageIn: (pageId) => pageAt(db.sql, { spaceId, line: MAIN, seq: current.baseSeq ?? 0, baseSeq: null }, pageId),
      storeFile: async () => {
        throw new Error('no files in these tests');
      },
      files: () => filesAt(db.sql, current),
      now,
    };
    /** Applies a batch, counting its statements, and writes it as the change request's next revision. */
    const apply = async (changes: ContentChange[]) => {
      const before = db.statements.count;
      const result = await applyChanges(context, changes);
      const statements = db.statements.count - before;
      return { ...result, statements, written: await write(current, result.changes, line) };
    };
    return { line, current, reads, pages, apply };
  }

  it('reads the pages it names and their ancestors, the siblings of a page it places, and what a deletion takes along: never the rest', async () => {
    const { reads, apply } = await changeRequest();
    const { changes, statements, written } = await apply([
      { operation: 'insert_page', into: 'p3', title: 'New', document: { markdown: 'Text\n' } },
      { operation: 'delete_page', page: 'p9' },
    ]);
    const underP9 = Array.from({ length: 9 }, (_, k) => `p${(k + 1) * 10 + 9}`).sort();
    expect(reads).toEqual([
      { read: 'pages', heads: ['p3', 'p9'], bodies: [] },
      { read: 'children', heads: Array.from({ length: 9 }, (_, k) => `p${(k + 1) * 10 + 3}`).sort(), bodies: [] },
      { read: 'subtrees', heads: underP9, bodies: [] },
    ]);
    expect(statements).toBe(3);
    expect([...(changes.deletedPages ?? [])].sort()).toEqual(['p9', ...underP9].sort());
    expect(changes.pages).toEqual([expect.objectContaining({ title: 'New', parentId: 'p3', markdown: 'Text\n' })]);
    const after = await pagesAt(db.sql, written);
    expect(after).toHaveLength(PAGES - 10 + 1);
    expect(after.find((row) => row.pageId === 'p9')).toBeUndefined();
  });

  it('reads the bodies of the pages it updates with their heads, in one statement, and writes them whole', async () => {
    const { reads, apply, line } = await changeRequest();
    const { statements, written } = await apply([
      { operation: 'update_page', page: 'p15', title: 'Five' },
      { operation: 'update_page', page: 'p7', emoji: '1f600' },
      { operation: 'update_page', page: 'p15', into: 'p16' },
    ]);
    expect(reads).toEqual([
      { read: 'pages', heads: ['p15', 'p16', 'p5', 'p6', 'p7'], bodies: ['p15', 'p7'] },
      // Renamed, then moved under p16: its slug among its siblings there and then; what moves with it.
      { read: 'children', heads: ['p25', 'p35', 'p45', 'p55', 'p65', 'p75', 'p85', 'p95', 'p15'].sort(), bodies: [] },
      { read: 'children', heads: [], bodies: [] },
      { read: 'subtrees', heads: [], bodies: [] },
    ]);
    expect(statements).toBe(4);
    expect(await pageAt(db.sql, written, 'p15')).toMatchObject({
      title: 'Five',
      parentId: 'p16',
      markdown: '# Page 15\n\nAbout Page 15.\n',
    });
    // The change request's own body of p7, not the primary content's.
    expect(await pageAt(db.sql, written, 'p7')).toMatchObject({ line, emoji: '1f600', markdown: 'Changed in the change request.\n' });
    expect(await pagesAt(db.sql, written)).toHaveLength(PAGES);
  });

  it('refuses a move that nests pages too deep, having read the pages under the one moved', async () => {
    // Eight levels under p11 in the change request: p1 > p11 > n1 > ... > n8, ten levels.
    const deep = Array.from({ length: 8 }, (_, k) => page(`n${k + 1}`, `New ${k + 1}`, { parentId: k === 0 ? 'p11' : `n${k}` }));
    const { reads, apply } = await changeRequest(deep);
    // p1 under p12 (level 2): n7 would be at level 11.
    await expect(apply([{ operation: 'update_page', page: 'p1', into: 'p12' }])).rejects.toThrow(
      'Invalid "changes": pages nest at most 10 levels deep; "New 7" (n7) would be at level 11.',
    );
    expect(reads.at(-1)).toEqual({ read: 'subtrees', heads: expect.arrayContaining(['p11', 'p21', 'n1', 'n8']), bodies: [] });
    await expect(apply([{ operation: 'update_page', page: 'n1', into: 'p12' }])).resolves.toMatchObject({
      changes: { pages: [expect.objectContaining({ pageId: 'n1', parentId: 'p12' })] },
    });
  });

  it('reverts a page to the primary content below the change request: the line’s own row ends', async () => {
    const { reads, apply } = await changeRequest();
    const { changes, affected, written } = await apply([{ operation: 'revert_page', page: 'p7' }]);
    expect(reads).toEqual([{ read: 'pages', heads: ['p7'], bodies: ['p7'] }]);
    expect(changes).toMatchObject({ pages: [], deletedPages: [], restoredPages: ['p7'] });
    expect(affected).toEqual([{ pageId: 'p7', outcome: 'updated' }]);
    expect(await pageAt(db.sql, written, 'p7')).toMatchObject({ line: MAIN, markdown: '# Page 7\n\nAbout Page 7.\n' });
  });

  it('reads a body it was not told of when first needed, that page’s only, once', async () => {
    const { reads, pages } = await changeRequest();
    const before = db.statements.count;
    const draft = await DraftTree.read(pages, ['p42'], []);
    expect(await draft.head('p42')).not.toHaveProperty('markdown');
    expect((await draft.page('p42'))?.markdown).toBe('# Page 42\n\nAbout Page 42.\n');
    expect((await draft.page('p42'))?.title).toBe('Page 42');
    expect(reads).toEqual([
      { read: 'pages', heads: ['p2', 'p42'], bodies: [] },
      { read: 'bodies', heads: [], bodies: ['p42'] },
    ]);
    expect(db.statements.count - before).toBe(2);
  });
});
