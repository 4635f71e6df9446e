// The PDF export of a change request's content or of a space's current content: which pages (every page, a page with
// its subpages, or one page), in the order the page tree shows them, their markdown (a page kept as GitBook's JSON
// document is written as markdown first), the files of the content that their images name, read from storage; then
// the PDF (render.ts), stored as a file (content-addressed: the same content and options give the same bytes, stored
// once) and answered as a signed, expiring download link served at /files.
//
// How a page names a file of its content: an image whose address is a relative path names the file whose Git Sync
// path (gitPath) it is, else the file whose name is its last segment (`.gitbook/assets/diagram.png`,
// `../diagram.png`, `diagram.png`); a reference to a file (`file-id:`, as a write stores a path that names one, and a
// JSON document's {kind: "file", file: id}) names it by id. Links to pages of the content (a reference, `page-id:`,
// or a path from the space root) jump to the page when the PDF holds it, and lead to the page in the app otherwise;
// http(s) and mailto links are kept as they are.

import { downloadUrl, linkExpiry } from '../files/download.js';
import { MAX_FILE_BYTES, openStoredFile, storeFile } from '../files/storage.js';
import type { ChangeRequest, FileVersion, Revision, Space } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Context } from '../kernel/context.js';
import { type ApiError, badRequest, notFound } from '../kernel/errors.js';
import { batchedRowById } from '../kernel/rows.js';
import { appUrl } from '../kernel/urls.js';
import { documentToMarkdown, storedAddressOf } from '../revisions/document.js';
import { FILE_ID_PREFIX, PAGE_ID_PREFIX, parseMarkdown, spacePath } from '../revisions/markdown.js';
import { type PageNode, type PageTree, treeOf } from '../revisions/read.js';
import { rowsAt } from '../revisions/store.js';
import { MAX_IMAGE_PIXELS } from './images.js';
import { destinationOf, type LinkTarget, type PdfPage, PdfTooLarge } from './source.js';

/** Pages one PDF holds at most; a larger export is refused (400), and can be made a part at a time with `page`. */
export const MAX_PDF_PAGES = 1000;
/** The largest PDF made: the largest file the service stores. */
export const MAX_PDF_BYTES = MAX_FILE_BYTES;
/** An image file larger than this shows as its alt text, as do images past MAX_PDF_IMAGE_BYTES in all. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
export const MAX_PDF_IMAGE_BYTES = 50 * 1024 * 1024;
/** How long the link to a PDF of a space works: GitBook's published lifetime ("The URL will work for 1h"). */
export const SPACE_PDF_LIFETIME_MS = 60 * 60 * 1000;

const CREATOR = 'Docs platform management API';
/** The renderer and its libraries (pdfkit, fontkit and the fonts, linkedom): loaded by the first export, not at start-up. */
const renderer = () => import('./render.js');
/** Image formats PDF shows as they are stored (pdfkit embeds them); other images show as their alt text. */
const EMBEDDABLE = new Set(['image/png', 'image/jpeg']);
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

export interface PdfOptions {
  /** The page alone, rather than the page and its subpages. */
  only?: boolean | null;
  /** A page of the content: the export starts there. */
  page?: string | null;
}

interface Selected {
  node: PageNode;
  depth: number;
}

