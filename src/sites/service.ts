// Creating, changing, publishing and deleting sites, and setting their adaptive schema. Creators of the organization
// create sites and change their content settings; the settings that decide where a site is served and to whom
// (visibility, hostname, proxy, which are claims to prove: claims.ts), publication and deletion are for its admins.
import { Prisma, type Revision, type Site as SiteRow } from '../generated/prisma/client.js';
import { authorize, organizations } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, conflict, isUniqueViolation } from '../kernel/errors.js';
import { lockIfMatch } from '../kernel/etags.js';
import { type ChangeEvent, changedFields, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { visibleToViewerSql } from '../kernel/permissions.js';
import { MAIN, pageContent, writeRevision } from '../revisions/store.js';
import { uniquePath } from '../site-structure/paths.js';
import { createSpace } from '../spaces/service.js';
import { siteSpaceCountAnnotation, sites } from './access.js';
import { type AdaptiveSchemaView, checkAdaptiveSchema } from './adaptive-schema.js';
import { claimHost, proxyHost, releaseHostname, releaseProxyHost, withLowercaseHost } from './claims.js';
import { siteEvent } from './events.js';

/** The title of a site created without one. */
export const DEFAULT_SITE_TITLE = 'Docs site';
/** A space's title is at most 50 characters; a space made for a site takes the site's title. */
const SPACE_TITLE_MAX = 50;

export interface NewSite {
  type?: SiteRow['type'] | null;
  title?: string | null;
  visibility?: SiteRow['visibility'] | null;
  /** Existing spaces to publish, in order; or a new space made for the site, empty or with a first page. */
  spaces?: string[] | 'empty' | 'sample' | null;
}

interface ContentSpace {
  id: string;
  title: string;
}

/** The spaces named in `spaces`, in order: live spaces of the organization the viewer can see, in one statement. */
async function spacesNamed(ctx: Context, organizationId: string, ids: readonly string[]): Promise<ContentSpace[]> {
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated) throw badRequest(`Invalid "spaces": ${JSON.stringify(repeated)} is listed twice.`);
  if (!ids.length) return [];
  const rows = await ctx.sql<ContentSpace>(Prisma.sql`
    SELECT t.id, t.title FROM "Space" t
     WHERE t.id = ANY(${[...ids]}::text[]) AND t."organizationId" = ${organizationId} AND t."deletedAt" IS NULL
       AND ${visibleToViewerSql(ctx.viewer)}`);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const unknown = ids.find((id) => !byId.has(id));
  if (unknown) throw badRequest(`Invalid "spaces": no space ${JSON.stringify(unknown)} in this organization.`);
  return ids.map((id) => byId.get(id)!);
}

/** Paths of the site spaces: each space's title as a slug, made unique within the site. */
function sitePaths(spaces: readonly ContentSpace[]): string[] {
  const taken = new Set<string>();
  return spaces.map(({ title }) => {
    const path = uniquePath(title, 'space', taken);
    taken.add(path);
    return path;
  });
}

const SAMPLE_PAGE = (siteTitle: string) => `This is the first page of ${siteTitle}. Edit it, or add pages beside it and below it.

## Next steps

- Write your content in this space, or sync it from a Git repository.
- Choose who can read the site in its settings: anyone, people with a share link, or signed-in visitors.
- Publish the site when it is ready.
`;

/** Gives a space made for a site its first page, as the primary content's next revision. */
async function writeSamplePage(tx: Prisma.TransactionClient, ctx: Context, spaceId: string, siteTitle: string): Promise<void> {
  const [current] = await tx.$queryRaw<Revision[]>`
    SELECT r.* FROM "Revision" r JOIN "Space" s ON s."revisionId" = r.id WHERE s.id = ${spaceId}`;
  const now = ctx.clock.now();
  const page = pageContent({
    pageId: newId(),
    title: 'Welcome',
    slug: 'welcome',
    markdown: SAMPLE_PAGE(siteTitle),
    createdAt: now,
    updatedAt: now,
  });
  const revision = await writeRevision(
    tx,
    ctx.pageVersionHooks,
    { spaceId, line: MAIN, parent: current, type: 'edits', createdById: ctx.viewer.userId },
    { pages: [page] },
  );
  await tx.$executeRaw`UPDATE "Space" SET "revisionId" = ${revision.id}, "updatedAt" = ${now} WHERE id = ${spaceId}`;
}

