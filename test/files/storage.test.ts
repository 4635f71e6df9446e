// Content-addressed file storage: bytes stored once under their SHA-256, written whole, and described (type from the
// bytes where they tell it, image dimensions read from them).
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { storeFile } from '../../src/files/index.js';
import { png, svg } from './images.js';

const filesDir = mkdtempSync(path.join(os.tmpdir(), 'files-'));
const config = { filesDir };
afterAll(() => rmSync(filesDir, { recursive: true, force: true }));

/** Every file under the storage directory, relative to it. */
const stored = () => readdirSync(filesDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());

describe('storeFile', () => {
  it('stores identical bytes once, under their SHA-256, whatever their names', async () => {
    const bytes = png(3, 2);
    const first = await storeFile(config, bytes, 'diagram.png');
    const second = await storeFile(config, bytes, 'copy of diagram.png', 'image/png');
    const key = createHash('sha256').update(bytes).digest('hex');
    expect(first).toEqual({ name: 'diagram.png', contentType: 'image/png', size: bytes.length, width: 3, height: 2, storageKey: key });
    expect(second).toEqual({ ...first, name: 'copy of diagram.png' });
    const files = stored().filter((entry) => entry.name === key);
    expect(files).toHaveLength(1);
    expect(readFileSync(path.join(filesDir, key.slice(0, 2), key)).equals(bytes)).toBe(true);
  });

  it('leaves no partial file behind, also when many store the same bytes at once', async () => {
    const bytes = png(40, 30, 7);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => storeFile(config, bytes, `image-${i}.png`)));
    expect(new Set(results.map((result) => result.storageKey)).size).toBe(1);
    expect(stored().filter((entry) => entry.name.endsWith('.partial'))).toEqual([]);
    expect(stored().filter((entry) => entry.name === results[0].storageKey)).toHaveLength(1);
  });

  it('creates directories only the service enters and files only it reads, whatever the umask', async () => {
    const privateDir = path.join(filesDir, 'private');
    const umask = process.umask(0);
    let storageKey: string;
    try {
      ({ storageKey } = await storeFile({ filesDir: privateDir }, png(5, 5, 9), 'private.png'));
    } finally {
      process.umask(umask);
    }
    const modeOf = (file: string) => statSync(file).mode & 0o777;
    expect(modeOf(privateDir)).toBe(0o700);
    expect(modeOf(path.join(privateDir, storageKey.slice(0, 2)))).toBe(0o700);
    expect(modeOf(path.join(privateDir, storageKey.slice(0, 2), storageKey))).toBe(0o600);
  });

  it('takes the type from the bytes where they tell it, else the declared one, else the extension', async () => {
    // A PNG declared as text is a PNG.
    expect(await storeFile(config, png(1, 1, 3), 'x.txt', 'text/plain')).toMatchObject({ contentType: 'image/png', width: 1, height: 1 });
    // SVG has no signature: its dimensions tell it.
    expect(await storeFile(config, svg(64, 32), 'logo.svg')).toMatchObject({ contentType: 'image/svg+xml', width: 64, height: 32 });
    const text = Buffer.from('# Notes\n');
    expect(await storeFile(config, text, 'notes.md', 'text/markdown; charset=utf-8')).toMatchObject({
      contentType: 'text/markdown',
      width: null,
      height: null,
    });
    expect((await storeFile(config, text, 'notes.md')).contentType).toBe('text/markdown');
    expect((await storeFile(config, text, 'notes.md', 'not a type')).contentType).toBe('text/markdown');
    expect((await storeFile(config, text, 'notes')).contentType).toBe('application/octet-stream');
    expect(await storeFile(config, Buffer.alloc(0), 'empty.bin')).toMatchObject({ size: 0, contentType: 'application/octet-stream' });
  });
});
