// Visitor authentication of `visitor-auth` sites: a visitor holds a JWT that the team's own backend signed (HS256)
// with the site's private key; the service checks it with the key as it stands, so a regenerated key refuses every
// token signed with the one before at once.
import { errors, jwtVerify } from 'jose';
import { Prisma, type PublishingAuth } from '../generated/prisma/client.js';
import type { Context } from '../kernel/context.js';
import { unseal } from '../kernel/sealed.js';
import { privateKeySealedFor } from './service.js';

export type VisitorCheck = { ok: true; claims: Record<string, unknown> } | { ok: false; reason: string };

/** Whether `token` is a valid, unexpired visitor token of the site; why not, when it is not. */
export async function verifyVisitorToken(ctx: Context, siteId: string, token: string): Promise<VisitorCheck> {
  const [auth] = await ctx.sql<PublishingAuth>(Prisma.sql`SELECT * FROM "PublishingAuth" WHERE "siteId" = ${siteId}`);
  if (!auth) return { ok: false, reason: 'The site has no visitor authentication configured.' };
  try {
    const key = new TextEncoder().encode(unseal(ctx.secret, privateKeySealedFor(siteId), auth.privateKeyCiphertext));
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    return { ok: true, claims: payload };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: 'The visitor token has expired.' };
    return { ok: false, reason: 'The visitor token is not valid for this site.' };
  }
}