/**
 * Creates an unpublished site with its site spaces, the first of them its default. `spaces: "empty" | "sample"`
 * first creates a space for the site in the organization (titled like the site), "sample" with a first page.
 */
export async function createSite(ctx: Context, organizationId: string, input: NewSite): Promise<SiteRow> {
  await authorize(ctx, organizations, organizationId, 'createContent');
  const title = input.title ?? DEFAULT_SITE_TITLE;
  const spaces =
    typeof input.spaces === 'string'
      ? [{ id: await createSpace(ctx, organizationId, { title: title.slice(0, SPACE_TITLE_MAX).trim() }), title }]
      : await spacesNamed(ctx, organizationId, input.spaces ?? []);
  const id = newId();
  const siteSpaces = sitePaths(spaces).map((path, i) => ({ id: newId(), siteId: id, spaceId: spaces[i].id, path, position: i + 1 }));
  const data: Prisma.SiteUncheckedCreateInput = {
    id,
    organizationId,
    title,
    type: input.type ?? 'basic',
    visibility: input.visibility ?? 'public',
    defaultSiteSpaceId: siteSpaces[0]?.id ?? null,
  };
  const site = await ctx.prisma.$transaction(async (tx) => {
    if (input.spaces === 'sample') await writeSamplePage(tx, ctx, spaces[0].id, title);
    const created = await tx.site.create({ data });
    if (siteSpaces.length) await tx.siteSpace.createMany({ data: siteSpaces });
    await recordEvents(tx, ctx, [
      siteEvent('site_created', created, {
        type: created.type,
        visibility: created.visibility,
        spaces: siteSpaces.map((siteSpace) => siteSpace.spaceId),
      }),
    ]);
    return created;
  });
  siteSpaceCountAnnotation.set(site, siteSpaces.length);
  return site;
}

export interface SiteChange {
  title?: string | null;
  visibility?: SiteRow['visibility'] | null;
  basename?: string | null;
  adaptiveContent?: { enabled: boolean } | null;
  defaultSiteSpace?: string | null;
  defaultSiteSection?: string | null;
  proxy?: string | null;
  hostname?: string | null;
}

/**
 * Where a new default site space is recorded: on the site, or when the site has sections on its default section (the
 * one the change names, else the site's, else its first), which must hold it.
 */
