// The semantic diff of two revisions' content (GitBook's RevisionSemanticChanges): pages created, edited (with the
// attributes that changed, before and after), moved (with their parent before and after) and deleted, then files
// created, edited and deleted. Pages come in tree order of the newer revision (deleted ones in the older's order).
import type { FileVersion, PageVersion } from '../generated/prisma/client.js';

export interface ChangedPage {
  id: string;
  type: PageVersion['type'];
  title: string;
  path: string;
}

export interface ChangedFile {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
}

export type SemanticChange =
  | { type: 'page_created' | 'page_deleted'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes: Record<string, { before?: unknown; after?: unknown }> }
  | { type: 'page_moved'; page: ChangedPage; parent: { before?: ChangedPage; after?: ChangedPage } }
  | { type: 'file_created' | 'file_deleted'; file: ChangedFile }
  | { type: 'file_edited'; file: ChangedFile; attributes: Record<string, { before?: unknown; after?: unknown }> };

/** Page attributes GitBook's diff names, with where each is read from. */
const PAGE_ATTRIBUTES: Record<string, (page: PageVersion) => unknown> = {
  title: (page) => page.title,
  description: (page) => page.description ?? undefined,
  slug: (page) => page.slug,
  emoji: (page) => page.emoji ?? undefined,
  document: (page) => page.markdown ?? (page.document ? JSON.stringify(page.document) : undefined),
};
const FILE_ATTRIBUTES: Record<string, (file: FileVersion) => unknown> = {
  name: (file) => file.name,
  size: (file) => file.size,
  contentType: (file) => file.contentType,
  dimensions: (file) => (file.width != null && file.height != null ? { width: file.width, height: file.height } : undefined),
};

/** Each page's path (its slug under its ancestors') and its rank in the tree's order. */
function treeOf(pages: readonly PageVersion[]) {
  const byId = new Map(pages.map((page) => [page.pageId, page]));
  const children = new Map<string | null, PageVersion[]>();
  for (const page of pages) {
    const parent = page.parentId && byId.has(page.parentId) ? page.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), page]);
  }
  const paths = new Map<string, string>();
  const order: string[] = [];
  const walk = (parent: string | null, prefix: string) => {
    const siblings = (children.get(parent) ?? []).sort((a, b) => a.position - b.position || a.pageId.localeCompare(b.pageId));
    for (const page of siblings) {
      const path = prefix ? `${prefix}/${page.slug}` : page.slug;
      paths.set(page.pageId, path);
      order.push(page.pageId);
      walk(page.pageId, path);
    }
  };
  walk(null, '');
  return { byId, paths, order };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function semanticChanges(
  before: { pages: readonly PageVersion[]; files: readonly FileVersion[] },
  after: { pages: readonly PageVersion[]; files: readonly FileVersion[] },
  downloadURL: (file: FileVersion) => string,
): SemanticChange[] {
  const old = treeOf(before.pages);
  const now = treeOf(after.pages);
  const changed = (tree: ReturnType<typeof treeOf>, id: string): ChangedPage => {
    const page = tree.byId.get(id)!;
    return { id, type: page.type, title: page.title, path: tree.paths.get(id) ?? page.slug };
  };
  const changes: SemanticChange[] = [];
  for (const id of now.order) {
    const page = now.byId.get(id)!;
    const previous = old.byId.get(id);
    if (!previous) {
      changes.push({ type: 'page_created', page: changed(now, id) });
      continue;
    }
    const attributes: Record<string, { before?: unknown; after?: unknown }> = {};
    for (const [name, read] of Object.entries(PAGE_ATTRIBUTES)) {
      if (!same(read(previous), read(page))) attributes[name] = { before: read(previous), after: read(page) };
    }
    if (Object.keys(attributes).length) changes.push({ type: 'page_edited', page: changed(now, id), attributes });
    if (previous.parentId !== page.parentId) {
      changes.push({
        type: 'page_moved',
        page: changed(now, id),
        parent: {
          ...(previous.parentId && old.byId.has(previous.parentId) && { before: changed(old, previous.parentId) }),
          ...(page.parentId && now.byId.has(page.parentId) && { after: changed(now, page.parentId) }),
        },
      });
    }
  }
  for (const id of old.order) if (!now.byId.has(id)) changes.push({ type: 'page_deleted', page: changed(old, id) });

  const oldFiles = new Map(before.files.map((file) => [file.fileId, file]));
  const newFiles = new Map(after.files.map((file) => [file.fileId, file]));
  const fileOf = (file: FileVersion): ChangedFile => ({
    id: file.fileId,
    name: file.name,
    contentType: file.contentType,
    downloadURL: downloadURL(file),
  });
  for (const file of [...after.files].sort((a, b) => a.name.localeCompare(b.name) || a.fileId.localeCompare(b.fileId))) {
    const previous = oldFiles.get(file.fileId);
    if (!previous) {
      changes.push({ type: 'file_created', file: fileOf(file) });
      continue;
    }
    const attributes: Record<string, { before?: unknown; after?: unknown }> = {};
    for (const [name, read] of Object.entries(FILE_ATTRIBUTES)) {
      if (!same(read(previous), read(file))) attributes[name] = { before: read(previous), after: read(file) };
    }
    if (previous.storageKey !== file.storageKey) attributes.downloadURL = { before: downloadURL(previous), after: downloadURL(file) };
    if (Object.keys(attributes).length) changes.push({ type: 'file_edited', file: fileOf(file), attributes });
  }
  for (const file of before.files) if (!newFiles.has(file.fileId)) changes.push({ type: 'file_deleted', file: fileOf(file) });
  return changes;
}
