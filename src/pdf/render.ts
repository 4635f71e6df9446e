// A PDF of pages, drawn with pdfkit from their markdown as remark parses it (parseMarkdown: the AST the content is
// stored with, never regular expressions). Each page starts a new PDF page under its title; headings, paragraphs with
// bold, italic, struck and inline code, bulleted, ordered and task lists (nested), code blocks (monospace on a shaded
// box), quotes (a rule at their left), thematic breaks, GFM tables (a grid), links (their text, with a link annotation,
// or a jump inside the PDF to a page it holds) and images (PNG and JPEG bytes the caller supplies, else their alt text)
// follow. The text is set in DejaVu Sans and Sans Mono, each PDF embedding the glyphs it uses (fonts.ts).
//
// The parts: fonts.ts (the fonts and the text they can show), images.ts (which images pdfkit may open), html.ts (HTML
// in markdown), layout.ts (drawing each block); this file makes the document of them. service.ts loads it on the first
// export: pdfkit, fontkit, the fonts and linkedom are not loaded before.
import PDFDocument from 'pdfkit';
import { documentFonts, FONT, printable } from './fonts.js';
import { COLOR, MARGIN, Renderer, SIZE } from './layout.js';
import { type PdfSource, PdfTooLarge } from './source.js';

export { imageUrlsOf } from './html.js';

/** Renders the pages into a PDF, streamed into memory; a PDF past `maxBytes` stops with PdfTooLarge. */
export async function renderPdf(source: PdfSource): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    displayTitle: true,
    info: {
      Title: printable(source.title),
      Subject: printable(source.subject),
      Creator: source.creator,
      CreationDate: source.createdAt,
    },
  });
  // pdfkit's types name only bytes and paths as a font's source; it takes a parsed font too (PDFFontFactory.open).
  for (const [name, font] of Object.entries(documentFonts())) doc.registerFont(name, font as unknown as Buffer);
  doc.font(FONT.regular);
  const chunks: Buffer[] = [];
  let size = 0;
  doc.on('data', (chunk: Buffer) => {
    size += chunk.length;
    // Past the cap, the rest is counted but not kept; the render stops at the end of the page.
    if (size <= source.maxBytes) chunks.push(chunk);
  });
  const renderer = new Renderer(doc, source);
  if (!source.pages.length) {
    doc.font(FONT.bold).fontSize(SIZE.title).fillColor(COLOR.text).text(printable(source.title));
    doc.font(FONT.regular).fontSize(SIZE.body).fillColor(COLOR.muted).text('There are no pages to export.');
  }
  for (const [index, page] of source.pages.entries()) {
    renderer.page(page, index === 0);
    renderer.finishPages();
    if (size > source.maxBytes) throw new PdfTooLarge(source.maxBytes);
    // Other requests get their turn between pages of a long export.
    await new Promise((resolve) => setImmediate(resolve));
  }
  renderer.finishPages();
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.end();
  await ended;
  if (size > source.maxBytes) throw new PdfTooLarge(source.maxBytes);
  return Buffer.concat(chunks);
}