async function defaultsOf(
  ctx: Context,
  site: SiteRow,
  change: SiteChange,
): Promise<{ sectionId: string | null; sectionDefault: string | null }> {
  const siteSpaceId = change.defaultSiteSpace ?? null;
  const sectionId = change.defaultSiteSection ?? null;
  const [found] = await ctx.sql<{
    siteSpace: boolean;
    siteSpaceSection: string | null;
    section: boolean;
    defaultSection: string | null;
    sectionDefault: string | null;
  }>(
    Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM "SiteSpace" ss WHERE ss.id = ${siteSpaceId} AND ss."siteId" = ${site.id}) AS "siteSpace",
      (SELECT ss."sectionId" FROM "SiteSpace" ss WHERE ss.id = ${siteSpaceId} AND ss."siteId" = ${site.id}) AS "siteSpaceSection",
      EXISTS (SELECT 1 FROM "SiteSection" sc WHERE sc.id = ${sectionId} AND sc."siteId" = ${site.id}) AS section,
      (SELECT sc.id FROM "SiteSection" sc WHERE sc."siteId" = ${site.id}
        ORDER BY sc.id = ${site.defaultSiteSectionId} DESC NULLS LAST, sc.position, sc.id LIMIT 1) AS "defaultSection",
      -- The default site space of the section that takes the new one (the same order, the named section first).
      (SELECT sc."defaultSiteSpaceId" FROM "SiteSection" sc WHERE sc."siteId" = ${site.id}
        ORDER BY sc.id = ${sectionId} DESC NULLS LAST, sc.id = ${site.defaultSiteSectionId} DESC NULLS LAST, sc.position, sc.id
        LIMIT 1) AS "sectionDefault"`,
  );
  if (sectionId && !found.section) throw badRequest('Invalid "defaultSiteSection": no such section in this site.');
  if (!siteSpaceId) return { sectionId: null, sectionDefault: null };
  if (!found.siteSpace) throw badRequest('Invalid "defaultSiteSpace": no such site space in this site.');
  const defaultSection = sectionId ?? found.defaultSection;
  if (defaultSection && found.siteSpaceSection !== defaultSection) {
    throw badRequest('Invalid "defaultSiteSpace": not a site space of the site’s default section.');
  }
  return { sectionId: defaultSection, sectionDefault: found.sectionDefault };
}

/**
 * Addresses a change takes that no other site may hold: a hostname or proxy host that is an organization's custom
 * hostname (other sites' claims are refused as the claims are made, see claims.ts), a proxy another site of the
 * organization has, and a basename another site of the organization has.
 */
async function checkAddressesFree(
  ctx: Context,
  site: SiteRow,
  taken: { hostname: string | null; proxy: string | null; basename: string | null },
): Promise<void> {
  const hosts = [taken.hostname, taken.proxy && proxyHost(taken.proxy)].filter((host) => host !== null);
  const [found] = await ctx.sql<{ organizationHost: string | null; proxy: boolean; basename: boolean }>(Prisma.sql`
    SELECT (SELECT o."customHostname" FROM "Organization" o WHERE o."customHostname" = ANY(${hosts}::text[]) LIMIT 1) AS "organizationHost",
           EXISTS (SELECT 1 FROM "Site" s WHERE s."organizationId" = ${site.organizationId} AND s.id <> ${site.id}
                      AND s.proxy = ${taken.proxy}) AS proxy,
           EXISTS (SELECT 1 FROM "Site" s WHERE s."organizationId" = ${site.organizationId} AND s.id <> ${site.id}
                      AND COALESCE(s.basename, s.id) = ${taken.basename}) AS basename`);
  if (found.organizationHost) throw conflict(`The host ${JSON.stringify(found.organizationHost)} is an organization's custom hostname.`);
  if (found.proxy) throw conflict(`The proxy ${JSON.stringify(taken.proxy)} is already used by another site of this organization.`);
  if (found.basename)
    throw conflict(`The basename ${JSON.stringify(taken.basename)} is already used by another site of this organization.`);
}

/**
 * The writes of a changed hostname or proxy, in the caller's transaction: the claims the site no longer needs are
 * released, the new ones made (or the organization's proxy host joined), and the row's values come with whether each
 * is active.
 */
async function claimAddresses(
  tx: Prisma.TransactionClient,
  ctx: Context,
  site: SiteRow,
  next: { hostname?: string | null; proxy?: string | null },
): Promise<Prisma.SiteUncheckedUpdateInput> {
  const data: Prisma.SiteUncheckedUpdateInput = {};
  if (next.hostname !== undefined) {
    if (site.hostname) await releaseHostname(tx, site.id);
    data.hostname = next.hostname;
    data.hostnameActive = next.hostname ? await claimHost(tx, ctx, site, 'hostname', next.hostname) : false;
  }
  if (next.proxy !== undefined) {
    const before = site.proxy && proxyHost(site.proxy);
    const after = next.proxy && proxyHost(next.proxy);
    if (before && before !== after) await releaseProxyHost(tx, site.organizationId, before, site.id);
    data.proxy = next.proxy;
    // Still on the host of an active claim: the claim and the row's copy of its state stay (a check may be writing it).
    if (!(after && after === before && site.proxyActive)) data.proxyActive = after ? await claimHost(tx, ctx, site, 'proxy', after) : false;
  }
  return data;
}

