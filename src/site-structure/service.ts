// Adding, changing, moving and removing a site's site spaces and sections. Every change runs in one transaction that
// first locks the site's row, so that paths stay unique within their section and each section (and a site without
// sections) keeps exactly one default while it has site spaces: the first one added becomes the default, and when a
// default goes, the next one by position (else the previous) takes over.
import type { Site as SiteRow, SiteSection as SiteSectionRow, SiteSpace as SiteSpaceRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { authorize, authorizeReference, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, conflict, isUniqueViolation, notFound } from '../kernel/errors.js';
import { lockIfMatch } from '../kernel/etags.js';
import { changedFields, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { sites } from '../sites/access.js';
import { createSpace } from '../spaces/service.js';
import { siteSectionEvent, siteSpaceEvent } from './events.js';
import { uniquePath } from './paths.js';

type Tx = Prisma.TransactionClient;

/** A place among siblings: right before or right after one of them (named in the body as `field`). */
export interface Placement {
  id: string;
  before: boolean;
  field: string;
}

interface Sibling {
  id: string;
  path: string;
  position: number;
}

const SPACE_TITLE_MAX = 50;

/** The site's row, locked until the transaction ends: changes to one site's structure run one after the other. */
async function lockSite(tx: Tx, siteId: string): Promise<SiteRow> {
  const [site] = await tx.$queryRaw<SiteRow[]>`SELECT * FROM "Site" WHERE id = ${siteId} FOR UPDATE`;
  if (!site) throw notFound('Site');
  return site;
}

async function siteSpaceOf(ctx: Context, siteId: string, siteSpaceId: string): Promise<SiteSpaceRow> {
  const [row] = await ctx.sql<SiteSpaceRow>(Prisma.sql`SELECT * FROM "SiteSpace" WHERE id = ${siteSpaceId} AND "siteId" = ${siteId}`);
  if (!row) throw notFound('Site space');
  return row;
}

async function sectionOf(ctx: Context, siteId: string, sectionId: string): Promise<SiteSectionRow> {
  const [row] = await ctx.sql<SiteSectionRow>(Prisma.sql`SELECT * FROM "SiteSection" WHERE id = ${sectionId} AND "siteId" = ${siteId}`);
  if (!row) throw notFound('Site section');
  return row;
}

/** The space a body names (a live space of the organization the viewer can see), or a new empty one for null. */
async function spaceFor(ctx: Context, organizationId: string, spaceId: string | null, title: string) {
  if (spaceId === null) {
    const created = title.slice(0, SPACE_TITLE_MAX);
    return { id: await createSpace(ctx, organizationId, { title: created }), title: created };
  }
  return (await authorizeReference(ctx, spaces, { id: spaceId, field: 'spaceId', organizationId }, 'view')).row;
}

/** The site spaces of a section (null: at the site's root), by position. */
const siteSpaceSiblings = (tx: Tx, siteId: string, sectionId: string | null) => tx.$queryRaw<Sibling[]>`
  SELECT id, path, position FROM "SiteSpace"
   WHERE "siteId" = ${siteId} AND "sectionId" IS NOT DISTINCT FROM ${sectionId} ORDER BY position, id`;

const sectionSiblings = (tx: Tx, siteId: string) => tx.$queryRaw<Sibling[]>`
  SELECT id, path, position FROM "SiteSection" WHERE "siteId" = ${siteId} ORDER BY position, id`;

const MIN_GAP = 1e-9;

/**
 * The position of an item placed among its siblings (itself excluded): at the end, or midway between the named
 * sibling and its neighbour. When floats leave no room between two neighbours, the siblings are renumbered first.
 */
async function positionAmong(tx: Tx, table: 'SiteSpace' | 'SiteSection', siblings: Sibling[], at: Placement | null): Promise<number> {
  if (!at) return (siblings.at(-1)?.position ?? 0) + 1;
  let list = siblings;
  const index = list.findIndex((sibling) => sibling.id === at.id);
  if (index < 0) throw badRequest(`Invalid "${at.field}": not a sibling of the moved item.`);
  const [low, high] = at.before ? [list[index - 1], list[index]] : [list[index], list[index + 1]];
  if (low && high && high.position - low.position < MIN_GAP) {
    list = list.map((sibling, i) => ({ ...sibling, position: i + 1 }));
    await tx.$executeRaw`
      UPDATE ${Prisma.raw(`"${table}"`)} t SET position = v.position
        FROM unnest(${list.map((s) => s.id)}::text[], ${list.map((s) => s.position)}::float8[]) AS v(id, position) WHERE t.id = v.id`;
  }
  const before = at.before ? list[index - 1] : list[index];
  const after = at.before ? list[index] : list[index + 1];
  if (!before) return after!.position - 1;
  if (!after) return before.position + 1;
  return (before.position + after.position) / 2;
}

/** Where a move put an item, as its event tells it: before or after a sibling, or last. */
const placementOf = (at: Placement | null) => (at ? { [at.before ? 'before' : 'after']: at.id } : 'last');

/** The sibling that takes over from a removed default: the next one by position, else the previous; null when none. */
function successor(siblings: Sibling[], removedId: string): string | null {
  const index = siblings.findIndex((sibling) => sibling.id === removedId);
  return (siblings[index + 1] ?? siblings[index - 1])?.id ?? null;
}

/**
 * Adds a site space at the end of its section (or of the site's root), at a path made unique there from its title;
 * it becomes the default when its section (or root) has none among its site spaces.
 */
async function insertSiteSpace(
  tx: Tx,
  site: SiteRow,
  sectionId: string | null,
  data: { spaceId: string; title: string | null; spaceTitle: string; draft: boolean },
): Promise<SiteSpaceRow> {
  const siblings = await siteSpaceSiblings(tx, site.id, sectionId);
  const id = newId();
  const row = await tx.siteSpace.create({
    data: {
      id,
      siteId: site.id,
      sectionId,
      spaceId: data.spaceId,
      title: data.title,
      draft: data.draft,
      path: uniquePath(data.title ?? data.spaceTitle, 'space', new Set(siblings.map((s) => s.path))),
      position: await positionAmong(tx, 'SiteSpace', siblings, null),
    },
  });
  const ids = new Set(siblings.map((s) => s.id));
  if (sectionId) {
    await tx.$executeRaw`
      UPDATE "SiteSection" SET "defaultSiteSpaceId" = ${id}
       WHERE id = ${sectionId} AND ("defaultSiteSpaceId" IS NULL OR NOT "defaultSiteSpaceId" = ANY(${[...ids]}::text[]))`;
  } else if (!site.defaultSiteSpaceId || !ids.has(site.defaultSiteSpaceId)) {
    await tx.$executeRaw`UPDATE "Site" SET "defaultSiteSpaceId" = ${id} WHERE id = ${site.id}`;
  }
  return row;
}

/** The section a site space goes to when the body names none: the site's default section; null without sections. */
async function defaultSectionId(tx: Tx, site: SiteRow): Promise<string | null> {
  const [section] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM "SiteSection" WHERE "siteId" = ${site.id}
     ORDER BY id IS NOT DISTINCT FROM ${site.defaultSiteSectionId} DESC, position, id LIMIT 1`;
  return section?.id ?? null;
}

export interface AddSiteSpace {
  spaceId: string | null;
  sectionId?: string | null;
  draft?: boolean | null;
  title?: string | null;
}

/** Adds a space to the site: to the named section, else to the default section, else at the root. */
export async function addSpaceToSite(ctx: Context, organizationId: string, siteId: string, input: AddSiteSpace): Promise<SiteSpaceRow> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'edit');
  if (input.sectionId) {
    const [section] = await ctx.sql<{ id: string }>(
      Prisma.sql`SELECT id FROM "SiteSection" WHERE id = ${input.sectionId} AND "siteId" = ${siteId}`,
    );
    if (!section) throw badRequest('Invalid "sectionId": not a section of this site.');
  }
  const space = await spaceFor(ctx, organizationId, input.spaceId, input.title ?? site.title);
  return ctx.prisma.$transaction(async (tx) => {
    const locked = await lockSite(tx, siteId);
    const sectionId = input.sectionId ?? (await defaultSectionId(tx, locked));
    const row = await insertSiteSpace(tx, locked, sectionId, {
      spaceId: space.id,
      title: input.title ?? null,
      spaceTitle: space.title,
      draft: input.draft ?? false,
    });
    await recordEvents(tx, ctx, [siteSpaceEvent('site_space_added', site, row, { section: sectionId, draft: row.draft })]);
    return row;
  });
}

export interface UpdateSiteSpace {
  path?: string | null;
  condition?: string | null;
  spaceId?: string | null;
  hidden?: boolean | null;
  draft?: boolean | null;
}

export async function updateSiteSpace(
  ctx: Context,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  input: UpdateSiteSpace,
): Promise<SiteSpaceRow> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'edit');
  const row = await siteSpaceOf(ctx, siteId, siteSpaceId);
  if (input.spaceId) await authorizeReference(ctx, spaces, { id: input.spaceId, field: 'spaceId', organizationId }, 'view');
  return ctx.prisma.$transaction(async (tx) => {
    await lockSite(tx, siteId);
    await lockIfMatch(tx, ctx, 'SiteSpace', row.id, 'Site space');
    if (input.path && input.path !== row.path) {
      const [taken] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM "SiteSpace"
         WHERE "siteId" = ${siteId} AND "sectionId" IS NOT DISTINCT FROM ${row.sectionId} AND path = ${input.path} AND id <> ${row.id}`;
      if (taken) throw conflict(`Another site space of this ${row.sectionId ? 'section' : 'site'} has the path "${input.path}".`);
    }
    const data = {
      ...(input.path && { path: input.path }),
      ...(input.condition !== undefined && { condition: input.condition }),
      ...(input.spaceId && { spaceId: input.spaceId }),
      ...(input.hidden != null && { hidden: input.hidden }),
      ...(input.draft != null && { draft: input.draft }),
    };
    const updated = await tx.siteSpace.update({ where: { id: siteSpaceId }, data });
    const changed = changedFields(row, data);
    if (Object.keys(changed).length) await recordEvents(tx, ctx, [siteSpaceEvent('site_space_updated', site, updated, { changed })]);
    return updated;
  });
}

