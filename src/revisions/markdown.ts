// Markdown as pages hold it: parsed with remark (GFM and front matter), never with regular expressions. A page's
// metadata may come from its markdown, as GitBook's Git Sync reads it: the front matter's fields, and for the title
// the front matter's `title` or else the leading level-1 heading. The stored markdown is the body without its front
// matter.
import type { Heading, Root, RootContent } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { parse as parseYaml } from 'yaml';
import { badRequest } from '../kernel/errors.js';

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']);

export const parseMarkdown = (markdown: string): Root => parser.parse(markdown);

/** The text of a node and its descendants. */
export function textOf(node: Root | RootContent): string {
  if ('value' in node && typeof node.value === 'string' && node.type !== 'yaml' && node.type !== 'html') return node.value;
  return 'children' in node ? (node.children as RootContent[]).map(textOf).join('') : '';
}

/** Page metadata that front matter may set. */
export interface FrontMatter {
  title?: string;
  description?: string;
  emoji?: string;
  icon?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
}

const STRING_KEYS = ['title', 'description', 'emoji', 'icon'] as const;
const BOOLEAN_KEYS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

export interface ReadMarkdown {
  /** The body, without front matter. */
  body: string;
  meta: FrontMatter;
  /** The text of the leading level-1 heading, if the body starts with one. */
  heading?: string;
}

/** Reads a page's markdown: its front matter (400 when it is not a YAML mapping) and its leading heading. */
export function readMarkdown(markdown: string, field = 'document.markdown'): ReadMarkdown {
  const tree = parseMarkdown(markdown);
  const first = tree.children[0];
  const meta: FrontMatter = {};
  let body = markdown;
  if (first?.type === 'yaml') {
    let data: unknown;
    try {
      data = parseYaml(first.value);
    } catch (error) {
      throw badRequest(`Invalid "${field}": its front matter is not valid YAML (${(error as Error).message.split('\n')[0]}).`);
    }
    if (data !== null && (typeof data !== 'object' || Array.isArray(data))) {
      throw badRequest(`Invalid "${field}": its front matter must be a mapping of fields.`);
    }
    const fields = (data ?? {}) as Record<string, unknown>;
    for (const key of STRING_KEYS) if (typeof fields[key] === 'string') meta[key] = fields[key] as string;
    for (const key of BOOLEAN_KEYS) if (typeof fields[key] === 'boolean') meta[key] = fields[key] as boolean;
    body = markdown.slice(first.position?.end.offset ?? 0).replace(/^\r?\n/, '');
  }
  const lead = tree.children.find((node) => node.type !== 'yaml');
  const heading = lead?.type === 'heading' && (lead as Heading).depth === 1 ? textOf(lead).trim() || undefined : undefined;
  return { body, meta, heading };
}

/**
 * A mention: `@` and a user's id (what GitBook's document mention refers to), where it is neither the end of a word
 * nor inside an e-mail address.
 */
const MENTION = /(?<![\w.@+-])@([0-9A-Za-z]{20})(?![\w@-])/g;

/** A text cut at its mentions of the users in `users`: pieces of text, and the mentions, in order. */
export function splitMentions(text: string, users: ReadonlySet<string>): (string | { user: string })[] {
  if (!users.size) return [text];
  const parts: (string | { user: string })[] = [];
  let from = 0;
  for (const match of text.matchAll(MENTION)) {
    if (!users.has(match[1])) continue;
    if (match.index > from) parts.push(text.slice(from, match.index));
    parts.push({ user: match[1] });
    from = match.index + match[0].length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}

/** The ids of the users a markdown text mentions, in the order first seen: in its text, not in code or addresses. */
export function mentionsOf(markdown: string): string[] {
  const users = new Set<string>();
  const visit = (node: Root | RootContent) => {
    if (node.type === 'text') for (const match of node.value.matchAll(MENTION)) users.add(match[1]);
    if ('children' in node) for (const child of node.children as RootContent[]) visit(child);
  };
  visit(parseMarkdown(markdown));
  return [...users];
}

/** What a JSON document's reference to a space's file becomes in markdown here: the file's id behind this prefix. */
export const FILE_ID_PREFIX = 'file-id:';
/** And its reference to a page of the space: the page's id behind this prefix. */
export const PAGE_ID_PREFIX = 'page-id:';

/**
 * The markdown with the destinations of its links, images and link definitions replaced where `replace` answers:
 * each in its own place in the text, the rest of the text as it was. A destination written otherwise than remark reads
 * it (percent-encoded, say) is left alone.
 */
export function replaceDestinations(markdown: string, replace: (url: string) => string | undefined): string {
  const edits: { from: number; to: number; url: string }[] = [];
  const visit = (node: Root | RootContent) => {
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && node.position) {
      const url = replace(node.url);
      const { start, end } = node.position;
      // The destination comes after the text (or label): its last occurrence in the node's span.
      const at = url === undefined ? -1 : markdown.lastIndexOf(node.url, end.offset! - 1);
      if (url !== undefined && node.url && at >= start.offset!) edits.push({ from: at, to: at + node.url.length, url });
    }
    if ('children' in node) for (const child of node.children as RootContent[]) visit(child);
  };
  visit(parseMarkdown(markdown));
  let out = markdown;
  for (const edit of edits.sort((a, b) => b.from - a.from)) out = out.slice(0, edit.from) + edit.url + out.slice(edit.to);
  return out;
}

/**
 * A relative address (its query and fragment already cut) as a path from the space root: percent-decoded, with `./`,
 * `../` and a leading `/` dropped; null when nothing is left or it does not decode. Pages and files are addressed so.
 */
export function spacePath(address: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(address);
  } catch {
    return null;
  }
  const segments = path.split('/').filter((segment) => segment && segment !== '.' && segment !== '..');
  return segments.length ? segments.join('/') : null;
}
