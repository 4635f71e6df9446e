// Share-link keys: the secret in a share link's URL that opens a `share-link` site to whoever holds it. A key is 32
// random characters; it is stored hashed (to find its link) and sealed (to show the link's URL to the site's admins).
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
