// The SiteSpace and SiteSection types, a site's structure (its sections with their site spaces, or its site spaces),
// and the lists of a site's site spaces and sections. A site space embeds its whole Space; every per-row value (the
// space, the site and section behind its URL and default flag, a section's site spaces) is read in one statement per
// page, whatever the page size.
import {
  Prisma,
  type Site as SiteRow,
  type SiteSection as SiteSectionRow,
  type SiteSpace as SiteSpaceRow,
  type Space as SpaceRow,
} from '../generated/prisma/client.js';
import { rowOf, spaces } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListPage, ListSource } from '../kernel/lists.js';
import { visibleToViewerSql } from '../kernel/permissions.js';
import { batchedRowById } from '../kernel/rows.js';
import { apiUrl } from '../kernel/urls.js';
import { shareKeyArgument } from '../share-links/keys.js';
import { presentedShareKeyAnnotation, visiblePublishedUrl } from '../sites/urls.js';
import { Space } from '../spaces/types.js';
import { siteSections, siteSpaces } from './access.js';
import { isDefaultSiteSpace, sectionUrlPath, siteSpaceUrlPath } from './paths.js';
import { presentKey, provenShareKey, type Structure, sectionSiteSpacesAnnotation, structureOf } from './structure.js';

/** The site and section a site space sits in (batched with every other site space of the request). */
async function placeOf(ctx: Context, row: SiteSpaceRow) {
  const [site, section] = await Promise.all([
    batchedRowById<SiteRow>(ctx, 'Site', row.siteId),
    row.sectionId ? batchedRowById<SiteSectionRow>(ctx, 'SiteSection', row.sectionId) : null,
  ]);
  return { site, section };
}

interface StructureUrls {
  location: string;
  published: string | null;
}

const StructureUrls = builder.objectRef<StructureUrls>('SiteStructureUrls').implement({
  fields: (t) => ({
    location: t.exposeString('location', { description: 'URL of the object in the API.' }),
    published: t.exposeString('published', {
      nullable: true,
      description: 'Published URL: only for a published site, and for a share-link site only with a valid share key.',
    }),
  }),
});

/** The API URL of an object below a site. */
const siteApiUrl = (ctx: Context, site: Pick<SiteRow, 'id' | 'organizationId'>, rest: string) =>
  apiUrl(ctx, `orgs/${site.organizationId}/sites/${site.id}/${rest}`);

/** A site space's space, read with the request's other spaces (the access check read it already). */
async function spaceOf(ctx: Context, row: SiteSpaceRow): Promise<SpaceRow> {
  const space = await rowOf(ctx, spaces, row.spaceId);
  if (!space) throw notFound('Space');
  return space;
}

export const SiteSpace = builder.prismaObject('SiteSpace', {
  access: siteSpaces,
  description: 'A space published in a site, at its path (in a section when the site has sections).',
  fields: (t) => ({
    object: t.string({ resolve: () => 'site-space' }),
    id: t.exposeID('id'),
    etag: t.string(etagField(tagOf)),
    path: t.exposeString('path', { description: 'Path of the site space below its section (or the site root).' }),
    section: t.exposeID('sectionId', { nullable: true, description: 'Id of the section it belongs to.' }),
    space: t.field({ type: Space, resolve: (row, _args, ctx) => spaceOf(ctx, row) }),
    title: t.string({
      description: 'The site space’s own title, else its space’s.',
      resolve: async (row, _args, ctx) => row.title ?? (await spaceOf(ctx, row)).title,
    }),
    default: t.boolean({
      description: 'Whether it is the default site space of its section (of the site, without sections).',
      resolve: async (row, _args, ctx) => {
        const { site, section } = await placeOf(ctx, row);
        return isDefaultSiteSpace(site, section, row);
      },
    }),
    condition: t.exposeString('condition', { nullable: true }),
    hidden: t.exposeBoolean('hidden'),
    draft: t.exposeBoolean('draft'),
    urls: t.field({
      type: StructureUrls,
      resolve: async (row, _args, ctx) => {
        const { site, section } = await placeOf(ctx, row);
        return {
          location: siteApiUrl(ctx, site, `site-spaces/${row.id}`),
          published: await visiblePublishedUrl(ctx, site, siteSpaceUrlPath(site, section, row), row),
        };
      },
    }),
  }),
});

export const SiteSection = builder.prismaObject('SiteSection', {
  access: siteSections,
  description: 'A section of a site: a group of site spaces (variants) at its own path.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'site-section' }),
    id: t.exposeID('id'),
    etag: t.string(etagField(tagOf)),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    default: t.boolean({
      description: 'Whether it is the site’s default section.',
      resolve: async (row, _args, ctx) => (await batchedRowById<SiteRow>(ctx, 'Site', row.siteId)).defaultSiteSectionId === row.id,
    }),
    path: t.exposeString('path'),
    condition: t.exposeString('condition', { nullable: true }),
    icon: t.exposeString('icon', { nullable: true }),
    draft: t.exposeBoolean('draft'),
    siteSpaces: t.field({
      type: [SiteSpace],
      description: 'Its site spaces, by position.',
      resolve: async (row, _args, ctx) => {
        const [rows, key] = await Promise.all([sectionSiteSpacesAnnotation.of(ctx, row), presentedShareKeyAnnotation.of(ctx, row)]);
        presentKey(rows, key);
        return rows;
      },
    }),
    urls: t.field({
      type: StructureUrls,
      resolve: async (row, _args, ctx) => {
        const site = await batchedRowById<SiteRow>(ctx, 'Site', row.siteId);
        return {
          location: siteApiUrl(ctx, site, `sections/${row.id}`),
          published: await visiblePublishedUrl(ctx, site, sectionUrlPath(site, row), row),
        };
      },
    }),
  }),
});

