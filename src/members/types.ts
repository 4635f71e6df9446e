// The Member type (a user's membership of an organization), an organization's member list and one member.

import { z } from 'zod';
import type { Member as MemberRow, User as UserRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { MemberRole } from '../generated/prisma/enums.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { authorize, organizations } from '../kernel/authorize.js';
import { builder, restEnum } from '../kernel/builder.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import { etagField } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import { containsPattern, type ListSource } from '../kernel/lists.js';
import { batchedRowById } from '../kernel/rows.js';
import { Organization } from '../organizations/types.js';
import { User } from '../users/types.js';
import { byMemberName, members, memberTag } from './access.js';

interface MemberCounts {
  teams: number;
  spaces: number;
}

/** Teams a member belongs to, and spaces granted to them directly or through a team: one statement per page. */
const memberCountsAnnotation = rowAnnotation<MemberRow, MemberCounts>('member counts', async (ctx, rows) => {
  const keys = rows.map((row) => `${row.organizationId}:${row.userId}`);
  const counts = await ctx.sql<{ key: string; teams: number; spaces: number }>(Prisma.sql`
    SELECT k.key,
      (SELECT count(*)::int FROM "TeamMember" tm WHERE tm."organizationId" = k.org AND tm."userId" = k.usr) AS teams,
      (SELECT count(DISTINCT g."spaceId")::int FROM "ContentGrant" g
        WHERE g."organizationId" = k.org AND g."spaceId" IS NOT NULL
          AND (g."userId" = k.usr OR g."teamId" IN (SELECT tm."teamId" FROM "TeamMember" tm
                                                   WHERE tm."organizationId" = k.org AND tm."userId" = k.usr))) AS spaces
    FROM (SELECT key, split_part(key, ':', 1) AS org, split_part(key, ':', 2) AS usr FROM unnest(${keys}::text[]) AS key) k`);
  const byKey = new Map(counts.map((row) => [row.key, row]));
  return keys.map((key) => byKey.get(key) ?? { teams: 0, spaces: 0 });
});

export const Member = builder.objectRef<MemberRow>('Member').implement({
  access: members,
  description: 'A user’s membership of an organization.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'member' }),
    id: t.id({ description: 'The user’s id.', resolve: (member) => member.userId }),
    etag: t.string(etagField(memberTag)),
    role: t.field({
      type: MemberRoleEnum,
      nullable: true,
      description: 'null: a guest.',
      resolve: (member) => member.role,
    }),
    user: t.field({
      type: User,
      // Every member of a page in one statement, whatever the page size.
      resolve: async (member, _args, ctx) => {
        return batchedRowById<UserRow>(ctx, 'User', member.userId);
      },
    }),
    disabled: t.boolean({ resolve: (member) => member.disabled }),
    joinedAt: t.field({ type: 'DateTime', resolve: (member) => member.joinedAt }),
    lastSeenAt: t.field({ type: 'DateTime', nullable: true, resolve: (member) => member.lastSeenAt }),
    sso: t.boolean({ description: 'Whether the member signs in through the organization’s SSO.', resolve: (member) => member.sso }),
    spaceCount: t.int({
      description: 'Spaces granted to the member, directly or through their teams.',
      resolve: async (member, _args, ctx) => (await memberCountsAnnotation.of(ctx, member)).spaces,
    }),
    teamCount: t.int({
      description: 'Teams the member belongs to.',
      resolve: async (member, _args, ctx) => (await memberCountsAnnotation.of(ctx, member)).teams,
    }),
    siteCount: t.int({
      description: 'Sites shared with the member. Sites arrive with their own domain; until then no site can be shared, so 0.',
      resolve: () => 0,
    }),
  }),
});

export const MemberList = listOf('Member', Member);

export const MemberRoleFilterEnum = restEnum(
  'MemberRoleFilter',
  { ...Object.fromEntries(Object.values(MemberRole).map((role) => [role, role])), guest: 'guest' } as Record<MemberRole | 'guest', string>,
  'A role, or guest for members without one.',
);
export const MemberSortEnum = restEnum('MemberSort', { joinedAt: 'joinedAt', lastSeenAt: 'lastSeenAt', name: 'name' });
export const ListOrderEnum = restEnum('ListOrder', { asc: 'asc', desc: 'desc' });

interface MemberListArgs {
  role?: MemberRole | 'guest' | null;
  search?: string | null;
  sort?: 'joinedAt' | 'lastSeenAt' | 'name' | null;
  order?: 'asc' | 'desc' | null;
}

const organizationMembers: ListSource<MemberRow, MemberListArgs> = {
  table: 'Member',
  parentColumn: 'organizationId',
  idColumn: 'userId',
  // Users without a last visit sort as the oldest; names case-insensitively; the user id breaks ties.
  orderBy: (args) => [
    args.sort === 'name'
      ? byMemberName[0]
      : args.sort === 'lastSeenAt'
        ? { column: 'lastSeenAt', type: 'timestamptz', expression: Prisma.sql`COALESCE(t."lastSeenAt", 'epoch'::timestamptz)` }
        : { column: 'joinedAt', type: 'timestamptz' },
    { column: 'userId', type: 'text' },
  ],
  descending: (args) => args.order !== 'asc',
  where: (_ctx, args) => {
    const role =
      args.role === 'guest'
        ? Prisma.sql`AND t.role IS NULL`
        : args.role
          ? Prisma.sql`AND t.role = ${args.role}::"MemberRole"`
          : Prisma.empty;
    const search = args.search
      ? Prisma.sql`AND EXISTS (SELECT 1 FROM "User" u WHERE u.id = t."userId"
          AND (u."displayName" ILIKE ${containsPattern(args.search)} OR u.email ILIKE ${containsPattern(args.search)}))`
      : Prisma.empty;
    return Prisma.sql`TRUE ${role} ${search}`;
  },
  scope: (organizationId, args) =>
    `members:${organizationId}:${args.role ?? ''}:${args.search ?? ''}:${args.sort ?? 'joinedAt'}:${args.order ?? 'desc'}`,
  annotations: [memberCountsAnnotation],
};

builder.objectFields(Organization, (t) => ({
  members: t.field({
    type: MemberList,
    description: 'Members of the organization, guests included: newest first by default.',
    args: {
      ...listArgs,
      role: t.arg({ type: MemberRoleFilterEnum, description: 'Only members with this role (guest: without one).' }),
      search: t.arg.string({
        description: 'Only members whose name or e-mail contains this text (at most 256 characters).',
        validate: z.string().max(256),
      }),
      sort: t.arg({ type: MemberSortEnum, description: 'joinedAt (default), lastSeenAt or name.' }),
      order: t.arg({ type: ListOrderEnum, description: 'desc (default) or asc.' }),
    },
    resolve: async (org, args, ctx, info) => {
      await authorize(ctx, organizations, org.id, 'listMembers');
      return listPage(organizationMembers, ctx, info, org.id, args);
    },
  }),
  member: t.field({
    type: Member,
    description: 'One member, by user id: any member for members with a role, themselves for a guest.',
    args: { userId: t.arg.id({ required: true }) },
    resolve: async (org, args, ctx) => (await authorize(ctx, members, { id: args.userId, parent: org.id }, 'view')).row,
  }),
}));
