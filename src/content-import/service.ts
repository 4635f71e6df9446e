// Importing content into a change request (GitBook's importContentInChangeRequest): read the source (a website, an
// HTML or a markdown document), then write what was read as new pages of the change request, in ONE new revision
// (updateChangeRequestContent applies any number of operations in one transaction: only its REST body is limited to
// 50). The other sources of GitBook's enum (docx, zip, confluence, notion, ...) are refused by the input's validation.
import slugify from '@sindresorhus/slugify';
import { changeRequests } from '../change-requests/access.js';
import { updateChangeRequestContent } from '../change-requests/content.js';
import type { SqlRunner } from '../db/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { authorize } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, conflict } from '../kernel/errors.js';
import { FetchError, type Fetcher } from '../kernel/fetcher.js';
import type { ContentChange } from '../revisions/edits.js';
import { readMarkdown } from '../revisions/markdown.js';
import { PAGE_TREE_LEVELS } from '../revisions/read.js';
import { type RevisionPoint, rowsAt } from '../revisions/store.js';
import { type Crawl, type CrawledPage, crawl, UnreadableSite, WEBSITE_LIMITS } from './crawl.js';

export const IMPORT_SOURCES = ['website', 'html', 'markdown'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export interface ContentImportOutcome {
  /** The revision the import wrote. */
  revision: string;
  importedResources: number;
  totalResources: number;
}

/** The markdown document's bytes are capped as a page's markdown is (1,000,000 characters). */
const MARKDOWN_BYTES = 1_000_000;
const SLUG_LENGTH = 100;
const TITLE_LENGTH = 256;

/** The markdown at `url`: UTF-8 text (not HTML), with front matter that reads; 400 naming "url" otherwise. */
async function readMarkdownDocument(fetcher: Fetcher, url: string): Promise<Crawl> {
  let fetched: Awaited<ReturnType<Fetcher['get']>>;
  try {
    fetched = await fetcher.get(url, {
      maxBytes: MARKDOWN_BYTES,
      timeoutMs: WEBSITE_LIMITS.requestMs,
      headers: { accept: 'text/markdown,text/plain;q=0.9,*/*;q=0.1' },
    });
  } catch (error) {
    if (error instanceof FetchError) throw badRequest(`Invalid "url": ${error.message}`);
    throw error;
  }
  const origin = new URL(fetched.url).origin;
  if (fetched.contentType?.toLowerCase().startsWith('text/html')) {
    throw badRequest(`Invalid "url": ${origin} answered HTML, not markdown; import it with source "html".`);
  }
  let markdown: string;
  try {
    markdown = new TextDecoder('utf-8', { fatal: true }).decode(fetched.body);
  } catch {
    throw badRequest(`Invalid "url": ${origin} answered bytes that are not UTF-8 text.`);
  }
  if (markdown.includes('\0')) throw badRequest(`Invalid "url": ${origin} answered binary content, not markdown.`);
  readMarkdown(markdown, 'url');
  const last = new URL(fetched.url).pathname.split('/').filter(Boolean).at(-1) ?? '';
  const name = last.replace(/\.(md|markdown|mdx|txt)$/i, '');
  return { pages: [{ key: name ? [name] : [], url: fetched.url, title: '', markdown }], total: 1 };
}

/** A title from a path segment: `getting-started` reads "Getting started". */
const titleFromSegment = (segment: string) => {
  const words = segment.replace(/[-_+]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** A slug unique among `taken` (which it joins): the base, else the base with -2, -3... */
function uniqueSlug(base: string, taken: Set<string>): string {
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base.slice(0, SLUG_LENGTH - String(n).length - 1).replace(/-+$/, '')}-${n}`;
  taken.add(slug);
  return slug;
}

/** Where an import writes its top-level pages, in a change request's content. */
export interface ImportPlace {
  /** The page they go under; null: the top level. */
  pageId: string | null;
  /** The level of that page (0 for the top level): theirs is the next. */
  level: number;
  /** The slugs of the pages there already, which they must not take. */
  slugs: string[];
}

/**
 * The insert_page operations of the pages: parents first, each page `into` the nearest page above it on the site
 * that was imported (within the tree's depth), else at the place's level, where the start page is too: a site's home
 * is one page of it, not a chapter holding the rest. Slugs come from the URL's last segment (else the title), unique
 * among the siblings: at the place's level, the pages there already too.
 */
export function insertions(pages: readonly CrawledPage[], place: ImportPlace): ContentChange[] {
  const placed = new Map<string, { ref: string; level: number }>();
  const slugs = new Map<string | null, Set<string>>([[null, new Set(place.slugs)]]);
  // Stable: pages of one parent keep the order they were found in.
  const ordered = pages.map((page, index) => ({ page, index })).sort((a, b) => a.page.key.length - b.page.key.length);
  const changes: ContentChange[] = [];
  for (const { page, index } of ordered) {
    let parent: { ref: string; level: number } | undefined;
    for (let n = page.key.length - 1; n >= 1 && !parent; n--) {
      const above = placed.get(page.key.slice(0, n).join('/'));
      if (above && above.level < PAGE_TREE_LEVELS) parent = above;
    }
    const last = page.key.at(-1);
    const title = (page.title || (last ? titleFromSegment(decoded(last)) : '') || new URL(page.url).host).slice(0, TITLE_LENGTH);
    const base =
      slugify(last ? decoded(last) : title)
        .slice(0, SLUG_LENGTH)
        .replace(/-+$/, '') ||
      slugify(title) ||
      'page';
    const siblings = slugs.get(parent?.ref ?? null) ?? new Set<string>();
    slugs.set(parent?.ref ?? null, siblings);
    const ref = `import-${index}`;
    changes.push({
      operation: 'insert_page',
      ref,
      into: parent?.ref ?? place.pageId,
      title,
      slug: uniqueSlug(base.slice(0, SLUG_LENGTH), siblings),
      document: { markdown: page.markdown },
    });
    placed.set(page.key.join('/'), { ref, level: (parent?.level ?? place.level) + 1 });
  }
  return changes;
}

/**
 * The place under `pageId` (null: the top level) in the change request's content now; null when it holds no such page.
 * The page's level is the number of pages from the top down to it.
 */
export async function placeIn(sql: SqlRunner, changeRequestId: string, pageId: string | null): Promise<ImportPlace | null> {
  const [at] = await sql<RevisionPoint>(Prisma.sql`
    SELECT r."spaceId", r.line, r.seq, r."baseSeq" FROM "ChangeRequest" cr JOIN "Revision" r ON r.id = cr."revisionId"
     WHERE cr.id = ${changeRequestId}`);
  const [found] = await sql<{ level: number; slugs: string[] }>(Prisma.sql`
    WITH RECURSIVE pages AS (SELECT p."pageId", p."parentId", p.slug FROM (${rowsAt('PageVersion', at)}) p),
      above(id) AS (
        SELECT p."parentId" FROM pages p WHERE p."pageId" = ${pageId}
        UNION ALL
        SELECT p."parentId" FROM above JOIN pages p ON p."pageId" = above.id
      )
    SELECT (SELECT count(*)::int FROM above) AS level,
           ARRAY(SELECT slug FROM pages WHERE "parentId" IS NOT DISTINCT FROM ${pageId}) AS slugs`);
  if (pageId !== null && found.level === 0) return null;
  return { pageId, level: found.level, slugs: found.slugs };
}

/** The website, or the HTML document alone; 400 naming "url" when its (start) page cannot be read. */
async function readSite(ctx: Context, input: { source: ImportSource; url: string }): Promise<Crawl> {
  try {
    return await crawl(ctx.fetcher, input.url, input.source === 'html' ? { ...WEBSITE_LIMITS, pages: 1, depth: 0 } : WEBSITE_LIMITS);
  } catch (error) {
    if (error instanceof UnreadableSite) throw badRequest(`Invalid "url": ${error.message}`);
    throw error;
  }
}

/**
 * Imports the content at `url` into the change request as one new revision, after its pages. Needs `edit`.
 * - website: the site's pages (crawl.ts), nested as their paths are (insertions).
 * - html: the document at the URL alone (its links are not followed).
 * - markdown: the markdown at the URL (front matter and leading heading read as a page's are).
 */
export async function importContent(
  ctx: Context,
  spaceId: string,
  idOrNumber: string,
  input: { source: ImportSource; url: string },
): Promise<ContentImportOutcome> {
  const { row: found } = await authorize(ctx, changeRequests, { id: idOrNumber, parent: spaceId }, 'edit');
  // As updateChangeRequestContent answers, but before reading a whole website for nothing.
  if (found.status === 'merged' || found.status === 'archived') {
    throw conflict(`The change request is ${found.status}: it can no longer change.`);
  }
  const read = input.source === 'markdown' ? await readMarkdownDocument(ctx.fetcher, input.url) : await readSite(ctx, input);
  // Read after the site, just before the write's transaction: a top-level page with the same slug that another edit
  // adds in between makes the write refuse the import (400), never a duplicate slug.
  const changes = insertions(read.pages, (await placeIn(ctx.sql, found.id, null))!);
  const updated = await updateChangeRequestContent(ctx, spaceId, found.id, changes);
  return { revision: updated.revision.id, importedResources: read.pages.length, totalResources: read.total };
}
