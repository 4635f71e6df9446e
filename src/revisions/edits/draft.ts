// The draft of a content batch: the page tree of the revision the batch edits, changed operation by operation. It
// reads every page's head (where the page sits, its title and slug: what placing, naming and nesting need) and a
// page's body only when an operation needs it. The bodies the operations say they read come with the heads, in one
// read; any other comes in one read when first needed. A changed page is replaced, never changed in place, so a page
// the batch did not touch is known unchanged without reading or comparing its body.
import slugify from '@sindresorhus/slugify';
import type { SqlRunner } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { badRequest } from '../../kernel/errors.js';
import { PAGE_HEAD_COLUMNS, PAGE_TREE_LEVELS, type PageBody, type PageHead } from '../read.js';
import { type PageContent, pageColumns, type RevisionChanges, type RevisionPoint, rowsAt, sameColumns } from '../store.js';

/** Where a draft's pages come from: the revision the batch edits. */
export interface DraftSource {
  /** Every page's head, and the bodies of `bodiesOf` (one read). */
  pages(bodiesOf: readonly string[]): Promise<{ heads: PageHead[]; bodies: ReadonlyMap<string, PageBody> }>;
  /** The bodies of these pages (one read). */
  bodies(pageIds: readonly string[]): Promise<ReadonlyMap<string, PageBody>>;
}

/** The pages of a revision as a draft reads them: one statement each time. */
export function revisionPages(sql: SqlRunner, at: RevisionPoint): DraftSource {
  return {
    async pages(bodiesOf) {
      const rows = await sql<PageHead & { __body: PageBody | null }>(Prisma.sql`
        SELECT ${PAGE_HEAD_COLUMNS},
               CASE WHEN v."pageId" = ANY(${bodiesOf}::text[]) THEN jsonb_build_object('markdown', v.markdown, 'document', v.document) END AS "__body"
          FROM (${rowsAt('PageVersion', at)}) v`);
      const bodies = new Map<string, PageBody>();
      const heads = rows.map(({ __body, ...head }) => {
        if (__body) bodies.set(head.pageId, __body);
        return head;
      });
      return { heads, bodies };
    },
    async bodies(pageIds) {
      const rows = await sql<PageBody & { pageId: string }>(Prisma.sql`
        SELECT v."pageId", v.markdown, v.document FROM (${rowsAt('PageVersion', at)}) v WHERE v."pageId" = ANY(${pageIds}::text[])`);
      return new Map(rows.map(({ pageId, ...body }) => [pageId, body]));
    },
  };
}

/** The columns a revision writes of a page, and nothing else a row read from the store may carry. */
const contentOnly = (page: PageContent): PageContent =>
  Object.fromEntries(['pageId', ...pageColumns].map((column) => [column, page[column as keyof PageContent]])) as PageContent;

const sameContent = (a: PageContent | null, b: PageContent | null) => sameColumns(a, b, pageColumns);

export class DraftTree {
  /** The pages the batch changed, in the order first changed: a whole page, or null where deleted. */
  private readonly changed = new Map<string, PageContent | null>();
  /** Pages operations named, in the order first named (subpages a deletion took along are not among them). */
  private readonly touched = new Set<string>();
  /** Pages reverted to the change request's base, with the base's content (null: absent there). */
  private readonly revertedToBase = new Map<string, PageContent | null>();

  private constructor(
    private readonly source: DraftSource,
    /** The revision's pages without their bodies, in the order read. */
    private readonly heads: ReadonlyMap<string, PageHead>,
    /** The bodies of the revision's pages read so far. */
    private readonly bodies: Map<string, PageBody>,
  ) {}

  /** The draft of the source's pages, reading the bodies of `bodiesOf` with the heads. */
  static async read(source: DraftSource, bodiesOf: readonly string[]): Promise<DraftTree> {
    const { heads, bodies } = await source.pages(bodiesOf);
    return new DraftTree(source, new Map(heads.map((head) => [head.pageId, head])), new Map(bodies));
  }

  /** The page as it stands without its body; null when deleted, undefined when it never was. */
  head(pageId: string): PageHead | null | undefined {
    return this.changed.has(pageId) ? this.changed.get(pageId) : this.heads.get(pageId);
  }

