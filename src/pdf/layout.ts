// Drawing pages with pdfkit: each block of a page's markdown (headings, paragraphs, lists, code, quotes, rules,
// tables, images, HTML) placed in a box, with page breaks, the outline and the footers.
import type { Heading, List, PhrasingContent, RootContent, Table } from 'mdast';
import { textOf } from '../revisions/markdown.js';
import { FONT, printable } from './fonts.js';
import { definitionsOf, htmlParts } from './html.js';
import { type OpenedImage, openImage } from './images.js';
import { destinationOf, type LinkTarget, type PdfPage, type PdfSource } from './source.js';

export const MARGIN = 56;
export const SIZE = { title: 22, body: 10.5, code: 9, table: 9, footer: 8 };
/** Font sizes of headings of levels 1 to 6. */
const HEADING_SIZES = [18, 15, 13, 11.5, 10.5, 10.5];
export const COLOR = { text: '#1f2328', muted: '#59636e', link: '#0969da', rule: '#d1d9e0', shade: '#f3f4f6' };
const LINE_GAP = 2;
/** Space after a block; in a tight list, after a paragraph of an item. */
const GAP = { block: 7, tight: 2 };
const BULLETS = ['•', '–', '·'];
/** Points per pixel: images are shown at 96 pixels per inch, at most as wide as the text. */
const POINTS_PER_PIXEL = 0.75;

interface Style {
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  strike?: boolean;
  link?: LinkTarget | null;
}

interface Run {
  text: string;
  style: Style;
}

/** Where blocks go: their left edge and width, their text colour, and how deep in lists they are. */
interface Box {
  x: number;
  width: number;
  color: string;
  listDepth: number;
  /** In a tight list item: paragraphs close up. */
  tight: boolean;
}

/** The narrowest a box gets: nesting deeper (lists, quotes) stops indenting there, so that text always has room. */
const MIN_WIDTH = 160;

/** A box `by` points further in, unless that leaves it narrower than MIN_WIDTH. */
const indented = (box: Box, by: number, changes: Partial<Box> = {}): Box =>
  box.width - by < MIN_WIDTH ? { ...box, ...changes } : { ...box, ...changes, x: box.x + by, width: box.width - by };

function fontOf(style: Style): string {
  if (style.code) return style.bold ? (style.italic ? FONT.monoBoldItalic : FONT.monoBold) : style.italic ? FONT.monoItalic : FONT.mono;
  return style.bold ? (style.italic ? FONT.boldItalic : FONT.bold) : style.italic ? FONT.italic : FONT.regular;
}

