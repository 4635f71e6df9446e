// Content-addressed storage of files' bytes under FILES_DIR: a file is named by the SHA-256 of its bytes
// (`<dir>/<first two hex digits>/<sha256>`), so identical bytes are stored once whatever the number of files, spaces
// and revisions that hold them, and a stored file never changes. A write goes to a temporary file in the same
// directory tree and is renamed into place, so a reader never sees half a file, and two writers of the same bytes
// both succeed. The bytes, then the directory entries that name them, are flushed to the disk before storeFile
// returns: the transaction that records a file commits after its bytes are durable, never before. Directories are created 0700 and files 0600: the bytes are the spaces' own, for the service alone.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { FileContent } from '../revisions/store.js';

/** The largest file the service stores (GitBook's own upload limit); whoever takes bytes from a client enforces it. */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;

/** What storing bytes tells of them: the fields of a file's row that come from its content. */
export type StoredFile = Pick<FileContent, 'name' | 'contentType' | 'size' | 'width' | 'height' | 'storageKey'>;

/** A storage key is a SHA-256 in hex; anything else names no stored file (and no path outside the directory). */
export const STORAGE_KEY = /^[0-9a-f]{64}$/;

const pathOf = (filesDir: string, storageKey: string) => path.join(filesDir, storageKey.slice(0, 2), storageKey);

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** Types of text formats that have no signature to sniff, by extension. */
const TEXT_TYPES: Record<string, string> = {
  '.md': 'text/markdown',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.html': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
};

/** Width and height of an image as displayed (EXIF orientations 5 to 8 turn it a quarter), or null if not one. */
async function dimensionsOf(bytes: Uint8Array): Promise<{ width: number; height: number; type?: string } | null> {
  // image-size, like file-type below, is loaded by the first file stored, not at start-up.
  const { imageSize } = await import('image-size');
  try {
    const size = imageSize(bytes);
    const turned = (size.orientation ?? 1) >= 5;
    return { width: turned ? size.height : size.width, height: turned ? size.width : size.height, type: size.type };
  } catch {
    return null;
  }
}

/**
 * The content type: what the bytes' signature says (file-type), else an SVG image (image-size reads it), else the
 * declared type when it is a well-formed MIME type, else what the name's extension says of a text format.
 */
async function contentTypeOf(bytes: Uint8Array, name: string, declared: string | null | undefined, imageType?: string) {
  const { fileTypeFromBuffer } = await import('file-type');
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed) return sniffed.mime;
  if (imageType === 'svg') return 'image/svg+xml';
  const given = declared?.split(';')[0].trim().toLowerCase();
  if (given && MIME_TYPE.test(given)) return given;
  return TEXT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Stores bytes (once: identical bytes are already there) and describes them: size, content type, and the dimensions
 * of an image. The caller enforces MAX_FILE_BYTES, naming the field the bytes came from.
 */
export async function storeFile(
  config: Pick<Config, 'filesDir'>,
  bytes: Uint8Array,
  name: string,
  declaredType?: string | null,
): Promise<StoredFile> {
  const storageKey = createHash('sha256').update(bytes).digest('hex');
  const target = pathOf(config.filesDir, storageKey);
  if ((await sizeOf(target)) === null) {
    const directory = path.dirname(target);
    const created = await mkdir(directory, { recursive: true, mode: 0o700 });
    const temporary = `${target}.${randomBytes(8).toString('hex')}.partial`;
    try {
      const handle = await open(temporary, 'wx', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, target);
    } finally {
      await rm(temporary, { force: true });
    }
    await syncDirectory(directory);
    // A directory made now is named by its parent, whose entry must be durable too.
    if (created) await syncDirectory(path.dirname(directory));
  }
  const image = await dimensionsOf(bytes);
  const contentType = await contentTypeOf(bytes, name, declaredType, image?.type);
  const dimensions = contentType.startsWith('image/') ? image : null;
  return { name, contentType, size: bytes.byteLength, width: dimensions?.width ?? null, height: dimensions?.height ?? null, storageKey };
}

/** Flushes a directory's entries (a file renamed into it, a directory made in it) to the disk. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The size of a stored file, or null when there is none. */
async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The stored bytes of a key, as a stream with its length; null when nothing is stored under it. */
export async function openStoredFile(
  config: Pick<Config, 'filesDir'>,
  storageKey: string,
): Promise<{ size: number; open(): ReadStream } | null> {
  if (!STORAGE_KEY.test(storageKey)) return null;
  const file = pathOf(config.filesDir, storageKey);
  const size = await sizeOf(file);
  return size === null ? null : { size, open: () => createReadStream(file) };
}
