// How a request reaches a user (policies.user): themselves, and whoever shares an organization with them.
import { Prisma, type User as UserRow } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { type Resource, rowsOfTable } from '../kernel/authorize.js';
import { viewerMembershipSql } from '../kernel/context.js';
import { type Level, policies } from '../kernel/permissions.js';
import { rowById } from '../kernel/rows.js';

/** Users the viewer can see: themselves, and whoever shares an organization with them. */
export const users: Resource<UserRow, typeof policies.user> = {
  kind: 'User',
  policy: policies.user,
  loadMany: rowsOfTable('User'),
  loadWithQuery: (ctx, id, query) => rowById(ctx, 'User', id, query, () => ctx.prisma.user.findUnique({ ...query, where: { id } })),
  level: rowAnnotation<UserRow, Level>('user level', async (ctx, rows) => {
    const others = rows.map((row) => row.id).filter((id) => id !== ctx.viewer.userId);
    const shared = others.length
      ? await ctx.sql<{ userId: string }>(Prisma.sql`
          SELECT DISTINCT theirs."userId" FROM "Member" mine
            JOIN "Member" theirs ON theirs."organizationId" = mine."organizationId"
           WHERE ${viewerMembershipSql(ctx.viewer, 'mine')} AND theirs."userId" = ANY(${others}::text[])`)
      : [];
    const visible = new Set([ctx.viewer.userId, ...shared.map((row) => row.userId)]);
    return rows.map((row) => (visible.has(row.id) ? 'guest' : null));
  }),
  ownerOf: (user) => user.id,
};
