// What the PDF renderer is given and answers: the pages and the document's metadata, how images and links resolve,
// and the size cap. The service (service.ts) builds it without loading the renderer's libraries.
import type { Root } from 'mdast';

/** Where a link leads: an address, or a page of the same PDF (a named destination). */
export type LinkTarget = { url: string } | { destination: string };

export interface PdfPage {
  id: string;
  title: string;
  description: string | null;
  /** 0 for the first level exported: the outline nests pages as the tree does. */
  depth: number;
  markdown: Root;
}

export interface PdfSource {
  /** The document's title (its metadata, and each page's footer). */
  title: string;
  subject: string;
  creator: string;
  /** The date of the content: the PDF's creation date, so that the same content gives the same bytes. */
  createdAt: Date;
  pages: readonly PdfPage[];
  /** The bytes of a PNG or JPEG image that an image's address names, or null (the image shows as its alt text). */
  imageOf(url: string): Uint8Array | null;
  /** Where a link's address leads, or null for one that leads nowhere a reader can follow (its text stays). */
  linkOf(url: string): LinkTarget | null;
  /** The PDF's size cap in bytes: past it, rendering stops with PdfTooLarge. */
  maxBytes: number;
}

export class PdfTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`The PDF would be larger than ${maxBytes} bytes.`);
  }
}

/** The named destination of an exported page, which links to it jump to. */
export const destinationOf = (pageId: string) => `page-${pageId}`;