/** The pages to export, depth first as the tree shows them; links, which have no content, are left out. */
function pagesToExport(tree: PageTree, options: PdfOptions, content: PdfContent): Selected[] {
  let roots = tree.roots;
  if (options.page != null) {
    const node = tree.byId.get(options.page);
    if (!node) throw content.unknownPage(options.page);
    if (node.page.type === 'link') throw badRequest(`Invalid "page": ${JSON.stringify(options.page)} is a link, which has no content.`);
    if (options.only) return [{ node, depth: 0 }];
    roots = [node];
  } else if (options.only) {
    throw badRequest('Invalid "page": "only" exports the page that "page" names, and none is named.');
  }
  const selected: Selected[] = [];
  const visit = (node: PageNode, depth: number) => {
    if (node.page.type === 'link') return;
    selected.push({ node, depth });
    for (const child of node.children) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  return selected;
}

/** The bodies of these pages of the revision, by page id: one statement. */
async function bodiesOf(ctx: Context, revision: Revision, pageIds: string[]) {
  const rows = await ctx.sql<{ pageId: string; markdown: string | null; document: unknown }>(Prisma.sql`
    SELECT v."pageId", v.markdown, v.document FROM (${rowsAt('PageVersion', revision)}) v WHERE v."pageId" = ANY(${pageIds}::text[])`);
  return new Map(rows.map((row) => [row.pageId, row]));
}

/** A relative address as a path of segments (`./`, `../` and a leading `/` dropped), or null for any other. */
function relativePath(url: string): string | null {
  if (!url || url.startsWith('#') || url.startsWith('//') || URL.canParse(url)) return null;
  const end = [url.indexOf('?'), url.indexOf('#')].filter((at) => at >= 0);
  return spacePath(url.slice(0, end.length ? Math.min(...end) : url.length));
}

type FileReference = { id: string } | { path: string; name: string };

function fileReference(url: string): FileReference | null {
  if (url.startsWith(FILE_ID_PREFIX)) return { id: url.slice(FILE_ID_PREFIX.length) };
  const path = relativePath(url);
  return path === null ? null : { path, name: path.slice(path.lastIndexOf('/') + 1) };
}

/** The files of the revision that these references may name, by name: one statement. */
async function filesNamed(ctx: Context, revision: Revision, references: FileReference[]): Promise<FileVersion[]> {
  const ids = references.flatMap((reference) => ('id' in reference ? [reference.id] : []));
  const paths = references.flatMap((reference) => ('path' in reference ? [reference.path] : []));
  const names = references.flatMap((reference) => ('name' in reference ? [reference.name] : []));
  return ctx.sql<FileVersion>(Prisma.sql`
    SELECT v.* FROM (${rowsAt('FileVersion', revision)}) v
     WHERE v."fileId" = ANY(${ids}::text[]) OR v."gitPath" = ANY(${paths}::text[]) OR v.name = ANY(${names}::text[])
     ORDER BY v.name, v."fileId"`);
}

/**
 * The bytes of the images the pages show that are files of the revision PDF can show (PNG, JPEG), by image address,
 * within the size caps: one statement for the files, when an image may name one.
 */
async function imagesOf(ctx: Context, revision: Revision, pages: readonly PdfPage[]): Promise<Map<string, Uint8Array>> {
  const { imageUrlsOf } = await renderer();
  const references = new Map<string, FileReference>();
  for (const page of pages) {
    for (const url of imageUrlsOf(page.markdown)) {
      const reference = fileReference(url);
      if (reference) references.set(url, reference);
    }
  }
  const files = references.size ? await filesNamed(ctx, revision, [...references.values()]) : [];
  const byStorageKey = new Map<string, Uint8Array>();
  const images = new Map<string, Uint8Array>();
  let total = 0;
  for (const [url, reference] of references) {
    const file =
      'id' in reference
        ? files.find((candidate) => candidate.fileId === reference.id)
        : (files.find((candidate) => candidate.gitPath === reference.path) ?? files.find((candidate) => candidate.name === reference.name));
    if (!file || !EMBEDDABLE.has(file.contentType) || file.size > MAX_IMAGE_BYTES) continue;
    if ((file.width ?? 0) * (file.height ?? 0) > MAX_IMAGE_PIXELS) continue;
    let bytes = byStorageKey.get(file.storageKey);
    if (!bytes) {
      const stored = total + file.size <= MAX_PDF_IMAGE_BYTES ? await openStoredFile(ctx, file.storageKey) : null;
      if (!stored) continue;
      const chunks: Buffer[] = [];
      for await (const chunk of stored.stream()) chunks.push(chunk as Buffer);
      bytes = Buffer.concat(chunks);
      total += bytes.byteLength;
      byStorageKey.set(file.storageKey, bytes);
    }
    images.set(url, bytes);
  }
  return images;
}

const REFUSED_IN_FILE_NAMES = new Set('\\/:*?"<>|');

/** A file name from a title: the characters file systems refuse (and control characters) become spaces. */
const fileNameOf = (title: string) =>
  [...title]
    .map((char) => (char < ' ' || REFUSED_IN_FILE_NAMES.has(char) ? ' ' : char))
    .join('')
    .replace(/\s+/g, ' ')
    .trim() || 'space';

/** What an export is of, and how its PDF and link are named: a change request's content or the space's. */
interface PdfContent {
  revision: Revision;
  /** The content in messages: "the change request", "the space". */
  noun: string;
  /** The error for a `page` that is not in the content. */
  unknownPage(page: string): ApiError;
  /** The document's title and subject (its metadata). */
  title: string;
  subject: string;
  /** The PDF's file name. */
  fileName: string;
  /** The app address of the content, under which a link to a page the PDF does not hold leads to that page. */
  appBase: string;
  /** How long the download link works, at least. */
  lifetimeMs: number;
}

/**
 * Makes the PDF of the content and answers its download link. 400 naming "page" for a link page, for `only` without a
 * page, for more than MAX_PDF_PAGES pages, and for a PDF past MAX_PDF_BYTES.
 */
async function exportPdf(ctx: Context, content: PdfContent, options: PdfOptions): Promise<{ url: string }> {
  const { revision } = content;
  const tree = await treeOf(ctx, revision);
  const selected = pagesToExport(tree, options, content);
  if (selected.length > MAX_PDF_PAGES) {
    throw badRequest(
      `Invalid "page": the export holds ${selected.length} pages, more than the ${MAX_PDF_PAGES} of one PDF; export part of it with "page".`,
    );
  }
  const bodies = selected.length
    ? await bodiesOf(
        ctx,
        revision,
        selected.map(({ node }) => node.page.pageId),
      )
    : new Map();
  const pages: PdfPage[] = selected.map(({ node, depth }) => {
    const body = bodies.get(node.page.pageId);
    const markdown = body?.markdown ?? (body?.document ? documentToMarkdown(body.document, storedAddressOf) : '');
    return { id: node.page.pageId, title: node.page.title, description: node.page.description, depth, markdown: parseMarkdown(markdown) };
  });

  const images = await imagesOf(ctx, revision, pages);

  const exported = new Set(selected.map(({ node }) => node.page.pageId));
  const linkOf = (url: string): LinkTarget | null => {
    let node: PageNode | undefined;
    if (url.startsWith(PAGE_ID_PREFIX)) node = tree.byId.get(url.slice(PAGE_ID_PREFIX.length).split('#')[0]);
    else if (URL.canParse(url)) return LINK_SCHEMES.has(new URL(url).protocol) ? { url } : null;
    else {
      const path = relativePath(url);
      node = path === null ? undefined : tree.byPath.get(path);
    }
    if (!node?.path) return null;
    return exported.has(node.page.pageId) ? { destination: destinationOf(node.page.pageId) } : { url: `${content.appBase}/${node.path}` };
  };

  const { renderPdf } = await renderer();
  let pdf: Buffer;
  try {
    pdf = await renderPdf({
      title: content.title,
      subject: content.subject,
      creator: CREATOR,
      createdAt: revision.createdAt,
      pages,
      imageOf: (url) => images.get(url) ?? null,
      linkOf,
      maxBytes: MAX_PDF_BYTES,
    });
  } catch (error) {
    if (!(error instanceof PdfTooLarge)) throw error;
    throw badRequest(
      `Invalid "page": the PDF would be larger than ${MAX_PDF_BYTES / 1024 / 1024} MB; export part of ${content.noun} with "page" (and "only").`,
    );
  }
  // The export names its bytes as long as its link works, so the sweep keeps them that long.
  const stored = await storeFile(ctx, pdf, content.fileName, 'application/pdf', {
    exportOf: { spaceId: content.revision.spaceId, expiresAt: new Date(linkExpiry(ctx, content.lifetimeMs) * 1000) },
  });
  return {
    url: downloadUrl(
      ctx,
      { storageKey: stored.storageKey, name: content.fileName, contentType: 'application/pdf' },
      content.revision.spaceId,
      content.lifetimeMs,
    ),
  };
}

/**
 * The PDF of the change request's content (the viewer may read the change request: its resolver checked `view` on
 * the space), its link working DOWNLOAD_LINK_MINUTES. 400 naming "page" for a page that is not in the content.
 */
export async function changeRequestPdf(ctx: Context, changeRequest: ChangeRequest, options: PdfOptions): Promise<{ url: string }> {
  const [revision, space] = await Promise.all([
    batchedRowById<Revision>(ctx, 'Revision', changeRequest.revisionId),
    batchedRowById<Space>(ctx, 'Space', changeRequest.spaceId),
  ]);
  return exportPdf(
    ctx,
    {
      revision,
      noun: 'the change request',
      unknownPage: (page) => badRequest(`Invalid "page": no page ${JSON.stringify(page)} in the change request.`),
      title: changeRequest.subject.trim() || space.title,
      subject: `Change request #${changeRequest.number} of ${space.title}`,
      fileName: `${fileNameOf(space.title)}-cr${changeRequest.number}.pdf`,
      appBase: appUrl(ctx, `s/${changeRequest.spaceId}/~/changes/${changeRequest.number}`),
      lifetimeMs: ctx.config.downloadLinkMinutes * 60_000,
    },
    options,
  );
}

/**
 * The PDF of the space's current content (the viewer may read the space: its resolver checked `view`), its link
 * working for SPACE_PDF_LIFETIME_MS. 404 for a page that is not in the content, as for any object that is not there.
 */
export async function spacePdf(ctx: Context, space: Space, options: PdfOptions): Promise<{ url: string }> {
  const revision = await batchedRowById<Revision>(ctx, 'Revision', space.revisionId!);
  return exportPdf(
    ctx,
    {
      revision,
      noun: 'the space',
      unknownPage: () => notFound('Page'),
      title: space.title,
      subject: `Current content of ${space.title}`,
      fileName: `${fileNameOf(space.title)}.pdf`,
      appBase: appUrl(ctx, `s/${space.id}`),
      lifetimeMs: SPACE_PDF_LIFETIME_MS,
    },
    options,
  );
}
