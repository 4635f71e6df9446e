// The Collection type and the queries that return collections.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { type Collection as CollectionRow, Prisma } from '../generated/prisma/client.js';
import { type ChildListSource, childPage } from '../kernel/child-lists.js';
import { levelOf, rememberLevels, visibleLevel } from '../kernel/access.js';
import { builder, keepNull, mapMaybePromise, permissionsType } from '../kernel/builder.js';
import { ContentLevelEnum } from '../kernel/enums.js';
import { listArgs, listOf } from '../kernel/lists.js';
import { collectionPermissions, visibleToViewerSql } from '../kernel/permissions.js';
import { apiUrl, appUrl } from '../kernel/urls.js';
import { Organization } from '../organizations/types.js';

const CollectionUrls = builder.objectRef<{ location: string; app: string }>('CollectionUrls').implement({
  fields: (t) => ({ location: t.exposeString('location'), app: t.exposeString('app') }),
});

const CollectionPermissions = permissionsType('CollectionPermissions', collectionPermissions);

export const Collection = builder.prismaObject('Collection', {
  fields: (t) => ({
    object: t.string({ resolve: () => 'collection' }),
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    organization: t.exposeString('organizationId', { description: 'Id of the owning organization.' }),
    parent: t.exposeString('parentId', { nullable: true, description: 'Id of the parent collection.' }),
    defaultLevel: t.expose('defaultLevel', { type: ContentLevelEnum, nullable: true, ...keepNull }),
    urls: t.field({
      type: CollectionUrls,
      resolve: (c, _args, ctx) => ({ location: apiUrl(ctx, `collections/${c.id}`), app: appUrl(ctx, `c/${c.id}`) }),
    }),
    permissions: t.field({ type: CollectionPermissions, resolve: (c, _args, ctx) => mapMaybePromise(levelOf(ctx, c), collectionPermissions) }),
  }),
});

export const CollectionList = listOf('Collection', Collection);

builder.queryFields((t) => ({
  collection: t.prismaField({
    type: 'Collection',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const collection = await ctx.prisma.collection.findUnique({ ...query, where: { id: String(args.id) } });
      await visibleLevel(ctx, collection, 'Collection');
      return collection!;
    },
  }),
}));

const liveCollections = (nested: boolean): ChildListSource<CollectionRow> => ({
  table: Prisma.sql`"Collection"`,
  parentColumn: Prisma.sql`"organizationId"`,
  where: (ctx) => Prisma.sql`${visibleToViewerSql(ctx.viewer.userId)} ${nested ? Prisma.empty : Prisma.sql`AND t."parentId" IS NULL`}`,
  scope: (organizationId) => `orgs/${organizationId}/collections:${nested}`,
  fetch: async (ctx, info, ids) => {
    const collections = await ctx.prisma.collection.findMany({ ...queryFromInfo({ context: ctx, info, path: ['items'] }), where: { id: { in: ids } } });
    await rememberLevels(ctx, collections);
    return collections;
  },
});
const collectionSources = { true: liveCollections(true), false: liveCollections(false) };

builder.prismaObjectField(Organization, 'collections', (t) =>
  t.field({
    type: CollectionList,
    description: 'Collections the viewer can see, in tree order among siblings.',
    args: { ...listArgs, nested: t.arg.boolean({ required: false, description: 'Include nested collections (default true).' }) },
    resolve: (org, args, ctx, info) => childPage(collectionSources[`${args.nested ?? true}`], ctx, info, org.id, args),
  }),
);
