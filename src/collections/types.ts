// The Collection type, the query that returns one, and the collections list of an organization.
import { type Collection as CollectionRow, Prisma } from '../generated/prisma/client.js';
import { authorize, collections, contentLevelAnnotation, visibleParentId } from '../kernel/authorize.js';
import { builder, permissionsFor, permissionsType } from '../kernel/builder.js';
import { ContentLevelEnum } from '../kernel/enums.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { policies, visibleToViewerSql } from '../kernel/permissions.js';
import { apiUrl, appUrl } from '../kernel/urls.js';
import { Organization } from '../organizations/types.js';

const CollectionUrls = builder.objectRef<{ location: string; app: string }>('CollectionUrls').implement({
  fields: (t) => ({ location: t.exposeString('location'), app: t.exposeString('app') }),
});

const CollectionPermissions = permissionsType('CollectionPermissions', policies.collection);

export const Collection = builder.prismaObject('Collection', {
  access: collections,
  fields: (t) => ({
    object: t.string({ resolve: () => 'collection' }),
    id: t.exposeID('id'),
    etag: t.string(etagField(tagOf)),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    organizationId: t.exposeID('organizationId', { description: 'Id of the owning organization.' }),
    organization: t.relation('organization'),
    parentId: t.id({
      nullable: true,
      description: 'Id of the parent collection, when you may see it.',
      resolve: (collection, _args, ctx) => visibleParentId(ctx, collection),
    }),
    defaultLevel: t.expose('defaultLevel', { type: ContentLevelEnum, nullable: true }),
    urls: t.field({
      type: CollectionUrls,
      resolve: (c, _args, ctx) => ({ location: apiUrl(ctx, `collections/${c.id}`), app: appUrl(ctx, `c/${c.id}`) }),
    }),
    permissions: t.field({
      type: CollectionPermissions,
      resolve: (c, _args, ctx) => permissionsFor(ctx, policies.collection, contentLevelAnnotation.of(ctx, c)),
    }),
  }),
});

export const CollectionList = listOf('Collection', Collection);

builder.queryFields((t) => ({
  collection: t.prismaField({
    type: 'Collection',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => (await authorize(ctx, collections, args.id, 'view', { query })).row,
  }),
}));

const organizationCollections: ListSource<CollectionRow, { nested?: boolean | null }> = {
  table: 'Collection',
  parentColumn: 'organizationId',
  orderBy: [
    { column: 'position', type: 'float8' },
    { column: 'id', type: 'text' },
  ],
  where: (ctx, args) =>
    Prisma.sql`${visibleToViewerSql(ctx.viewer)} ${args.nested === false ? Prisma.sql`AND t."parentId" IS NULL` : Prisma.empty}`,
  scope: (organizationId, args) => `orgs/${organizationId}/collections:${args.nested ?? true}`,
  fetch: (ctx, query, ids) => ctx.prisma.collection.findMany({ ...query, where: { id: { in: ids } } }),
  annotations: [contentLevelAnnotation],
};

builder.objectField(Organization, 'collections', (t) =>
  t.field({
    type: CollectionList,
    description: 'Collections the viewer can see, in tree order among siblings.',
    args: { ...listArgs, nested: t.arg.boolean({ required: false, description: 'Include nested collections (default true).' }) },
    resolve: (org, args, ctx, info) => listPage(organizationCollections, ctx, info, org.id, args),
  }),
);
