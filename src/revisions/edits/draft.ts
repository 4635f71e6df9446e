// The draft of a content batch: the page tree of the revision the batch edits, changed operation by operation. It
// reads what the operations reach, not the revision: the heads (where a page sits, its title and slug) of the pages
// they name and of those pages' ancestors, the children of a page when one is placed under it, the pages under a page
// deleted or moved, and a page's body only when an operation needs it. Every page read comes with its ancestors, so
// that the pages read always form whole paths up to the top. The bodies the operations say they read come with the
// first heads, in one read; any other comes in one read when first needed. A changed page is replaced, never changed
// in place, so a page the batch did not touch is known unchanged without reading or comparing its body. Only links by
// path in the markdown a batch writes need the whole tree (heads only).
import slugify from '@sindresorhus/slugify';
import type { SqlRunner } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { badRequest } from '../../kernel/errors.js';
import { PAGE_HEAD_COLUMNS, PAGE_TREE_LEVELS, type PageBody, type PageHead } from '../read.js';
import { type PageContent, pageColumns, type RevisionChanges, type RevisionPoint, rowsAt, sameColumns } from '../store.js';

/** Where a draft's pages come from: the revision the batch edits. Each method is one read. */
export interface DraftSource {
  /** The heads of these pages and of their ancestors, with the bodies of those of `bodiesOf` among them. */
  pages(pageIds: readonly string[], bodiesOf: readonly string[]): Promise<{ heads: PageHead[]; bodies: ReadonlyMap<string, PageBody> }>;
  /** The heads of the children of these pages (null: of the top level). */
  children(parentIds: readonly (string | null)[]): Promise<PageHead[]>;
  /** The heads of every page under these. */
  subtrees(pageIds: readonly string[]): Promise<PageHead[]>;
  /** Every page's head. */
  all(): Promise<PageHead[]>;
  /** The bodies of these pages. */
  bodies(pageIds: readonly string[]): Promise<ReadonlyMap<string, PageBody>>;
}

/** The pages of a revision as a draft reads them: one statement each time, through the store's indexes. */
export function revisionPages(sql: SqlRunner, at: RevisionPoint): DraftSource {
  const heads = (rows: (PageHead & { __level?: number })[]) => rows.map(({ __level, ...head }) => head as PageHead);
  return {
    async pages(pageIds, bodiesOf) {
      if (!pageIds.length) return { heads: [], bodies: new Map() };
      // From the pages up, one level a step; the level bounds a cycle no edit can make.
      const rows = await sql<PageHead & { __body: PageBody | null; __level: number }>(Prisma.sql`
        WITH RECURSIVE chain AS (
          SELECT ${PAGE_HEAD_COLUMNS}, 1 AS "__level",
                 CASE WHEN v."pageId" = ANY(${bodiesOf}::text[]) THEN jsonb_build_object('markdown', v.markdown, 'document', v.document) END AS "__body"
            FROM (${rowsAt('PageVersion', at, { keys: pageIds })}) v
          UNION ALL
          SELECT ${PAGE_HEAD_COLUMNS}, c."__level" + 1, NULL
            FROM chain c CROSS JOIN LATERAL (${rowsAt('PageVersion', at, { keyIs: Prisma.sql`c."parentId"` })}) v
           WHERE c."__level" <= ${PAGE_TREE_LEVELS})
        SELECT * FROM chain`);
      const bodies = new Map<string, PageBody>();
      for (const row of rows) if (row.__body) bodies.set(row.pageId, row.__body);
      return { heads: heads(rows.map(({ __body, ...head }) => head)), bodies };
    },
    async children(parentIds) {
      const ids = parentIds.filter((id): id is string => id !== null);
      const top = parentIds.includes(null);
      return heads(
        await sql<PageHead>(Prisma.sql`
          SELECT ${PAGE_HEAD_COLUMNS} FROM (${rowsAt('PageVersion', at)}) v
           WHERE v."parentId" = ANY(${ids}::text[]) ${top ? Prisma.sql`OR v."parentId" IS NULL` : Prisma.empty}`),
      );
    },
    async subtrees(pageIds) {
      if (!pageIds.length) return [];
      return heads(
        await sql<PageHead & { __level: number }>(Prisma.sql`
          WITH RECURSIVE under AS (
            SELECT ${PAGE_HEAD_COLUMNS}, 1 AS "__level" FROM (${rowsAt('PageVersion', at)}) v WHERE v."parentId" = ANY(${pageIds}::text[])
            UNION ALL
            SELECT ${PAGE_HEAD_COLUMNS}, u."__level" + 1
              FROM under u CROSS JOIN LATERAL (SELECT * FROM (${rowsAt('PageVersion', at)}) w WHERE w."parentId" = u."pageId") v
             WHERE u."__level" <= ${PAGE_TREE_LEVELS})
          SELECT * FROM under`),
      );
    },
    async all() {
      return sql<PageHead>(Prisma.sql`SELECT ${PAGE_HEAD_COLUMNS} FROM (${rowsAt('PageVersion', at)}) v`);
    },
    async bodies(pageIds) {
      const rows = await sql<PageBody & { pageId: string }>(Prisma.sql`
        SELECT v."pageId", v.markdown, v.document FROM (${rowsAt('PageVersion', at, { keys: pageIds })}) v`);
      return new Map(rows.map(({ pageId, ...body }) => [pageId, body]));
    },
  };
}

