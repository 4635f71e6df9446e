// Where a space's pages and files are as files, and the links between them. The layout is GitBook's Git Sync one
// (src/git-sync writes and reads it): a page imported from Git stays in its file; another is `<slug>.md` in its
// parent's folder, `<slug>/README.md` when it has subpages, and the first top-level page is the readme; a file keeps
// its Git path, or goes under `.gitbook/assets` by name.
//
// A page's markdown keeps its links to the space's pages and files by id (`page-id:<id>[#anchor]`, `file-id:<id>`).
// Written as paths relative to the page's own file (or from the space root, with a leading `/`), they are resolved
// when written (resolveLinks); every markdown read and every export writes them as paths from the page's file again
// (relativeLinks), as the tree is then, so that a move rewrites nothing.
import path from 'node:path';
import { FILE_ID_PREFIX, PAGE_ID_PREFIX, replaceDestinations } from './markdown.js';
import type { PageNode, PageTree } from './read.js';

const posix = path.posix;

/** Where GitBook keeps a space's files, under the root. */
export const ASSETS = '.gitbook/assets';
/** The readme's file unless a repository's `.gitbook.yaml` names another. */
export const README = 'README.md';

/** A path inside the repository, normalized (`docs/./a/../b` is `docs/b`, '' for the top); null when it leaves it. */
export function insidePath(value: string): string | null {
  const normalized = posix.normalize(value.replace(/^\/+/, '') || '.').replace(/\/+$/, '');
  if (normalized === '.') return '';
  return normalized.split('/').includes('..') ? null : normalized;
}

export const joinPath = (...parts: string[]) => parts.filter(Boolean).join('/');

const hasScheme = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url);

/**
 * A link's destination as a path from the root (from the folder of the file `from`, or from the root with a leading
 * `/`), percent-decoded, with its anchor; null for what names no path: a URL, an anchor or a query of the same page,
 * an address that leaves the root or does not decode.
 */
export function targetOf(address: string, from: string): { path: string; anchor: string | null } | null {
  const trimmed = address.trim();
  if (!trimmed || trimmed.startsWith('#') || trimmed.startsWith('//') || hasScheme(trimmed)) return null;
  const hash = trimmed.indexOf('#');
  const anchor = hash >= 0 ? trimmed.slice(hash + 1) || null : null;
  const bare = (hash >= 0 ? trimmed.slice(0, hash) : trimmed).split('?')[0];
  if (!bare) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(bare);
  } catch {
    return null;
  }
  const resolved = decoded.startsWith('/') ? insidePath(decoded) : insidePath(joinPath(posix.dirname(from), decoded));
  return resolved === null ? null : { path: resolved, anchor };
}

/** A link's destination as a path from the root, from the folder of the file it is in; null when it names none. */
export const resolveAddress = (address: string, from: string): string | null => targetOf(address, from)?.path || null;

/** A link's address: a path from `from`'s folder, its segments escaped as URLs (and markdown's parentheses) need. */
export const relativeAddress = (to: string, from: string) =>
  posix
    .relative(posix.dirname(`/${from}`), `/${to}`)
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/\(/g, '%28').replace(/\)/g, '%29'))
    .join('/');

/**
 * Where each page of a tree is written: a page imported from Git (or read back from an export) where its file is;
 * another at its place in the tree: the first top-level document is the readme, a document with subpages is
 * `<slug>/README.md` with its subpages in its folder, another is `<slug>.md`, a group's pages are in a folder named
 * after it. Links and computed pages have no file.
 */
export function pagePaths(roots: readonly PageNode[], readme = README): Map<string, string> {
  const paths = new Map<string, string>();
  const taken = new Set<string>();
  const kept = (node: PageNode) => {
    const file = node.page.type === 'document' && node.page.gitPath ? insidePath(node.page.gitPath) : null;
    return file && /\.md$/i.test(file) ? file : null;
  };
  const claim = (nodes: readonly PageNode[]) => {
    for (const node of nodes) {
      const file = kept(node);
      if (file && !taken.has(file)) {
        paths.set(node.page.pageId, file);
        taken.add(file);
      }
      claim(node.children);
    }
  };
  claim(roots);
  const unique = (file: string) => {
    let candidate = file;
    for (let n = 2; taken.has(candidate); n++) candidate = file.replace(/(\/README)?\.md$/, `-${n}$&`);
    taken.add(candidate);
    return candidate;
  };
  const first = roots.find((node) => node.page.type === 'document');
  const place = (nodes: readonly PageNode[], folder: string) => {
    for (const node of nodes) {
      const { page } = node;
      if (page.type === 'group') place(node.children, joinPath(folder, page.slug));
      else if (page.type === 'document') {
        if (!paths.has(page.pageId)) {
          const file =
            node === first && !taken.has(readme)
              ? readme
              : node.children.length
                ? joinPath(folder, page.slug, 'README.md')
                : joinPath(folder, `${page.slug}.md`);
          paths.set(page.pageId, unique(file));
        }
        place(node.children, joinPath(folder, page.slug));
      }
    }
  };
  place(roots, '');
  return paths;
}

/** What the layout needs of a file. */
export interface FileHead {
  fileId: string;
  name: string;
  gitPath: string | null;
}

