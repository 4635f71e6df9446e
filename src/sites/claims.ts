// Claims of hosts (HostClaim): a site's custom hostname, or the host of its organization's proxy origins. A host is
// claimed once across the instance, in either form, so that no site of one organization takes over URLs that a site of
// another serves (a hostname serves its whole host, a proxy a path below it). A claim takes effect once its proof is
// found in DNS (proof.ts): until then, and after it lapses, the site is published at its default URL. The sites'
// hostnameActive and proxyActive copy their claims' state in the transactions that write either.
//
// The custom-hostname operations (GitBook's getCustomHostname, dnsRevalidateCustomHostname, removeCustomHostname) read,
// revalidate and release a claim, for the admins of the claiming organization only: to anyone else it does not exist.
import { randomBytes } from 'node:crypto';
import { type HostClaim, Prisma, type Site } from '../generated/prisma/client.js';
import { enqueueing, enqueueingAside } from '../jobs/queue.js';
import type { Context } from '../kernel/context.js';
import { conflict, notFound } from '../kernel/errors.js';
import { recordEvents } from '../kernel/events.js';
import { atLeast, organizationLevel, policies } from '../kernel/permissions.js';
import { siteEvent } from './events.js';
import { checkOptions, hostnameCheckTask, noCheckWaiting } from './proof.js';

/** The host of a proxy origin (`host/path...`). */
export const proxyHost = (proxy: string) => proxy.split('/')[0];

/** A proxy origin with its host in lowercase, as proxies are stored and visitors' URLs looked up. */
export function withLowercaseHost(proxy: string): string {
  const slash = proxy.indexOf('/');
  return slash < 0 ? proxy.toLowerCase() : proxy.slice(0, slash).toLowerCase() + proxy.slice(slash);
}

type Tx = Prisma.TransactionClient;
type ClaimingSite = Pick<Site, 'id' | 'organizationId'>;

function conflictOf(kind: HostClaim['kind'], host: string, held: Pick<HostClaim, 'kind'>): Error {
  if (kind === 'hostname') {
    return conflict(
      held.kind === 'hostname'
        ? `The hostname ${JSON.stringify(host)} is already used by another site.`
        : `The hostname ${JSON.stringify(host)} is already the host of another site's proxy.`,
    );
  }
  return conflict(
    held.kind === 'hostname'
      ? `The host ${JSON.stringify(host)} of the proxy is already a site's hostname.`
      : `The host ${JSON.stringify(host)} of the proxy is already claimed by another organization.`,
  );
}

/**
 * Claims `host` in the caller's transaction, as the site's hostname or as a host of its organization's proxies, and
 * answers whether the claim is active. A host nobody claims gets a pending claim (with a token of its own) and a check
 * of its proof queued. A proxy host the organization holds already is shared as it stands; its row stays locked until
 * the transaction ends, so that a check or a release of it waits for the site that joins it. Any other claim is a 409.
 */
export async function claimHost(tx: Tx, ctx: Context, site: ClaimingSite, kind: HostClaim['kind'], host: string): Promise<boolean> {
  const token = randomBytes(16).toString('hex');
  const now = ctx.clock.now();
  const [claim] = await tx.$queryRaw<(Pick<HostClaim, 'kind' | 'organizationId' | 'state'> & { created: boolean })[]>(Prisma.sql`
    WITH claim AS (
      INSERT INTO "HostClaim" AS c (host, kind, "organizationId", "siteId", token, "createdAt", "dueAt")
      VALUES (${host}, ${kind}::"HostClaimKind", ${site.organizationId}, ${kind === 'hostname' ? site.id : null}, ${token}, ${now}, ${now})
      ON CONFLICT (host) DO UPDATE SET token = c.token
      RETURNING c.kind, c."organizationId", c.state, c.token = ${token} AS created
    ),
    ${enqueueingAside(hostnameCheckTask, {}, checkOptions, Prisma.sql`(SELECT created FROM claim) AND ${noCheckWaiting}`)}
    SELECT claim.*, (SELECT count(*) FROM queued)::int AS queued FROM claim`);
  if (claim.created) return false;
  if (kind === 'proxy' && claim.kind === 'proxy' && claim.organizationId === site.organizationId) return claim.state === 'active';
  throw conflictOf(kind, host, claim);
}

/** Releases the site's hostname claim. */
export async function releaseHostname(tx: Tx, siteId: string): Promise<void> {
  await tx.$executeRaw`DELETE FROM "HostClaim" WHERE kind = 'hostname' AND "siteId" = ${siteId}`;
}

