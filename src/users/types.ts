// The User type, the authenticated user (`viewer`) and users by id.
import { Prisma, type User as UserRow } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { authorize } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import { viewerMembershipSql, viewerRoleSql } from '../kernel/context.js';
import { apiUrl } from '../kernel/urls.js';
import { users } from './access.js';

/**
 * Whether the viewer may read each user's e-mail address: their own, and that of anyone in an organization where the
 * viewer has a role. Guests see people by name and photo only. Only a viewer who is a guest somewhere costs a statement.
 */
const emailShownAnnotation = rowAnnotation<UserRow, boolean>('user e-mail shown', async (ctx, rows) => {
  if (!ctx.viewer.guestSomewhere) return rows.map(() => true);
  const others = rows.map((row) => row.id).filter((id) => id !== ctx.viewer.userId);
  const shown = others.length
    ? await ctx.sql<{ userId: string }>(Prisma.sql`
        SELECT DISTINCT theirs."userId" FROM "Member" mine
          JOIN "Member" theirs ON theirs."organizationId" = mine."organizationId"
         WHERE ${viewerMembershipSql(ctx.viewer, 'mine')} AND ${viewerRoleSql(ctx.viewer, 'mine')} IS NOT NULL AND theirs."userId" = ANY(${others}::text[])`)
    : [];
  const visible = new Set([ctx.viewer.userId, ...shown.map((row) => row.userId)]);
  return rows.map((row) => visible.has(row.id));
});

const UserUrls = builder.objectRef<{ location: string }>('UserUrls').implement({
  fields: (t) => ({ location: t.exposeString('location', { description: 'URL of the user in the API.' }) }),
});

export const User = builder.prismaObject('User', {
  fields: (t) => ({
    object: t.string({ resolve: () => 'user' }),
    id: t.exposeID('id'),
    displayName: t.exposeString('displayName'),
    email: t.string({
      nullable: true,
      description: 'Shown to the user and to members with a role in one of their organizations; null for guests.',
      resolve: async (user, _args, ctx) => ((await emailShownAnnotation.of(ctx, user)) ? user.email : null),
    }),
    photoURL: t.exposeString('photoURL', { nullable: true }),
    urls: t.field({ type: UserUrls, resolve: (user, _args, ctx) => ({ location: apiUrl(ctx, `users/${user.id}`) }) }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.prismaField({
    type: 'User',
    description: 'The user the API token belongs to.',
    resolve: (query, _root, _args, ctx) => ctx.prisma.user.findUniqueOrThrow({ ...query, where: { id: ctx.viewer.userId } }),
  }),
  user: t.prismaField({
    type: 'User',
    description: 'A user: the viewer, or a member of one of the viewer’s organizations.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => (await authorize(ctx, users, args.id, 'view', { query })).row,
  }),
}));
