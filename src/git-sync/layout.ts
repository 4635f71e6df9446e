// GitBook's Git Sync layout, read and written: the repository's `.gitbook.yaml` (where the content's root is, and
// the names of its readme and summary), `SUMMARY.md` (the page tree: a list of links to markdown files, nested lists
// for subpages, `##` headings for groups of pages, links to URLs for link pages), and each page's markdown file with
// its front matter (GitBook's documented keys: description, icon, hidden, noIndex, layout; also emoji and
// noRobotsIndex). A repository without a summary has its tree read from its folders: a folder's README.md is the page
// holding the folder's other pages. Where each page and file is written, and the links between them, is the content's
// own layout (src/revisions/addresses.ts). Paths here are POSIX paths relative to the content's root unless said
// otherwise.
import slugify from '@sindresorhus/slugify';
import type { List, ListItem, PhrasingContent, Root, RootContent } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { ApiError } from '../kernel/errors.js';
import { insidePath, README, relativeAddress, resolveAddress } from '../revisions/addresses.js';
import { parseMarkdown, readMarkdown, textOf } from '../revisions/markdown.js';
import type { PageNode } from '../revisions/read.js';

/** A repository that cannot be read as content (the message says why, naming the file). */
export class LayoutError extends Error {}

export interface GitBookConfig {
  /** The content's root, relative to the project directory ('' for the directory itself). */
  root: string;
  readme: string;
  summary: string;
}

export const DEFAULT_CONFIG: GitBookConfig = { root: '', readme: README, summary: 'SUMMARY.md' };
export const CONFIG_FILE = '.gitbook.yaml';

/** The `.gitbook.yaml` of the project: root, structure.readme and structure.summary, defaults for what it leaves out. */
export function readConfig(text: string | null): GitBookConfig {
  if (text === null) return DEFAULT_CONFIG;
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    throw new LayoutError(`${CONFIG_FILE} is not valid YAML (${(error as Error).message.split('\n')[0]}).`);
  }
  const config = (data && typeof data === 'object' ? data : {}) as { root?: unknown; structure?: { readme?: unknown; summary?: unknown } };
  const relative = (value: unknown, fallback: string, key: string) => {
    if (value === undefined || value === null) return fallback;
    const inside = typeof value === 'string' ? insidePath(value) : null;
    if (inside === null) throw new LayoutError(`${CONFIG_FILE}: "${key}" must be a path inside the repository.`);
    return inside;
  };
  return {
    root: relative(config.root, '', 'root'),
    readme: relative(config.structure?.readme, DEFAULT_CONFIG.readme, 'structure.readme') || DEFAULT_CONFIG.readme,
    summary: relative(config.structure?.summary, DEFAULT_CONFIG.summary, 'structure.summary') || DEFAULT_CONFIG.summary,
  };
}

// --- the page tree ---------------------------------------------------------------------------------------------------

export type TreeEntry =
  | { kind: 'page'; title: string | null; path: string; children: TreeEntry[] }
  | { kind: 'group'; title: string; children: TreeEntry[] }
  | { kind: 'link'; title: string; url: string };

