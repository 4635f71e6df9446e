// How a request reaches teams: through the viewer's role in their organization, or as an owner of the team
// (policies.team), and a team's members through the team.
import { Prisma, type TeamMember as TeamMemberRow, type Team as TeamRow } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { type Guard, inheritedLevel, type Resource, rowsOfTable } from '../kernel/authorize.js';
import { type Level, policies, teamLevel } from '../kernel/permissions.js';

/** The viewer's level on teams: the organization's, or admin on the teams they own. One statement per batch. */
export const teamLevelAnnotation = rowAnnotation<TeamRow, Level>('team level', async (ctx, rows) => {
  const owned = await ctx.sql<{ teamId: string }>(Prisma.sql`
    SELECT "teamId" FROM "TeamMember"
     WHERE "userId" = ${ctx.viewer.userId} AND role = 'owner' AND "teamId" = ANY(${rows.map((row) => row.id)}::text[])`);
  const owns = new Set(owned.map((row) => row.teamId));
  const members = await ctx.membership.loadMany(rows.map((row) => row.organizationId));
  return rows.map((row, i) => {
    const member = members[i];
    return teamLevel(member instanceof Error ? undefined : member, owns.has(row.id));
  });
});

export const teams: Resource<TeamRow, typeof policies.team> = {
  kind: 'Team',
  policy: policies.team,
  loadMany: rowsOfTable('Team'),
  level: teamLevelAnnotation,
  parentKey: 'organizationId',
};

/** A team's memberships, seen by whoever sees the team. */
export const teamMembers: Guard<TeamMemberRow> = {
  kind: 'Team member',
  policy: policies.teamMember,
  level: inheritedLevel('team member level', teams, (row) => row.teamId),
};
