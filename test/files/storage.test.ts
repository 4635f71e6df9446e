// The file stores (src/files/store.ts): the local directory and S3 (against s3rver, test/support/s3-server.ts) pass the
// same contract; then storing files through the service's storage (content addresses, descriptions, intents).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { storeFile } from '../../src/files/index.js';
import { createFileStore, type FileStore } from '../../src/files/store.js';
import { useApi } from '../support/app.js';
import { type S3Server, startS3Server } from '../support/s3-server.js';
import { png, svg } from './images.js';

const keyOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function read(store: FileStore, key: string): Promise<Buffer | null> {
  const opened = await store.open(key);
  if (!opened) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of opened.stream()) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  expect(bytes.byteLength).toBe(opened.size);
  return bytes;
}

async function listed(store: FileStore) {
  const objects = [];
  for await (const object of store.list()) objects.push(object);
  return objects;
}

const filesDir = mkdtempSync(path.join(os.tmpdir(), 'files-'));
let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe.each([
  ['local', () => createFileStore(loadConfig({ FILES_DIR: filesDir }))],
  ['s3', () => createFileStore(loadConfig(s3.env))],
])('the %s store', (_kind, makeStore) => {
  let store: FileStore;
  beforeAll(() => {
    store = makeStore();
  });

  it('keeps bytes under their key, lists them with when they were stored, and removes them', async () => {
    const before = Date.now() - 2000;
    const bytes = png(3, 2, 11);
    const key = keyOf(bytes);
    await store.put(key, bytes);
    expect((await read(store, key))!.equals(bytes)).toBe(true);
    const object = (await listed(store)).find((candidate) => candidate.key === key)!;
    expect(object.size).toBe(bytes.byteLength);
    expect(object.storedAt.getTime()).toBeGreaterThanOrEqual(before);
    await store.remove([key]);
    expect(await store.open(key)).toBeNull();
    expect((await listed(store)).map((candidate) => candidate.key)).not.toContain(key);
  });

  it('answers null for bytes it does not hold, and removes missing keys without complaint', async () => {
    const key = keyOf(Buffer.from('never stored'));
    expect(await store.open(key)).toBeNull();
    await store.remove([key]);
  });

  it('stores the same bytes once, also when many write them at once', async () => {
    const bytes = png(40, 30, 7);
    const key = keyOf(bytes);
    await Promise.all(Array.from({ length: 10 }, () => store.put(key, bytes)));
    expect((await listed(store)).filter((candidate) => candidate.key === key)).toHaveLength(1);
    expect((await read(store, key))!.equals(bytes)).toBe(true);
  });

  it('stores bytes from a stream of a known length, and empty bytes', async () => {
    const bytes = Buffer.alloc(300_000, 7);
    const key = keyOf(bytes);
    await store.putStream(key, Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]), bytes.byteLength);
    expect((await read(store, key))!.equals(bytes)).toBe(true);
    const empty = Buffer.alloc(0);
    await store.put(keyOf(empty), empty);
    expect((await read(store, keyOf(empty)))!.byteLength).toBe(0);
  });

  it('fails a streamed put whose source fails, rather than waiting for the rest', async () => {
    const key = keyOf(Buffer.from(`never whole ${_kind}`));
    async function* failing() {
      yield Buffer.alloc(70_000, 1);
      throw new Error('the source broke');
    }
    await expect(store.putStream(key, Readable.from(failing()), 140_000)).rejects.toThrow();
  });

  it('removes many keys in one call', async () => {
    const keys = [];
    for (let i = 0; i < 25; i++) {
      const bytes = Buffer.from(`batch ${i}`);
      keys.push(keyOf(bytes));
      await store.put(keyOf(bytes), bytes);
    }
    await store.remove(keys);
    const left = new Set((await listed(store)).map((object) => object.key));
    expect(keys.filter((key) => left.has(key))).toEqual([]);
  });
});

