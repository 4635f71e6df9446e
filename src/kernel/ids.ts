// Identifiers and secrets. Ids are 20 characters of [0-9A-Za-z] (about 119 bits), like GitBook's.
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomString(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export const newId = () => randomString(20);

/** API tokens: a recognisable prefix (secret scanners) and 40 random characters. Only the hash is stored. */
export const newApiToken = () => `dpa_${randomString(40)}`;
/** What every token newApiToken makes looks like: anything else is refused without being looked up. */
export const API_TOKEN_SHAPE = /^dpa_[0-9A-Za-z]{40}$/;
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Path segments of ids, as the published spec declares them. */
export const ID_PATTERN = /^[a-zA-Z0-9_-]+$/;