export class Renderer {
  private definitions = new Map<string, string>();
  private readonly opened = new Map<Uint8Array, OpenedImage | null>();
  private readonly outlines: PDFKit.PDFOutline[] = [];

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly source: PdfSource,
  ) {}

  private get content(): Box {
    return { x: MARGIN, width: this.doc.page.width - 2 * MARGIN, color: COLOR.text, listDepth: 0, tight: false };
  }

  /** One exported page: a new PDF page, its title (a destination and an outline entry), then its content. */
  page(page: PdfPage, first: boolean): void {
    const { doc } = this;
    if (!first) doc.addPage();
    this.definitions = definitionsOf(page.markdown);
    const parent = this.outlines[page.depth - 1] ?? doc.outline;
    this.outlines[page.depth] = parent.addItem(printable(page.title));
    this.outlines.length = page.depth + 1;
    const box = this.content;
    doc.addNamedDestination(destinationOf(page.id));
    doc.font(FONT.bold).fontSize(SIZE.title).fillColor(COLOR.text);
    doc.text(printable(page.title), box.x, doc.y, { width: box.width, lineGap: LINE_GAP });
    if (page.description) {
      doc.moveDown(0.3);
      this.runs([{ text: page.description, style: {} }], { ...box, color: COLOR.muted }, SIZE.body + 1);
    }
    this.rule(box);
    // A leading level-1 heading that repeats the title is where the title came from (as in markdownToDocument).
    let blocks = page.markdown.children;
    const [lead] = blocks;
    if (lead?.type === 'heading' && lead.depth === 1 && textOf(lead).trim() === page.title.trim()) blocks = blocks.slice(1);
    this.blocks(blocks, box);
  }

  /** Numbers the pages buffered since the last call in their footers, then writes them out. */
  finishPages(): void {
    const { doc } = this;
    const range = doc.bufferedPageRange();
    for (let index = range.start; index < range.start + range.count; index++) {
      doc.switchToPage(index);
      const y = doc.page.height - MARGIN + 18;
      const number = String(index + 1);
      doc.font(FONT.regular).fontSize(SIZE.footer).fillColor(COLOR.muted);
      const room = doc.page.width - 2 * MARGIN - doc.widthOfString(number) - 24;
      let title = printable(this.source.title).slice(0, 200);
      while (title && doc.widthOfString(title) > room) title = title.slice(0, -2);
      // Without a width, text neither wraps nor starts a page: the footer sits in the bottom margin.
      doc.text(title, MARGIN, y, { lineBreak: false });
      doc.text(number, doc.page.width - MARGIN - doc.widthOfString(number), y, { lineBreak: false });
    }
    doc.flushPages();
  }

  private blocks(nodes: readonly RootContent[], box: Box): void {
    for (const node of nodes) this.block(node, box);
  }

  private block(node: RootContent, box: Box): void {
    switch (node.type) {
      case 'heading':
        this.heading(node, box);
        return;
      case 'paragraph':
        this.paragraph(node.children, box);
        return;
      case 'list':
        this.list(node, box);
        return;
      case 'code':
        this.code(node.value, box);
        return;
      case 'blockquote':
        this.quote(node.children, box);
        return;
      case 'thematicBreak':
        this.rule(box);
        return;
      case 'table':
        this.table(node, box);
        return;
      case 'html':
        for (const part of htmlParts(node.value)) {
          if ('image' in part) this.image(part.image, part.alt, box);
          else this.runs([{ text: part.text, style: {} }], box);
        }
        return;
      case 'footnoteDefinition':
        this.runs([{ text: `[^${node.label ?? node.identifier}]`, style: { bold: true } }], box);
        this.blocks(node.children, indented(box, 12));
        return;
      case 'yaml':
      case 'definition':
        return;
      default: {
        const text = textOf(node);
        if (text) this.runs([{ text, style: {} }], box);
      }
    }
  }

  /** Inline content as runs of styled text; images among it go to `image` (they cut the text there). */
  private inline(nodes: readonly PhrasingContent[], style: Style, runs: Run[], image: (url: string, alt: string) => void): void {
    for (const node of nodes) {
      switch (node.type) {
        case 'text':
          // A line ending inside a paragraph is a space; only a hard break (`break`) starts a new line.
          runs.push({ text: node.value.split('\n').join(' '), style });
          break;
        case 'strong':
          this.inline(node.children, { ...style, bold: true }, runs, image);
          break;
        case 'emphasis':
          this.inline(node.children, { ...style, italic: true }, runs, image);
          break;
        case 'delete':
          this.inline(node.children, { ...style, strike: true }, runs, image);
          break;
        case 'inlineCode':
          runs.push({ text: node.value, style: { ...style, code: true } });
          break;
        case 'break':
          runs.push({ text: '\n', style });
          break;
        case 'link':
          this.inline(node.children, { ...style, link: this.source.linkOf(node.url) }, runs, image);
          break;
        case 'linkReference':
          this.inline(node.children, { ...style, link: this.source.linkOf(this.definitions.get(node.identifier) ?? '') }, runs, image);
          break;
        case 'image':
          image(node.url, node.alt ?? '');
          break;
        case 'imageReference':
          image(this.definitions.get(node.identifier) ?? '', node.alt ?? '');
          break;
        case 'html': {
          // Tags alone (the text between them is text nodes); a line break is kept.
          const tag = node.value.trim().toLowerCase();
          if (tag === '<br>' || tag === '<br/>' || tag === '<br />') runs.push({ text: '\n', style });
          break;
        }
        case 'footnoteReference':
          runs.push({ text: `[^${node.label ?? node.identifier}]`, style });
          break;
        default: {
          const text = textOf(node);
          if (text) runs.push({ text, style });
        }
      }
    }
  }

  private paragraph(children: readonly PhrasingContent[], box: Box): void {
    let runs: Run[] = [];
    this.inline(children, {}, runs, (url, alt) => {
      this.runs(runs, box);
      runs = [];
      this.image(url, alt, box);
    });
    this.runs(runs, box);
  }

  private heading(node: Heading, box: Box): void {
    const size = HEADING_SIZES[node.depth - 1];
    const { doc } = this;
    // A heading keeps with a few lines of what follows it.
    if (doc.y + size * 4 > doc.page.maxY()) doc.addPage();
    else if (doc.y > doc.page.margins.top) doc.y += size * 0.4;
    const runs: Run[] = [];
    this.inline(node.children, { bold: true }, runs, (_url, alt) => runs.push({ text: alt, style: { bold: true } }));
    this.runs(runs, box, size);
  }

  /**
   * Styled runs as one paragraph: a text call per run, continued on the same lines; a hard break (a newline in a
   * run) starts the next line of the paragraph.
   */
  private runs(given: readonly Run[], box: Box, size = SIZE.body): void {
    const lines: Run[][] = [[]];
    for (const run of given) {
      printable(run.text, run.style.code ? 'mono' : 'sans')
        .split('\n')
        .forEach((text, i) => {
          if (i > 0) lines.push([]);
          if (text) lines[lines.length - 1].push({ ...run, text });
        });
    }
    for (const line of lines) {
      if (line.length) {
        line[0].text = line[0].text.trimStart();
        line[line.length - 1].text = line[line.length - 1].text.trimEnd();
      }
    }
    const shown = lines.map((line) => line.filter((run) => run.text));
    // Empty lines at either end are the text's edges, not breaks.
    while (shown.length && !shown[0].length) shown.shift();
    while (shown.length && !shown[shown.length - 1].length) shown.pop();
    if (!shown.length) return;
    const { doc } = this;
    doc.font(FONT.regular).fontSize(size);
    this.ensureRoom(doc.currentLineHeight(true) + LINE_GAP);
    for (const line of shown) {
      if (!line.length) {
        doc.y += doc.currentLineHeight(true) + LINE_GAP;
        continue;
      }
      line.forEach((run, i) => {
        const link = run.style.link;
        doc
          .font(fontOf(run.style))
          .fontSize(size)
          .fillColor(link ? COLOR.link : box.color);
        // Every option is set on every run, null where unused: pdfkit carries a continued text's options over to the
        // next run unless it sets them.
        const options = {
          width: box.width,
          lineGap: LINE_GAP,
          continued: i < line.length - 1,
          link: link && 'url' in link ? link.url : null,
          goTo: link && 'destination' in link ? link.destination : null,
          underline: Boolean(link),
          strike: Boolean(run.style.strike),
        } as unknown as PDFKit.Mixins.TextOptions;
        if (i === 0) doc.text(run.text, box.x, doc.y, options);
        else doc.text(run.text, options);
      });
    }
    doc.x = box.x;
    doc.y += box.tight ? GAP.tight : GAP.block;
  }

  private list(node: List, box: Box): void {
    const { doc } = this;
    const tasks = node.children.some((item) => typeof item.checked === 'boolean');
    let number = node.start ?? 1;
    doc.font(FONT.regular).fontSize(SIZE.body);
    const indent =
      (node.ordered
        ? doc.widthOfString(`${number + node.children.length - 1}.`)
        : tasks
          ? doc.widthOfString('[x]')
          : doc.widthOfString('•')) + 8;
    for (const item of node.children) {
      const marker =
        typeof item.checked === 'boolean'
          ? item.checked
            ? '[x]'
            : '[ ]'
          : node.ordered
            ? `${number}.`
            : BULLETS[box.listDepth % BULLETS.length];
      number++;
      doc.font(FONT.regular).fontSize(SIZE.body).fillColor(box.color);
      this.ensureRoom(doc.currentLineHeight(true) + LINE_GAP);
      const y = doc.y;
      doc.text(marker, box.x, y, { lineBreak: false });
      doc.x = box.x;
      doc.y = y;
      const inner = indented(box, indent, { listDepth: box.listDepth + 1, tight: !node.spread && !item.spread });
      if (item.children.length) this.blocks(item.children, inner);
      else doc.y += doc.currentLineHeight(true) + GAP.tight;
    }
    if (!box.tight) doc.y += GAP.block - GAP.tight;
  }

  /** A code block: monospace lines on a shaded box, cut where pages end (each part shaded on its own page). */
  private code(value: string, box: Box): void {
    const { doc } = this;
    const padding = 6;
    const width = box.width - 2 * padding;
    const lines = printable(value, 'mono').split('\n');
    doc.font(FONT.mono).fontSize(SIZE.code);
    let next = 0;
    while (next < lines.length) {
      const room = doc.page.maxY() - doc.y - 2 * padding;
      const chunk: string[] = [];
      let height = 0;
      while (next < lines.length) {
        const lineHeight = doc.heightOfString(lines[next] || ' ', { width, lineGap: 1 });
        // At least one line per page, however tall, so that the block always ends.
        if (height + lineHeight > room && (chunk.length || doc.y > doc.page.margins.top)) break;
        chunk.push(lines[next++]);
        height += lineHeight;
      }
      if (!chunk.length) {
        doc.addPage();
        continue;
      }
      const top = doc.y;
      doc.rect(box.x, top, box.width, height + 2 * padding).fill(COLOR.shade);
      doc.fillColor(COLOR.text).text(chunk.join('\n'), box.x + padding, top + padding, { width, lineGap: 1 });
      doc.x = box.x;
      doc.y = top + height + 2 * padding;
      if (next < lines.length) doc.addPage();
    }
    doc.y += box.tight ? GAP.tight : GAP.block;
  }

  /** A quote: its blocks indented, in the muted colour, with a rule at their left on every page they cover. */
  private quote(children: readonly RootContent[], box: Box): void {
    const { doc } = this;
    const start = { page: this.pageIndex(), y: doc.y };
    this.blocks(children, indented(box, 14, { color: COLOR.muted }));
    const end = { page: this.pageIndex(), y: doc.y - GAP.block };
    const [x, y] = [doc.x, doc.y];
    for (let page = start.page; page <= end.page; page++) {
      doc.switchToPage(page);
      const from = page === start.page ? start.y : doc.page.margins.top;
      const to = page === end.page ? end.y : doc.page.maxY();
      if (to > from)
        doc
          .moveTo(box.x + 3, from)
          .lineTo(box.x + 3, to)
          .lineWidth(2.5)
          .strokeColor(COLOR.rule)
          .stroke();
    }
    doc.x = x;
    doc.y = y;
  }

  private rule(box: Box): void {
    const { doc } = this;
    this.ensureRoom(12);
    const y = doc.y + 4;
    doc
      .moveTo(box.x, y)
      .lineTo(box.x + box.width, y)
      .lineWidth(0.75)
      .strokeColor(COLOR.rule)
      .stroke();
    doc.y = y + 10;
  }

  /** A table as a grid: the header row bold on a shade, each cell's text aligned as its column says. */
  private table(node: Table, box: Box): void {
    const { doc } = this;
    const columns = node.children[0]?.children.length ?? 0;
    if (!columns) return;
    const data = node.children.map((row, r) =>
      Array.from({ length: columns }, (_, c): PDFKit.Mixins.CellOptions => {
        const cell = row.children[c];
        return {
          text: cell ? printable(textOf(cell)) : '',
          font: { src: r === 0 ? FONT.bold : FONT.regular, size: SIZE.table },
          textColor: COLOR.text,
          backgroundColor: r === 0 ? COLOR.shade : undefined,
          align: { x: node.align?.[c] ?? 'left', y: 'top' },
        };
      }),
    );
    doc.font(FONT.regular).fontSize(SIZE.table);
    this.ensureRoom(doc.currentLineHeight(true) * 2 + 10);
    doc.table({
      position: { x: box.x, y: doc.y },
      maxWidth: box.width,
      defaultStyle: { border: 0.5, borderColor: COLOR.rule, padding: 4 },
      data,
    });
    doc.x = box.x;
    doc.y += GAP.block;
  }

  /** An image the source has bytes of, scaled into the text's width and the page; otherwise its alt text. */
  private image(url: string, alt: string, box: Box): void {
    const image = this.open(url);
    if (!image) {
      this.runs([{ text: alt.trim() || 'Image', style: { italic: true } }], { ...box, color: COLOR.muted });
      return;
    }
    const { doc } = this;
    const turned = (image.orientation ?? 1) > 4;
    const [pixelsWide, pixelsHigh] = turned ? [image.height, image.width] : [image.width, image.height];
    const maxHeight = (doc.page.maxY() - doc.page.margins.top) * 0.9;
    const scale = Math.min(POINTS_PER_PIXEL, box.width / pixelsWide, maxHeight / pixelsHigh);
    const [width, height] = [pixelsWide * scale, pixelsHigh * scale];
    if (doc.y + height > doc.page.maxY()) doc.addPage();
    const y = doc.y;
    doc.image(image as unknown as Buffer, box.x, y, { width, height });
    doc.x = box.x;
    doc.y = y + height + (box.tight ? GAP.tight : GAP.block);
  }

  /** The image an address names, opened once for all the places that show it; null when it cannot be shown. */
  private open(url: string): OpenedImage | null {
    const bytes = this.source.imageOf(url);
    if (!bytes) return null;
    if (!this.opened.has(bytes)) this.opened.set(bytes, openImage(this.doc, bytes));
    return this.opened.get(bytes) ?? null;
  }

  /** Starts a new page unless `height` fits below the current position. */
  private ensureRoom(height: number): void {
    if (this.doc.y + height > this.doc.page.maxY()) this.doc.addPage();
  }

  private pageIndex(): number {
    const range = this.doc.bufferedPageRange();
    return range.start + range.count - 1;
  }
}