/** The columns a revision writes of a page, and nothing else a row read from the store may carry. */
const contentOnly = (page: PageContent): PageContent =>
  Object.fromEntries(['pageId', ...pageColumns].map((column) => [column, page[column as keyof PageContent]])) as PageContent;

const sameContent = (a: PageContent | null, b: PageContent | null) => sameColumns(a, b, pageColumns);

export class DraftTree {
  /** The revision's pages read so far, without their bodies, in the order read; each with its ancestors. */
  private readonly heads = new Map<string, PageHead>();
  /** Pages asked for and not in the revision. */
  private readonly absent = new Set<string>();
  /** Pages (null: the top level) whose children in the revision are all read. */
  private readonly childrenRead = new Set<string | null>();
  /** Pages whose subpages in the revision are all read. */
  private readonly subtreesRead = new Set<string>();
  private everythingRead = false;
  /** The bodies of the revision's pages read so far. */
  private readonly bodies = new Map<string, PageBody>();
  /** The pages the batch changed, in the order first changed: a whole page, or null where deleted. */
  private readonly changed = new Map<string, PageContent | null>();
  /** Pages operations named, in the order first named (subpages a deletion took along are not among them). */
  private readonly touched = new Set<string>();
  /** Pages reverted to the change request's base, with the base's content (null: absent there). */
  private readonly revertedToBase = new Map<string, PageContent | null>();

  private constructor(private readonly source: DraftSource) {}

  /** The draft of the source's pages, reading `pageIds` (and their ancestors) with the bodies of `bodiesOf`. */
  static async read(source: DraftSource, pageIds: readonly string[], bodiesOf: readonly string[]): Promise<DraftTree> {
    const draft = new DraftTree(source);
    await draft.readPages(pageIds, bodiesOf);
    return draft;
  }

  /** The page as it stands without its body; null when deleted, undefined when it never was. */
  async head(pageId: string): Promise<PageHead | null | undefined> {
    await this.readPages([pageId], []);
    return this.known(pageId);
  }

  async has(pageId: string): Promise<boolean> {
    return Boolean(await this.head(pageId));
  }

  /** The page as it stands, whole (its body read now if not yet); null when it is not in the draft. */
  async page(pageId: string): Promise<PageContent | null> {
    if (this.changed.has(pageId)) return this.changed.get(pageId) ?? null;
    return (await this.head(pageId)) ? this.original(pageId) : null;
  }

  /** Replaces the page (null: deletes it alone), as an operation naming it does. */
  set(pageId: string, page: PageContent | null): void {
    this.changed.set(pageId, page);
    this.touched.add(pageId);
  }

  /**
   * Replaces the page with its content in another revision (null: absent there). Back to the change request's base:
   * unless a later operation changes it again, the line's own row of the page ends and the primary content shows
   * through.
   */
  revert(pageId: string, page: PageContent | null, toBase: boolean): void {
    this.set(pageId, page);
    if (toBase) this.revertedToBase.set(pageId, page);
    else this.revertedToBase.delete(pageId);
  }

