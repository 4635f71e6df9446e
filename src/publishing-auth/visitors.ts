// Visitor authentication of `visitor-auth` sites: a visitor holds a JWT that the team's own backend signed (HS256)
// with the site's private key; the service checks it with the key as it stands, so a regenerated key refuses every
// token signed with the one before at once. A token must name the site as its audience (`aud`: the site's id, which
// stays when the site's hostname or basename changes) and expire (`exp`) within VISITOR_TOKEN_MAX_HOURS of its issue
// (`iat`, or of now when it has none): a leaked token is worth a bounded time on one site.
import { Prisma, type PublishingAuth } from '../generated/prisma/client.js';
import type { Context } from '../kernel/context.js';
import { unseal } from '../kernel/sealed.js';
import { privateKeySealedFor } from './service.js';

export type VisitorCheck = { ok: true; claims: Record<string, unknown> } | { ok: false; reason: string };

/** How far the backend's clock may be from ours, for `exp`, `nbf` and `iat`. */
const CLOCK_SKEW_SECONDS = 60;

const refused = (reason: string): VisitorCheck => ({ ok: false, reason });

/** Why a signed token's claims are refused, in words its backend's developers can act on. */
function claimRefusal(errors: typeof import('jose').errors, error: unknown, maxHours: number): VisitorCheck {
  if (error instanceof errors.JWTExpired) return refused('The visitor token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'exp')
    return refused(`The visitor token has no expiry: sign it with an "exp" at most ${maxHours} hours after its "iat".`);
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud')
    return refused('The visitor token is not for this site: its "aud" must be the site’s id.');
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'nbf')
    return refused('The visitor token is not valid yet ("nbf").');
  return refused('The visitor token is not valid for this site.');
}

/** Whether `token` is a valid, unexpired visitor token of the site; why not, when it is not. */
export async function verifyVisitorToken(ctx: Context, siteId: string, token: string): Promise<VisitorCheck> {
  const [auth] = await ctx.sql<PublishingAuth>(Prisma.sql`SELECT * FROM "PublishingAuth" WHERE "siteId" = ${siteId}`);
  if (!auth) return refused('The site has no visitor authentication configured.');
  const maxHours = ctx.config.visitorTokenMaxHours;
  const now = ctx.clock.now();
  // jose is loaded by the first visitor token, not at start-up.
  const { errors, jwtVerify } = await import('jose');
  let claims: Record<string, unknown> & { exp?: number; iat?: number };
  try {
    const key = new TextEncoder().encode(unseal(ctx.secret, privateKeySealedFor(siteId), auth.privateKeyCiphertext));
    ({ payload: claims } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      audience: siteId,
      requiredClaims: ['exp'],
      currentDate: now,
      clockTolerance: CLOCK_SKEW_SECONDS,
    }));
  } catch (error) {
    return claimRefusal(errors, error, maxHours);
  }
  const nowSeconds = now.getTime() / 1000;
  // Issued in the future, it could outlive the cap by as much: refused, beyond the clocks' skew.
  if (claims.iat !== undefined && claims.iat > nowSeconds + CLOCK_SKEW_SECONDS)
    return refused('The visitor token is not valid yet ("iat").');
  if (claims.exp! - (claims.iat ?? nowSeconds) > maxHours * 3600)
    return refused(`The visitor token lives too long: its "exp" must be at most ${maxHours} hours after its "iat" (or now).`);
  return { ok: true, claims };
}
