// A page's body in both of GitBook's formats: its JSON document (blocks, inlines, text leaves with marks, as the
// published spec's Document schemas describe them) built from markdown parsed with remark, and markdown written from
// a JSON document with remark-stringify. Headings (levels 4 to 6 become level 3, GitBook's deepest), paragraphs,
// ordered, bulleted and task lists, code, quotes, dividers, images (an image alone in a paragraph is an image block,
// otherwise an inline image), links and GFM tables (text columns, one fragment per cell, as GitBook keeps rich cells)
// map both ways. Content a context cannot hold (a table inside a quote, say) becomes a paragraph of its text, and
// blocks of GitBook's own (tabs, hints, expandables) become their text or their inner blocks in markdown: nothing is
// dropped. Front matter is metadata, not body.
import type {
  BlockContent,
  Code,
  Heading,
  Image,
  List,
  ListItem,
  PhrasingContent,
  Root,
  RootContent,
  Table,
  TableCell,
  TableRow,
} from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { FILE_ID_PREFIX, PAGE_ID_PREFIX, parseMarkdown, splitMentions, textOf } from './markdown.js';

type Node = Record<string, unknown>;
type MarkType = 'bold' | 'italic' | 'code' | 'strikethrough';

/** GitBook's JSON document. */
export interface JsonDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: Node[];
}

/** Where blocks go: what GitBook allows in each place differs (a quote holds no code, a list item no image block). */
type Place = 'top' | 'item' | 'quote';

const block = (type: string, nodes: Node[], data: Record<string, unknown> = {}): Node => ({ object: 'block', type, data, nodes });
const leaf = (text: string, marks: readonly MarkType[] = []) => ({
  object: 'leaf',
  text,
  marks: marks.map((type) => ({ object: 'mark', type })),
});
const textNode = (text: string): Node => ({ object: 'text', leaves: [leaf(text)] });
const paragraph = (nodes: Node[]): Node => block('paragraph', nodes.length ? nodes : [textNode('')]);

/** A link or image target as a GitBook content reference: an anchor on the page, a file or page of the space, or a URL. */
function refOf(url: string): Record<string, string> {
  if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: url.slice(1) };
  if (url.startsWith(FILE_ID_PREFIX)) return { kind: 'file', file: url.slice(FILE_ID_PREFIX.length) };
  if (url.startsWith(PAGE_ID_PREFIX)) {
    const [page, anchor] = url.slice(PAGE_ID_PREFIX.length).split('#', 2);
    return anchor ? { kind: 'anchor', page, anchor } : { kind: 'page', page };
  }
  return { kind: 'url', url };
}

/** Reads markdown into GitBook's document model, resolving reference-style links through their definitions. */
class DocumentBuilder {
  private readonly definitions = new Map<string, string>();

  /** `mentions`: the users whose `@id` in the text becomes a mention inline. */
  constructor(
    root: Root,
    private readonly mentions: ReadonlySet<string> = new Set(),
  ) {
    const collect = (node: Root | RootContent) => {
      if (node.type === 'definition') this.definitions.set(node.identifier, node.url);
      if ('children' in node) for (const child of node.children as RootContent[]) collect(child);
    };
    collect(root);
  }

  private urlOf(node: PhrasingContent): string {
    if (node.type === 'link' || node.type === 'image') return node.url;
    if (node.type === 'linkReference' || node.type === 'imageReference') return this.definitions.get(node.identifier) ?? '';
    return '';
  }

  blocks(nodes: readonly RootContent[], place: Place): Node[] {
    return nodes.flatMap((node) => this.block(node, place));
  }

  private block(node: RootContent, place: Place): Node[] {
    switch (node.type) {
      case 'yaml':
      case 'definition':
        return [];
      case 'paragraph': {
        const images = node.children.filter((child) => child.type === 'image' || child.type === 'imageReference');
        const onlyImages =
          images.length > 0 &&
          node.children.every(
            (child) => child.type === 'image' || child.type === 'imageReference' || (child.type === 'text' && !child.value.trim()),
          );
        if (onlyImages && place === 'top')
          return [
            {
              ...block(
                'images',
                images.map((image) => this.imageBlock(image)),
              ),
              isVoid: false,
            },
          ];
        return [paragraph(this.inlines(node.children))];
      }
      case 'heading':
        return [block(`heading-${Math.min(node.depth, 3)}`, this.inlines(node.children))];
      case 'thematicBreak':
        return [{ object: 'block', type: 'divider', data: {}, isVoid: true }];
      case 'blockquote': {
        const nodes = this.blocks(node.children, 'quote');
        return [block('blockquote', nodes.length ? nodes : [paragraph([])])];
      }
      case 'list':
        return [this.list(node)];
      case 'code':
        return place === 'quote' ? [paragraph([textNode(node.value)])] : [this.code(node)];
      case 'table':
        return place === 'quote' ? [paragraph([textNode(textOf(node))])] : [this.table(node)];
      case 'footnoteDefinition':
        return this.blocks(node.children, place);
      case 'html':
        return node.value.trim() ? [paragraph([textNode(node.value)])] : [];
      default:
        return textOf(node) ? [paragraph([textNode(textOf(node))])] : [];
    }
  }

