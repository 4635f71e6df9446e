// A batch of content changes (GitBook's updateChangeRequestContent): up to 50 operations applied in order to a change
// request's content, all or nothing, as one new revision. Each operation sees the result of the ones before it.
// - insert_page: a new page (root or `into` a parent, `at` an index among its siblings), its title from `title`, or
//   from the markdown's front matter or leading heading (which win), its slug from its title unless given.
// - update_page: its document and/or metadata, and moves with `into` (null: the root) and `at`.
// - delete_page: the page and its subpages.
// - revert_page: the page as it is in the change request's base (or in a given revision of the space): a page the
//   change request added goes away, one it deleted comes back.
// - insert_files: files from base64 or a URL (stored by the file storage), with `ref`s that pages' markdown anywhere in
//   the batch may use (`![alt](./<ref>)`).
import slugify from '@sindresorhus/slugify';
import type { PageVersion } from '../generated/prisma/client.js';
import { badRequest } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { ContentLayout, type FileHead } from './addresses.js';
import { FILE_ID_PREFIX, PAGE_ID_PREFIX, readMarkdown, spacePath } from './markdown.js';
import { buildTree, PAGE_TREE_LEVELS } from './read.js';
import { type FileContent, type PageContent, pageColumns, pageContent, type RevisionChanges, sameColumns } from './store.js';

interface PageMetadata {
  title?: string | null;
  slug?: string | null;
  emoji?: string | null;
  icon?: string | null;
  description?: string | null;
  hidden?: boolean | null;
  noIndex?: boolean | null;
  noRobotsIndex?: boolean | null;
}

/** A page's document as the API takes it: markdown, GitBook's JSON document, or nothing. */
export interface DocumentInput {
  markdown?: string | null;
  document?: unknown;
}

export type ContentChange =
  | (PageMetadata & { operation: 'insert_page'; document: DocumentInput; into?: string | null; at?: number | null; ref?: string | null })
  | (PageMetadata & { operation: 'update_page'; page: string; document?: DocumentInput | null; into?: string | null; at?: number | null })
  | { operation: 'delete_page'; page: string }
  | { operation: 'revert_page'; page: string; revision?: string | null; block?: string[] | null }
  | { operation: 'insert_files'; files: FileInput[] };

export interface FileInput {
  ref?: string | null;
  name: string;
  contentType?: string | null;
  url?: string | null;
  base64?: string | null;
}

/**
 * What the batch did to a page, judged by the page before and after it (a page inserted and deleted again did
 * nothing): one per page, in the order operations first touched them, then the subpages deletions took along.
 */
export interface AffectedPage {
  pageId: string;
  outcome: 'created' | 'updated' | 'deleted';
  /** The batch-local `ref` its insert_page gave it. */
  ref?: string;
}

export interface EditContext {
  /** The change request's current content, by page id. */
  pages: ReadonlyMap<string, PageVersion>;
  /** A page as it is in the revision to revert to (`revision` absent: the change request's base); null when absent there. */
  pageIn(pageId: string, revision: string | null | undefined): Promise<PageVersion | null>;
  /** Stores a file's bytes (from base64 or a URL) and returns its row's content. */
  storeFile(file: FileInput, field: string): Promise<Omit<FileContent, 'fileId'>>;
  /** The change request's current files: read only when a link's path may name one. */
  files(): Promise<readonly FileHead[]>;
  now: Date;
}

export interface EditResult {
  changes: RevisionChanges;
  affected: AffectedPage[];
  insertedFiles: FileContent[];
}

type Draft = Omit<PageContent, 'createdAt' | 'updatedAt'> & { createdAt: Date; updatedAt: Date };

/** Whether two states of a page are the same content (where and when they hold aside). */
const sameContent = (a: Draft | PageVersion | null, b: Draft | PageVersion | null) => sameColumns(a, b, pageColumns);

const DEFAULT_TITLE = 'Untitled';

