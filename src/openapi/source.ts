// Reading an OpenAPI specification from its source: the entry file (fetched from the source URL, or the text given),
// then every file its external `$ref`s name, resolved relative to the file that names them, all fetched through the
// guarded fetcher (timeout, size cap, redirects checked hop by hop, no private addresses unless allowed) within a
// budget of files and bytes. The files are then validated as Swagger 2.0, OpenAPI 3.0 or 3.1, JSON or YAML, by
// @readme/openapi-parser, whose resolver is given the files already read: the parser itself never reaches the network.
import { createHash } from 'node:crypto';
import type { ParserOptions } from '@readme/openapi-parser';
import YAML from 'yaml';
import { FetchError, type Fetcher } from '../kernel/fetcher.js';

export type ProcessErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';

/** Why a source could not be read as a specification: the code of the published enum, and what went wrong. */
export class ProcessingError extends Error {
  constructor(
    readonly code: ProcessErrorCode,
    readonly problems: readonly string[],
    /** How many problems there were, `problems` being the first of them. */
    readonly total = problems.length,
  ) {
    super(problems[0]);
  }
}

/**
 * What one processing may take. A module setting rather than configuration: the defaults suit any deployment, and
 * tests shorten the timeout (the service runs in their process) rather than wait for it.
 */
export const processingLimits = {
  /** Per file fetched, redirects included. */
  fetchTimeoutMs: 15_000,
  /** Of all the files of a specification together. */
  maxBytes: 10 * 1024 * 1024,
  maxFiles: 50,
  maxRedirects: 5,
  /** For the parser to resolve and validate the files. */
  parseTimeoutMs: 30_000,
};

export type SourceFormat = 'json' | 'yaml';

export interface SourceFile {
  /** Where it was read: the URL that answered, or for a text source a stand-in the parser resolves against. */
  url: string;
  /** Its key in the version's filesystem: relative to the entry file's directory, or its URL when outside it. */
  path: string;
  text: string;
  format: SourceFormat;
  document: unknown;
}

export interface ReadSpecification {
  /** The entry file first. */
  files: SourceFile[];
  /** SHA-256 over the files' paths and texts. */
  contentHash: string;
}

export type Source = { url: string; text?: undefined } | { text: string; url?: undefined };

/** A text source has no URL: relative `$ref`s in it have nothing to resolve against, and are refused. */
const TEXT_ORIGIN = 'https://openapi-text.invalid/';

const problem = (code: ProcessErrorCode, message: string) => new ProcessingError(code, [message]);

/** The document in a file's text: JSON, else YAML (at most 100 aliases: no expansion bombs), and an object. */
function parseDocument(text: string, where: string): { format: SourceFormat; document: unknown } {
  if (text.includes('\u0000')) throw problem('PARSE_ERROR', `${where}: contains NUL characters.`);
  let parsed: { format: SourceFormat; document: unknown };
  try {
    parsed = { format: 'json', document: JSON.parse(text) };
  } catch {
    try {
      // Through JSON: what is stored and served is JSON (a YAML alias becomes a copy; a cycle is refused).
      parsed = { format: 'yaml', document: JSON.parse(JSON.stringify(YAML.parse(text, { maxAliasCount: 100, logLevel: 'error' }))) };
    } catch (error) {
      throw problem('PARSE_ERROR', `${where}: not valid JSON or YAML (${(error as Error).message.split('\n')[0]}).`);
    }
  }
  if (parsed.document === null || typeof parsed.document !== 'object' || Array.isArray(parsed.document)) {
    throw problem('PARSE_ERROR', `${where}: not a JSON or YAML object.`);
  }
  return parsed;
}

/** The `$ref`s of a document that name another file (anything but a `#` pointer into the same file). */
function externalRefs(document: unknown): string[] {
  const refs: string[] = [];
  const stack = [document];
  while (stack.length) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) refs.push(child);
      else stack.push(child);
    }
  }
  return refs;
}

const withoutFragment = (url: URL) => {
  const copy = new URL(url);
  copy.hash = '';
  return copy.toString();
};

