// Values in the first sealed format, bound to no purpose or row, as the service wrote them before sealed values were
// bound (`v1.<iv>.<tag>.<ciphertext>`): what a database of that time holds, for the tests that read or re-seal them.
import { createCipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from '../../src/kernel/secrets.js';

export function sealedInFirstFormat(secret: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(secret, 'encryption'), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}
