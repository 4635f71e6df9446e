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