  private imageBlock(image: PhrasingContent): Node {
    const { alt, title } = image as Image;
    return {
      object: 'block',
      type: 'image',
      data: { ref: refOf(this.urlOf(image)), ...(alt && { alt }) },
      fragments: title ? [{ object: 'fragment', fragment: 'caption', nodes: [paragraph([textNode(title)])] }] : [],
      isVoid: true,
    };
  }

  private list(list: List): Node {
    const tasks = list.children.some((item) => typeof item.checked === 'boolean');
    const items = list.children.map((item) => {
      const nodes = this.blocks(item.children, 'item');
      return block('list-item', nodes.length ? nodes : [paragraph([])], tasks ? { checked: item.checked === true } : {});
    });
    if (tasks) return block('list-tasks', items);
    if (!list.ordered) return block('list-unordered', items);
    return block('list-ordered', items, list.start != null && list.start !== 1 ? { start: list.start } : {});
  }

  private code(code: Code): Node {
    const lines = code.value.split('\n').map((line) => block('code-line', [textNode(line)]));
    return block('code', lines, code.lang ? { syntax: code.lang } : {});
  }

  /** A text table: one text column per header cell, one record per body row, each cell's content in a fragment. */
  private table(table: Table): Node {
    const [header, ...rows] = table.children;
    const columns = header.children.map((_, i) => `column${i + 1}`);
    const definition = Object.fromEntries(
      header.children.map((cell, i) => [
        columns[i],
        { id: columns[i], title: textOf(cell), type: 'text', textAlignment: table.align?.[i] ?? 'left' },
      ]),
    );
    const fragments: Node[] = [];
    const records = Object.fromEntries(
      rows.map((row, r) => {
        const values = Object.fromEntries(
          columns.map((column, c) => {
            const fragment = `cell${r + 1}x${c + 1}`;
            fragments.push({ object: 'fragment', fragment, nodes: [paragraph(this.inlines(row.children[c]?.children ?? []))] });
            return [column, fragment];
          }),
        );
        return [`row${r + 1}`, { orderIndex: String(r).padStart(8, '0'), values }];
      }),
    );
    return {
      object: 'block',
      type: 'table',
      data: { view: { type: 'grid', columns, hideHeader: false }, records, definition },
      fragments,
      isVoid: true,
    };
  }

  /** Inline content: runs of text become one text node of leaves, each with its marks; links and images are inlines. */
  inlines(nodes: readonly PhrasingContent[], marks: readonly MarkType[] = [], out: Node[] = []): Node[] {
    const text = (value: string, withMarks: readonly MarkType[]) => {
      const last = out.at(-1);
      if (last?.object === 'text') (last.leaves as unknown[]).push(leaf(value, withMarks));
      else out.push({ object: 'text', leaves: [leaf(value, withMarks)] });
    };
    const marked = (mark: MarkType) => (marks.includes(mark) ? marks : [...marks, mark]);
    for (const node of nodes) {
      switch (node.type) {
        case 'text':
          for (const part of splitMentions(node.value, this.mentions)) {
            if (typeof part === 'string') text(part, marks);
            else out.push({ object: 'inline', type: 'mention', data: { ref: { kind: 'user', user: part.user } }, isVoid: true });
          }
          break;
        case 'strong':
          this.inlines(node.children, marked('bold'), out);
          break;
        case 'emphasis':
          this.inlines(node.children, marked('italic'), out);
          break;
        case 'delete':
          this.inlines(node.children, marked('strikethrough'), out);
          break;
        case 'inlineCode':
          text(node.value, marked('code'));
          break;
        case 'break':
          text('\n', marks);
          break;
        case 'link':
        case 'linkReference': {
          const children = this.inlines(node.children, marks);
          out.push({
            object: 'inline',
            type: 'link',
            data: { ref: refOf(this.urlOf(node)) },
            nodes: children.length ? children : [textNode('')],
            isVoid: false,
          });
          break;
        }
        case 'image':
        case 'imageReference': {
          const { alt, title } = node as Image;
          out.push({
            object: 'inline',
            type: 'inline-image',
            data: { ref: refOf(this.urlOf(node)), ...(alt && { alt }), ...(title && { caption: title }) },
            isVoid: true,
          });
          break;
        }
        default:
          // Inline HTML, footnote references: kept as their text.
          text('value' in node ? String(node.value) : `[^${'label' in node ? node.label : ''}]`, marks);
      }
    }
    return out;
  }
}

