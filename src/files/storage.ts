// Storing files' bytes: content-addressed (a file is named by the SHA-256 of its bytes), so identical bytes are stored
// once whatever the number of files, spaces and revisions that hold them, and stored bytes never change.
//
// Bytes and rows agree without a distributed transaction: before any byte is written, one statement records an
// intent naming the keys (FileIntent, living FILES_SWEEP_GRACE_MINUTES, or longer for a long writer such as a Git
// import); the bytes are written and durable before storeFiles returns, so before the caller's transaction that names
// them commits. The sweep (sweep.ts) removes only bytes that neither a row nor a live intent names. The intent
// statement takes the sweep's lock shared: an intent cannot commit between the sweep's check and its deletes, so bytes
// a writer finds already stored are not deleted under it. The same statement enforces STORAGE_QUOTA_MB, the
// organization's writers taking turns when a quota is set.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Prisma } from '../generated/prisma/client.js';
import type { Services } from '../kernel/context.js';
import { conflict, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { FileContent } from '../revisions/store.js';
import type { OpenedObject } from './store.js';
import { distinctBytesSql, namedByOrganizationSql } from './usage.js';

/** The largest file the service stores (GitBook's own upload limit); whoever takes bytes from a client enforces it. */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;

/** The advisory lock the sweep holds exclusively between its check and its deletes, and writers of intents share. */
export const SWEEP_LOCK = 1718185589; // 'file' as a 32-bit integer

/** What storing bytes tells of them: the fields of a file's row that come from its content. */
export type StoredFile = Pick<FileContent, 'name' | 'contentType' | 'size' | 'width' | 'height' | 'storageKey'>;

/** A storage key is a SHA-256 in hex; anything else names no stored file (and no path outside the directory). */
export const STORAGE_KEY = /^[0-9a-f]{64}$/;

type StorageServices = Pick<Services, 'files' | 'sql' | 'prisma' | 'clock' | 'config'>;

export interface FileToStore {
  bytes: Uint8Array;
  name: string;
  declaredType?: string | null;
}

export interface StoreOptions {
  /** The space the bytes are for: its organization's quota applies. */
  spaceId?: string;
  /** How long the writer may take to name the bytes in a row; FILES_SWEEP_GRACE_MINUTES unless told. */
  intentMinutes?: number;
  /** Bytes exported from this space until then (a PDF): the export's row, written first, is their intent. */
  exportOf?: { spaceId: string; expiresAt: Date };
}

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

async function describe(file: FileToStore, storageKey: string): Promise<StoredFile> {
  const image = await dimensionsOf(file.bytes);
  const contentType = await contentTypeOf(file.bytes, file.name, file.declaredType, image?.type);
  const dimensions = contentType.startsWith('image/') ? image : null;
  return {
    name: file.name,
    contentType,
    size: file.bytes.byteLength,
    width: dimensions?.width ?? null,
    height: dimensions?.height ?? null,
    storageKey,
  };
}

/**
 * Records the intents of writing these keys (one statement; three more under a quota), refused with 409 when they would
 * pass the quota.
 */
async function recordIntents(services: StorageServices, keys: { storageKey: string; size: number }[], options: StoreOptions) {
  const expiresAt = new Date(services.clock.now().getTime() + (options.intentMinutes ?? services.config.filesSweepGraceMinutes) * 60_000);
  const quota = options.spaceId ? services.config.storageQuotaBytes : 0;
  const organization = Prisma.sql`(SELECT "organizationId" FROM "Space" WHERE id = ${options.spaceId ?? null})`;
  // Bytes the organization's rows do not name yet add to its usage; bytes already named add nothing.
  const named = quota ? Prisma.sql`, named AS (${namedByOrganizationSql(organization, services.clock.now())})` : Prisma.empty;
  const withinQuota = quota
    ? Prisma.sql`WHERE NOT EXISTS (SELECT 1 FROM incoming WHERE size > 0 AND "storageKey" NOT IN (SELECT "storageKey" FROM named))
                    OR (${distinctBytesSql(Prisma.sql`SELECT "storageKey", size FROM named UNION ALL SELECT "storageKey", size FROM incoming`)}) <= ${quota}`
    : Prisma.empty;
  const { exportOf } = options;
  const recording = exportOf
    ? Prisma.sql`INSERT INTO "FileExport" (id, "storageKey", "spaceId", "organizationId", size, "expiresAt")
                 SELECT incoming.id, incoming."storageKey", s.id, s."organizationId", incoming.size, ${exportOf.expiresAt}
                   FROM incoming, locked, "Space" s WHERE s.id = ${exportOf.spaceId}`
    : Prisma.sql`INSERT INTO "FileIntent" (id, "storageKey", "organizationId", size, "expiresAt")
                 SELECT incoming.id, incoming."storageKey", ${organization}, incoming.size, ${expiresAt}
                   FROM incoming, locked ${withinQuota}`;
  const statement = Prisma.sql`
    WITH locked AS (SELECT pg_advisory_xact_lock_shared(${SWEEP_LOCK}::bigint)),
         incoming AS (
           SELECT * FROM unnest(${keys.map(() => newId())}::text[], ${keys.map((key) => key.storageKey)}::text[],
                                ${keys.map((key) => key.size)}::int[]) AS k(id, "storageKey", size))
         ${named}
    ${recording}
    RETURNING id`;
  // Under a quota, the organization's writers of intents take turns (a lock of their own, then the statement, whose
  // snapshot sees the intents committed before it): two writes at the limit cannot both pass it.
  const inserted = quota
    ? await services.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('storage-quota:' || ${organization}, 0))`;
        return tx.$queryRaw<{ id: string }[]>(statement);
      })
    : await services.sql<{ id: string }>(statement);
  if (inserted.length < keys.length) {
    // The exported space went meanwhile (purged); or the files would pass the quota.
    if (exportOf) throw notFound('Space');
    throw conflict(`The organization's storage quota (STORAGE_QUOTA_MB, ${quota / (1024 * 1024)} MB) would be exceeded by these files.`);
  }
}

/**
 * Stores files' bytes (once: identical bytes are already there) and describes them: size, content type, and the
 * dimensions of an image. The caller enforces MAX_FILE_BYTES, naming the field the bytes came from, and names the
 * keys in a row before the intent expires.
 */
export async function storeFiles(services: StorageServices, files: FileToStore[], options: StoreOptions = {}): Promise<StoredFile[]> {
  if (!files.length) return [];
  const keys = files.map((file) => ({ storageKey: createHash('sha256').update(file.bytes).digest('hex'), size: file.bytes.byteLength }));
  await recordIntents(services, keys, options);
  const described: StoredFile[] = [];
  for (const [index, file] of files.entries()) {
    await services.files.put(keys[index].storageKey, file.bytes);
    described.push(await describe(file, keys[index].storageKey));
  }
  return described;
}

export async function storeFile(
  services: StorageServices,
  bytes: Uint8Array,
  name: string,
  declaredType?: string | null,
  options?: StoreOptions,
): Promise<StoredFile> {
  const [stored] = await storeFiles(services, [{ bytes, name, declaredType }], options);
  return stored;
}

/** The stored bytes of a key, or null when nothing is stored under it. */
export async function openStoredFile(services: Pick<Services, 'files'>, storageKey: string): Promise<OpenedObject | null> {
  return STORAGE_KEY.test(storageKey) ? services.files.open(storageKey) : null;
}
