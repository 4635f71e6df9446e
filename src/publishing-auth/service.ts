// A site's visitor authentication settings (site `admin` only): the backend that signs visitors' tokens, where to
// send visitors whose token fails, and the private key tokens are signed with. The key comes from a cryptographic
// RNG, is stored sealed under the instance secret, and is created with the settings on their first read.
import { randomBytes } from 'node:crypto';
import { Prisma, type PublishingAuth as PublishingAuthRow, type Site } from '../generated/prisma/client.js';
import { authorize } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest } from '../kernel/errors.js';
import { changedFields, recordEvents } from '../kernel/events.js';
import { type SealedFor, seal } from '../kernel/sealed.js';
import { sites } from '../sites/access.js';
import { siteEvent } from '../sites/events.js';

export type VisitorAuthBackend = 'custom' | 'integration';

/** What a site's sealed private key is bound to. */
export const privateKeySealedFor = (siteId: string): SealedFor => ({ purpose: 'publishing-auth-key', rowId: siteId });

/** 32 random bytes, as the text visitors' backends sign with (HS256), sealed for the site's row. */
const sealedNewKey = (ctx: Context, siteId: string) => seal(ctx.secret, privateKeySealedFor(siteId), randomBytes(32).toString('base64url'));

/** The site's settings, created (custom backend, fresh key) when it has none yet: one statement either way. */
export async function publishingAuthOf(ctx: Context, site: Pick<Site, 'id'>): Promise<PublishingAuthRow> {
  const read = () => ctx.sql<PublishingAuthRow>(Prisma.sql`SELECT * FROM "PublishingAuth" WHERE "siteId" = ${site.id}`);
  const [auth] = await ctx.sql<PublishingAuthRow>(Prisma.sql`
    WITH created AS (
      INSERT INTO "PublishingAuth" ("siteId", backend, "privateKeyCiphertext", "updatedAt")
      VALUES (${site.id}, 'custom', ${sealedNewKey(ctx, site.id)}, ${ctx.clock.now()})
      ON CONFLICT ("siteId") DO NOTHING RETURNING *)
    SELECT * FROM created UNION ALL SELECT * FROM "PublishingAuth" WHERE "siteId" = ${site.id}`);
  // A first read racing another sees neither row in its snapshot: the other's is there once it has committed.
  return auth ?? (await read())[0];
}

export interface PublishingAuthChange {
  backend: VisitorAuthBackend;
  fallbackURL?: string | null;
  logoutURL?: string | null;
  integration?: string | null;
}

/** Whether an active installation of the integration named covers the site (all its organization's sites, or this one). */
async function installedOn(ctx: Context, site: Pick<Site, 'id' | 'organizationId'>, integration: string): Promise<boolean> {
  const [found] = await ctx.sql<{ id: string }>(Prisma.sql`
    SELECT ii.id FROM "IntegrationInstallation" ii JOIN "Integration" i ON i.id = ii."integrationId"
     WHERE i.name = ${integration} AND ii."organizationId" = ${site.organizationId} AND ii.status = 'active'
       AND (ii."siteSelection" = 'all'
            OR EXISTS (SELECT 1 FROM "InstallationSite" s WHERE s."installationId" = ii.id AND s."siteId" = ${site.id}))
     LIMIT 1`);
  return !!found;
}

/**
 * Sets the backend, and the URLs given (null unsets one, absent keeps it). `integration` names the integration that
 * authenticates visitors, for the integration backend only; the custom backend clears it.
 */
export async function updatePublishingAuth(
  ctx: Context,
  organizationId: string,
  siteId: string,
  input: PublishingAuthChange,
): Promise<PublishingAuthRow> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'admin');
  if (input.integration != null) {
    if (input.backend !== 'integration') throw badRequest('Invalid "integration": only the "integration" backend takes one.');
    if (!(await installedOn(ctx, site, input.integration)))
      throw badRequest(`Invalid "integration": no integration "${input.integration}" is installed on this site.`);
  }
  const change = {
    backend: input.backend,
    ...(input.fallbackURL !== undefined && { fallbackURL: input.fallbackURL }),
    ...(input.logoutURL !== undefined && { logoutURL: input.logoutURL }),
    ...(input.backend === 'custom' ? { integration: null } : input.integration !== undefined && { integration: input.integration }),
    updatedAt: ctx.clock.now(),
  };
  return ctx.prisma.$transaction(async (tx) => {
    const before = await tx.publishingAuth.findUnique({
      where: { siteId },
      select: { backend: true, fallbackURL: true, logoutURL: true, integration: true },
    });
    const auth = await tx.publishingAuth.upsert({
      where: { siteId },
      create: { siteId, privateKeyCiphertext: sealedNewKey(ctx, siteId), ...change },
      update: change,
    });
    // Settings never read are the defaults their first read would create: the custom backend, nothing else.
    const { updatedAt: _, ...settings } = change;
    const changed = changedFields(before ?? { backend: 'custom' }, settings);
    if (Object.keys(changed).length) await recordEvents(tx, ctx, [siteEvent('publishing_auth_updated', site, { changed })]);
    return auth;
  });
}

/** A new private key: every token signed with the previous one is refused from now on (visitors.ts reads the key as it stands). */
export async function regeneratePublishingAuth(ctx: Context, organizationId: string, siteId: string): Promise<PublishingAuthRow> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'admin');
  const privateKeyCiphertext = sealedNewKey(ctx, siteId);
  const updatedAt = ctx.clock.now();
  return ctx.prisma.$transaction(async (tx) => {
    const auth = await tx.publishingAuth.upsert({
      where: { siteId },
      create: { siteId, privateKeyCiphertext, updatedAt },
      update: { privateKeyCiphertext, updatedAt },
    });
    await recordEvents(tx, ctx, [siteEvent('publishing_auth_key_regenerated', site)]);
    return auth;
  });
}