  /** Deletes the page and its subpages. */
  async deleteWithSubpages(pageId: string): Promise<void> {
    await this.readSubtrees([pageId]);
    // The whole subtree first: a deleted page no longer leads from its subpages to the page deleted.
    const subtree = this.live().filter(([id]) => this.isUnderNow(id, pageId));
    for (const [id] of subtree) this.changed.set(id, null);
    this.touched.add(pageId);
  }

  /** Every page in the draft, for what needs the whole tree: the revision's in the order read, then the batch's new ones. */
  async everything(): Promise<[string, PageHead][]> {
    if (!this.everythingRead) {
      this.add(await this.source.all());
      this.everythingRead = true;
    }
    return this.live();
  }

  /** Whether `pageId` is `ancestor` or under it. */
  async isUnder(pageId: string, ancestor: string): Promise<boolean> {
    await this.readPages([pageId], []);
    return this.isUnderNow(pageId, ancestor);
  }

  /** The position that puts a page at index `at` among the other children of `parentId` (at the end when absent). */
  async positionAt(parentId: string | null, at: number | null | undefined, self: string): Promise<number> {
    const siblings = (await this.childrenOf(parentId)).filter(([id]) => id !== self);
    const index = at == null ? siblings.length : Math.min(at, siblings.length);
    const before = siblings[index - 1]?.[1].position;
    const after = siblings[index]?.[1].position;
    if (before === undefined) return after === undefined ? 0 : after - 1;
    return after === undefined ? before + 1 : (before + after) / 2;
  }

  /** A slug unique among the siblings: an explicit one that collides is refused, a derived one gets a suffix. */
  async slugFor(title: string, explicit: string | null | undefined, parentId: string | null, self: string, field: string): Promise<string> {
    const taken = new Set((await this.childrenOf(parentId)).filter(([id]) => id !== self).map(([, page]) => page.slug));
    if (explicit) {
      if (taken.has(explicit)) throw badRequest(`Invalid "${field}.slug": ${JSON.stringify(explicit)} is taken by a sibling page.`);
      return explicit;
    }
    const base = slugify(title) || 'page';
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    return slug;
  }

  /**
   * Refuses a draft whose pages nest deeper than PAGE_TREE_LEVELS: the REST tree is written that deep (read.ts). Only
   * the pages the batch placed (inserted, or under a new parent) and the pages under them can have gone deeper.
   */
  async checkDepth(): Promise<void> {
    const placed = [...this.changed].filter(
      ([id, page]) => page && (!this.heads.has(id) || this.heads.get(id)!.parentId !== page.parentId),
    );
    await this.readPages(
      placed.flatMap(([, page]) => (page?.parentId ? [page.parentId] : [])),
      [],
    );
    await this.readSubtrees(placed.map(([id]) => id).filter((id) => this.heads.has(id)));
    const reached = this.live().filter(([id]) => placed.some(([top]) => this.isUnderNow(id, top)));
    for (const [id, page] of reached) {
      let level = 1;
      for (let at = page.parentId; at; at = this.known(at)?.parentId ?? null) level++;
      if (level > PAGE_TREE_LEVELS) {
        throw badRequest(
          `Invalid "changes": pages nest at most ${PAGE_TREE_LEVELS} levels deep; ${JSON.stringify(page.title)} (${id}) would be at level ${level}.`,
        );
      }
    }
  }

