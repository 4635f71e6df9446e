// The Space type, the query that returns one, and the spaces lists of organizations and collections.
import { Collection } from '../collections/types.js';
import { Prisma, type Space as SpaceRow } from '../generated/prisma/client.js';
import { authorize, contentLevelAnnotation, spaces, visibleParentId } from '../kernel/authorize.js';
import { builder, permissionsFor, permissionsType, restEnum } from '../kernel/builder.js';
import { ContentLevelEnum } from '../kernel/enums.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { policies, visibleToViewerSql } from '../kernel/permissions.js';
import { apiUrl, appUrl } from '../kernel/urls.js';
import { Organization } from '../organizations/types.js';
import { shareKeyArgument } from '../share-links/keys.js';
import { sharedPublishedUrl, sharedPublishedUrlAnnotation } from '../site-structure/space-urls.js';
import { type SpaceCounts, spaceSummaryAnnotation } from './summary.js';

export const SpaceVisibilityEnum = restEnum('SpaceVisibility', {
  public: 'public',
  unlisted: 'unlisted',
  share_link: 'share-link',
  visitor_auth: 'visitor-auth',
  in_collection: 'in-collection',
  private: 'private',
});
export const SpaceEditModeEnum = restEnum('SpaceEditMode', { live: 'live', locked: 'locked' });

interface SpaceLinks {
  location: string;
  app: string;
  icon: string | null;
  /** Whose published URLs these are: read with the space's counters, only when selected. */
  space: SpaceRow;
}

const SpaceUrls = builder.objectRef<SpaceLinks>('SpaceUrls').implement({
  fields: (t) => ({
    location: t.exposeString('location'),
    app: t.exposeString('app'),
    published: t.string({
      nullable: true,
      description:
        'Published URL: where the space is live in a published site that is not share-link; read with an active share key ' +
        '(`shareKey`), where it is live in the share-link site the key opens, carrying the key.',
      resolve: async (links, _args, ctx) =>
        (await sharedPublishedUrlAnnotation.of(ctx, links.space)) ?? (await spaceSummaryAnnotation.of(ctx, links.space)).urls.published,
    }),
    public: t.string({
      nullable: true,
      description: 'Public URL: the published URL, when that site is public.',
      resolve: async (links, _args, ctx) => (await spaceSummaryAnnotation.of(ctx, links.space)).urls.public,
    }),
    icon: t.exposeString('icon', { nullable: true }),
  }),
});

const SpacePermissions = permissionsType('SpacePermissions', policies.space);

const VisitorAuth = builder.objectRef<{ backend: string }>('SpaceVisitorAuth').implement({
  fields: (t) => ({ backend: t.exposeString('backend') }),
});

const counter =
  (key: keyof SpaceCounts) =>
  (space: SpaceRow, _args: unknown, ctx: Parameters<typeof spaceSummaryAnnotation.of>[0]): number | Promise<number> => {
    const summary = spaceSummaryAnnotation.of(ctx, space);
    return summary instanceof Promise ? summary.then((known) => known[key]) : summary[key];
  };

export const Space = builder.prismaObject('Space', {
  access: spaces,
  fields: (t) => ({
    object: t.string({ resolve: () => 'space' }),
    id: t.exposeID('id'),
    etag: t.string(etagField(tagOf)),
    title: t.exposeString('title'),
    emoji: t.exposeString('emoji'),
    visibility: t.expose('visibility', { type: SpaceVisibilityEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    deletedAt: t.expose('deletedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Set while the space is deleted (restorable for 7 days).',
    }),
    editMode: t.expose('editMode', { type: SpaceEditModeEnum, nullable: true }),
    mergeRules: t.expose('mergeRules', { type: 'JSON' }),
    organizationId: t.exposeID('organizationId'),
    organization: t.relation('organization'),
    parentId: t.id({
      nullable: true,
      description: 'Id of the parent collection, when you may see it.',
      resolve: (space, _args, ctx) => visibleParentId(ctx, space),
    }),
    language: t.exposeString('language', { nullable: true }),
    visitorAuth: t.field({
      type: VisitorAuth,
      nullable: true,
      resolve: (s) => (s.visitorAuthBackend ? { backend: s.visitorAuthBackend } : null),
    }),
    // Nullable in the table only while a space and its first revision are created together.
    revisionId: t.id({ description: 'Id of the active revision.', resolve: (s) => s.revisionId! }),
    defaultLevel: t.expose('defaultLevel', { type: ContentLevelEnum, nullable: true }),
    openCommentCount: t.int({ description: 'Open comments.', resolve: counter('openComments') }),
    changeRequestCount: t.int({ description: 'Change requests, whatever their status.', resolve: counter('changeRequests') }),
    openChangeRequestCount: t.int({ resolve: counter('openChangeRequests') }),
    draftChangeRequestCount: t.int({ resolve: counter('draftChangeRequests') }),
    urls: t.field({
      type: SpaceUrls,
      resolve: (s, _args, ctx) => ({ location: apiUrl(ctx, `spaces/${s.id}`), app: appUrl(ctx, `s/${s.id}`), icon: null, space: s }),
    }),
    permissions: t.field({
      type: SpacePermissions,
      resolve: (s, _args, ctx) => permissionsFor(ctx, policies.space, contentLevelAnnotation.of(ctx, s)),
    }),
  }),
});

export const SpaceList = listOf('Space', Space);

/** Live (not deleted) spaces the viewer can see, listed per organization or per collection. */
const liveSpaces = (parentColumn: 'organizationId' | 'parentId', scope: (parentKey: string) => string): ListSource<SpaceRow> => ({
  table: 'Space',
  parentColumn,
  orderBy: [
    { column: 'position', type: 'float8' },
    { column: 'id', type: 'text' },
  ],
  where: (ctx) => Prisma.sql`t."deletedAt" IS NULL AND ${visibleToViewerSql(ctx.viewer)}`,
  scope,
  fetch: (ctx, query, ids) => ctx.prisma.space.findMany({ ...query, where: { id: { in: ids } } }),
  annotations: [contentLevelAnnotation, spaceSummaryAnnotation],
});
const organizationSpaces = liveSpaces('organizationId', (id) => `orgs/${id}/spaces`);
const collectionSpaces = liveSpaces('parentId', (id) => `collections/${id}/spaces`);

builder.queryFields((t) => ({
  space: t.prismaField({
    type: 'Space',
    description: 'A space, also while it is deleted (it then carries deletedAt).',
    args: { id: t.arg.id({ required: true }), shareKey: t.arg.string(shareKeyArgument) },
    resolve: async (query, _root, args, ctx) => {
      const { row } = await authorize(ctx, spaces, args.id, 'view', { query });
      if (args.shareKey) sharedPublishedUrlAnnotation.set(row, await sharedPublishedUrl(ctx, row.id, args.shareKey));
      return row;
    },
  }),
}));

builder.objectField(Organization, 'spaces', (t) =>
  t.field({
    type: SpaceList,
    description: 'Spaces of the organization that the viewer can see, deleted ones excepted.',
    args: listArgs,
    resolve: (org, args, ctx, info) => listPage(organizationSpaces, ctx, info, org.id, args),
  }),
);

builder.objectField(Collection, 'spaces', (t) =>
  t.field({
    type: SpaceList,
    description: 'Spaces directly in this collection that the viewer can see, deleted ones excepted.',
    args: listArgs,
    resolve: (collection, args, ctx, info) => listPage(collectionSpaces, ctx, info, collection.id, args),
  }),
);
