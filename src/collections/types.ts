// The Collection type and the queries that return collections.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { levelOn, visibleLevel } from '../kernel/access.js';
import { builder, keepNull, permissionsType } from '../kernel/builder.js';
import { ContentLevelEnum } from '../kernel/enums.js';
import { listArgs, listOf } from '../kernel/lists.js';
import { listPage } from '../kernel/pagination.js';
import { collectionPermissions, visibleContent } from '../kernel/permissions.js';
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
    permissions: t.field({ type: CollectionPermissions, resolve: async (c, _args, ctx) => collectionPermissions(await levelOn(ctx, c)) }),
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

builder.prismaObjectField(Organization, 'collections', (t) =>
  t.field({
    type: CollectionList,
    description: 'Collections the viewer can see, in tree order among siblings.',
    args: { ...listArgs, nested: t.arg.boolean({ required: false, description: 'Include nested collections (default true).' }) },
    resolve: async (org, args, ctx, info) => {
      const member = await ctx.membership.load(org.id);
      const nested = args.nested ?? true;
      const base = { organizationId: org.id, ...(nested ? {} : { parentId: null }), ...visibleContent(member) };
      return listPage({
        tokens: ctx.pageTokens,
        scope: `orgs/${org.id}/collections:${nested}`,
        page: args.page,
        limit: args.limit,
        orderBy: ['position', 'id'],
        fetch: ({ where, orderBy, take }) =>
          ctx.prisma.collection.findMany({ ...queryFromInfo({ context: ctx, info, path: ['items'] }), where: { ...base, ...where }, orderBy, take }),
        count: () => ctx.prisma.collection.count({ where: base }),
      });
    },
  }),
);
