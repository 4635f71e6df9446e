// The Space type and the queries that return spaces.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { Prisma, type Space as SpaceRow } from '../generated/prisma/client.js';
import { type ChildListSource, childPage } from '../kernel/child-lists.js';
import { counter, rememberCounts } from './counts.js';
import { Collection } from '../collections/types.js';
import { levelOf, rememberLevels, visibleLevel } from '../kernel/access.js';
import { builder, keepNull, mapMaybePromise, permissionsType, restEnum } from '../kernel/builder.js';
import { ContentLevelEnum } from '../kernel/enums.js';
import { listArgs, listOf } from '../kernel/lists.js';
import { spacePermissions, visibleToViewerSql } from '../kernel/permissions.js';
import { apiUrl, appUrl } from '../kernel/urls.js';
import { Organization } from '../organizations/types.js';

export const SpaceVisibilityEnum = restEnum('SpaceVisibility', {
  public: 'public',
  unlisted: 'unlisted',
  share_link: 'share-link',
  visitor_auth: 'visitor-auth',
  in_collection: 'in-collection',
  private: 'private',
});
export const SpaceEditModeEnum = restEnum('SpaceEditMode', { live: 'live', locked: 'locked' });

const SpaceUrls = builder.objectRef<{ location: string; app: string }>('SpaceUrls').implement({
  fields: (t) => ({
    location: t.exposeString('location'),
    app: t.exposeString('app'),
    published: t.string({ nullable: true, description: 'Published URL; set once the space is published in a site.', resolve: () => null }),
    public: t.string({ nullable: true, description: 'Public URL, when the space is public.', resolve: () => null }),
    icon: t.string({ nullable: true, resolve: () => null }),
  }),
});

const SpacePermissions = permissionsType('SpacePermissions', spacePermissions);

const VisitorAuth = builder.objectRef<{ backend: string }>('SpaceVisitorAuth').implement({
  fields: (t) => ({ backend: t.exposeString('backend') }),
});

export const Space = builder.prismaObject('Space', {
  fields: (t) => ({
    object: t.string({ resolve: () => 'space' }),
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    emoji: t.exposeString('emoji'),
    visibility: t.expose('visibility', { type: SpaceVisibilityEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    deletedAt: t.expose('deletedAt', { type: 'DateTime', nullable: true, description: 'Set while the space is deleted (restorable for 7 days).' }),
    editMode: t.expose('editMode', { type: SpaceEditModeEnum, nullable: true }),
    mergeRules: t.expose('mergeRules', { type: 'JSON' }),
    organization: t.exposeString('organizationId'),
    parent: t.exposeString('parentId', { nullable: true, description: 'Id of the parent collection.' }),
    language: t.exposeString('language', { nullable: true }),
    visitorAuth: t.field({
      type: VisitorAuth,
      nullable: true,
      resolve: (s) => (s.visitorAuthBackend ? { backend: s.visitorAuthBackend } : null),
    }),
    revision: t.string({ description: 'Id of the active revision.', resolve: (s) => s.revisionId! }),
    defaultLevel: t.expose('defaultLevel', { type: ContentLevelEnum, nullable: true, ...keepNull }),
    comments: t.int({ description: 'Open comments.', resolve: counter('comments') }),
    changeRequests: t.int({ resolve: counter('changeRequests') }),
    changeRequestsOpen: t.int({ resolve: counter('changeRequestsOpen') }),
    changeRequestsDraft: t.int({ resolve: counter('changeRequestsDraft') }),
    urls: t.field({ type: SpaceUrls, resolve: (s, _args, ctx) => ({ location: apiUrl(ctx, `spaces/${s.id}`), app: appUrl(ctx, `s/${s.id}`) }) }),
    permissions: t.field({ type: SpacePermissions, resolve: (s, _args, ctx) => mapMaybePromise(levelOf(ctx, s), spacePermissions) }),
  }),
});

export const SpaceList = listOf('Space', Space);

/** Live (not deleted) spaces the viewer can see, listed per organization or per collection. */
const liveSpaces = (parentColumn: 'organizationId' | 'parentId', scope: (parentId: string) => string): ChildListSource<SpaceRow> => ({
  table: Prisma.sql`"Space"`,
  parentColumn: Prisma.raw(`"${parentColumn}"`),
  where: (ctx) => Prisma.sql`t."deletedAt" IS NULL AND ${visibleToViewerSql(ctx.viewer.userId)}`,
  scope,
  fetch: async (ctx, info, ids) => {
    const spaces = await ctx.prisma.space.findMany({ ...queryFromInfo({ context: ctx, info, path: ['items'] }), where: { id: { in: ids } } });
    await Promise.all([rememberLevels(ctx, spaces), rememberCounts(ctx, spaces)]);
    return spaces;
  },
});
const organizationSpaces = liveSpaces('organizationId', (id) => `orgs/${id}/spaces`);
const collectionSpaces = liveSpaces('parentId', (id) => `collections/${id}/spaces`);

builder.queryFields((t) => ({
  space: t.prismaField({
    type: 'Space',
    description: 'A space, also while it is deleted (it then carries deletedAt).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const space = await ctx.prisma.space.findUnique({ ...query, where: { id: String(args.id) } });
      await visibleLevel(ctx, space, 'Space');
      return space!;
    },
  }),
}));

builder.prismaObjectField(Organization, 'spaces', (t) =>
  t.field({
    type: SpaceList,
    description: 'Spaces of the organization that the viewer can see, deleted ones excepted.',
    args: listArgs,
    resolve: (org, args, ctx, info) => childPage(organizationSpaces, ctx, info, org.id, args),
  }),
);

builder.prismaObjectField(Collection, 'spaces', (t) =>
  t.field({
    type: SpaceList,
    description: 'Spaces directly in this collection that the viewer can see, deleted ones excepted.',
    args: listArgs,
    resolve: (collection, args, ctx, info) => childPage(collectionSpaces, ctx, info, collection.id, args),
  }),
);