/** Releases the organization's claim of a proxy host, unless a site other than `siteId` has its proxy there. */
export async function releaseProxyHost(tx: Tx, organizationId: string, host: string, siteId: string): Promise<void> {
  // Locked first: a site that joined the claim meanwhile holds it until it commits, and is seen by the next statement.
  await tx.$queryRaw`SELECT host FROM "HostClaim" WHERE host = ${host} FOR UPDATE`;
  await tx.$executeRaw`
    DELETE FROM "HostClaim" c
     WHERE c.host = ${host} AND c.kind = 'proxy' AND c."organizationId" = ${organizationId}
       AND NOT EXISTS (SELECT 1 FROM "Site" s
                        WHERE s."organizationId" = ${organizationId} AND s.id <> ${siteId} AND split_part(s.proxy, '/', 1) = c.host)`;
}

// --- the custom-hostname operations ---------------------------------------------------------------------------------

const claimAt = async (ctx: Context, hostname: string) =>
  (await ctx.sql<HostClaim>(Prisma.sql`SELECT * FROM "HostClaim" WHERE host = ${hostname.toLowerCase()}`))[0] ?? null;

/** Whether the viewer administers the claiming organization: only they see a claim (404 for anyone else). */
async function administers(ctx: Context, claim: HostClaim): Promise<boolean> {
  return atLeast(organizationLevel(await ctx.membership.load(claim.organizationId)), policies.organization.admin);
}

/** The claim of a host, for the admins of its organization; 404 for anyone else, and when nobody claims it. */
export async function customHostname(ctx: Context, hostname: string): Promise<HostClaim> {
  const claim = await claimAt(ctx, hostname);
  if (!claim || !(await administers(ctx, claim))) throw notFound('Custom hostname');
  return claim;
}

/** Has the claim's proof checked now: the claim is due, and a check queued unless one is waiting. */
export async function revalidateCustomHostname(ctx: Context, hostname: string): Promise<void> {
  const claim = await customHostname(ctx, hostname);
  await ctx.sql(Prisma.sql`
    WITH fresh AS (UPDATE "HostClaim" SET "dueAt" = ${ctx.clock.now()} WHERE host = ${claim.host} RETURNING host),
    ${enqueueing(hostnameCheckTask, {}, checkOptions, Prisma.sql`EXISTS (SELECT 1 FROM fresh) AND ${noCheckWaiting}`)}`);
}

/**
 * Releases a claim: the site's hostname, or the proxy of every site of the organization on that host, is removed with
 * it. False when nobody claims the host (GitBook's 204); a claim of another organization is not found.
 */
export async function removeCustomHostname(ctx: Context, hostname: string): Promise<boolean> {
  const claim = await claimAt(ctx, hostname);
  if (!claim) return false;
  if (!(await administers(ctx, claim))) throw notFound('Custom hostname');
  const now = ctx.clock.now();
  await ctx.prisma.$transaction(async (tx) => {
    const removed = await tx.$executeRaw`DELETE FROM "HostClaim" WHERE host = ${claim.host} AND token = ${claim.token}`;
    if (!removed) return;
    // A statement of its own, after the claim's row was locked: a site that joined the claim meanwhile is seen.
    if (claim.kind === 'hostname') {
      const changed = await tx.$queryRaw<Pick<Site, 'id' | 'organizationId' | 'title'>[]>`
        UPDATE "Site" SET hostname = NULL, "hostnameActive" = false, "updatedAt" = ${now}
         WHERE id = ${claim.siteId} AND hostname = ${claim.host} RETURNING id, "organizationId", title`;
      await recordEvents(
        tx,
        ctx,
        changed.map((site) => siteEvent('site_hostname_removed', site, { hostname: claim.host })),
      );
    } else {
      // The old proxies come from the statement's own FROM: RETURNING sees the rows as updated.
      const changed = await tx.$queryRaw<(Pick<Site, 'id' | 'organizationId' | 'title'> & { proxy: string })[]>`
        UPDATE "Site" s SET proxy = NULL, "proxyActive" = false, "updatedAt" = ${now}
          FROM "Site" old
         WHERE old.id = s.id AND s."organizationId" = ${claim.organizationId} AND split_part(s.proxy, '/', 1) = ${claim.host}
        RETURNING s.id, s."organizationId", s.title, old.proxy`;
      await recordEvents(
        tx,
        ctx,
        changed.map((site) => siteEvent('site_updated', site, { changed: { proxy: { from: site.proxy, to: null } } })),
      );
    }
  });
  return true;
}