/**
 * The JSON document of a page's markdown. A leading level-1 heading that is the page's title is left out: GitBook
 * keeps the title beside the document, and the markdown's heading is where the title came from. The `@id` of a user in
 * `mentions` becomes a mention inline (a comment's body knows whom it mentions).
 */
export function markdownToDocument(markdown: string, title?: string, mentions?: ReadonlySet<string>): JsonDocument {
  const root = parseMarkdown(markdown);
  let children = root.children.filter((node) => node.type !== 'yaml');
  const [first] = children;
  if (title !== undefined && first?.type === 'heading' && (first as Heading).depth === 1 && textOf(first).trim() === title) {
    children = children.slice(1);
  }
  return { object: 'document', data: {}, nodes: new DocumentBuilder(root, mentions).blocks(children, 'top') };
}

// --- the other way: a JSON document as markdown ----------------------------------------------------------------------

/** The address a content reference links to in markdown; the caller knows pages (and may know more). */
export type RefResolver = (ref: Record<string, unknown>) => string | undefined;

/**
 * A reference to a page (with its anchor) or a file of the space as markdown keeps it (`page-id:`, `file-id:`), the
 * inverse of refOf; undefined for another space's.
 */
export const storedAddressOf: RefResolver = (ref) => {
  if (ref.space) return undefined;
  if (ref.kind === 'file' && typeof ref.file === 'string') return `${FILE_ID_PREFIX}${ref.file}`;
  if ((ref.kind !== 'page' && ref.kind !== 'anchor') || typeof ref.page !== 'string') return undefined;
  return `${PAGE_ID_PREFIX}${ref.page}${ref.kind === 'anchor' && ref.anchor ? `#${ref.anchor}` : ''}`;
};

const stringifier = unified().use(remarkGfm).use(remarkStringify, { bullet: '-', fences: true, rule: '-' });

const nodesOf = (node: Node): Node[] => (Array.isArray(node.nodes) ? (node.nodes as Node[]) : []);
const dataOf = (node: Node): Record<string, unknown> => (node.data ?? {}) as Record<string, unknown>;

/** All the text under a node of a JSON document. */
function plainText(node: Node): string {
  if (Array.isArray(node.leaves)) return (node.leaves as { text?: string }[]).map((l) => l.text ?? '').join('');
  return nodesOf(node)
    .map(plainText)
    .join(node.object === 'block' && nodesOf(node)[0]?.object === 'block' ? '\n' : '');
}

/** The character of an emoji's code points in hex (`1f600`, `1f44d-1f3fd`); nothing for a code that is none. */
function emojiOf(code: unknown): string {
  const points = String(code ?? '')
    .split('-')
    .map((hex) => Number.parseInt(hex, 16));
  return points.every((point) => Number.isInteger(point) && point >= 0 && point <= 0x10ffff) ? String.fromCodePoint(...points) : '';
}

class MarkdownWriter {
  constructor(private readonly resolve: RefResolver) {}

  private urlOf(ref: unknown): string {
    const target = (ref ?? {}) as Record<string, unknown>;
    if (target.kind === 'url') return String(target.url ?? '');
    if (target.kind === 'anchor' && !target.page) return `#${target.anchor}`;
    return this.resolve(target) ?? '';
  }

  blocks(nodes: readonly Node[]): BlockContent[] {
    return nodes.flatMap((node) => this.block(node));
  }

