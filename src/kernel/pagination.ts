// Keyset pagination behind the list envelope `{items, next: {page}, count}`.
// A page token is opaque: the list it belongs to ("scope") and the sort key of the last item, signed with HMAC so a
// tampered token, or one taken from another list, is refused with 400 rather than silently misread.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from './errors.js';

export const DEFAULT_LIMIT = 50;
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
      extra === undefined && !!signature && signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
    if (!valid) throw badRequest('Invalid "page": not a page token issued by this API.');
    const [tokenScope, values] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [string, SortValue[]];
    if (tokenScope !== scope) throw badRequest('Invalid "page": this page token belongs to another list.');
    return values;
  }
}

export function parseLimit(limit: number | null | undefined): number {
  if (limit === undefined || limit === null) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw badRequest(`Invalid "limit": must be an integer from 1 to ${MAX_LIMIT}.`);
  }
  return limit;
}

/** Prisma `where` selecting the rows strictly after `values` in ascending order of `fields`. */
export function after(fields: readonly string[], values: SortValue[]): Record<string, unknown> {
  return {
    OR: fields.map((field, i) => ({
      ...Object.fromEntries(fields.slice(0, i).map((f, j) => [f, values[j]])),
      [field]: { gt: values[i] },
    })),
  };
}

export interface ListPage<T> {
  items: T[];
  next?: { page: string };
  count: number;
}

export interface ListRequest<T> {
  tokens: PageTokens;
  /** Identifies the list: the same list always has the same scope, another list never has. */
  scope: string;
  page?: string | null;
  limit?: number | null;
  /** Ascending sort fields; the last one must be unique (the id). */
  orderBy: readonly (keyof T & string)[];
  /** Fetches up to `take` rows matching `where` (which includes the keyset condition) in `orderBy` order. */
  fetch(args: { where: Record<string, unknown>; orderBy: Record<string, 'asc'>[]; take: number }): Promise<T[]>;
  count(): Promise<number>;
}

/** One page of a list: two statements (rows and total count) whatever the page size. */
export async function listPage<T>(request: ListRequest<T>): Promise<ListPage<T>> {
  const take = parseLimit(request.limit);
  const where = request.page ? after(request.orderBy, request.tokens.decode(request.scope, request.page)) : {};
  const [rows, count] = await Promise.all([
    request.fetch({ where, orderBy: request.orderBy.map((f) => ({ [f]: 'asc' as const })), take: take + 1 }),
    request.count(),
  ]);
  const items = rows.slice(0, take);
  const last = items.at(-1);
  const next =
    rows.length > take && last
      ? { page: request.tokens.encode(request.scope, request.orderBy.map((f) => last[f] as SortValue)) }
      : undefined;
  return { items, next, count };
}
