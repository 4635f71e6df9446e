// Sealed secrets: a value opens only with the instance secret, the purpose and the row it was sealed for; an altered
// value, a shortened tag, or a value of the first format (bound to nothing) does not open as a current one.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isLegacySealed, type SealedFor, seal, unseal, unsealLegacy } from '../../src/kernel/sealed.js';
import { sealedInFirstFormat } from '../support/legacy-sealed.js';

const secret = randomBytes(32);
const link: SealedFor = { purpose: 'share-link-key', rowId: 'link00000000000000001' };

const parts = (sealed: string) => sealed.split('.');

describe('sealed secrets', () => {
  it('open with the secret, purpose and row they were sealed for; each seal is new', () => {
    const sealed = seal(secret, link, 'the key');
    expect(sealed).toMatch(/^v2\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(Buffer.from(parts(sealed)[2], 'base64url')).toHaveLength(16);
    expect(sealed).not.toContain('the key');
    expect(unseal(secret, link, sealed)).toBe('the key');
    expect(seal(secret, link, 'the key')).not.toBe(sealed);
    expect(unseal(secret, link, seal(secret, link, ''))).toBe('');
  });

  it('do not open for another row, another purpose, or under another secret', () => {
    const sealed = seal(secret, link, 'the key');
    expect(() => unseal(secret, { ...link, rowId: 'link00000000000000002' }, sealed)).toThrow();
    expect(() => unseal(secret, { purpose: 'publishing-auth-key', rowId: link.rowId }, sealed)).toThrow();
    expect(() => unseal(secret, { purpose: 'git-sync-credentials', rowId: link.rowId }, sealed)).toThrow();
    expect(() => unseal(randomBytes(32), link, sealed)).toThrow();
    // The row id is the last part of the associated data: no other split of the same text opens it.
    const auth = seal(secret, { purpose: 'publishing-auth-key', rowId: 'site\nx' }, 'k');
    expect(() => unseal(secret, { purpose: 'publishing-auth-key', rowId: 'site' }, auth)).toThrow();
  });

  it('do not open once altered, with a shortened tag, or in another format', () => {
    const sealed = seal(secret, link, 'the key');
    const [version, iv, tag, ciphertext] = parts(sealed);
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] ^= 1;
    for (const altered of [
      [version, iv, tag, flipped.toString('base64url')].join('.'),
      // GCM checks a tag cut to 4 bytes if the decipher is not told the tag's length: it must be.
      [version, iv, Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url'), ciphertext].join('.'),
      [version, randomBytes(12).toString('base64url'), tag, ciphertext].join('.'),
      ['v1', iv, tag, ciphertext].join('.'),
      `${sealed}.extra`,
      'the key',
      '',
    ]) {
      expect(() => unseal(secret, link, altered), altered).toThrow();
    }
  });

  it('recognise the first format, which opens only to be re-sealed, never as a current value', () => {
    const legacy = sealedInFirstFormat(secret, 'old key');
    expect(isLegacySealed(legacy)).toBe(true);
    expect(isLegacySealed(seal(secret, link, 'new key'))).toBe(false);
    expect(unsealLegacy(secret, legacy)).toBe('old key');
    expect(() => unseal(secret, link, legacy)).toThrow();
    expect(() => unsealLegacy(randomBytes(32), legacy)).toThrow();
    expect(() => unsealLegacy(secret, seal(secret, link, 'new key'))).toThrow();
  });
});
