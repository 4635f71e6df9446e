// Secrets the service must read back (share-link keys, publishing-auth private keys, credentials of remotes), stored
// sealed with AES-256-GCM under a key derived from the instance secret: a database dump alone reveals none of them,
// and a sealed value altered in the database fails to open instead of yielding a wrong secret. Each value is bound,
// as GCM's associated data, to its purpose and to the row that holds it: a value copied into another row, or into
// another column, fails to open too.
import { type CipherGCM, createCipheriv, createDecipheriv, type DecipherGCM, randomBytes } from 'node:crypto';
import { deriveKey } from './secrets.js';

/** What a sealed value is, each purpose in one column (the Git credentials also in their job's payload). */
export type SealPurpose =
  | 'share-link-key'
  | 'publishing-auth-key'
  | 'integration-secrets'
  | 'git-sync-credentials'
  | 'webhook-secret'
  | 'idempotent-answer';

/** Where a sealed value belongs: its purpose, and the key of the row that holds it. */
export interface SealedFor {
  purpose: SealPurpose;
  rowId: string;
}

/** Bound to a purpose and a row. */
const VERSION = 'v2';
/** The first format, bound to nothing: read only to re-seal it (src/admin/reseal.ts). */
const LEGACY_VERSION = 'v1';
/** GCM's full tag, stated on both sides: a decipher left to its default would accept a tag cut to 4 bytes. */
const TAG_BYTES = 16;

const associatedData = ({ purpose, rowId }: SealedFor) => Buffer.from(`${VERSION}\n${purpose}\n${rowId}`, 'utf8');

/** `v2.<iv>.<tag>.<ciphertext>`, each base64url, opened only with the same purpose and row. */
export function seal(secret: Buffer, sealedFor: SealedFor, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher: CipherGCM = createCipheriv('aes-256-gcm', deriveKey(secret, 'encryption'), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(sealedFor));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/** The plaintext of a sealed value; throws when it was sealed under another secret, for another purpose or row, or altered. */
export function unseal(secret: Buffer, sealedFor: SealedFor, sealed: string): string {
  return opened(secret, VERSION, sealed, associatedData(sealedFor));
}

/** Whether a value is in the first sealed format, bound to no purpose or row. */
export function isLegacySealed(sealed: string): boolean {
  return sealed.startsWith(`${LEGACY_VERSION}.`);
}

/** The plaintext of a value in the first format; for re-sealing it bound to its row, never for use. */
export function unsealLegacy(secret: Buffer, sealed: string): string {
  return opened(secret, LEGACY_VERSION, sealed);
}

function opened(secret: Buffer, version: string, sealed: string, aad?: Buffer): string {
  const [found, iv, tag, ciphertext, extra] = sealed.split('.');
  if (found !== version || !iv || !tag || ciphertext === undefined || extra !== undefined) throw new Error('Not a sealed value.');
  const tagBytes = Buffer.from(tag, 'base64url');
  if (tagBytes.length !== TAG_BYTES) throw new Error('Not a sealed value.');
  const decipher: DecipherGCM = createDecipheriv('aes-256-gcm', deriveKey(secret, 'encryption'), Buffer.from(iv, 'base64url'), {
    authTagLength: TAG_BYTES,
  });
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(tagBytes);
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