const isMarkdownPath = (file: string) => /\.md$/i.test(file);
/** The pages SUMMARY.md lists, in order; `summaryPath` is where it is, links being relative to its folder. */
export function readSummary(markdown: string, summaryPath: string): TreeEntry[] {
  const tree = parseMarkdown(markdown);
  const definitions = new Map<string, string>();
  const collect = (node: Root | RootContent) => {
    if (node.type === 'definition') definitions.set(node.identifier, node.url);
    if ('children' in node) for (const child of node.children as RootContent[]) collect(child);
  };
  collect(tree);
  const linkOf = (nodes: readonly PhrasingContent[]): { url: string; title: string } | null => {
    for (const node of nodes) {
      if (node.type === 'link') return { url: node.url, title: textOf(node).trim() };
      if (node.type === 'linkReference') return { url: definitions.get(node.identifier) ?? '', title: textOf(node).trim() };
      if ('children' in node) {
        const inner = linkOf(node.children as PhrasingContent[]);
        if (inner) return inner;
      }
    }
    return null;
  };
  const items = (list: List): TreeEntry[] => list.children.flatMap(item);
  const item = (listItem: ListItem): TreeEntry[] => {
    const nested = listItem.children.filter((child): child is List => child.type === 'list').flatMap(items);
    const paragraph = listItem.children.find((child) => child.type === 'paragraph');
    const link = paragraph && paragraph.type === 'paragraph' ? linkOf(paragraph.children) : null;
    if (link && /^https?:\/\//i.test(link.url.trim())) return [{ kind: 'link', title: link.title || link.url, url: link.url.trim() }];
    const target = link ? resolveAddress(link.url, summaryPath) : null;
    // An item that names no markdown file is no page: its subpages take its place.
    if (!target || !isMarkdownPath(target)) return nested;
    return [{ kind: 'page', title: link?.title || null, path: target, children: nested }];
  };
  const entries: TreeEntry[] = [];
  let group: TreeEntry[] = entries;
  for (const node of tree.children) {
    if (node.type === 'heading' && node.depth > 1) {
      const title = textOf(node).trim();
      const children: TreeEntry[] = [];
      entries.push({ kind: 'group', title: title || 'Group', children });
      group = children;
    } else if (node.type === 'list') group.push(...items(node));
  }
  return entries;
}

/**
 * The pages of a repository without a summary, from its markdown files: the readme first, then by name; a folder
 * with a README.md is a page holding the folder's other pages, a folder without one gives its pages to its parent.
 */
export function treeFromFiles(markdownFiles: readonly string[], config: GitBookConfig): TreeEntry[] {
  const files = markdownFiles.filter((file) => file !== config.summary && !file.split('/').some((segment) => segment.startsWith('.')));
  const known = new Set(files);
  const under = (folder: string): TreeEntry[] => {
    const prefix = folder ? `${folder}/` : '';
    const names = new Set<string>();
    for (const file of files) if (file.startsWith(prefix)) names.add(file.slice(prefix.length).split('/')[0]);
    const entries: TreeEntry[] = [];
    for (const name of [...names].sort()) {
      const full = prefix + name;
      if (known.has(full)) {
        if (!/^readme\.md$/i.test(name)) entries.push({ kind: 'page', title: null, path: full, children: [] });
        continue;
      }
      const readme = files.find((file) => file.toLowerCase() === `${full}/readme.md`.toLowerCase());
      const children = under(full);
      entries.push(...(readme ? [{ kind: 'page' as const, title: null, path: readme, children }] : children));
    }
    return entries;
  };
  const entries = under('');
  if (known.has(config.readme)) {
    return [
      { kind: 'page', title: null, path: config.readme, children: [] },
      ...entries.filter((e) => !(e.kind === 'page' && e.path === config.readme)),
    ];
  }
  return entries;
}

// --- a page's file -----------------------------------------------------------------------------------------------------

/** Page fields that front matter sets. */
export interface PageMatter {
  title?: string;
  description?: string | null;
  icon?: string | null;
  emoji?: string | null;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  /** The stored layout: GitBook's `layout` keys, `{visible}` objects read as booleans. */
  layout?: Record<string, string | boolean> | null;
}

export interface PageFile {
  matter: PageMatter;
  /** The markdown without its front matter. */
  body: string;
  /** The leading level-1 heading's text. */
  heading?: string;
}

/** The stored layout of GitBook's front-matter `layout`: strings as they are, `{visible: boolean}` as the boolean. */
function layoutFrom(value: unknown): Record<string, string | boolean> | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const layout: Record<string, string | boolean> = {};
  for (const [key, option] of Object.entries(value)) {
    if (typeof option === 'string' || typeof option === 'boolean') layout[key] = option;
    else if (option && typeof option === 'object' && typeof (option as { visible?: unknown }).visible === 'boolean') {
      layout[key] = (option as { visible: boolean }).visible;
    }
  }
  return Object.keys(layout).length ? layout : null;
}

/** A page's markdown file: front matter (a mapping, or the file is refused) and body. */
export function readPageFile(text: string, file: string): PageFile {
  let read: ReturnType<typeof readMarkdown>;
  try {
    read = readMarkdown(text, file);
  } catch (error) {
    if (error instanceof ApiError) throw new LayoutError(error.message.replace(/^Invalid /, ''));
    throw error;
  }
  const matter: PageMatter = { ...read.meta };
  const first = read.body.length < text.length ? parseMarkdown(text).children[0] : undefined;
  if (first?.type === 'yaml') {
    const layout = layoutFrom((parseYaml(first.value) as { layout?: unknown } | null)?.layout);
    if (layout) matter.layout = layout;
  }
  // The blank line GitBook writes after front matter is no part of the body.
  const body = first?.type === 'yaml' ? read.body.replace(/^(\r?\n)+/, '') : read.body;
  return { matter, body, heading: read.heading };
}

/** GitBook's order of the layout options in front matter. */
const LAYOUT_ORDER = [
  'width',
  'cover',
  'coverSize',
  'coverMask',
  'title',
  'description',
  'tableOfContents',
  'outline',
  'pagination',
  'metadata',
];

