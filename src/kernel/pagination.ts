// Page tokens and page sizes of the list envelope `{items, next: {page}, count}` (the engine is lists.ts).
// A page token is opaque: the list it belongs to ("scope") and the sort key of the last item, signed with HMAC so a
// tampered token, or one taken from another list, is refused with 400 rather than silently misread.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from './errors.js';

export const DEFAULT_LIMIT = 50;
/** GitBook's published range of `limit` (0 to 1000); a page of 0 items answers the count alone. */
export const MIN_LIMIT = 0;
export const MAX_LIMIT = 1000;

export type SortValue = string | number;

export class PageTokens {
  constructor(private readonly key: Buffer) {}

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 22);
  }

  encode(scope: string, values: SortValue[]): string {
    const payload = Buffer.from(JSON.stringify([scope, values])).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  decode(scope: string, token: string): SortValue[] {
    const [payload, signature, extra] = token.split('.');
    const expected = payload ? this.sign(payload) : '';
    const valid =
      extra === undefined &&
      !!signature &&
      signature.length === expected.length &&
      timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
    if (!valid) throw badRequest('Invalid "page": not a page token issued by this API.');
    const [tokenScope, values] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [string, SortValue[]];
    if (tokenScope !== scope) throw badRequest('Invalid "page": this page token belongs to another list.');
    return values;
  }
}

export function parseLimit(limit: number | null | undefined): number {
  if (limit === undefined || limit === null) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < MIN_LIMIT || limit > MAX_LIMIT) {
    throw badRequest(`Invalid "limit": must be an integer from ${MIN_LIMIT} to ${MAX_LIMIT}.`);
  }
  return limit;
}