  has(pageId: string): boolean {
    return Boolean(this.head(pageId));
  }

  /** The page as it stands, whole (its body read now if not yet); null when it is not in the draft. */
  async page(pageId: string): Promise<PageContent | null> {
    if (this.changed.has(pageId)) return this.changed.get(pageId) ?? null;
    return this.heads.has(pageId) ? this.original(pageId) : null;
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
  deleteWithSubpages(pageId: string): void {
    // The whole subtree first: a deleted page no longer leads from its subpages to the page deleted.
    const subtree = this.live().filter(([id]) => this.isUnder(id, pageId));
    for (const [id] of subtree) this.changed.set(id, null);
    this.touched.add(pageId);
  }

  /** The pages in the draft: the revision's in the order read, then the batch's new ones. */
  live(): [string, PageHead][] {
    const live: [string, PageHead][] = [];
    for (const id of this.ids()) {
      const page = this.head(id);
      if (page) live.push([id, page]);
    }
    return live;
  }

  /** Whether `pageId` is `ancestor` or under it. */
  isUnder(pageId: string, ancestor: string): boolean {
    for (let at: string | null = pageId; at; at = this.head(at)?.parentId ?? null) if (at === ancestor) return true;
    return false;
  }

  /** The position that puts a page at index `at` among the other children of `parentId` (at the end when absent). */
  positionAt(parentId: string | null, at: number | null | undefined, self: string): number {
    const siblings = this.childrenOf(parentId).filter(([id]) => id !== self);
    const index = at == null ? siblings.length : Math.min(at, siblings.length);
    const before = siblings[index - 1]?.[1].position;
    const after = siblings[index]?.[1].position;
    if (before === undefined) return after === undefined ? 0 : after - 1;
    return after === undefined ? before + 1 : (before + after) / 2;
  }

  /** A slug unique among the siblings: an explicit one that collides is refused, a derived one gets a suffix. */
  slugFor(title: string, explicit: string | null | undefined, parentId: string | null, self: string, field: string): string {
    const taken = new Set(
      this.childrenOf(parentId)
        .filter(([id]) => id !== self)
        .map(([, page]) => page.slug),
    );
    if (explicit) {
      if (taken.has(explicit)) throw badRequest(`Invalid "${field}.slug": ${JSON.stringify(explicit)} is taken by a sibling page.`);
      return explicit;
    }
    const base = slugify(title) || 'page';
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    return slug;
  }

  /** Refuses a draft whose pages nest deeper than PAGE_TREE_LEVELS: the REST tree is written that deep (read.ts). */
  checkDepth(): void {
    for (const [id, page] of this.live()) {
      let level = 1;
      for (let at = page.parentId; at; at = this.head(at)?.parentId ?? null) level++;
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
    for (const id of this.ids()) {
      if (!this.changed.has(id)) continue;
      const page = this.changed.get(id) ?? null;
      if (this.revertedToBase.has(id) && sameContent(page, this.revertedToBase.get(id) ?? null)) restoredPages.push(id);
      else if (!page) {
        if (this.heads.has(id)) deletedPages.push(id);
      } else if (!this.heads.has(id) || !sameContent(page, await this.original(id))) pages.push(contentOnly(page));
    }
    const refOf = new Map([...refs].map(([ref, id]) => [id, ref]));
    const affected: AffectedPage[] = [];
    for (const pageId of new Set([...this.touched, ...deletedPages])) {
      const was = this.heads.has(pageId);
      const is = this.has(pageId);
      if (!was && !is) continue;
      const ref = refOf.get(pageId);
      affected.push({ pageId, outcome: !was ? 'created' : is ? 'updated' : 'deleted', ...(ref !== undefined && { ref }) });
    }
    return { changes: { pages, deletedPages, restoredPages }, affected };
  }

  private *ids(): Iterable<string> {
    yield* this.heads.keys();
    for (const id of this.changed.keys()) if (!this.heads.has(id)) yield id;
  }

  private childrenOf(parentId: string | null): [string, PageHead][] {
    return this.live()
      .filter(([, page]) => page.parentId === parentId)
      .sort(([a, pa], [b, pb]) => pa.position - pb.position || a.localeCompare(b));
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
