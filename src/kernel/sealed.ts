// Secrets the service must read back (share-link keys, publishing-auth private keys, credentials of remotes), stored
// sealed with AES-256-GCM under a key derived from the instance secret: a database dump alone reveals none of them,
// and a sealed value altered in the database fails to open instead of yielding a wrong secret.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from './secrets.js';

const VERSION = 'v1';

/** `v1.<iv>.<tag>.<ciphertext>`, each base64url. */
export function seal(secret: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(secret, 'encryption'), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The plaintext of a sealed value; throws when it was sealed under another secret or altered. */
export function unseal(secret: Buffer, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('Not a sealed value.');
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(secret, 'encryption'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