export async function deleteSiteSpace(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string): Promise<void> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'edit');
  const row = await siteSpaceOf(ctx, siteId, siteSpaceId);
  await ctx.prisma.$transaction(async (tx) => {
    await lockSite(tx, siteId);
    await lockIfMatch(tx, ctx, 'SiteSpace', row.id, 'Site space');
    const next = successor(await siteSpaceSiblings(tx, siteId, row.sectionId), row.id);
    await tx.$executeRaw`DELETE FROM "SiteSpace" WHERE id = ${row.id}`;
    await tx.$executeRaw`UPDATE "Site" SET "defaultSiteSpaceId" = ${next} WHERE id = ${siteId} AND "defaultSiteSpaceId" = ${row.id}`;
    if (row.sectionId) {
      await tx.$executeRaw`
        UPDATE "SiteSection" SET "defaultSiteSpaceId" = ${next} WHERE id = ${row.sectionId} AND "defaultSiteSpaceId" = ${row.id}`;
    }
    await recordEvents(tx, ctx, [siteSpaceEvent('site_space_removed', site, row, { section: row.sectionId })]);
  });
}

/** Moves a site space among the site spaces of its section (of the site's root): before or after one, else last. */
export async function moveSiteSpace(
  ctx: Context,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  at: Placement | null,
): Promise<SiteSpaceRow> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'edit');
  const row = await siteSpaceOf(ctx, siteId, siteSpaceId);
  return ctx.prisma.$transaction(async (tx) => {
    await lockSite(tx, siteId);
    await lockIfMatch(tx, ctx, 'SiteSpace', row.id, 'Site space');
    const siblings = (await siteSpaceSiblings(tx, siteId, row.sectionId)).filter((sibling) => sibling.id !== row.id);
    const position = await positionAmong(tx, 'SiteSpace', siblings, at);
    const moved = await tx.siteSpace.update({ where: { id: row.id }, data: { position } });
    await recordEvents(tx, ctx, [siteSpaceEvent('site_space_moved', site, moved, { placement: placementOf(at) })]);
    return moved;
  });
}

