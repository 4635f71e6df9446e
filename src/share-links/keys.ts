// Share-link keys: the secret in a share link's URL that opens a `share-link` site to whoever holds it. A key is 32
// random characters; it is stored hashed (to find its link) and sealed (to show the link's URL to the site's admins).
import { z } from 'zod';
import type { ShareLink } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Context } from '../kernel/context.js';
import { hashToken, newId } from '../kernel/ids.js';
import { type SealedFor, seal } from '../kernel/sealed.js';

/** A new key for the link of this id, with what is stored of it. */
export function newShareKey(ctx: Pick<Context, 'secret'>, shareLinkId: string) {
  const key = `${newId()}${newId()}`.slice(0, 32);
  return { key, keyHash: hashToken(key), keyCiphertext: seal(ctx.secret, shareKeySealedFor(shareLinkId), key) };
}

/** What a link's sealed key is bound to. */
export const shareKeySealedFor = (shareLinkId: string): SealedFor => ({ purpose: 'share-link-key', rowId: shareLinkId });

/** The active share link of the site whose key this is; null for a wrong, another site's, or deactivated key. */
export async function activeShareLink(ctx: Context, siteId: string, key: string): Promise<ShareLink | null> {
  const [link] = await ctx.sql<ShareLink>(Prisma.sql`
    SELECT * FROM "ShareLink" WHERE "keyHash" = ${hashToken(key)} AND "siteId" = ${siteId} AND active`);
  return link ?? null;
}

/**
 * The `shareKey` argument of every read that answers published URLs (GitBook's query parameter of the same name). It
 * never grants access: an active key of a share-link site in the answer makes that site's published URLs appear,
 * carrying it; any other key (wrong, deactivated, another site's) is ignored, the answer being the one without it.
 * Keys are 32 characters: a value over 100 cannot be one and is refused (400).
 */
export const shareKeyArgument = {
  description:
    'A share key: with an active key of a share-link site, the published URLs of that site in the answer carry it; ' +
    'any other key is ignored (it never grants access). At most 100 characters.',
  validate: z.string().max(100),
} as const;
