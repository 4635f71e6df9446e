// Changing and ending memberships, with the organization's invariants: it keeps at least one admin, and roles are
// given by admins only (so nobody raises their own).
import { Prisma } from '../generated/prisma/client.js';
import type { MemberRole } from '../generated/prisma/enums.js';
import { authorize } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { conflict, notFound } from '../kernel/errors.js';
import { lockIfMatchBy } from '../kernel/etags.js';
import { type ChangeEvent, recordEvents } from '../kernel/events.js';
import { members, memberTag } from './access.js';

type Transaction = Prisma.TransactionClient;

/** An event about a membership: its target is the member's user, labelled with their name as it is now. */
const memberEvent = (
  action: string,
  member: { organizationId: string; userId: string; displayName: string | null },
  payload?: Record<string, unknown>,
): ChangeEvent => ({
  action,
  organizationId: member.organizationId,
  target: { type: 'user', id: member.userId, label: member.displayName },
  ...(payload && { payload }),
});

/** The member's user's name, read by the statement that writes the membership (RETURNING). */
const displayName = Prisma.sql`(SELECT u."displayName" FROM "User" u WHERE u.id = "Member"."userId") AS "displayName"`;

/**
 * Locks the organization's memberships for the rest of the transaction and refuses the change when it would leave no
 * enabled admin. Two admins demoting each other at once are serialised here: the second sees the first's change.
 */
async function keepAnAdmin(tx: Transaction, organizationId: string, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Organization" WHERE id = ${organizationId} FOR UPDATE`;
  const [{ others }] = await tx.$queryRaw<{ others: number }[]>`
    SELECT count(*)::int AS others FROM "Member"
     WHERE "organizationId" = ${organizationId} AND role = 'admin' AND NOT disabled AND "userId" <> ${userId}`;
  if (others === 0) throw conflict('An organization keeps at least one admin: make another member admin first.');
}

/** Locks the membership in the write's transaction and checks the request's If-Match against its tag. */
const lockMemberIfMatch = (tx: Transaction, ctx: Context, organizationId: string, userId: string) =>
  lockIfMatchBy(
    tx,
    ctx,
    'Member',
    Prisma.sql`SELECT "userId", "joinedAt", "rowVersion" FROM "Member"
                WHERE "organizationId" = ${organizationId} AND "userId" = ${userId} FOR UPDATE`,
    memberTag,
  );

export async function updateMember(ctx: Context, organizationId: string, userId: string, role: MemberRole | null | undefined) {
  const { row: member } = await authorize(ctx, members, { id: userId, parent: organizationId }, 'admin');
  if (role === undefined || role === member.role) return;
  await ctx.prisma.$transaction(async (tx) => {
    await lockMemberIfMatch(tx, ctx, organizationId, userId);
    if (member.role === 'admin') await keepAnAdmin(tx, organizationId, userId);
    const [updated] = await tx.$queryRaw<{ displayName: string }[]>`
      UPDATE "Member" SET role = ${role}::"MemberRole" WHERE "organizationId" = ${organizationId} AND "userId" = ${userId}
      RETURNING ${displayName}`;
    if (!updated) throw notFound('Member');
    await recordEvents(tx, ctx, [
      memberEvent('member_role_updated', { organizationId, userId, ...updated }, { role: { from: member.role, to: role } }),
    ]);
  });
}

/** Marks a member as signing in through SSO (GitBook's setUserAsSSOMemberForOrganization); idempotent. */
export async function setMemberSSO(ctx: Context, organizationId: string, userId: string): Promise<void> {
  const { row: member } = await authorize(ctx, members, { id: userId, parent: organizationId }, 'admin');
  if (member.sso) return;
  await ctx.prisma.$transaction(async (tx) => {
    const [updated] = await tx.$queryRaw<{ displayName: string }[]>`
      UPDATE "Member" SET sso = true WHERE "organizationId" = ${organizationId} AND "userId" = ${userId} RETURNING ${displayName}`;
    if (!updated) throw notFound('Member');
    await recordEvents(tx, ctx, [memberEvent('member_sso_set', { organizationId, userId, ...updated })]);
  });
}

/**
 * Removes a member (an admin removes anyone; a member may leave), with their team memberships (by cascade) and the
 * content grants made to them in this organization, in one transaction.
 */
export async function removeMember(ctx: Context, organizationId: string, userId: string): Promise<void> {
  const { row: member } = await authorize(ctx, members, { id: userId, parent: organizationId }, 'remove');
  await ctx.prisma.$transaction(async (tx) => {
    await lockMemberIfMatch(tx, ctx, organizationId, userId);
    if (member.role === 'admin') await keepAnAdmin(tx, organizationId, userId);
    await tx.contentGrant.deleteMany({ where: { organizationId, userId } });
    const [removed] = await tx.$queryRaw<{ displayName: string }[]>`
      DELETE FROM "Member" WHERE "organizationId" = ${organizationId} AND "userId" = ${userId} RETURNING ${displayName}`;
    if (!removed) throw notFound('Member');
    await recordEvents(tx, ctx, [memberEvent('member_removed', { organizationId, userId, ...removed }, { role: member.role })]);
  });
}