/** Where each file is written: its Git path when it has one, else under `.gitbook/assets` by name, made unique. */
export function filePaths(files: readonly FileHead[]): Map<string, string> {
  const paths = new Map<string, string>();
  const taken = new Set<string>();
  for (const file of files) {
    const kept = file.gitPath ? insidePath(file.gitPath) : null;
    if (kept && !taken.has(kept)) {
      paths.set(file.fileId, kept);
      taken.add(kept);
    }
  }
  for (const file of files) {
    if (paths.has(file.fileId)) continue;
    const name = file.name.replace(/[/\\]/g, '-').replace(/^\.+/, '') || 'file';
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = joinPath(ASSETS, name);
    for (let n = 2; taken.has(candidate); n++) candidate = joinPath(ASSETS, `${stem}-${n}${extension}`);
    paths.set(file.fileId, candidate);
    taken.add(candidate);
  }
  return paths;
}

const invert = (map: ReadonlyMap<string, string>) => new Map([...map].map(([id, file]) => [file, id]));

/**
 * The layout of one revision's pages and files, and its links resolved and written from it. Files are optional:
 * without them (null), links to files are neither resolved nor written, so that a caller reads the files only when a
 * markdown needs them.
 */
export class ContentLayout {
  private readonly pageFiles: Map<string, string>;
  private readonly pagesByFile: Map<string, string>;
  /** Documents by their path in the tree (their slugs), as the API shows it. */
  private readonly pagesByPath = new Map<string, string>();
  private readonly fileFiles: Map<string, string> | null;
  private readonly filesByFile: Map<string, string> | null;

  constructor(
    tree: PageTree,
    files: readonly FileHead[] | null,
    private readonly readme = README,
  ) {
    this.pageFiles = pagePaths(tree.roots, readme);
    this.pagesByFile = invert(this.pageFiles);
    for (const [treePath, node] of tree.byPath) if (node.page.type === 'document') this.pagesByPath.set(treePath, node.page.pageId);
    this.fileFiles = files && filePaths(files);
    this.filesByFile = this.fileFiles && invert(this.fileFiles);
  }

  /** The file a page is written to; none for groups, links and computed pages. */
  fileOfPage(pageId: string): string | undefined {
    return this.pageFiles.get(pageId);
  }

  /** The file a file is written to (files given). */
  fileOfFile(fileId: string): string | undefined {
    return this.fileFiles?.get(fileId);
  }

  /**
   * The page at a path from the root: its file (`.md` optional, a folder naming its README.md), else a document at
   * that path in the tree.
   */
  private pageAt(target: string): string | undefined {
    const files = target === '' ? [this.readme] : /\.md$/i.test(target) ? [target] : [`${target}.md`, joinPath(target, 'README.md')];
    for (const file of files) {
      const found = this.pagesByFile.get(file);
      if (found) return found;
    }
    return this.pagesByPath.get(target.replace(/\.md$/i, '').replace(/(^|\/)README$/i, ''));
  }

  /** The file links in the page are relative to: its own. */
  private fromFileOf(pageId: string): string {
    return this.pageFiles.get(pageId) ?? this.readme;
  }

  /** The reference a path from the root names: `page-id:` (with the anchor) or `file-id:`; undefined for none. */
  private referenceAt(target: { path: string; anchor: string | null }): string | undefined {
    const page = this.pageAt(target.path);
    if (page) return `${PAGE_ID_PREFIX}${page}${target.anchor ? `#${target.anchor}` : ''}`;
    const file = this.filesByFile?.get(target.path);
    return file ? `${FILE_ID_PREFIX}${file}` : undefined;
  }

  /** The reference a relative address in the page names; undefined for none. */
  referenceOf(address: string, pageId: string): string | undefined {
    const target = targetOf(address, this.fromFileOf(pageId));
    return target ? this.referenceAt(target) : undefined;
  }

  /**
   * The page's markdown with the relative addresses that name a page or a file stored as references; `first` resolves
   * an address before them (a batch's own forms). `unresolved`: whether a path is left that names nothing here, which
   * the files, when not given, might name.
   */
  resolveLinks(
    markdown: string,
    pageId: string,
    first?: (address: string) => string | undefined,
  ): { markdown: string; unresolved: boolean } {
    const from = this.fromFileOf(pageId);
    let unresolved = false;
    const resolved = replaceDestinations(markdown, (address) => {
      const early = first?.(address);
      if (early !== undefined) return early;
      const target = targetOf(address, from);
      const reference = target ? this.referenceAt(target) : undefined;
      if (target && reference === undefined) unresolved = true;
      return reference;
    });
    return { markdown: resolved, unresolved };
  }

  /** The page's markdown with its references written as addresses from its file; those to what has no file stay. */
  relativeLinks(markdown: string, pageId: string): string {
    if (!markdown.includes(PAGE_ID_PREFIX) && !markdown.includes(FILE_ID_PREFIX)) return markdown;
    const from = this.fromFileOf(pageId);
    return replaceDestinations(markdown, (address) => {
      if (address.startsWith(PAGE_ID_PREFIX)) {
        const [page, anchor] = address.slice(PAGE_ID_PREFIX.length).split('#', 2);
        const file = this.pageFiles.get(page);
        return file ? `${relativeAddress(file, from)}${anchor ? `#${anchor}` : ''}` : undefined;
      }
      const file = address.startsWith(FILE_ID_PREFIX) ? this.fileFiles?.get(address.slice(FILE_ID_PREFIX.length)) : undefined;
      return file ? relativeAddress(file, from) : undefined;
    });
  }
}