/** Applies `operations` in order to the change request's content; throws a 400 naming the operation on bad input. */
export async function applyChanges(context: EditContext, operations: readonly ContentChange[]): Promise<EditResult> {
  // The pages as they stand: operations replace a page's object, never change one, so an untouched page is still the
  // object it was given as, and is known unchanged at the end without comparing its columns.
  const pages = new Map<string, Draft | null>(context.pages);
  /** Pages reverted to the change request's base, with the base's content (null: absent there). */
  const revertedToBase = new Map<string, Draft | null>();
  const touched = new Set<string>();
  const refs = new Map<string, string>();
  const insertedFiles: FileContent[] = [];
  /** Pages whose markdown the batch wrote: their references to the batch's files and pages are resolved at the end. */
  const bodiesWritten = new Set<string>();
  const live = () => [...pages].filter((entry): entry is [string, Draft] => entry[1] !== null);
  const childrenOf = (parentId: string | null) =>
    live()
      .filter(([, page]) => page.parentId === parentId)
      .sort(([a, pa], [b, pb]) => pa.position - pb.position || a.localeCompare(b));
  const existing = (id: string, field: string) => {
    const page = pages.get(refs.get(id) ?? id);
    if (!page) throw badRequest(`Invalid "${field}": no page ${JSON.stringify(id)} in the change request.`);
    return page;
  };

  /** The position that puts a page at index `at` among the other children of `parentId` (at the end when absent). */
  const positionAt = (parentId: string | null, at: number | null | undefined, self?: string) => {
    const siblings = childrenOf(parentId).filter(([id]) => id !== self);
    const index = at == null ? siblings.length : Math.min(at, siblings.length);
    const before = siblings[index - 1]?.[1].position;
    const after = siblings[index]?.[1].position;
    if (before === undefined) return after === undefined ? 0 : after - 1;
    return after === undefined ? before + 1 : (before + after) / 2;
  };

  /** A slug unique among the siblings: an explicit one that collides is refused, a derived one gets a suffix. */
  const slugFor = (title: string, explicit: string | null | undefined, parentId: string | null, self: string, field: string) => {
    const taken = new Set(
      childrenOf(parentId)
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
  };

  const isUnder = (id: string, ancestor: string) => {
    for (let at: string | null = id; at; at = pages.get(at)?.parentId ?? null) if (at === ancestor) return true;
    return false;
  };

  /** Metadata and body from the operation and its document: front matter and the leading heading win. */
  const contentOf = (change: PageMetadata & { document?: DocumentInput | null }, field: string) => {
    const meta: PageMetadata = { ...change };
    let markdown: string | null | undefined;
    let document: unknown;
    if (change.document?.markdown != null) {
      const read = readMarkdown(change.document.markdown, `${field}.document.markdown`);
      // The document's own title (front matter, else its leading heading) wins over the field, as in Git Sync.
      Object.assign(meta, read.meta, { title: read.meta.title ?? read.heading ?? meta.title });
      markdown = read.body;
      document = null;
    } else if (change.document?.document !== undefined) {
      document = change.document.document;
      markdown = null;
    }
    return { meta, markdown, document };
  };

  for (const [index, change] of operations.entries()) {
    const field = `changes.${index}`;
    switch (change.operation) {
      case 'insert_page': {
        if (change.ref && (refs.has(change.ref) || pages.has(change.ref))) {
          throw badRequest(`Invalid "${field}.ref": ${JSON.stringify(change.ref)} is used twice in the batch.`);
        }
        const parentId = change.into ? (refs.get(change.into) ?? change.into) : null;
        if (parentId) existing(parentId, `${field}.into`);
        const { meta, markdown, document } = contentOf(change, field);
        const title = meta.title ?? DEFAULT_TITLE;
        const id = newId();
        const page: Draft = pageContent({
          pageId: id,
          parentId,
          title,
          emoji: meta.emoji || null,
          icon: meta.icon || null,
          slug: slugFor(title, meta.slug, parentId, id, field),
          description: meta.description ?? null,
          document: (document ?? null) as Draft['document'],
          markdown: markdown ?? null,
          hidden: meta.hidden ?? false,
          noIndex: meta.noIndex ?? false,
          noRobotsIndex: meta.noRobotsIndex ?? false,
          position: positionAt(parentId, change.at, id),
          createdAt: context.now,
          updatedAt: context.now,
        });
        pages.set(id, page);
        if (change.ref) refs.set(change.ref, id);
        if (markdown) bodiesWritten.add(id);
        touched.add(id);
        break;
      }
      case 'update_page': {
        const id = refs.get(change.page) ?? change.page;
        const current = existing(id, `${field}.page`);
        const { meta, markdown, document } = contentOf(change, field);
        const next: Draft = { ...current, updatedAt: context.now };
        if (change.into !== undefined) {
          const parentId = change.into === null ? null : (refs.get(change.into) ?? change.into);
          if (parentId) {
            existing(parentId, `${field}.into`);
            if (isUnder(parentId, id)) throw badRequest(`Invalid "${field}.into": a page cannot move under itself or its subpages.`);
          }
          next.parentId = parentId;
          next.position = positionAt(parentId, change.at, id);
        } else if (change.at != null) next.position = positionAt(current.parentId, change.at, id);
        const title = meta.title;
        if (title) next.title = title;
        if (meta.emoji !== undefined) next.emoji = meta.emoji || null;
        if (meta.icon !== undefined) next.icon = meta.icon || null;
        if (meta.description !== undefined) next.description = meta.description;
        for (const flag of ['hidden', 'noIndex', 'noRobotsIndex'] as const) if (meta[flag] != null) next[flag] = meta[flag];
        if (markdown !== undefined) {
          if (markdown) bodiesWritten.add(id);
          next.markdown = markdown;
          next.document = (document ?? null) as Draft['document'];
        }
        if (meta.slug || title || next.parentId !== current.parentId) {
          next.slug = slugFor(next.title, meta.slug ?? (title ? null : current.slug), next.parentId, id, field);
        }
        pages.set(id, next);
        touched.add(id);
        break;
      }
      case 'delete_page': {
        const id = refs.get(change.page) ?? change.page;
        existing(id, `${field}.page`);
        for (const [other] of live()) if (isUnder(other, id)) pages.set(other, null);
        touched.add(id);
        break;
      }
      case 'revert_page': {
        if (change.block?.length) throw badRequest(`Invalid "${field}.block": reverting single blocks is not supported; revert the page.`);
        const id = change.page;
        const target = await context.pageIn(id, change.revision);
        if (!target && !pages.get(id)) throw badRequest(`Invalid "${field}.page": no page ${JSON.stringify(id)} to revert.`);
        const reverted = target ? { ...target, ...(change.revision && { updatedAt: context.now }) } : null;
        pages.set(id, reverted);
        bodiesWritten.delete(id);
        // Back to the base: unless a later operation changes it again, the line's own row of the page ends and the
        // primary content shows through.
        if (!change.revision) revertedToBase.set(id, reverted);
        else revertedToBase.delete(id);
        touched.add(id);
        break;
      }
      case 'insert_files': {
        for (const [i, file] of change.files.entries()) {
          const stored = await context.storeFile(file, `${field}.files.${i}`);
          const content: FileContent = { ...stored, fileId: newId() };
          insertedFiles.push(content);
          if (file.ref) refs.set(file.ref, content.fileId);
        }
        break;
      }
    }
  }

  // References resolved after every operation, so that a page may refer to a file inserted after it, as GitBook's do:
  // `./<ref>` of a file of the batch and `/files/<fileId>` to the file's id, `/pages/<pageId>` to the page's; then
  // relative paths, from the page's file in the tree the batch leaves, to the pages and files there (addresses.ts).
  const fileIds = new Set(insertedFiles.map((file) => file.fileId));
  const batchForms = (url: string) => {
    const [address, anchor] = url.split('#', 2);
    const fileById = /^\/files\/([^/?]+)$/.exec(address)?.[1];
    if (fileById) return `${FILE_ID_PREFIX}${fileById}`;
    const fileByRef = address.startsWith('/') ? undefined : refs.get(spacePath(address) ?? '');
    if (fileByRef && fileIds.has(fileByRef)) return `${FILE_ID_PREFIX}${fileByRef}`;
    const pageId = /^\/pages\/([^/?]+)$/.exec(address)?.[1];
    if (pageId && pages.get(pageId)) return `${PAGE_ID_PREFIX}${pageId}${anchor ? `#${anchor}` : ''}`;
    return undefined;
  };
  if (bodiesWritten.size) {
    const tree = buildTree(live().map(([, page]) => page));
    const resolve = (layout: ContentLayout, ids: Iterable<string>) => {
      const unresolved: string[] = [];
      for (const id of ids) {
        const page = pages.get(id);
        if (!page?.markdown) continue;
        const resolved = layout.resolveLinks(page.markdown, id, batchForms);
        page.markdown = resolved.markdown;
        if (resolved.unresolved) unresolved.push(id);
      }
      return unresolved;
    };
    const left = resolve(new ContentLayout(tree, null), bodiesWritten);
    if (left.length) resolve(new ContentLayout(tree, [...(await context.files()), ...insertedFiles]), left);
  }

  // Pages nest at most PAGE_TREE_LEVELS deep: the REST tree is written that deep (read.ts).
  for (const [id, page] of live()) {
    let level = 1;
    for (let at = page.parentId; at; at = pages.get(at)?.parentId ?? null) level++;
    if (level > PAGE_TREE_LEVELS) {
      throw badRequest(
        `Invalid "changes": pages nest at most ${PAGE_TREE_LEVELS} levels deep; ${JSON.stringify(page.title)} (${id}) would be at level ${level}.`,
      );
    }
  }

  const written: PageContent[] = [];
  const deleted: string[] = [];
  const restoredPages: string[] = [];
  for (const [id, page] of pages) {
    const before = context.pages.get(id);
    if (page === before) continue;
    if (revertedToBase.has(id) && sameContent(page, revertedToBase.get(id) ?? null)) {
      restoredPages.push(id);
      continue;
    }
    if (!page) {
      if (before) deleted.push(id);
      continue;
    }
    if (before && sameContent(page, before)) continue;
    const {
      id: _version,
      spaceId: _space,
      line: _line,
      validFrom: _from,
      validTo: _to,
      deleted: _gone,
      ...content
    } = page as Draft & Partial<PageVersion>;
    written.push(content as PageContent);
  }
  return {
    changes: { pages: written, deletedPages: deleted, restoredPages, files: insertedFiles },
    affected: affectedPages(context.pages, pages, [...touched, ...deleted], refs),
    insertedFiles,
  };
}

function affectedPages(
  before: ReadonlyMap<string, unknown>,
  after: ReadonlyMap<string, unknown>,
  touchedFirst: readonly string[],
  refs: ReadonlyMap<string, string>,
): AffectedPage[] {
  const refOf = new Map([...refs].map(([ref, id]) => [id, ref]));
  const affected: AffectedPage[] = [];
  for (const pageId of new Set(touchedFirst)) {
    const was = before.has(pageId);
    const is = Boolean(after.get(pageId));
    if (!was && !is) continue;
    const ref = refOf.get(pageId);
    affected.push({ pageId, outcome: !was ? 'created' : is ? 'updated' : 'deleted', ...(ref !== undefined && { ref }) });
  }
  return affected;
}