/**
 * What a change of the site's settings records: its visibility and its hostname each their own event (GitBook's
 * `site_visibility_updated`), the other settings that changed in one `site_updated`. Nothing when nothing changes.
 */
function siteChangeEvents(
  site: SiteRow,
  change: SiteChange,
  next: { hostname?: string | null; proxy?: string | null; sectionId: string | null; sectionDefault: string | null },
): ChangeEvent[] {
  const title = change.title ?? site.title;
  const events: ChangeEvent[] = [];
  if (change.visibility != null && change.visibility !== site.visibility) {
    events.push(siteEvent('site_visibility_updated', { ...site, title }, { visibility: { from: site.visibility, to: change.visibility } }));
  }
  if (next.hostname) {
    events.push(siteEvent('site_hostname_set', { ...site, title }, { hostname: { from: site.hostname, to: next.hostname } }));
  } else if (next.hostname === null && site.hostname) {
    events.push(siteEvent('site_hostname_removed', { ...site, title }, { hostname: site.hostname }));
  }
  const changed = changedFields(
    {
      title: site.title,
      basename: site.basename,
      adaptiveContent: site.adaptiveContentEnabled,
      defaultSiteSection: site.defaultSiteSectionId,
      // A site with sections keeps its default site space on its default section.
      defaultSiteSpace: next.sectionId ? next.sectionDefault : site.defaultSiteSpaceId,
      proxy: site.proxy,
    },
    {
      title: change.title ?? undefined,
      basename: change.basename ?? undefined,
      adaptiveContent: change.adaptiveContent?.enabled,
      defaultSiteSection: change.defaultSiteSection ?? undefined,
      defaultSiteSpace: change.defaultSiteSpace ?? undefined,
      proxy: next.proxy,
    },
  );
  if (Object.keys(changed).length) {
    const section = changed.defaultSiteSpace && next.sectionId ? { section: next.sectionId } : {};
    events.push(siteEvent('site_updated', { ...site, title }, { changed, ...section }));
  }
  return events;
}

/**
 * Changes a site's settings; returns its row as changed. A new hostname or proxy is claimed (claims.ts): it takes
 * effect once proven, and the site keeps its default URL until then.
 */
