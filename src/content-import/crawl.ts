// Reading a website for an import: the start page, then the same site's pages it links to, breadth first, one request
// at a time (gentle with the site), each through the guarded fetcher (SSRF guard, timeouts, size caps, redirects
// re-checked), within WEBSITE_LIMITS. A start page that cannot be read ends the crawl (UnreadableSite); a later one
// (HTTP error, not HTML, too large, too slow, redirected off the site) is skipped and counted.
import { FetchError, type Fetcher } from '../kernel/fetcher.js';

/** Media types read as HTML. */
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

const mediaTypeOf = (contentType: string | null) => contentType?.split(';')[0].trim().toLowerCase() || null;
const isHtml = (contentType: string | null) => HTML_TYPES.has(mediaTypeOf(contentType) ?? '');

/** The page's text: in the charset its Content-Type names, else its <meta charset>, else UTF-8. */
function decodeHtml(body: Buffer, contentType: string | null): string {
  const declared =
    /charset="?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 1024).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

export interface CrawlLimits {
  /** Requests, the start page's included. */
  pages: number;
  /** Links followed from the start page (0: the start page alone). */
  depth: number;
  pageBytes: number;
  /** All pages together; a page is capped at what is left of it. */
  totalBytes: number;
  /** For the whole crawl; a request gets at most `requestMs`, and none starts once it is spent. */
  timeMs: number;
  requestMs: number;
}

export const WEBSITE_LIMITS: CrawlLimits = {
  pages: 50,
  depth: 3,
  pageBytes: 2 * 1024 * 1024,
  totalBytes: 20 * 1024 * 1024,
  timeMs: 60_000,
  requestMs: 10_000,
};

/** A page read from the site. */
export interface CrawledPage {
  /** Its path below the site's prefix, by segment, without `.html` ([] for the prefix itself). */
  key: string[];
  url: string;
  title: string;
  markdown: string;
}

export interface Crawl {
  /** In the order they were found. */
  pages: CrawledPage[];
  /** Pages tried: those read and those skipped. */
  total: number;
}

/** Extensions of pages; a link whose last segment has another extension (an image, an archive) is a file. */
const PAGE_EXTENSIONS = new Set(['html', 'htm', 'xhtml', 'shtml', 'php', 'asp', 'aspx', 'jsp']);
const extensionOf = (segment: string) => /\.([a-z0-9]{1,8})$/i.exec(segment)?.[1]?.toLowerCase();
const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

/**
 * The site: the start page's origin and path prefix, its directory or itself as one (`/docs` and `/docs/` cover
 * `/docs/...`, so does `/docs/intro.html`). A page is known by its path below the prefix, without query, fragment,
 * trailing slash, `index.html` or `.html`: each is read once. Links to other origins, outside the prefix, or to files
 * that are not pages (by extension) are not followed.
 */
class Site {
  readonly origin: string;
  readonly prefix: string;

  constructor(start: URL) {
    this.origin = start.origin;
    const path = start.pathname;
    const last = path.slice(path.lastIndexOf('/') + 1);
    this.prefix = path.endsWith('/') ? path : extensionOf(last) ? path.slice(0, path.length - last.length) : `${path}/`;
  }

  /** The page's key, or null when the URL is not a page of the site. */
  keyOf(url: URL): string[] | null {
    if (url.origin !== this.origin) return null;
    const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
    if (!path.startsWith(this.prefix)) return null;
    const segments = url.pathname.slice(this.prefix.length).split('/').filter(Boolean);
    const last = segments.at(-1);
    if (last !== undefined) {
      const extension = extensionOf(last);
      if (extension && !PAGE_EXTENSIONS.has(extension)) return null;
      if (/^index\.[a-z]+$/i.test(last)) segments.pop();
      else if (extension) segments[segments.length - 1] = last.slice(0, -extension.length - 1);
    }
    return segments;
  }
}

type PageRead = { url: URL; html: string; bytes: number } | { failure: string };

/** The start page cannot be read: why, in words for whoever asked for the import. */
export class UnreadableSite extends Error {}

/** A page's HTML, or why it cannot be had. */
async function readPage(fetcher: Fetcher, url: string, maxBytes: number, timeoutMs: number): Promise<PageRead> {
  try {
    const fetched = await fetcher.get(url, { maxBytes, timeoutMs, headers: { accept: ACCEPT } });
    if (!isHtml(fetched.contentType)) {
      const type = mediaTypeOf(fetched.contentType) ?? 'no content type';
      return { failure: `${new URL(fetched.url).origin} answered ${type}, not HTML.` };
    }
    return { url: new URL(fetched.url), html: decodeHtml(fetched.body, fetched.contentType), bytes: fetched.body.byteLength };
  } catch (error) {
    if (error instanceof FetchError) return { failure: error.message };
    throw error;
  }
}

/**
 * Reads the site from `start` within `limits`; UnreadableSite when the start page cannot be read. `between` runs after
 * each page read, before the next request: what it throws ends the crawl (an import run that was cancelled).
 */
export async function crawl(
  fetcher: Fetcher,
  start: string,
  limits: CrawlLimits,
  between: () => Promise<void> = async () => {},
): Promise<Crawl> {
  const deadline = performance.now() + limits.timeMs;
  let bytesLeft = limits.totalBytes;
  let requests = 0;
  const read = async (url: string) => {
    requests++;
    const page = await readPage(
      fetcher,
      url,
      Math.min(limits.pageBytes, bytesLeft),
      Math.min(limits.requestMs, deadline - performance.now()),
    );
    if ('bytes' in page) bytesLeft -= page.bytes;
    return page;
  };

  // The converter's libraries (Readability, linkedom, turndown) are loaded by the first import of a website, not at
  // start-up.
  const { convertHtml } = await import('./convert.js');
  const first = await read(start);
  if ('failure' in first) throw new UnreadableSite(first.failure);
  // A redirect decides where the site is: http://host/docs may answer from https://host/docs/.
  const site = new Site(first.url);
  const seen = new Set<string>();
  const pages: CrawledPage[] = [];
  let skipped = 0;
  const queue: { url: URL; depth: number }[] = [];
  const found = (url: URL, depth: number, html: string) => {
    const key = site.keyOf(url) ?? [];
    const converted = convertHtml(html, url);
    pages.push({ key, url: url.href, title: converted.title, markdown: converted.markdown });
    if (depth >= limits.depth) return;
    for (const link of converted.links) {
      const linked = site.keyOf(link);
      if (!linked || seen.has(linked.join('/'))) continue;
      seen.add(linked.join('/'));
      queue.push({ url: new URL(link.pathname, link), depth: depth + 1 });
    }
  };
  seen.add((site.keyOf(first.url) ?? []).join('/'));
  found(first.url, 0, first.html);

  while (queue.length && requests < limits.pages && bytesLeft > 0 && deadline - performance.now() > 0) {
    await between();
    const next = queue.shift()!;
    const page = await read(next.url.href);
    if ('failure' in page) {
      skipped++;
      continue;
    }
    const key = site.keyOf(page.url);
    if (!key) {
      // Redirected off the site.
      skipped++;
      continue;
    }
    // Redirected to a page read already (or queued): the same page, once.
    if (key.join('/') !== site.keyOf(next.url)?.join('/') && seen.has(key.join('/'))) continue;
    seen.add(key.join('/'));
    found(page.url, next.depth, page.html);
  }
  return { pages, total: pages.length + skipped };
}
