// The Team type, the team-member item, and the lists of an organization's teams, a team's members and a member's teams.
import { z } from 'zod';
import type { Member as MemberRow, TeamMember as TeamMemberRow, Team as TeamRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { TeamRole } from '../generated/prisma/enums.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { authorize, organizations } from '../kernel/authorize.js';
import { builder, permissionsFor, permissionsType, prismaEnum } from '../kernel/builder.js';
import { loaderFor } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import { containsPattern, type ListSource } from '../kernel/lists.js';
import { permissionsOf, policies } from '../kernel/permissions.js';
import { batchedRowById } from '../kernel/rows.js';
import { Member } from '../members/types.js';
import { Organization } from '../organizations/types.js';
import { teamLevelAnnotation, teamMembers, teams } from './access.js';

export const TeamRoleEnum = prismaEnum('TeamRole', TeamRole, 'owner: manages the team’s members; member: belongs to it.');

/** Members of each team, and spaces granted to it: one statement per page. */
const teamCountsAnnotation = rowAnnotation<TeamRow, { members: number; spaces: number }>('team counts', async (ctx, rows) => {
  const ids = rows.map((row) => row.id);
  const counts = await ctx.sql<{ id: string; members: number; spaces: number }>(Prisma.sql`
    SELECT t.id,
      (SELECT count(*)::int FROM "TeamMember" tm WHERE tm."teamId" = t.id) AS members,
      (SELECT count(DISTINCT g."spaceId")::int FROM "ContentGrant" g WHERE g."teamId" = t.id AND g."spaceId" IS NOT NULL) AS spaces
    FROM unnest(${ids}::text[]) AS t(id)`);
  const byId = new Map(counts.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? { members: 0, spaces: 0 });
});

const TeamPermissions = permissionsType('TeamPermissions', policies.team);

export const Team = builder.objectRef<TeamRow>('Team').implement({
  access: teams,
  description: 'A group of an organization’s members, who can be given access to content together.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'team' }),
    id: t.exposeID('id'),
    etag: t.string(etagField(tagOf)),
    title: t.exposeString('title'),
    memberCount: t.int({
      description: 'Members of the team.',
      resolve: async (team, _args, ctx) => (await teamCountsAnnotation.of(ctx, team)).members,
    }),
    spaceCount: t.int({
      description: 'Spaces the team has been granted access to.',
      resolve: async (team, _args, ctx) => (await teamCountsAnnotation.of(ctx, team)).spaces,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    permissions: t.field({
      type: TeamPermissions,
      resolve: (team, _args, ctx) => permissionsFor(ctx, policies.team, teamLevelAnnotation.of(ctx, team)),
    }),
  }),
});
export const TeamList = listOf('Team', Team);

const TeamMembership = builder.objectRef<{ role: TeamMemberRow['role'] }>('TeamMembership').implement({
  description: 'A user’s standing in a team.',
  fields: (t) => ({ role: t.field({ type: TeamRoleEnum, resolve: (membership) => membership.role }) }),
});
const TeamMemberPermissions = permissionsType('TeamMemberPermissions', policies.teamMember);

const memberLoader = Symbol('members by organization and user');

export const TeamMember = builder.objectRef<TeamMemberRow>('TeamMember').implement({
  access: teamMembers,
  description: 'A member of a team, with their membership of the organization.',
  fields: (t) => ({
    organization: t.field({
      type: Member,
      description: 'The member, as a member of the organization.',
      // Every member of a page in one statement.
      resolve: async (row, _args, ctx) => {
        const member = await loaderFor<string, MemberRow | undefined>(ctx, memberLoader, async (keys) => {
          const pairs = keys.map((key) => key.split(':'));
          const rows = await ctx.sql<MemberRow>(Prisma.sql`
            SELECT m.* FROM "Member" m JOIN unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[]) AS k(org, usr)
              ON m."organizationId" = k.org AND m."userId" = k.usr`);
          const byKey = new Map(rows.map((m) => [`${m.organizationId}:${m.userId}`, m]));
          return keys.map((key) => byKey.get(key));
        }).load(`${row.organizationId}:${row.userId}`);
        if (!member) throw notFound('Member');
        return member;
      },
    }),
    team: t.field({ type: TeamMembership, resolve: (row) => ({ role: row.role }) }),
    // Whoever can list a team's members can see each of them.
    permissions: t.field({ type: TeamMemberPermissions, resolve: () => permissionsOf(policies.teamMember, 'read') }),
  }),
});
export const TeamMemberList = listOf('TeamMember', TeamMember);

const byTitle = [
  { column: 'title', type: 'text', expression: Prisma.sql`lower(t.title)` },
  { column: 'id', type: 'text' },
] as const;

interface TeamListArgs {
  title?: string | null;
  owner?: string | null;
}

const titleFilter = (title: string | null | undefined) => (title ? Prisma.sql`AND t.title ILIKE ${containsPattern(title)}` : Prisma.empty);

const organizationTeams: ListSource<TeamRow, TeamListArgs> = {
  table: 'Team',
  parentColumn: 'organizationId',
  orderBy: byTitle,
  // `owner`: the teams that member can manage: all of them for an admin of the organization, else those they own.
  where: (_ctx, args) =>
    Prisma.sql`TRUE ${titleFilter(args.title)} ${
      args.owner
        ? Prisma.sql`AND (EXISTS (SELECT 1 FROM "TeamMember" tm WHERE tm."teamId" = t.id AND tm."userId" = ${args.owner} AND tm.role = 'owner')
            OR EXISTS (SELECT 1 FROM "Member" m WHERE m."organizationId" = t."organizationId" AND m."userId" = ${args.owner}
                        AND m.role = 'admin' AND NOT m.disabled))`
        : Prisma.empty
    }`,
  scope: (organizationId, args) => `teams:${organizationId}:${args.title ?? ''}:${args.owner ?? ''}`,
  annotations: [teamLevelAnnotation, teamCountsAnnotation],
};

const membersOfTeam: ListSource<TeamMemberRow> = {
  table: 'TeamMember',
  parentColumn: 'teamId',
  idColumn: 'userId',
  orderBy: [
    { column: 'createdAt', type: 'timestamptz' },
    { column: 'userId', type: 'text' },
  ],
  where: () => Prisma.sql`TRUE`,
  scope: (teamId) => `team-members:${teamId}`,
};

builder.objectFields(Organization, (t) => ({
  teams: t.field({
    type: TeamList,
    description: 'Teams of the organization, by title.',
    args: {
      ...listArgs,
      title: t.arg.string({ description: 'Only teams whose title contains this text, case-insensitively.', validate: z.string().max(64) }),
      owner: t.arg.id({ description: 'A member’s user id: only the teams they can manage.' }),
    },
    resolve: async (org, args, ctx, info) => {
      await authorize(ctx, organizations, org.id, 'listTeams');
      return listPage(organizationTeams, ctx, info, org.id, args);
    },
  }),
  team: t.field({
    type: Team,
    args: { teamId: t.arg.id({ required: true }) },
    resolve: async (org, args, ctx) => (await authorize(ctx, teams, { id: args.teamId, parent: org.id }, 'view')).row,
  }),
}));

builder.objectField(Team, 'members', (t) =>
  t.field({
    type: TeamMemberList,
    description: 'Members of the team, in the order they joined it.',
    args: listArgs,
    resolve: (team, args, ctx, info) => listPage(membersOfTeam, ctx, info, team.id, args),
  }),
);

const MemberTeam = builder.objectRef<TeamMemberRow>('MemberTeam').implement({
  description: 'A team a member belongs to, with their role in it.',
  fields: (t) => ({
    team: t.field({ type: Team, resolve: (row, _args, ctx) => batchedRowById<TeamRow>(ctx, 'Team', row.teamId) }),
    member: t.field({ type: TeamMembership, resolve: (row) => ({ role: row.role }) }),
  }),
});
const MemberTeamList = listOf('MemberTeam', MemberTeam);

/** A member's teams, by title: the parent key is `organizationId:userId` (ids hold no colon). */
const memberTeams: ListSource<TeamMemberRow, TeamListArgs> = {
  table: 'TeamMember',
  ofParent: (parent) => Prisma.sql`t."organizationId" = split_part(${parent}, ':', 1) AND t."userId" = split_part(${parent}, ':', 2)`,
  idColumn: 'teamId',
  orderBy: [
    { column: 'title', type: 'text', expression: Prisma.sql`(SELECT lower(tt.title) FROM "Team" tt WHERE tt.id = t."teamId")` },
    { column: 'teamId', type: 'text' },
  ],
  where: (_ctx, args) =>
    args.title
      ? Prisma.sql`EXISTS (SELECT 1 FROM "Team" tt WHERE tt.id = t."teamId" AND tt.title ILIKE ${containsPattern(args.title)})`
      : Prisma.sql`TRUE`,
  scope: (key, args) => `member-teams:${key}:${args.title ?? ''}`,
};

builder.objectField(Member, 'teams', (t) =>
  t.field({
    type: MemberTeamList,
    description: 'Teams the member belongs to, by title.',
    args: {
      ...listArgs,
      title: t.arg.string({ description: 'Only teams whose title contains this text, case-insensitively.', validate: z.string().max(64) }),
    },
    resolve: async (member, args, ctx, info) => {
      await authorize(ctx, organizations, member.organizationId, 'listTeams');
      return listPage(memberTeams, ctx, info, `${member.organizationId}:${member.userId}`, args);
    },
  }),
);