/** The URL a `$ref` of `file` names, without its fragment. */
function refTarget(ref: string, file: SourceFile): string {
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(ref);
  if (file.url.startsWith(TEXT_ORIGIN) && !absolute) {
    throw problem('PARSE_ERROR', `${file.path}: the $ref "${ref}" is relative, and a text source has no URL to resolve it against.`);
  }
  let url: URL;
  try {
    url = new URL(ref, file.url);
  } catch {
    throw problem('PARSE_ERROR', `${file.path}: the $ref "${ref}" is not a valid reference.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw problem('PARSE_ERROR', `${file.path}: the $ref "${ref}" is not an http or https reference.`);
  }
  return withoutFragment(url);
}

/** A file's key in the filesystem: its path below the entry file's directory, or its URL when outside it. */
function pathOf(url: string, entryDirectory: string): string {
  if (!url.startsWith(entryDirectory)) return url;
  const relative = url.slice(entryDirectory.length);
  try {
    return decodeURIComponent(relative);
  } catch {
    return relative;
  }
}

const decode = (body: Buffer) => body.toString('utf8').replace(/^\uFEFF/, '');

/** Reads the source and every file it references, within processingLimits. */
async function readFiles(source: Source, fetcher: Fetcher): Promise<SourceFile[]> {
  let budget = processingLimits.maxBytes;
  const fetchText = async (url: string) => {
    if (budget <= 0) throw problem('FETCH_ERROR', `The files exceed ${processingLimits.maxBytes} bytes in all.`);
    try {
      const fetched = await fetcher.get(url, {
        timeoutMs: processingLimits.fetchTimeoutMs,
        maxBytes: budget,
        maxRedirects: processingLimits.maxRedirects,
        headers: { accept: 'application/json, application/yaml, text/yaml, text/plain;q=0.9, */*;q=0.1' },
      });
      budget -= fetched.body.byteLength;
      return { url: fetched.url, text: decode(fetched.body) };
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      throw problem(error.code === 'TIMEOUT' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR', `${error.code}: ${error.message}`);
    }
  };

  const first = source.url !== undefined ? await fetchText(source.url) : { url: '', text: source.text };
  const parsedEntry = parseDocument(first.text, 'The entry file');
  const entryUrl = source.url !== undefined ? withoutFragment(new URL(first.url)) : `${TEXT_ORIGIN}openapi.${parsedEntry.format}`;
  const entryDirectory = new URL('.', entryUrl).toString();
  const entry: SourceFile = {
    url: entryUrl,
    path: pathOf(entryUrl, entryDirectory) || `openapi.${parsedEntry.format}`,
    text: first.text,
    ...parsedEntry,
  };

  const files = new Map([[entry.url, entry]]);
  const pending = [entry];
  while (pending.length) {
    const file = pending.shift()!;
    for (const ref of externalRefs(file.document)) {
      const url = refTarget(ref, file);
      if (files.has(url)) continue;
      if (files.size >= processingLimits.maxFiles) {
        throw problem('FETCH_ERROR', `The specification references more than ${processingLimits.maxFiles} files.`);
      }
      const read = await fetchText(url);
      const path = pathOf(url, entryDirectory);
      // Keyed by the URL the parser will ask for (the reference's), whatever redirects it took.
      const found: SourceFile = { url, path, text: read.text, ...parseDocument(read.text, path) };
      files.set(url, found);
      pending.push(found);
    }
  }
  return [...files.values()];
}

/** The problems the parser finds in the files, as a ProcessingError; nothing when they are a valid specification. */
async function checkSpecification(files: readonly SourceFile[]): Promise<void> {
  // The parser and its validators (ajv and the OpenAPI schemas) are loaded by the first specification, not at start-up.
  const { validate } = await import('@readme/openapi-parser');
  const byUrl = new Map(files.map((file) => [file.url, file]));
  // json-schema-ref-parser's http resolver, replaced: it reads only the files already fetched.
  const resolver = {
    canRead: (file: { url: string }) => byUrl.has(file.url),
    read: (file: { url: string }) => byUrl.get(file.url)!.text,
  };
  const options = { resolve: { external: true, http: resolver }, timeoutMs: processingLimits.parseTimeoutMs } as ParserOptions;
  let result: Awaited<ReturnType<typeof validate>>;
  try {
    result = await validate(files[0].url, options);
  } catch (error) {
    throw problem('PARSE_ERROR', (error as Error).message.split('\n')[0]);
  }
  if (result.valid) return;
  const problems = result.errors.slice(0, 20).map((error) => error.message.slice(0, 1000));
  throw new ProcessingError('PARSE_ERROR', problems, result.errors.length + result.additionalErrors);
}

/** Reads and validates a specification; throws a ProcessingError when it cannot be read or is not valid. */
export async function readSpecification(source: Source, fetcher: Fetcher): Promise<ReadSpecification> {
  const files = await readFiles(source, fetcher);
  await checkSpecification(files);
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(`${file.path}\u0000${file.text}\u0000`);
  }
  return { files, contentHash: hash.digest('hex') };
}
