// References in the markdown a batch wrote, resolved after every operation, so that a page may refer to a file
// inserted after it, as GitBook's do: `./<ref>` of a file of the batch and `/files/<fileId>` to the file's id,
// `/pages/<pageId>` to the page's; then relative paths, from the page's file in the tree the batch leaves, to the
// pages and files there (addresses.ts).
import { ContentLayout } from '../addresses.js';
import { FILE_ID_PREFIX, PAGE_ID_PREFIX, spacePath } from '../markdown.js';
import { buildTree } from '../read.js';
import type { EditBatch } from './batch.js';

export async function resolveReferences({ draft, refs, insertedFiles, bodiesWritten, context }: EditBatch): Promise<void> {
  if (!bodiesWritten.size) return;
  const fileIds = new Set(insertedFiles.map((file) => file.fileId));
  const batchForms = (url: string) => {
    const [address, anchor] = url.split('#', 2);
    const fileById = /^\/files\/([^/?]+)$/.exec(address)?.[1];
    if (fileById) return `${FILE_ID_PREFIX}${fileById}`;
    const fileByRef = address.startsWith('/') ? undefined : refs.get(spacePath(address) ?? '');
    if (fileByRef && fileIds.has(fileByRef)) return `${FILE_ID_PREFIX}${fileByRef}`;
    const pageId = /^\/pages\/([^/?]+)$/.exec(address)?.[1];
    if (pageId && draft.has(pageId)) return `${PAGE_ID_PREFIX}${pageId}${anchor ? `#${anchor}` : ''}`;
    return undefined;
  };
  const tree = buildTree(draft.live().map(([, page]) => page));
  const resolve = async (layout: ContentLayout, ids: Iterable<string>) => {
    const unresolved: string[] = [];
    for (const id of ids) {
      const page = await draft.page(id);
      if (!page?.markdown) continue;
      const resolved = layout.resolveLinks(page.markdown, id, batchForms);
      draft.set(id, { ...page, markdown: resolved.markdown });
      if (resolved.unresolved) unresolved.push(id);
    }
    return unresolved;
  };
  const left = await resolve(new ContentLayout(tree, null), bodiesWritten);
  if (left.length) await resolve(new ContentLayout(tree, [...(await context.files()), ...insertedFiles]), left);
}