  private block(node: Node): BlockContent[] {
    const children = nodesOf(node);
    switch (node.type) {
      case 'paragraph':
        return [{ type: 'paragraph', children: this.inlines(children) }];
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        return [{ type: 'heading', depth: Number(String(node.type).slice(-1)) as 1 | 2 | 3, children: this.inlines(children) }];
      case 'divider':
        return [{ type: 'thematicBreak' }];
      case 'blockquote':
      case 'hint':
        return [{ type: 'blockquote', children: this.blocks(children) }];
      case 'code':
        return [{ type: 'code', lang: (dataOf(node).syntax as string) || null, value: children.map(plainText).join('\n') }];
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks': {
        const start = dataOf(node).start;
        const items: ListItem[] = children.map((item) => ({
          type: 'listItem',
          spread: false,
          checked: node.type === 'list-tasks' ? dataOf(item).checked === true : null,
          children: this.blocks(nodesOf(item)),
        }));
        return [
          {
            type: 'list',
            ordered: node.type === 'list-ordered',
            start: typeof start === 'number' ? start : null,
            spread: false,
            children: items,
          },
        ];
      }
      case 'images':
      case 'image': {
        const images = node.type === 'image' ? [node] : children;
        return [
          {
            type: 'paragraph',
            children: images.map((image) => ({
              type: 'image',
              url: this.urlOf(dataOf(image).ref),
              alt: (dataOf(image).alt as string) ?? null,
            })),
          },
        ];
      }
      case 'table':
        return [this.table(node)];
      case 'math':
        return [{ type: 'code', lang: 'math', value: String(dataOf(node).formula ?? '') }];
      default: {
        // GitBook's own blocks (tabs, expandables, steppers...): their inner blocks, or their text.
        if (children.some((child) => child.object === 'block')) return this.blocks(children);
        const text = plainText(node);
        return text ? [{ type: 'paragraph', children: [{ type: 'text', value: text }] }] : [];
      }
    }
  }

  private table(node: Node): Table {
    const data = dataOf(node);
    const definitions = (data.definition ?? {}) as Record<string, { title?: string; textAlignment?: string }>;
    const view = (data.view ?? {}) as { columns?: string[] };
    const columns = view.columns ?? Object.keys(definitions);
    const fragments = new Map(((node.fragments ?? []) as Node[]).map((fragment) => [fragment.fragment, fragment]));
    const records = Object.values((data.records ?? {}) as Record<string, { orderIndex?: string; values?: Record<string, unknown> }>).sort(
      (a, b) => String(a.orderIndex ?? '').localeCompare(String(b.orderIndex ?? '')),
    );
    const cell = (children: PhrasingContent[]): TableCell => ({ type: 'tableCell', children });
    const cellContent = (value: unknown): PhrasingContent[] => {
      const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
      if (fragment) return this.inlines(nodesOf(fragment).flatMap(nodesOf));
      return value === null || value === undefined ? [] : [{ type: 'text', value: typeof value === 'object' ? '' : String(value) }];
    };
    const rows: TableRow[] = [
      { type: 'tableRow', children: columns.map((column) => cell([{ type: 'text', value: definitions[column]?.title ?? '' }])) },
      ...records.map(
        (record): TableRow => ({ type: 'tableRow', children: columns.map((column) => cell(cellContent(record.values?.[column]))) }),
      ),
    ];
    const align = columns.map((column) => {
      const alignment = definitions[column]?.textAlignment;
      return alignment === 'center' || alignment === 'right' ? alignment : alignment === 'left' ? 'left' : null;
    });
    return { type: 'table', align, children: rows };
  }

  inlines(nodes: readonly Node[]): PhrasingContent[] {
    return nodes.flatMap((node): PhrasingContent[] => {
      if (node.object === 'text')
        return ((node.leaves ?? []) as { text?: string; marks?: { type?: string }[] }[]).flatMap((l) => this.leaf(l));
      switch (node.type) {
        case 'link':
          return [{ type: 'link', url: this.urlOf(dataOf(node).ref), children: this.inlines(nodesOf(node)) }];
        case 'inline-image':
          return [{ type: 'image', url: this.urlOf(dataOf(node).ref), alt: (dataOf(node).alt as string) ?? null }];
        case 'inline-math':
          return [{ type: 'inlineCode', value: String(dataOf(node).formula ?? '') }];
        case 'emoji':
          return [{ type: 'text', value: emojiOf(dataOf(node).code) }];
        case 'mention': {
          const ref = dataOf(node).ref as Record<string, unknown> | undefined;
          return ref?.kind === 'user' && typeof ref.user === 'string' ? [{ type: 'text', value: `@${ref.user}` }] : [];
        }
        default: {
          const text = plainText(node);
          return text ? [{ type: 'text', value: text }] : [];
        }
      }
    });
  }

  private leaf({ text = '', marks = [] }: { text?: string; marks?: { type?: string }[] }): PhrasingContent[] {
    if (!text) return [];
    const types = new Set(marks.map((mark) => mark.type));
    let node: PhrasingContent = types.has('code') ? { type: 'inlineCode', value: text } : { type: 'text', value: text };
    if (types.has('strikethrough')) node = { type: 'delete', children: [node] };
    if (types.has('italic')) node = { type: 'emphasis', children: [node] };
    if (types.has('bold')) node = { type: 'strong', children: [node] };
    return [node];
  }
}

/** Markdown of a JSON document; `resolve` gives the address of references other than URLs and anchors. */
export function documentToMarkdown(document: unknown, resolve: RefResolver = () => undefined): string {
  const nodes = nodesOf((document ?? {}) as Node);
  const root: Root = { type: 'root', children: new MarkdownWriter(resolve).blocks(nodes) };
  return stringifier.stringify(root);
}
