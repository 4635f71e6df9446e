// The local backend: bytes under FILES_DIR as `<dir>/<first two hex digits>/<key>`. A write goes to a temporary file
// in the same directory and is renamed into place, so a reader never sees half a file and two writers of the same
// bytes both succeed. The bytes, then the directory entries that name them, are flushed to the disk before put
// returns: the transaction that records a file commits after its bytes are durable, never before. Directories are
// created 0700 and files 0600: the bytes are the spaces' own, for the service alone.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStore, OpenedObject, StoredObject } from './store.js';

const SHARD = /^[0-9a-f]{2}$/;

export class LocalFileStore implements FileStore {
  readonly kind = 'local';

  constructor(private readonly directory: string) {}

  private pathOf(key: string) {
    return path.join(this.directory, key.slice(0, 2), key);
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.write(key, async (file) => {
      const handle = await open(file, 'wx', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
  }

  async putStream(key: string, stream: Readable, size: number): Promise<void> {
    await this.write(key, async (file) => {
      const handle = await open(file, 'wx', 0o600);
      try {
        await pipeline(stream, createWriteStream('', { fd: handle.fd, autoClose: false }));
        if ((await handle.stat()).size !== size) throw new Error(`Stored bytes of ${key} are not ${size} bytes long.`);
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
  }

  /** Writes a key's bytes unless there, through a temporary file renamed into place, and flushes what names them. */
  private async write(key: string, fill: (temporary: string) => Promise<void>): Promise<void> {
    const target = this.pathOf(key);
    if ((await sizeOf(target)) !== null) return;
    const directory = path.dirname(target);
    const created = await mkdir(directory, { recursive: true, mode: 0o700 });
    const temporary = `${target}.${randomBytes(8).toString('hex')}.partial`;
    try {
      await fill(temporary);
      await rename(temporary, target);
    } finally {
      await rm(temporary, { force: true });
    }
    await syncDirectory(directory);
    // A directory made now is named by its parent, whose entry must be durable too.
    if (created) await syncDirectory(path.dirname(directory));
  }

  async open(key: string): Promise<OpenedObject | null> {
    const file = this.pathOf(key);
    const size = await sizeOf(file);
    return size === null ? null : { size, stream: () => createReadStream(file) };
  }

  async remove(keys: readonly string[]): Promise<void> {
    for (const key of keys) await rm(this.pathOf(key), { force: true });
  }

  async *list(): AsyncIterable<StoredObject> {
    let shards: string[];
    try {
      shards = (await readdir(this.directory)).filter((name) => SHARD.test(name)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const shard of shards) {
      for (const name of (await readdir(path.join(this.directory, shard))).sort()) {
        const found = await stat(path.join(this.directory, shard, name)).catch(() => null);
        if (found?.isFile()) yield { key: name, size: found.size, storedAt: found.mtime };
      }
    }
  }

  async presignedUrl(): Promise<null> {
    return null;
  }
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
