// Creating, renaming and deleting teams, and changing their members. Organization admins manage every team; a team's
// owners manage its title and members; only admins create and delete teams.
import { Prisma } from '../generated/prisma/client.js';
import type { TeamRole } from '../generated/prisma/enums.js';
import { authorize, organizations } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, notFound } from '../kernel/errors.js';
import { lockIfMatch } from '../kernel/etags.js';
import { type ChangeEvent, changedFields, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { teams } from './access.js';

/** An event about the team. */
const teamEvent = (
  action: string,
  team: { id: string; organizationId: string; title: string },
  payload?: Record<string, unknown>,
): ChangeEvent => ({
  action,
  organizationId: team.organizationId,
  target: { type: 'team', id: team.id, label: team.title },
  ...(payload && { payload }),
});

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
  const userIds = [...new Set(members.values())];
  await ctx.prisma.$transaction(async (tx) => {
    await tx.team.create({ data: { id, organizationId, title: input.title }, select: { id: true } });
    await tx.teamMember.createMany({ data: userIds.map((userId) => ({ teamId: id, organizationId, userId })) });
    await recordEvents(tx, ctx, [teamEvent('team_created', { id, organizationId, title: input.title }, { members: userIds })]);
  });
  return id;
}

/** Renames a team; returns its row as loaded for the check, renamed, so its level and counters need no new read. */
export async function renameTeam(ctx: Context, organizationId: string, teamId: string, title: string) {
  const { row: team } = await authorize(ctx, teams, { id: teamId, parent: organizationId }, 'admin');
  const changed = changedFields(team, { title });
  if (!Object.keys(changed).length) return team;
  const renamed = await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Team', teamId);
    const row = await tx.team.update({ where: { id: teamId }, data: { title } });
    await recordEvents(tx, ctx, [teamEvent('team_updated', row, { changed })]);
    return row;
  });
  // The row read, now as written (its new title and version): what it is annotated with (its counts) still holds.
  return Object.assign(team, renamed);
}

/** Deletes a team with its memberships and grants (by cascade); SSO providers that added people to it stop doing so. */
export async function deleteTeam(ctx: Context, organizationId: string, teamId: string): Promise<void> {
  await authorize(ctx, organizations, organizationId, 'admin');
  const { row: team } = await authorize(ctx, teams, { id: teamId, parent: organizationId }, 'view');
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'Team', teamId);
    await tx.team.delete({ where: { id: teamId }, select: { id: true } });
    await recordEvents(tx, ctx, [teamEvent('team_deleted', team)]);
  });
}

export interface TeamMembersChange {
  add?: string[] | null;
  remove?: string[] | null;
  memberships?: Record<string, { role: TeamRole }> | null;
}

/** Adds, removes and re-roles members in one transaction; a user both added and removed is removed. */
export async function changeTeamMembers(ctx: Context, organizationId: string, teamId: string, change: TeamMembersChange): Promise<void> {
  const { row: team } = await authorize(ctx, teams, { id: teamId, parent: organizationId }, 'admin');
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
    const added = adding.length
      ? await tx.teamMember.createManyAndReturn({
          data: adding.map((userId) => ({ teamId, organizationId, userId })),
          skipDuplicates: true,
          select: { userId: true },
        })
      : [];
    const removed = remove.size
      ? await tx.$queryRaw<{ userId: string }[]>`
          DELETE FROM "TeamMember" WHERE "teamId" = ${teamId} AND "userId" = ANY(${[...remove]}::text[]) RETURNING "userId"`
      : [];
    const roled: Record<string, TeamRole> = {};
    for (const [reference, { role }] of roles) {
      const userId = known.get(reference)!;
      if (remove.has(userId)) continue;
      const { count } = await tx.teamMember.updateMany({ where: { teamId, userId }, data: { role } });
      if (count === 0) throw badRequest(`Invalid "memberships": ${JSON.stringify(reference)} is not a member of this team.`);
      roled[userId] = role;
    }
    // What was asked and changed: members already there are not added again, nor absent ones removed.
    const change = { added: added.map((m) => m.userId), removed: removed.map((m) => m.userId), roles: roled };
    if (change.added.length || change.removed.length || roles.length) {
      await recordEvents(tx, ctx, [teamEvent('team_members_updated', team, change)]);
    }
  });
}

/** Adds a member of the organization to the team, or changes their role there. */
export async function setTeamMember(ctx: Context, organizationId: string, teamId: string, userId: string, role?: TeamRole | null) {
  const { row: team } = await authorize(ctx, teams, { id: teamId, parent: organizationId }, 'admin');
  const [member] = await ctx.sql<{ userId: string }>(
    Prisma.sql`SELECT "userId" FROM "Member" WHERE "organizationId" = ${organizationId} AND "userId" = ${userId}`,
  );
  if (!member) throw notFound('Member');
  await ctx.prisma.$transaction(async (tx) => {
    // Answers a row only when it wrote one (`added`: inserted), so that a role set again records nothing.
    const [written] = await tx.$queryRaw<{ added: boolean; role: TeamRole }[]>`
      INSERT INTO "TeamMember" ("teamId", "organizationId", "userId", role)
      VALUES (${teamId}, ${organizationId}, ${userId}, ${role ?? 'member'}::"TeamRole")
      ON CONFLICT ("teamId", "userId") DO UPDATE SET role = EXCLUDED.role
       WHERE ${role ?? null}::"TeamRole" IS NOT NULL AND "TeamMember".role <> EXCLUDED.role
      RETURNING xmax = 0 AS added, role`;
    if (!written) return;
    const action = written.added ? 'team_member_added' : 'team_member_role_updated';
    await recordEvents(tx, ctx, [teamEvent(action, team, { userId, role: written.role })]);
  });
}

export async function removeTeamMember(ctx: Context, organizationId: string, teamId: string, userId: string): Promise<void> {
  const { row: team } = await authorize(ctx, teams, { id: teamId, parent: organizationId }, 'admin');
  await ctx.prisma.$transaction(async (tx) => {
    const { count } = await tx.teamMember.deleteMany({ where: { teamId, userId } });
    if (count === 0) throw notFound('Team member');
    await recordEvents(tx, ctx, [teamEvent('team_member_removed', team, { userId })]);
  });
}