export interface AddSection {
  spaceId: string | null;
  title?: string | null;
  icon?: string | null;
  draft?: boolean | null;
}

/** A section title from a space's title, when the body gives none (a title has at least 2 characters). */
const titleFrom = (spaceTitle: string) => (spaceTitle.trim().length >= 2 ? spaceTitle.trim().slice(0, 128) : 'Untitled');

/**
 * Adds a section at the end of the site, with the space as its first site space. The site's first section becomes
 * its default section, and takes the site's root site spaces with it (their default stays the default), so that a
 * site is either all sections or all root site spaces.
 */
export async function addSectionToSite(ctx: Context, organizationId: string, siteId: string, input: AddSection): Promise<SiteSectionRow> {
  await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'edit');
  const space = await spaceFor(ctx, organizationId, input.spaceId, input.title ?? '');
  const title = input.title ?? titleFrom(space.title);
  return ctx.prisma.$transaction(async (tx) => {
    const site = await lockSite(tx, siteId);
    const siblings = await sectionSiblings(tx, siteId);
    const id = newId();
    await tx.siteSection.create({
      data: {
        id,
        siteId,
        title,
        icon: input.icon ?? null,
        draft: input.draft ?? false,
        path: uniquePath(title, 'section', new Set(siblings.map((s) => s.path))),
        position: await positionAmong(tx, 'SiteSection', siblings, null),
      },
      select: { id: true },
    });
    if (!siblings.length) {
      await tx.$executeRaw`UPDATE "SiteSpace" SET "sectionId" = ${id} WHERE "siteId" = ${siteId} AND "sectionId" IS NULL`;
      if (site.defaultSiteSpaceId) {
        await tx.$executeRaw`
          UPDATE "SiteSection" SET "defaultSiteSpaceId" = ${site.defaultSiteSpaceId}
           WHERE id = ${id} AND EXISTS (SELECT 1 FROM "SiteSpace" WHERE id = ${site.defaultSiteSpaceId} AND "sectionId" = ${id})`;
      }
    }
    if (!siblings.length || !siblings.some((s) => s.id === site.defaultSiteSectionId)) {
      await tx.$executeRaw`UPDATE "Site" SET "defaultSiteSectionId" = ${id} WHERE id = ${siteId}`;
    }
    // The section's draft flag keeps its site spaces from visitors; the site space itself is live.
    const siteSpace = await insertSiteSpace(tx, site, id, { spaceId: space.id, title: null, spaceTitle: space.title, draft: false });
    await recordEvents(tx, ctx, [
      siteSectionEvent('site_section_added', site, { id, title }, { draft: input.draft ?? false }),
      siteSpaceEvent('site_space_added', site, siteSpace, { section: id, draft: false }),
    ]);
    return tx.siteSection.findUniqueOrThrow({ where: { id } });
  });
}

