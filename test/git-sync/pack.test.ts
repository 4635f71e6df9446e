// The check of what a Git server sends for a fetch, before isomorphic-git inflates it: a pack made by git passes,
// however its answer is cut, with its objects and sizes counted as git itself counts them; objects announced too
// large, too many, or too large together are refused at their headers, before anything inflates them; a header that
// lies is caught while inflating, within one chunk of what it announced; damaged answers are refused.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTally, type PackLimits, PackRefused, type PackTally, UploadPackCheck } from '../../src/git-sync/pack.js';
import { BLOB, blob, deltaData, OFS_DELTA, packOf, uploadPackAnswer } from './packs.js';

const MB = 1024 * 1024;
const LIMITS: PackLimits = { objectBytes: MB, inflatedBytes: 2 * MB, objects: 100 };

/** Feeds the answer to a check in pieces of `piece` bytes; the tally, or the refusal with the tally as it was. */
function check(answer: Buffer, limits = LIMITS, piece = answer.length): { tally: PackTally; refused: PackRefused | null } {
  const tally = newTally();
  const upload = new UploadPackCheck(limits, tally);
  try {
    for (let at = 0; at < answer.length; at += piece) upload.write(answer.subarray(at, at + piece));
    upload.end();
    return { tally, refused: null };
  } catch (error) {
    if (!(error instanceof PackRefused)) throw error;
    return { tally, refused: error };
  }
}

describe('a pack made by git', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'pack-check-'));
  const git = (args: string[], input?: string) =>
    execFileSync('git', ['-c', 'user.name=Someone', '-c', 'user.email=someone@example.com', ...args], { cwd: work, input }).toString();
  let pack: Buffer;
  /** git's own account of the pack: each object's id, type, inflated size in the pack, and whether it is a delta. */
  let objects: { oid: string; size: number; delta: boolean }[];

  beforeAll(() => {
    git(['init', '--quiet']);
    const lines = Array.from({ length: 800 }, (_, i) => `line ${i}: ${'abcdefgh'.repeat(4).slice(i % 8, (i % 8) + 24)}`);
    writeFileSync(path.join(work, 'a.md'), lines.join('\n'));
    writeFileSync(path.join(work, 'b.md'), '# B\n');
    git(['add', '.']);
    git(['commit', '--quiet', '-m', 'One']);
    lines[400] = 'line 400 changed';
    writeFileSync(path.join(work, 'a.md'), lines.join('\n'));
    git(['commit', '--quiet', '-am', 'Two']);
    pack = Buffer.from(execFileSync('git', ['pack-objects', '--stdout', '--revs', '--delta-base-offset'], { cwd: work, input: 'HEAD\n' }));
    writeFileSync(path.join(work, 'made.pack'), pack);
    git(['index-pack', 'made.pack']);
    objects = git(['verify-pack', '-v', 'made.idx'])
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => /^[0-9a-f]{40}$/.test(fields[0]))
      .map((fields) => ({ oid: fields[0], size: Number(fields[2]), delta: fields.length > 5 }));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('passes, cut in any pieces, with its objects and sizes counted as git counts them', () => {
    expect(objects.some((object) => object.delta)).toBe(true);
    const inflated = objects.reduce((total, object) => total + object.size, 0);
    // A delta also announces the object it makes: its size is that of the object git reads.
    const made = objects.filter((object) => object.delta).reduce((total, object) => total + Number(git(['cat-file', '-s', object.oid])), 0);
    for (const [answer, piece] of [
      [uploadPackAnswer(pack), 1],
      [uploadPackAnswer(pack), 7],
      [uploadPackAnswer(pack, 999), 4096],
      [uploadPackAnswer(pack), Number.MAX_SAFE_INTEGER],
    ] as const) {
      const { tally, refused } = check(answer, LIMITS, piece);
      expect(refused).toBeNull();
      expect(tally).toEqual({ packs: 1, objects: objects.length, announcedBytes: inflated + made, inflatedBytes: inflated });
    }
  });

  it('is refused when it ends early, or more follows it', () => {
    expect(check(uploadPackAnswer(pack.subarray(0, pack.length - 1))).refused?.message).toBe(
      'The Git server sent a damaged pack: it ends before its last object does.',
    );
    expect(check(uploadPackAnswer(Buffer.concat([pack, Buffer.from('more')]))).refused?.message).toBe(
      'The Git server sent a damaged pack: more data follows it.',
    );
    const cut = uploadPackAnswer(pack);
    expect(check(cut.subarray(0, cut.length - 10)).refused?.message).toBe('The Git server’s answer ends in the middle of a pkt-line.');
  });

  it('is refused with more objects than allowed, at its header', () => {
    const { refused, tally } = check(uploadPackAnswer(pack), { ...LIMITS, objects: objects.length - 1 });
    expect(refused?.message).toBe(`The repository sends more than ${objects.length - 1} objects (GIT_MAX_OBJECTS).`);
    expect(tally.inflatedBytes).toBe(0);
  });
});