export async function updateSite(ctx: Context, organizationId: string, siteId: string, change: SiteChange): Promise<SiteRow> {
  const servingChange = change.visibility != null || change.hostname !== undefined || change.proxy !== undefined;
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, servingChange ? 'admin' : 'edit');
  const { sectionId, sectionDefault } =
    change.defaultSiteSpace || change.defaultSiteSection ? await defaultsOf(ctx, site, change) : { sectionId: null, sectionDefault: null };
  const hostname = change.hostname === undefined || change.hostname === site.hostname ? undefined : change.hostname;
  const proxy = change.proxy === undefined ? undefined : change.proxy && withLowercaseHost(change.proxy);
  // A proxy sent again while out of effect is claimed again (its organization's claim joined, or one made anew).
  const proxyClaimed = proxy !== undefined && (proxy !== site.proxy || (proxy !== null && !site.proxyActive));
  const next = { ...(hostname !== undefined && { hostname }), ...(proxyClaimed && { proxy }) };
  const claiming = Object.keys(next).length > 0;
  const finalHostname = next.hostname === undefined ? site.hostname : next.hostname;
  const finalProxy = next.proxy === undefined ? site.proxy : next.proxy;
  if (claiming && finalHostname && finalProxy && proxyHost(finalProxy) === finalHostname) {
    throw conflict(`The proxy ${JSON.stringify(finalProxy)} is on the site's own hostname, which serves that whole host.`);
  }
  if (next.hostname || next.proxy || change.basename) {
    await checkAddressesFree(ctx, site, { hostname: next.hostname ?? null, proxy: next.proxy ?? null, basename: change.basename ?? null });
  }
  const data: Prisma.SiteUncheckedUpdateInput = {
    ...(change.title != null && { title: change.title }),
    ...(change.visibility != null && { visibility: change.visibility }),
    ...(change.basename != null && { basename: change.basename }),
    ...(change.adaptiveContent != null && { adaptiveContentEnabled: change.adaptiveContent.enabled }),
    ...(change.defaultSiteSection != null && { defaultSiteSectionId: change.defaultSiteSection }),
    ...(change.defaultSiteSpace != null && !sectionId && { defaultSiteSpaceId: change.defaultSiteSpace }),
  };
  if (!Object.keys(data).length && !sectionId && !claiming) return site;
  const events = siteChangeEvents(site, change, { ...next, sectionId, sectionDefault });
  try {
    // A lone UPDATE needs no transaction, unless If-Match is checked with it.
    if (!sectionId && !claiming && !events.length && !ctx.ifMatch) return await ctx.prisma.site.update({ where: { id: siteId }, data });
    return await ctx.prisma.$transaction(async (tx) => {
      await lockIfMatch(tx, ctx, 'Site', siteId);
      const addresses = claiming ? await claimAddresses(tx, ctx, site, next) : {};
      const updated = await tx.site.update({ where: { id: siteId }, data: { ...data, ...addresses } });
      if (sectionId) {
        await tx.siteSection.update({
          where: { id: sectionId },
          data: { defaultSiteSpaceId: change.defaultSiteSpace },
          select: { id: true },
        });
      }
      await recordEvents(tx, ctx, events);
      return updated;
    });
  } catch (error) {
    // Two requests claiming one hostname at once: the unique index decides.
    if (isUniqueViolation(error)) throw conflict(`The hostname ${JSON.stringify(change.hostname)} is already used by another site.`);
    throw error;
  }
}

/** Deletes a site with its site spaces, sections, redirects, share links, publishing auth and claims (by cascade). */
export async function deleteSite(ctx: Context, organizationId: string, siteId: string): Promise<void> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'admin');
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Site', siteId);
    if (site.proxy) await releaseProxyHost(tx, site.organizationId, proxyHost(site.proxy), site.id);
    await tx.site.deleteMany({ where: { id: siteId } });
    await recordEvents(tx, ctx, [siteEvent('site_deleted', site)]);
  });
}

/** Publishes or unpublishes a site; its settings and content stay as they are. */
export async function setPublished(ctx: Context, organizationId: string, siteId: string, published: boolean): Promise<SiteRow> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'admin');
  if (site.published === published) return site;
  return ctx.prisma.$transaction(async (tx) => {
    const updated = await tx.site.update({ where: { id: siteId }, data: { published } });
    await recordEvents(tx, ctx, [siteEvent(published ? 'site_published' : 'site_unpublished', site)]);
    return updated;
  });
}

/** Replaces the site's adaptive schema, once it is known to be one (see adaptive-schema.ts). */
export async function setAdaptiveSchema(
  ctx: Context,
  organizationId: string,
  siteId: string,
  jsonSchema: unknown,
): Promise<AdaptiveSchemaView> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'editAdaptiveSchema');
  await checkAdaptiveSchema(jsonSchema);
  const updatedAt = ctx.clock.now();
  await ctx.prisma.$transaction(async (tx) => {
    await tx.site.update({
      where: { id: siteId },
      data: { adaptiveSchema: jsonSchema as Prisma.InputJsonValue, adaptiveSchemaUpdatedAt: updatedAt },
      select: { id: true },
    });
    // The schema itself is the site's to show (it can be long): the event says that it changed.
    await recordEvents(tx, ctx, [siteEvent('site_adaptive_schema_updated', site)]);
  });
  return { jsonSchema, updatedAt };
}