export interface UpdateSection {
  title?: string | null;
  path?: string | null;
  defaultSiteSpace?: string | null;
  condition?: string | null;
  icon?: string | null;
  description?: string | null;
  draft?: boolean | null;
}

export async function updateSiteSection(
  ctx: Context,
  organizationId: string,
  siteId: string,
  sectionId: string,
  input: UpdateSection,
): Promise<SiteSectionRow> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'edit');
  const section = await sectionOf(ctx, siteId, sectionId);
  if (input.defaultSiteSpace) {
    const [member] = await ctx.sql<{ id: string }>(
      Prisma.sql`SELECT id FROM "SiteSpace" WHERE id = ${input.defaultSiteSpace} AND "sectionId" = ${sectionId}`,
    );
    if (!member) throw badRequest('Invalid "defaultSiteSpace": not a site space of this section.');
  }
  const data = {
    ...(input.title && { title: input.title }),
    ...(input.path && { path: input.path }),
    ...(input.defaultSiteSpace && { defaultSiteSpaceId: input.defaultSiteSpace }),
    ...(input.condition !== undefined && { condition: input.condition }),
    ...(input.icon !== undefined && { icon: input.icon }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.draft != null && { draft: input.draft }),
  };
  // Named as the body names them.
  const { defaultSiteSpaceId, ...settings } = data;
  const changed = changedFields(
    { ...section, defaultSiteSpace: section.defaultSiteSpaceId },
    { ...settings, defaultSiteSpace: defaultSiteSpaceId },
  );
  try {
    // A lone UPDATE needs no transaction, unless If-Match is checked with it.
    if (!Object.keys(changed).length && !ctx.ifMatch) return await ctx.prisma.siteSection.update({ where: { id: sectionId }, data });
    return await ctx.prisma.$transaction(async (tx) => {
      await lockIfMatch(tx, ctx, 'SiteSection', sectionId, 'Site section');
      const updated = await tx.siteSection.update({ where: { id: sectionId }, data });
      if (Object.keys(changed).length) await recordEvents(tx, ctx, [siteSectionEvent('site_section_updated', site, updated, { changed })]);
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`Another section of this site has the path "${input.path}".`);
    throw error;
  }
}

/** Deletes a section with its site spaces; when it was the default section, the next one (else the previous) is. */
export async function deleteSiteSection(ctx: Context, organizationId: string, siteId: string, sectionId: string): Promise<void> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'edit');
  const section = await sectionOf(ctx, siteId, sectionId);
  await ctx.prisma.$transaction(async (tx) => {
    await lockSite(tx, siteId);
    await lockIfMatch(tx, ctx, 'SiteSection', sectionId, 'Site section');
    const next = successor(await sectionSiblings(tx, siteId), sectionId);
    await tx.$executeRaw`DELETE FROM "SiteSection" WHERE id = ${sectionId}`;
    await tx.$executeRaw`UPDATE "Site" SET "defaultSiteSectionId" = ${next} WHERE id = ${siteId} AND "defaultSiteSectionId" = ${sectionId}`;
    await recordEvents(tx, ctx, [siteSectionEvent('site_section_removed', site, section)]);
  });
}

export async function moveSiteSection(
  ctx: Context,
  organizationId: string,
  siteId: string,
  sectionId: string,
  at: Placement | null,
): Promise<SiteSectionRow> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'edit');
  await sectionOf(ctx, siteId, sectionId);
  return ctx.prisma.$transaction(async (tx) => {
    await lockSite(tx, siteId);
    await lockIfMatch(tx, ctx, 'SiteSection', sectionId, 'Site section');
    const siblings = (await sectionSiblings(tx, siteId)).filter((sibling) => sibling.id !== sectionId);
    const position = await positionAmong(tx, 'SiteSection', siblings, at);
    const moved = await tx.siteSection.update({ where: { id: sectionId }, data: { position } });
    await recordEvents(tx, ctx, [siteSectionEvent('site_section_moved', site, moved, { placement: placementOf(at) })]);
    return moved;
  });
}
