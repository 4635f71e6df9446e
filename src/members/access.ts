// How a request reaches a membership: by the member's user id within the organization, through the viewer's standing
// there (policies.member): members with a role see every member, a guest only themselves.
import { type Member, Prisma } from '../generated/prisma/client.js';
import { childResource, organizations } from '../kernel/authorize.js';
import { rowTag } from '../kernel/etags.js';
import type { OrderColumn } from '../kernel/lists.js';
import { policies } from '../kernel/permissions.js';

/** A membership has no id of its own: its user and when they joined tell it from a later one of the same user. */
export const memberTag = (member: Pick<Member, 'userId' | 'joinedAt' | 'rowVersion'>) =>
  rowTag(`${member.userId}.${member.joinedAt.getTime()}`, member.rowVersion);

export const members = childResource<Member, typeof policies.member, { id: string }>(organizations, {
  kind: 'Member',
  policy: policies.member,
  parentKey: 'organizationId',
  ownerOf: (member) => member.userId,
  async findInParent(ctx, organizationId, userId) {
    const [member] = await ctx.sql<Member>(
      Prisma.sql`SELECT * FROM "Member" WHERE "organizationId" = ${organizationId} AND "userId" = ${userId}`,
    );
    return member ?? null;
  },
});

/** Members by name, case-insensitively, namesakes by user id: the order of every list of people by name. */
export const byMemberName: readonly OrderColumn[] = [
  { column: 'name', type: 'text', expression: Prisma.sql`(SELECT lower(u."displayName") FROM "User" u WHERE u.id = t."userId")` },
  { column: 'userId', type: 'text' },
];
