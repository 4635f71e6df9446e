// References in the markdown a batch wrote, resolved after every operation, so that a page may refer to a file
// inserted after it, as GitBook's do: `./<ref>` of a file of the batch and `/files/<fileId>` to the file's id,
// `/pages/<pageId>` to the page's; then relative paths, from the page's file in the tree the batch leaves, to the
// pages and files there (addresses.ts).
import { ContentLayout } from '../addresses.js';
import { FILE_ID_PREFIX, PAGE_ID_PREFIX, replaceDestinations, spacePath } from '../markdown.js';
import { buildTree } from '../read.js';
import type { EditBatch } from './batch.js';

/** Whether a link's address may name a page or a file: anything but a URL with a scheme or an anchor of the page. */
const mayNameContent = (address: string) => {
  const trimmed = address.trim();
  return trimmed !== '' && !trimmed.startsWith('#') && !/^[a-z][a-z0-9+.-]*:/i.test(trimmed);
};

export async function resolveReferences({ draft, refs, insertedFiles, bodiesWritten, context }: EditBatch): Promise<void> {
  const written = new Map<string, string>();
  for (const id of bodiesWritten) {
    const markdown = (await draft.page(id))?.markdown;
    if (markdown) written.set(id, markdown);
  }
  // The whole tree is read only for markdown that links to content: a page with plain text or URLs costs no more.
  let linksToContent = false;
  for (const markdown of written.values()) {
    replaceDestinations(markdown, (address) => {
      linksToContent ||= mayNameContent(address);
      return undefined;
    });
  }
  if (!linksToContent) return;
  const live = await draft.everything();
  const pageIds = new Set(live.map(([id]) => id));
  const fileIds = new Set(insertedFiles.map((file) => file.fileId));
  const batchForms = (url: string) => {
    const [address, anchor] = url.split('#', 2);
    const fileById = /^\/files\/([^/?]+)$/.exec(address)?.[1];
    if (fileById) return `${FILE_ID_PREFIX}${fileById}`;
    const fileByRef = address.startsWith('/') ? undefined : refs.get(spacePath(address) ?? '');
    if (fileByRef && fileIds.has(fileByRef)) return `${FILE_ID_PREFIX}${fileByRef}`;
    const pageId = /^\/pages\/([^/?]+)$/.exec(address)?.[1];
    if (pageId && pageIds.has(pageId)) return `${PAGE_ID_PREFIX}${pageId}${anchor ? `#${anchor}` : ''}`;
    return undefined;
  };
  const tree = buildTree(live.map(([, page]) => page));
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
  const left = await resolve(new ContentLayout(tree, null), written.keys());
  if (left.length) await resolve(new ContentLayout(tree, [...(await context.files()), ...insertedFiles]), left);
}