describe('the local store', () => {
  it('creates directories only the service enters and files only it reads, whatever the umask', async () => {
    const privateDir = path.join(filesDir, 'private');
    const store = createFileStore(loadConfig({ FILES_DIR: privateDir }));
    const bytes = png(5, 5, 9);
    const umask = process.umask(0);
    try {
      await store.put(keyOf(bytes), bytes);
    } finally {
      process.umask(umask);
    }
    const modeOf = (file: string) => statSync(file).mode & 0o777;
    const key = keyOf(bytes);
    expect(modeOf(privateDir)).toBe(0o700);
    expect(modeOf(path.join(privateDir, key.slice(0, 2)))).toBe(0o700);
    expect(modeOf(path.join(privateDir, key.slice(0, 2), key))).toBe(0o600);
  });

  it('lists what a killed writer left (a partial file), for the sweep to remove', async () => {
    const store = createFileStore(loadConfig({ FILES_DIR: filesDir }));
    const key = keyOf(Buffer.from('half written'));
    const partial = `${key}.0123456789abcdef.partial`;
    mkdirSync(path.join(filesDir, key.slice(0, 2)), { recursive: true });
    writeFileSync(path.join(filesDir, key.slice(0, 2), partial), 'half');
    expect((await listed(store)).map((object) => object.key)).toContain(partial);
    await store.remove([partial]);
    expect(readdirSync(path.join(filesDir, key.slice(0, 2)))).not.toContain(partial);
  });
});

describe('storeFile', () => {
  const { t } = useApi();
  const services = () => t.app.services;
  const stored = () =>
    readdirSync(t.app.services.config.filesDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());

  it('stores identical bytes once, under their SHA-256, whatever their names', async () => {
    const bytes = png(3, 2);
    const first = await storeFile(services(), bytes, 'diagram.png');
    const second = await storeFile(services(), bytes, 'copy of diagram.png', 'image/png');
    const key = keyOf(bytes);
    expect(first).toEqual({ name: 'diagram.png', contentType: 'image/png', size: bytes.length, width: 3, height: 2, storageKey: key });
    expect(second).toEqual({ ...first, name: 'copy of diagram.png' });
    expect(stored().filter((entry) => entry.name === key)).toHaveLength(1);
    expect(readFileSync(path.join(services().config.filesDir, key.slice(0, 2), key)).equals(bytes)).toBe(true);
  });

  it('records an intent naming the bytes before writing them, which lives the grace period', async () => {
    const bytes = png(6, 6, 4);
    const now = t.clock.now().getTime();
    await storeFile(services(), bytes, 'intended.png');
    const intents = await t.prisma.fileIntent.findMany({ where: { storageKey: keyOf(bytes) } });
    expect(intents).toHaveLength(1);
    expect(intents[0].expiresAt.getTime()).toBe(now + services().config.filesSweepGraceMinutes * 60_000);
  });

  it('leaves no partial file behind, also when many store the same bytes at once', async () => {
    const bytes = png(40, 30, 8);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => storeFile(services(), bytes, `image-${i}.png`)));
    expect(new Set(results.map((result) => result.storageKey)).size).toBe(1);
    expect(stored().filter((entry) => entry.name.endsWith('.partial'))).toEqual([]);
    expect(stored().filter((entry) => entry.name === results[0].storageKey)).toHaveLength(1);
  });

  it('takes the type from the bytes where they tell it, else the declared one, else the extension', async () => {
    // A PNG declared as text is a PNG.
    expect(await storeFile(services(), png(1, 1, 3), 'x.txt', 'text/plain')).toMatchObject({
      contentType: 'image/png',
      width: 1,
      height: 1,
    });
    // SVG has no signature: its dimensions tell it.
    expect(await storeFile(services(), svg(64, 32), 'logo.svg')).toMatchObject({ contentType: 'image/svg+xml', width: 64, height: 32 });
    const text = Buffer.from('# Notes\n');
    expect(await storeFile(services(), text, 'notes.md', 'text/markdown; charset=utf-8')).toMatchObject({
      contentType: 'text/markdown',
      width: null,
      height: null,
    });
    expect((await storeFile(services(), text, 'notes.md')).contentType).toBe('text/markdown');
    expect((await storeFile(services(), text, 'notes.md', 'not a type')).contentType).toBe('text/markdown');
    expect((await storeFile(services(), text, 'notes')).contentType).toBe('application/octet-stream');
    expect(await storeFile(services(), Buffer.alloc(0), 'empty.bin')).toMatchObject({ size: 0, contentType: 'application/octet-stream' });
  });
});
