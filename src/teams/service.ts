// Creating, renaming and deleting teams, and changing their members. Organization admins manage every team; a team's
// owners manage its title and members; only admins create and delete teams.
import { Prisma } from '../generated/prisma/client.js';
import type { TeamRole } from '../generated/prisma/enums.js';
import { authorize, organizations } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { teams } from './access.js';

/**
 * The users that `references` (user ids or e-mail addresses) name among the organization's members, in one statement;
 * a reference to anyone else is a 400 naming `field`.
 */
async function membersNamed(
  ctx: Context,
  organizationId: string,
  references: readonly string[],
  field: string,
): Promise<Map<string, string>> {
  if (!references.length) return new Map();
  const rows = await ctx.sql<{ reference: string; userId: string }>(Prisma.sql`
    SELECT r.reference, m."userId" FROM unnest(${[...references]}::text[]) AS r(reference)
      JOIN "User" u ON u.id = r.reference OR u.email = lower(r.reference)
      JOIN "Member" m ON m."userId" = u.id AND m."organizationId" = ${organizationId}`);
  const found = new Map(rows.map((row) => [row.reference, row.userId]));
  const unknown = references.find((reference) => !found.has(reference));
  if (unknown !== undefined) throw badRequest(`Invalid "${field}": ${JSON.stringify(unknown)} is not a member of this organization.`);
  return found;
}

export async function createTeam(ctx: Context, organizationId: string, input: { title: string; members?: string[] | null }) {
  await authorize(ctx, organizations, organizationId, 'admin');
  const members = await membersNamed(ctx, organizationId, input.members ?? [], 'members');
  const id = newId();
  await ctx.prisma.$transaction([
    ctx.prisma.team.create({ data: { id, organizationId, title: input.title }, select: { id: true } }),
    ctx.prisma.teamMember.createMany({
      data: [...new Set(members.values())].map((userId) => ({ teamId: id, organizationId, userId })),
    }),
  ]);
  return id;
}

/** Renames a team; returns its row as loaded for the check, renamed, so its level and counters need no new read. */
export async function renameTeam(ctx: Context, organizationId: string, teamId: string, title: string) {
  const { row: team } = await authorize(ctx, teams, { id: teamId, parent: organizationId }, 'admin');
  await ctx.prisma.team.update({ where: { id: teamId }, data: { title }, select: { id: true } });
  team.title = title;
  return team;
}

/** Deletes a team with its memberships and grants (by cascade); SSO providers that added people to it stop doing so. */
export async function deleteTeam(ctx: Context, organizationId: string, teamId: string): Promise<void> {
  await authorize(ctx, organizations, organizationId, 'admin');
  await authorize(ctx, teams, { id: teamId, parent: organizationId }, 'view');
  await ctx.prisma.team.delete({ where: { id: teamId }, select: { id: true } });
}

export interface TeamMembersChange {
  add?: string[] | null;
  remove?: string[] | null;
  memberships?: Record<string, { role: TeamRole }> | null;
}

/** Adds, removes and re-roles members in one transaction; a user both added and removed is removed. */
export async function changeTeamMembers(ctx: Context, organizationId: string, teamId: string, change: TeamMembersChange): Promise<void> {
  await authorize(ctx, teams, { id: teamId, parent: organizationId }, 'admin');
  const add = await membersNamed(ctx, organizationId, change.add ?? [], 'add');
  const remove = new Set((await membersNamed(ctx, organizationId, change.remove ?? [], 'remove')).values());
  const roles = Object.entries(change.memberships ?? {});
  const known = await membersNamed(
    ctx,
    organizationId,
    roles.map(([userId]) => userId),
    'memberships',
  );
  const adding = [...new Set(add.values())].filter((userId) => !remove.has(userId));
  await ctx.prisma.$transaction(async (tx) => {
    if (adding.length) {
      await tx.teamMember.createMany({ data: adding.map((userId) => ({ teamId, organizationId, userId })), skipDuplicates: true });
    }
    if (remove.size) await tx.teamMember.deleteMany({ where: { teamId, userId: { in: [...remove] } } });
    for (const [reference, { role }] of roles) {
      const userId = known.get(reference)!;
      if (remove.has(userId)) continue;
      const { count } = await tx.teamMember.updateMany({ where: { teamId, userId }, data: { role } });
      if (count === 0) throw badRequest(`Invalid "memberships": ${JSON.stringify(reference)} is not a member of this team.`);
    }
  });
}

/** Adds a member of the organization to the team, or changes their role there. */
export async function setTeamMember(ctx: Context, organizationId: string, teamId: string, userId: string, role?: TeamRole | null) {
  await authorize(ctx, teams, { id: teamId, parent: organizationId }, 'admin');
  const [member] = await ctx.sql<{ userId: string }>(
    Prisma.sql`SELECT "userId" FROM "Member" WHERE "organizationId" = ${organizationId} AND "userId" = ${userId}`,
  );
  if (!member) throw notFound('Member');
  await ctx.prisma.teamMember.upsert({
    where: { teamId_userId: { teamId, userId } },
    create: { teamId, organizationId, userId, role: role ?? 'member' },
    update: role ? { role } : {},
    select: { userId: true },
  });
}

export async function removeTeamMember(ctx: Context, organizationId: string, teamId: string, userId: string): Promise<void> {
  await authorize(ctx, teams, { id: teamId, parent: organizationId }, 'admin');
  const { count } = await ctx.prisma.teamMember.deleteMany({ where: { teamId, userId } });
  if (count === 0) throw notFound('Team member');
}