export const SiteSpaceList = listOf('SiteSpace', SiteSpace);
export const SiteSectionList = listOf('SiteSection', SiteSection);

const SiteStructureItem = builder.unionType('SiteStructureItem', {
  types: [SiteSection, SiteSpace],
  resolveType: (row) => ('spaceId' in row ? SiteSpace : SiteSection),
});

const SiteStructureTypeEnum = builder.enumType('SiteStructureType', {
  description: 'sections: the site has sections, each with its site spaces; siteSpaces: the site’s site spaces.',
  values: ['sections', 'siteSpaces'] as const,
});

export const SiteStructure = builder.objectRef<Structure>('SiteStructure').implement({
  description: 'How a site is organized: its sections with their site spaces when it has sections, else its site spaces.',
  fields: (t) => ({
    type: t.field({ type: SiteStructureTypeEnum, resolve: (structure) => structure.type }),
    structure: t.field({ type: [SiteStructureItem], resolve: (structure) => structure.structure }),
  }),
});

/** The default flag of a site space, as SQL on a row `t` of SiteSpace. */
const isDefaultSql = Prisma.sql`(CASE WHEN t."sectionId" IS NULL
    THEN (SELECT s."defaultSiteSpaceId" FROM "Site" s WHERE s.id = t."siteId")
    ELSE (SELECT sec."defaultSiteSpaceId" FROM "SiteSection" sec WHERE sec.id = t."sectionId") END) IS NOT DISTINCT FROM t.id`;

const siteSpacesOfSite: ListSource<SiteSpaceRow, { default?: boolean | null }> = {
  table: 'SiteSpace',
  parentColumn: 'siteId',
  // Grouped by section, in the sections' order, then by position within each.
  orderBy: [
    {
      column: 'sectionPosition',
      type: 'float8',
      expression: Prisma.sql`coalesce((SELECT sec.position FROM "SiteSection" sec WHERE sec.id = t."sectionId"), 0)`,
    },
    { column: 'sectionId', type: 'text', expression: Prisma.sql`coalesce(t."sectionId", '')` },
    { column: 'position', type: 'float8' },
    { column: 'id', type: 'text' },
  ],
  where: (ctx, args) => {
    const isDefault = args.default === true ? isDefaultSql : args.default === false ? Prisma.sql`NOT ${isDefaultSql}` : Prisma.sql`TRUE`;
    return Prisma.sql`${isDefault} AND EXISTS (SELECT 1 FROM "Space" sp WHERE sp.id = t."spaceId" AND ${visibleToViewerSql(ctx.viewer, 'sp')})`;
  },
  scope: (siteId, args) => `sites/${siteId}/site-spaces:${args.default ?? ''}`,
  fetch: (ctx, query, ids) => ctx.prisma.siteSpace.findMany({ ...query, where: { id: { in: ids } } }),
};

const sectionsOfSite: ListSource<SiteSectionRow> = {
  table: 'SiteSection',
  parentColumn: 'siteId',
  orderBy: [
    { column: 'position', type: 'float8' },
    { column: 'id', type: 'text' },
  ],
  where: () => Prisma.sql`TRUE`,
  scope: (siteId) => `sites/${siteId}/sections`,
  fetch: (ctx, query, ids) => ctx.prisma.siteSection.findMany({ ...query, where: { id: { in: ids } } }),
  annotations: [sectionSiteSpacesAnnotation],
};

/** A page of one of the site's lists, its rows carrying the share key the request proved (for their published URLs). */
async function withShareKey<Row extends object>(list: Promise<ListPage<Row>>, ctx: Context, siteId: string, shareKey?: string | null) {
  const [page, key] = await Promise.all([list, provenShareKey(ctx, siteId, shareKey)]);
  presentKey(page.items, key);
  return page;
}

builder.prismaObjectFields('Site', (t) => ({
  siteSpaces: t.field({
    type: SiteSpaceList,
    description: 'The site’s site spaces, section by section, by position.',
    args: {
      ...listArgs,
      default: t.arg.boolean({ description: 'true: only default site spaces; false: only the others; absent: all.' }),
      shareKey: t.arg.string(shareKeyArgument),
    },
    resolve: (site, args, ctx, info) => withShareKey(listPage(siteSpacesOfSite, ctx, info, site.id, args), ctx, site.id, args.shareKey),
  }),
  sections: t.field({
    type: SiteSectionList,
    description: 'The site’s sections, by position, each with its site spaces.',
    args: { ...listArgs, shareKey: t.arg.string(shareKeyArgument) },
    resolve: (site, args, ctx, info) => withShareKey(listPage(sectionsOfSite, ctx, info, site.id, args), ctx, site.id, args.shareKey),
  }),
  structure: t.field({
    type: SiteStructure,
    description: 'The site’s sections with their site spaces, or its site spaces when it has no sections; drafts included.',
    args: { shareKey: t.arg.string(shareKeyArgument) },
    resolve: async (site, args, ctx) =>
      structureOf(ctx, site.id, { live: false, key: await provenShareKey(ctx, site.id, args.shareKey), for: 'viewer' }),
  }),
}));