  /**
   * What the draft changes in the revision (a page changed back to what it was changes nothing), and the pages it
   * affected: the ones operations named, in the order first named, then the subpages deletions took along.
   */
  async changes(
    refs: ReadonlyMap<string, string>,
  ): Promise<{ changes: Required<Pick<RevisionChanges, 'pages' | 'deletedPages' | 'restoredPages'>>; affected: AffectedPage[] }> {
    await this.readBodies([...this.changed].filter(([id, page]) => page && this.heads.has(id)).map(([id]) => id));
    const pages: PageContent[] = [];
    const deletedPages: string[] = [];
    const restoredPages: string[] = [];
    for (const [id, page] of this.changed) {
      if (this.revertedToBase.has(id) && sameContent(page, this.revertedToBase.get(id) ?? null)) restoredPages.push(id);
      else if (!page) {
        if (this.heads.has(id)) deletedPages.push(id);
      } else if (!this.heads.has(id) || !sameContent(page, await this.original(id))) pages.push(contentOnly(page));
    }
    const refOf = new Map([...refs].map(([ref, id]) => [id, ref]));
    const affected: AffectedPage[] = [];
    for (const pageId of new Set([...this.touched, ...deletedPages])) {
      const was = this.heads.has(pageId);
      const is = Boolean(this.known(pageId));
      if (!was && !is) continue;
      const ref = refOf.get(pageId);
      affected.push({ pageId, outcome: !was ? 'created' : is ? 'updated' : 'deleted', ...(ref !== undefined && { ref }) });
    }
    return { changes: { pages, deletedPages, restoredPages }, affected };
  }

  /** The page as far as the draft has read: what `head` answers once the page is read. */
  private known(pageId: string): PageHead | null | undefined {
    return this.changed.has(pageId) ? this.changed.get(pageId) : this.heads.get(pageId);
  }

  /** `isUnder` among the pages read: every page read comes with its ancestors, and every page placed under one read. */
  private isUnderNow(pageId: string, ancestor: string): boolean {
    for (let at: string | null = pageId; at; at = this.known(at)?.parentId ?? null) if (at === ancestor) return true;
    return false;
  }

  /** The pages in the draft as far as read: the revision's in the order read, then the batch's new ones. */
  private live(): [string, PageHead][] {
    const live: [string, PageHead][] = [];
    for (const id of new Set([...this.heads.keys(), ...this.changed.keys()])) {
      const page = this.known(id);
      if (page) live.push([id, page]);
    }
    return live;
  }

  private async childrenOf(parentId: string | null): Promise<[string, PageHead][]> {
    if (!this.everythingRead && !this.childrenRead.has(parentId)) {
      this.add(await this.source.children([parentId]));
      this.childrenRead.add(parentId);
    }
    return this.live()
      .filter(([, page]) => page.parentId === parentId)
      .sort(([a, pa], [b, pb]) => pa.position - pb.position || a.localeCompare(b));
  }

  /** Reads the pages not read yet (nor made by the batch), with their ancestors, and the bodies of `bodiesOf`. */
  private async readPages(pageIds: readonly string[], bodiesOf: readonly string[]): Promise<void> {
    const unread = pageIds.filter((id) => !this.heads.has(id) && !this.absent.has(id) && !this.changed.has(id));
    if (this.everythingRead || !unread.length) return;
    const { heads, bodies } = await this.source.pages(unread, bodiesOf);
    this.add(heads);
    for (const [id, body] of bodies) this.bodies.set(id, body);
    for (const id of unread) if (!this.heads.has(id)) this.absent.add(id);
  }

  private async readSubtrees(pageIds: readonly string[]): Promise<void> {
    const unread = pageIds.filter((id) => !this.subtreesRead.has(id));
    if (this.everythingRead || !unread.length) return;
    this.add(await this.source.subtrees(unread));
    for (const id of unread) this.subtreesRead.add(id);
  }

  private add(heads: readonly PageHead[]): void {
    for (const head of heads) if (!this.heads.has(head.pageId)) this.heads.set(head.pageId, head);
  }

  /** The revision's page, whole. */
  private async original(pageId: string): Promise<PageContent> {
    await this.readBodies([pageId]);
    const [head, body] = [this.heads.get(pageId), this.bodies.get(pageId)];
    if (!head || !body) throw new Error(`Page ${pageId} is not in the revision the draft was read from.`);
    return { ...head, ...body };
  }

  private async readBodies(pageIds: readonly string[]): Promise<void> {
    const unread = pageIds.filter((id) => !this.bodies.has(id));
    if (!unread.length) return;
    for (const [id, body] of await this.source.bodies(unread)) this.bodies.set(id, body);
  }
}

/**
 * What the batch did to a page, judged by the page before and after it (a page inserted and deleted again did
 * nothing).
 */
export interface AffectedPage {
  pageId: string;
  outcome: 'created' | 'updated' | 'deleted';
  /** The batch-local `ref` its insert_page gave it. */
  ref?: string;
}
