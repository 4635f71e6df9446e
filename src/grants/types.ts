// Who has access to a space or collection: the users and teams it was granted to (with their role), everyone who can
// access it whatever the reason (the aggregate), and from the other side, the spaces a member can access. Each list is
// one statement per page: the levels are computed in it (memberLevelSql), not per row.

import { Collection } from '../collections/types.js';
import type { Space as SpaceRow, Team as TeamRow, User as UserRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import type { MemberRole } from '../generated/prisma/enums.js';
import { authorize, organizations } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { memberLevelSql, visibleToViewerSql } from '../kernel/permissions.js';
import { batchedRowById } from '../kernel/rows.js';
import { byMemberName } from '../members/access.js';
import { ListOrderEnum, Member } from '../members/types.js';
import { Space } from '../spaces/types.js';
import { Team } from '../teams/types.js';
import { User } from '../users/types.js';
import { type ContentKind, contentKinds } from './access.js';

interface UserPermissionRow {
  userId: string;
  permission: MemberRole;
}
interface TeamPermissionRow {
  teamId: string;
  permission: MemberRole;
}
type SpacePermissionRow = SpaceRow & { permission: MemberRole };

const UserContentPermission = builder.objectRef<UserPermissionRow>('UserContentPermission').implement({
  description: 'A user’s role on a collection or space.',
  fields: (t) => ({
    permission: t.field({ type: MemberRoleEnum, resolve: (row) => row.permission }),
    user: t.field({ type: User, resolve: (row, _args, ctx) => batchedRowById<UserRow>(ctx, 'User', row.userId) }),
  }),
});
const UserContentPermissionList = listOf('UserContentPermission', UserContentPermission);

const TeamContentPermission = builder.objectRef<TeamPermissionRow>('TeamContentPermission').implement({
  description: 'A team’s role on a collection or space.',
  fields: (t) => ({
    permission: t.field({ type: MemberRoleEnum, resolve: (row) => row.permission }),
    team: t.field({ type: Team, resolve: (row, _args, ctx) => batchedRowById<TeamRow>(ctx, 'Team', row.teamId) }),
  }),
});
const TeamContentPermissionList = listOf('TeamContentPermission', TeamContentPermission);

const MemberContentPermission = builder.objectRef<SpacePermissionRow>('MemberContentPermission').implement({
  description: 'A space a member can access, with their level on it.',
  fields: (t) => ({
    permission: t.field({ type: MemberRoleEnum, resolve: (row) => row.permission }),
    space: t.field({ type: Space, resolve: (row) => row }),
  }),
});
const MemberContentPermissionList = listOf('MemberContentPermission', MemberContentPermission);

const byCreation = [
  { column: 'createdAt', type: 'timestamptz' },
  { column: 'id', type: 'text' },
] as const;

/** The grants of one kind of grantee on a piece of content, oldest first. */
function grantsTo(kind: ContentKind, grantee: 'userId' | 'teamId'): ListSource<UserPermissionRow & TeamPermissionRow> {
  return {
    table: 'ContentGrant',
    parentColumn: contentKinds[kind].grantColumn,
    orderBy: byCreation,
    where: () => Prisma.sql`t.${Prisma.raw(`"${grantee}"`)} IS NOT NULL`,
    computed: () => ({ permission: Prisma.sql`t.role` }),
    scope: (id) => `grants:${kind}:${grantee}:${id}`,
  };
}

/** The level of the member aliased `t` on the content whose id is the list's parent key. */
function levelOnParent(kind: ContentKind, parent: Prisma.Sql): Prisma.Sql {
  const table = Prisma.raw(`"${contentKinds[kind].table}"`);
  return memberLevelSql('t', parent, Prisma.sql`(SELECT c."effectiveLevel" FROM ${table} c WHERE c.id = ${parent})`);
}

/** Everyone who can access the content, with their level (by role, default level and grants), by name. */
function accessibleBy(kind: ContentKind): ListSource<UserPermissionRow, { role?: MemberRole | null }> {
  const table = Prisma.raw(`"${contentKinds[kind].table}"`);
  return {
    table: 'Member',
    ofParent: (parent) => Prisma.sql`t."organizationId" = (SELECT c."organizationId" FROM ${table} c WHERE c.id = ${parent})`,
    idColumn: 'userId',
    orderBy: byMemberName,
    where: (_ctx, args, parent) =>
      args.role
        ? Prisma.sql`${levelOnParent(kind, parent)} = ${args.role}::"MemberRole"`
        : Prisma.sql`${levelOnParent(kind, parent)} IS NOT NULL`,
    computed: (parent) => ({ permission: levelOnParent(kind, parent) }),
    scope: (id, args) => `access:${kind}:${id}:${args.role ?? ''}`,
  };
}

/** The grant lists of a kind of content, as fields of its type. */
function permissionFields(kind: ContentKind) {
  const usersGranted = grantsTo(kind, 'userId');
  const teamsGranted = grantsTo(kind, 'teamId');
  const everyone = accessibleBy(kind);
  const lower = kind.toLowerCase();
  // The content's own resolver has checked that the viewer can see it; whoever sees it sees who else does.
  // Who else may reach the content, and which teams, are the organization's people: for its members with a role
  // (listMembers), not for guests, who see the users granted access by name and photo alone.
  const people = (ctx: Context, content: { organizationId: string }) =>
    authorize(ctx, organizations, content.organizationId, 'listMembers');
  return (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { id: string; organizationId: string }>) => ({
    userPermissions: t.field({
      type: UserContentPermissionList,
      description: `Users granted a role on this ${lower}, oldest grant first.`,
      args: listArgs,
      resolve: (content, args, ctx, info) => listPage(usersGranted, ctx, info, content.id, args),
    }),
    teamPermissions: t.field({
      type: TeamContentPermissionList,
      description: `Teams granted a role on this ${lower}, oldest grant first: for the organization's members with a role.`,
      args: listArgs,
      resolve: async (content, args, ctx, info) => {
        await people(ctx, content);
        return listPage(teamsGranted, ctx, info, content.id, args);
      },
    }),
    permissionsAggregate: t.field({
      type: UserContentPermissionList,
      description: `Every member who can access this ${lower} and their level (by role, default levels and grants), by name: for the organization's members with a role.`,
      args: { ...listArgs, role: t.arg({ type: MemberRoleEnum, description: 'Only members with this level on it.' }) },
      resolve: async (content, args, ctx, info) => {
        await people(ctx, content);
        return listPage(everyone, ctx, info, content.id, args);
      },
    }),
  });
}
builder.objectFields(Space, permissionFields('Space'));
builder.objectFields(Collection, permissionFields('Collection'));

/** A member's level on a space of the list, whose parent key is `organizationId:userId`. */
const memberLevelOnSpace = (parent: Prisma.Sql) =>
  Prisma.sql`(SELECT ${memberLevelSql('m', Prisma.sql`t.id`, Prisma.sql`t."effectiveLevel"`)} FROM "Member" m
      WHERE m."organizationId" = t."organizationId" AND m."userId" = split_part(${parent}, ':', 2))`;

/** The live spaces a member can access that the viewer can see too, newest first by default. */
const memberSpaces: ListSource<SpacePermissionRow, { order?: 'asc' | 'desc' | null }> = {
  table: 'Space',
  ofParent: (parent) => Prisma.sql`t."organizationId" = split_part(${parent}, ':', 1)`,
  orderBy: byCreation,
  descending: (args) => args.order !== 'asc',
  where: (ctx, _args, parent) =>
    Prisma.sql`t."deletedAt" IS NULL AND ${visibleToViewerSql(ctx.viewer)} AND ${memberLevelOnSpace(parent)} IS NOT NULL`,
  computed: (parent) => ({ permission: memberLevelOnSpace(parent) }),
  scope: (key, args) => `member-spaces:${key}:${args.order ?? 'desc'}`,
};

builder.objectField(Member, 'spaces', (t) =>
  t.field({
    type: MemberContentPermissionList,
    description: 'Spaces the member can access (that the viewer can see too), with their level: newest first by default.',
    args: { ...listArgs, order: t.arg({ type: ListOrderEnum, description: 'desc (default) or asc, by creation.' }) },
    resolve: async (member, args, ctx, info) => {
      await authorize(ctx, organizations, member.organizationId, 'listMembers');
      return listPage(memberSpaces, ctx, info, `${member.organizationId}:${member.userId}`, args);
    },
  }),
);