/** A page's markdown file: the front matter of the fields that differ from a new page's, then the body. */
export function writePageFile(matter: PageMatter, body: string): string {
  const data: Record<string, unknown> = {};
  if (matter.description) data.description = matter.description;
  if (matter.icon) data.icon = matter.icon;
  if (matter.emoji) data.emoji = matter.emoji;
  if (matter.hidden) data.hidden = true;
  if (matter.noIndex) data.noIndex = true;
  if (matter.noRobotsIndex) data.noRobotsIndex = true;
  if (matter.layout && Object.keys(matter.layout).length) {
    const order = (key: string) => (LAYOUT_ORDER.includes(key) ? LAYOUT_ORDER.indexOf(key) : LAYOUT_ORDER.length);
    const keys = Object.keys(matter.layout).sort((a, b) => order(a) - order(b) || a.localeCompare(b));
    data.layout = Object.fromEntries(
      keys.map((key) => [key, typeof matter.layout![key] === 'boolean' ? { visible: matter.layout![key] } : matter.layout![key]]),
    );
  }
  return Object.keys(data).length ? `---\n${stringifyYaml(data)}---\n\n${body}` : body;
}

/** A page's slug from its file: its name, or its folder's for a README; null when neither makes one. */
export function slugFromPath(file: string): string | null {
  const segments = file.split('/');
  const name = segments.at(-1)!.replace(/\.md$/i, '');
  const base = /^readme$/i.test(name) ? segments.at(-2) : name;
  if (!base) return null;
  return /^[a-z0-9][a-z0-9-_]*$/.test(base) ? base.slice(0, 100) : slugify(base).slice(0, 100) || null;
}

/** A title from a file name: `getting-started.md` reads "Getting started". */
export function titleFromPath(file: string): string {
  const segments = file.split('/');
  const name = segments.at(-1)!.replace(/\.md$/i, '');
  const base = (/^readme$/i.test(name) && segments.at(-2)) || name;
  const words = base.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The addresses of a page's links and images (reference ones through their definitions), in order. */
export function addressesOf(markdown: string): string[] {
  const found: string[] = [];
  const visit = (node: Root | RootContent) => {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') found.push(node.url);
    if ('children' in node) for (const child of node.children as RootContent[]) visit(child);
  };
  visit(parseMarkdown(markdown));
  return found;
}

// --- writing the layout ------------------------------------------------------------------------------------------------

const stringifier = unified().use(remarkGfm).use(remarkStringify, { bullet: '*', listItemIndent: 'one' });

/**
 * SUMMARY.md of a tree: its documents and links as nested lists, each group as a `##` heading with its pages. A
 * top-level page after a group would read as the group's in a summary: top-level pages come before the groups.
 */
export function writeSummary(roots: readonly PageNode[], paths: ReadonlyMap<string, string>, summaryPath: string): string {
  const itemsOf = (nodes: readonly PageNode[]): ListItem[] =>
    nodes.flatMap((node): ListItem[] => {
      const { page } = node;
      const address =
        page.type === 'link' ? (page.target as { kind?: string; url?: string } | null) : { kind: 'path', url: paths.get(page.pageId) };
      if (page.type !== 'document' && page.type !== 'link') return [];
      if (!address?.url || (page.type === 'link' && address.kind !== 'url')) return [];
      const url = page.type === 'link' ? address.url : relativeAddress(address.url, summaryPath);
      const children = page.type === 'document' ? itemsOf(node.children) : [];
      return [
        {
          type: 'listItem',
          spread: false,
          children: [
            { type: 'paragraph', children: [{ type: 'link', url, children: [{ type: 'text', value: page.title }] }] },
            ...(children.length ? [{ type: 'list' as const, ordered: false, spread: false, children }] : []),
          ],
        },
      ];
    });
  const list = (items: ListItem[]): RootContent[] =>
    items.length ? [{ type: 'list', ordered: false, spread: false, children: items }] : [];
  const groups = roots.filter((node) => node.page.type === 'group');
  const children: RootContent[] = [
    { type: 'heading', depth: 1, children: [{ type: 'text', value: 'Table of contents' }] },
    ...list(itemsOf(roots.filter((node) => node.page.type !== 'group'))),
    ...groups.flatMap((group): RootContent[] => [
      { type: 'heading', depth: 2, children: [{ type: 'text', value: group.page.title }] },
      ...list(itemsOf(group.children)),
    ]),
  ];
  return stringifier.stringify({ type: 'root', children });
}