describe('objects announced too large', () => {
  it('refuses an object larger than the cap at its header, inflating nothing of it', () => {
    const zeros = Buffer.alloc(3 * MB);
    const { refused, tally } = check(uploadPackAnswer(packOf([blob('# Small\n'), blob(zeros)])));
    expect(refused?.message).toBe('The repository holds an object of 3 MB, more than the 1 MB one object may have (GIT_MAX_OBJECT_MB).');
    expect(tally).toMatchObject({ objects: 2, inflatedBytes: 8 });
  });

  it('refuses objects that come to more than the cap together, at the header of the one that passes it', () => {
    const files = [0, 1, 2].map((n) => blob(`file ${n}\n`.repeat(120_000)));
    expect(files.every((file) => file.size < MB)).toBe(true);
    const { refused, tally } = check(uploadPackAnswer(packOf(files)));
    expect(refused?.message).toBe('The repository’s objects come to more than the 2 MB one operation may inflate (GIT_MAX_IMPORT_MB).');
    expect(tally.announcedBytes).toBe(files[0].size + files[1].size + files[2].size);
    expect(tally.inflatedBytes).toBe(files[0].size + files[1].size);
  });

  it('refuses a delta that makes an object larger than the cap, from its first bytes', () => {
    const base = blob('base');
    const delta = deltaData(4, 5 * MB, Buffer.from('made'));
    const crafted = { type: OFS_DELTA, size: delta.length, data: zlib.deflateSync(delta), base: { index: 0 } };
    const { refused, tally } = check(uploadPackAnswer(packOf([base, crafted])));
    expect(refused?.message).toBe('The repository holds an object of 5 MB, more than the 1 MB one object may have (GIT_MAX_OBJECT_MB).');
    expect(tally.inflatedBytes).toBe(4 + delta.length);
  });
});

describe('damaged answers', () => {
  it('stops a header that lies while inflating, within one chunk of what it announced', () => {
    // 16 MB of zeros in 16 KB of zlib, announced as 100 bytes.
    const lying = { type: BLOB, size: 100, data: zlib.deflateSync(Buffer.alloc(16 * MB)) };
    expect(lying.data.length).toBeLessThan(32 * 1024);
    const { refused, tally } = check(uploadPackAnswer(packOf([lying])), { ...LIMITS, objectBytes: 64 * MB, inflatedBytes: 64 * MB });
    expect(refused?.message).toBe(
      'The Git server sent a damaged pack: an object inflates to more than the 100 bytes its header announces.',
    );
    expect(tally.inflatedBytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('refuses an object shorter than its header, data that is not zlib, and what is no pack', () => {
    const short = { ...blob('short'), size: 6 };
    expect(check(uploadPackAnswer(packOf([short]))).refused?.message).toBe(
      'The Git server sent a damaged pack: an object inflates to 5 bytes where its header announces 6.',
    );
    const gzip = { ...blob('gzip'), data: zlib.gzipSync('gzip') };
    expect(check(uploadPackAnswer(packOf([gzip]))).refused?.message).toMatch(
      /^The Git server sent a damaged pack: an object’s data does not inflate/,
    );
    expect(check(uploadPackAnswer(Buffer.from('PACK\0\0\0\x03\0\0\0\0'))).refused?.message).toBe(
      'The Git server sent a damaged pack: its version is 3, not 2.',
    );
    expect(check(Buffer.from('zzzz')).refused?.message).toBe('The Git server’s answer is not made of pkt-lines.');
    const error = Buffer.concat([Buffer.from('0008NAK\n'), Buffer.from('0016\x03upload-pack: boom')]);
    expect(check(error).refused?.message).toBe('The Git server stopped with an error: upload-pack: boom');
  });

  it('refuses a delta whose base is not before it', () => {
    const delta = deltaData(4, 4, Buffer.from('made'));
    const crafted = { type: OFS_DELTA, size: delta.length, data: zlib.deflateSync(delta), base: { distance: 500 } };
    expect(check(uploadPackAnswer(packOf([crafted]))).refused?.message).toBe(
      'The Git server sent a damaged pack: a delta’s base is not before it.',
    );
  });
});

describe('the packs made by hand for these tests', () => {
  it('are packs as git reads them, an ofs-delta included', () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'pack-crafted-'));
    try {
      execFileSync('git', ['init', '--quiet', '--bare', work]);
      const delta = deltaData(4, 4, Buffer.from('made'));
      const crafted = packOf([blob('base'), { type: OFS_DELTA, size: delta.length, data: zlib.deflateSync(delta), base: { index: 0 } }]);
      execFileSync('git', ['index-pack', '--stdin'], { cwd: work, input: crafted });
      const oid = execFileSync('git', ['hash-object', '--stdin'], { input: 'made' }).toString().trim();
      expect(execFileSync('git', ['cat-file', '-p', oid], { cwd: work }).toString()).toBe('made');
      expect(check(uploadPackAnswer(crafted)).refused).toBeNull();
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
