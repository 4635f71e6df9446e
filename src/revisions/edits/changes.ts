// The operations of a content batch as the API takes them, and what a page operation's fields and document say of the
// page.
import { readMarkdown } from '../markdown.js';

export interface PageMetadata {
  title?: string | null;
  slug?: string | null;
  emoji?: string | null;
  icon?: string | null;
  description?: string | null;
  hidden?: boolean | null;
  noIndex?: boolean | null;
  noRobotsIndex?: boolean | null;
}

/** A page's document as the API takes it: markdown, GitBook's JSON document, or nothing. */
export interface DocumentInput {
  markdown?: string | null;
  document?: unknown;
}

export type ContentChange =
  | (PageMetadata & { operation: 'insert_page'; document: DocumentInput; into?: string | null; at?: number | null; ref?: string | null })
  | (PageMetadata & { operation: 'update_page'; page: string; document?: DocumentInput | null; into?: string | null; at?: number | null })
  | { operation: 'delete_page'; page: string }
  | { operation: 'revert_page'; page: string; revision?: string | null; block?: string[] | null }
  | { operation: 'insert_files'; files: FileInput[] };

export interface FileInput {
  ref?: string | null;
  name: string;
  contentType?: string | null;
  url?: string | null;
  base64?: string | null;
}

/**
 * Metadata and body from the operation and its document: front matter and the leading heading win. The body is
 * undefined when the operation leaves it as it is.
 */
export function pageFields(change: PageMetadata & { document?: DocumentInput | null }, field: string) {
  const meta: PageMetadata = { ...change };
  let markdown: string | null | undefined;
  let document: unknown;
  if (change.document?.markdown != null) {
    const read = readMarkdown(change.document.markdown, `${field}.document.markdown`);
    // The document's own title (front matter, else its leading heading) wins over the field, as in Git Sync.
    Object.assign(meta, read.meta, { title: read.meta.title ?? read.heading ?? meta.title });
    markdown = read.body;
    document = null;
  } else if (change.document?.document !== undefined) {
    document = change.document.document;
    markdown = null;
  }
  return { meta, markdown, document };
}
