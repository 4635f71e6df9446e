// A page cut into the sections that search finds: its intro (the text before its first heading) and one section per
// top-level heading, with the body up to the next heading. Cut on the markdown AST (remark, as the content is parsed
// everywhere else), never with regular expressions; a page kept as GitBook's JSON document is read through its markdown.
import slugify from '@sindresorhus/slugify';
import type { Heading, Root, RootContent } from 'mdast';
import { documentToMarkdown } from '../revisions/document.js';
import { parseMarkdown, textOf } from '../revisions/markdown.js';

/**
 * Bytes (UTF-8) of text a tsvector is made from, at most: of a section's text, and of a page's. PostgreSQL refuses a
 * tsvector over 1 MB, and no text of this size makes one (its lexemes, positions and entries stay under 6 bytes per
 * byte of text). Text beyond it is not searched; a page of documentation is far smaller.
 */
export const MAX_INDEXED_BYTES = 150_000;
const MAX_HEADING_CHARACTERS = 1_000;

export interface Section {
  /** 0 for the intro, then 1, 2, ... in the page's order. */
  position: number;
  /** The heading's anchor on the page (its slug, `-2`, `-3`... for a repeated one); null for the intro. */
  anchor: string | null;
  /** The heading's text; empty for the intro. */
  heading: string;
  /** The section's text, blocks on lines of their own. */
  body: string;
}

/** Pages that search finds: those with content of their own (links lead elsewhere; computed pages are generated). */
export const SEARCHED_PAGE_TYPES = ['document', 'group'] as const;

/** Phrasing containers: their children are one run of text. */
const INLINE_PARENTS = new Set(['paragraph', 'heading', 'emphasis', 'strong', 'delete', 'link', 'linkReference', 'tableCell']);

/** The text of a node, with the blocks (and list items, table cells) of a container on lines of their own. */
function plainText(node: Root | RootContent): string {
  switch (node.type) {
    case 'yaml':
    case 'html':
    case 'definition':
      return '';
    case 'break':
      return '\n';
    case 'image':
    case 'imageReference':
      return node.alt ?? '';
    default:
      if ('value' in node && typeof node.value === 'string') return node.value;
      if (!('children' in node)) return '';
      return (node.children as RootContent[]).map(plainText).join(INLINE_PARENTS.has(node.type) ? '' : '\n');
  }
}

/** The text within `bytes` bytes of UTF-8, cut at a character. */
export function withinBytes(text: string, bytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return text;
  // A character cut in two decodes as U+FFFD: dropped.
  return encoded
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

/** The markdown a page's sections are cut from: its markdown, else its JSON document's. */
export function markdownOfPage(page: { markdown: string | null; document: unknown }): string {
  if (page.markdown != null) return page.markdown;
  return page.document ? documentToMarkdown(page.document) : '';
}

/**
 * The sections of a page's markdown. A leading level-1 heading that repeats the page's title is where the title came
 * from (see markdownToDocument): it opens no section of its own.
 */
export function sectionsOf(markdown: string, title: string): Section[] {
  const tree = parseMarkdown(markdown);
  let blocks = tree.children.filter((node) => node.type !== 'yaml');
  const [first] = blocks;
  if (first?.type === 'heading' && (first as Heading).depth === 1 && textOf(first).trim() === title.trim()) blocks = blocks.slice(1);
  const sections: { heading: Heading | null; blocks: RootContent[] }[] = [{ heading: null, blocks: [] }];
  for (const node of blocks) {
    if (node.type === 'heading') sections.push({ heading: node, blocks: [] });
    else sections.at(-1)!.blocks.push(node);
  }
  const anchors = new Set<string>();
  return sections.map(({ heading, blocks }, position) => {
    const body = withinBytes(
      blocks
        .map(plainText)
        .filter((text) => text.trim())
        .join('\n')
        .trim(),
      MAX_INDEXED_BYTES,
    );
    if (!heading) return { position, anchor: null, heading: '', body };
    const text = plainText(heading).replace(/\s+/g, ' ').trim().slice(0, MAX_HEADING_CHARACTERS);
    const base = slugify(text) || 'section';
    let anchor = base;
    for (let n = 2; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
    return { position, anchor, heading: text, body };
  });
}

/** A page's text as its own vector weighs it: its headings, and its sections' text, within MAX_INDEXED_BYTES together. */
export function pageTextOf(sections: readonly Section[]): { headings: string; body: string } {
  const headings = withinBytes(
    sections
      .map((section) => section.heading)
      .filter(Boolean)
      .join('\n'),
    MAX_INDEXED_BYTES,
  );
  const body = withinBytes(
    sections
      .map((section) => section.body)
      .filter(Boolean)
      .join('\n'),
    MAX_INDEXED_BYTES - Buffer.byteLength(headings),
  );
  return { headings, body };
}
