// The links of a page's markdown, from its AST (remark: link, image, and reference links/images through their
// definitions): to a page or a file of the same space, or to an external URL. A write stores a link to a page or a
// file as a reference (`page-id:`, `file-id:`; src/revisions/addresses.ts), which is resolved against a revision's
// pages and files when read (src/links/service.ts), so a link's status is current; a path left in the markdown named
// nothing when it was written.
import type { Root, RootContent } from 'mdast';
import { FILE_ID_PREFIX, PAGE_ID_PREFIX, parseMarkdown, spacePath } from '../revisions/markdown.js';

export type LinkKind = 'page' | 'file' | 'url';

export interface ExtractedLink {
  position: number;
  kind: LinkKind;
  /** page: `path:<path from the space root>` or `id:<pageId>`; file: `path:<path>` or `id:<fileId>`; url: the URL. */
  target: string;
  href: string;
  anchor: string | null;
}

const EXTERNAL = new Set(['http:', 'https:']);
/** A link to a path with one of these endings names a page; any other extension names a file. */
const PAGE_SUFFIXES = ['.md', '.markdown'];

/**
 * What an address names, or null for what is not checked (mailto:, an anchor of the same page, other schemes). A path
 * (which named nothing when written) is kept as one from the space root (spacePath), so that the same broken target
 * written twice is listed once: `.md` is dropped, and a trailing `README` or `index` names its folder's page.
 */
export function classify(href: string, image: boolean): Omit<ExtractedLink, 'position' | 'href'> | null {
  const trimmed = href.trim();
  if (!trimmed || trimmed.startsWith('#')) return null;
  if (trimmed.startsWith(FILE_ID_PREFIX)) return { kind: 'file', target: `id:${trimmed.slice(FILE_ID_PREFIX.length)}`, anchor: null };
  if (trimmed.startsWith(PAGE_ID_PREFIX)) {
    const [id, anchor] = trimmed.slice(PAGE_ID_PREFIX.length).split('#', 2);
    return id ? { kind: 'page', target: `id:${id}`, anchor: anchor || null } : null;
  }
  const scheme = /^([a-z][a-z0-9+.-]*:)/i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme) {
    if (!EXTERNAL.has(scheme)) return null;
    try {
      return { kind: 'url', target: new URL(trimmed).href, anchor: null };
    } catch {
      return null;
    }
  }
  if (trimmed.startsWith('//')) return null;
  const hash = trimmed.indexOf('#');
  const anchor = hash >= 0 ? trimmed.slice(hash + 1) || null : null;
  const address = (hash >= 0 ? trimmed.slice(0, hash) : trimmed).split('?')[0];
  const path = spacePath(address);
  if (path === null) return null;
  const last = path.slice(path.lastIndexOf('/') + 1);
  const lower = last.toLowerCase();
  const pageSuffix = PAGE_SUFFIXES.find((suffix) => lower.endsWith(suffix));
  if (image || (!pageSuffix && last.includes('.'))) return { kind: 'file', target: `path:${path}`, anchor: null };
  let pagePath = pageSuffix ? path.slice(0, -pageSuffix.length) : path;
  const folder = pagePath.lastIndexOf('/');
  const name = pagePath.slice(folder + 1).toLowerCase();
  if (name === 'readme' || name === 'index') pagePath = folder >= 0 ? pagePath.slice(0, folder) : '';
  return pagePath ? { kind: 'page', target: `path:${pagePath}`, anchor } : null;
}

/** The links of a markdown body, in document order. */
export function linksOf(markdown: string | null): ExtractedLink[] {
  if (!markdown) return [];
  const root = parseMarkdown(markdown);
  const definitions = new Map<string, string>();
  const collect = (node: Root | RootContent) => {
    if (node.type === 'definition') definitions.set(node.identifier, node.url);
    if ('children' in node) for (const child of node.children as RootContent[]) collect(child);
  };
  collect(root);
  const links: ExtractedLink[] = [];
  const add = (href: string | undefined, image: boolean) => {
    if (href === undefined) return;
    const link = classify(href, image);
    if (link) links.push({ position: links.length, href, ...link });
  };
  const visit = (node: Root | RootContent) => {
    if (node.type === 'link') add(node.url, false);
    else if (node.type === 'image') add(node.url, true);
    else if (node.type === 'linkReference') add(definitions.get(node.identifier), false);
    else if (node.type === 'imageReference') add(definitions.get(node.identifier), true);
    if ('children' in node) for (const child of node.children as RootContent[]) visit(child);
  };
  visit(root);
  return links;
}
