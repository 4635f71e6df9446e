// Where files' bytes are kept: one interface, two backends, chosen by FILES_STORE. Keys are SHA-256s in hex (the
// content addresses storage.ts computes), so a key always names the same bytes and a write of a key already stored
// changes nothing. What names the bytes (and so keeps them) is the database's business: storage.ts records an intent
// before a write, and sweep.ts removes bytes that no row names; a store only keeps, lists and removes bytes.
import type { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { LocalFileStore } from './local-store.js';
import { S3FileStore } from './s3-store.js';

/** Stored bytes as a listing sees them: when they were written, to tell recent writes from leftovers. */
export interface StoredObject {
  key: string;
  size: number;
  storedAt: Date;
}

/** Stored bytes to read: their length, known before the first byte is sent, and a stream of them. */
export interface OpenedObject {
  size: number;
  stream(): Readable;
}

export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Stores the bytes under their key; when it returns they are durable (flushed, or acknowledged by the store). */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Stores bytes read from a stream (a backup's), `size` of them; the store checks the count. */
  putStream(key: string, stream: Readable, size: number): Promise<void>;
  /** The bytes under a key, or null when none are stored. */
  open(key: string): Promise<OpenedObject | null>;
  /** Removes the bytes of these keys; keys with none are skipped. */
  remove(keys: readonly string[]): Promise<void>;
  /**
   * Every key stored, and leftovers of writes that never finished (a process killed mid-write) under keys that are not
   * content addresses, which the sweep removes once old.
   */
  list(): AsyncIterable<StoredObject>;
  /** An address the client may fetch the bytes from itself for `seconds`, or null where the API serves them. */
  presignedUrl(key: string, download: { name: string; contentType: string; inline: boolean; seconds: number }): Promise<string | null>;
}

export function createFileStore(config: Pick<Config, 'filesDir' | 'fileStore'>): FileStore {
  return config.fileStore.kind === 's3' ? new S3FileStore(config.fileStore) : new LocalFileStore(config.filesDir);
}
