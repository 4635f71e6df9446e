// Invite links: creating, changing and deleting them (by those who manage them), and joining with one (anyone who
// holds the link). An invite to the organization makes the joiner a member with its role; an invite to a space or a
// collection makes them a member (a guest if they were not one) with a grant of its level there. Joining never lowers
// a role or a grant. A link may expire (`expiresAt`, an extension of GitBook's links): joining with it is then refused
// with 410, as an expired e-mail invite is; its managers still see it, to extend or delete it.
import type { LinkInvite as LinkInviteRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import type { MemberRole } from '../generated/prisma/enums.js';
import { authorize, authorizeReference, collections, organizations, spaces } from '../kernel/authorize.js';
import { actsIn, type Context } from '../kernel/context.js';
import { ApiError, badRequest, conflict, notFound } from '../kernel/errors.js';
import { type ChangeEvent, changedFields, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { assertMayGive, managedLinkInvite, rememberTarget } from './access.js';

export interface CreateLinkInvite {
  role?: MemberRole | null;
  space?: string | null;
  collection?: string | null;
  level?: MemberRole | null;
  expiresAt?: Date | null;
}

/** An event about an invite link: what it gives, where. */
const linkEvent = (action: string, invite: LinkInviteRow, payload?: Record<string, unknown>): ChangeEvent => ({
  action,
  organizationId: invite.organizationId,
  target: { type: 'invite-link', id: invite.id, label: null },
  spaceId: invite.spaceId,
  ...(payload && { payload }),
});

/** What an invite link gives, as its events keep it. */
const gives = ({ role, level, spaceId, collectionId, expiresAt }: LinkInviteRow) => ({
  role,
  level,
  space: spaceId,
  collection: collectionId,
  expiresAt: expiresAt?.toISOString() ?? null,
});

/** The furthest ahead a link's expiry may be set. */
export const MAX_LINK_DAYS = 365;

const linksDisabled = () => new ApiError(403, 'Invite links are disabled in this organization (its `inviteLinks` setting).');

/** The expiry given, checked against the clock: in the future, at most MAX_LINK_DAYS ahead. */
function checkedExpiry(ctx: Context, expiresAt: Date | null): Date | null {
  if (expiresAt === null) return null;
  const now = ctx.clock.now().getTime();
  if (expiresAt.getTime() <= now) throw badRequest('Invalid "expiresAt": must be in the future.');
  if (expiresAt.getTime() > now + MAX_LINK_DAYS * 24 * 60 * 60 * 1000)
    throw badRequest(`Invalid "expiresAt": must be at most ${MAX_LINK_DAYS} days ahead.`);
  return expiresAt;
}

/** The organization, space or collection the new invite is to, checked for the viewer, with the viewer's level there. */
async function targetOf(ctx: Context, organizationId: string, input: CreateLinkInvite) {
  if (input.space) {
    const { row, level } = await authorizeReference(ctx, spaces, { id: input.space, field: 'space', organizationId }, 'viewInviteLinks');
    return { content: row, level };
  }
  if (input.collection) {
    const reference = { id: input.collection, field: 'collection', organizationId };
    const { row, level } = await authorizeReference(ctx, collections, reference, 'viewInviteLinks');
    return { content: row, level };
  }
  const { level } = await authorize(ctx, organizations, organizationId, 'admin');
  return { content: null, level };
}

/** A new invite link; refused while the organization has invite links disabled. */
export async function createLinkInvite(ctx: Context, organizationId: string, input: CreateLinkInvite): Promise<LinkInviteRow> {
  const expiresAt = checkedExpiry(ctx, input.expiresAt ?? null);
  const target = await targetOf(ctx, organizationId, input);
  const invite = {
    role: target.content ? null : (input.role ?? null),
    level: target.content ? (input.level ?? null) : null,
    spaceId: input.space ?? null,
    collectionId: input.collection ?? null,
  };
  assertMayGive(target, invite);
  const row = await ctx.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<LinkInviteRow[]>`
      INSERT INTO "LinkInvite" (id, "organizationId", role, "spaceId", "collectionId", level, "expiresAt", "createdAt")
      SELECT ${newId()}, o.id, ${invite.role}::"MemberRole", ${invite.spaceId}, ${invite.collectionId}, ${invite.level}::"MemberRole",
             ${expiresAt}::timestamptz, ${ctx.clock.now()}
        FROM "Organization" o WHERE o.id = ${organizationId} AND o."inviteLinks"
      RETURNING *`;
    if (!row) throw linksDisabled();
    await recordEvents(tx, ctx, [linkEvent('invite_link_created', row, gives(row))]);
    return row;
  });
  rememberTarget(row, target);
  return row;
}

/**
 * Changes what an invite gives (`role` for an invite to the organization, `level` for one to content) and when it
 * expires (null: never; absent: unchanged).
 */
export async function updateLinkInvite(
  ctx: Context,
  organizationId: string,
  inviteId: string,
  input: { role?: MemberRole | null; level?: MemberRole | null; expiresAt?: Date | null },
): Promise<LinkInviteRow> {
  const expiresAt = input.expiresAt === undefined ? undefined : checkedExpiry(ctx, input.expiresAt);
  const { invite, target } = await managedLinkInvite(ctx, organizationId, inviteId);
  const toContent = target.content !== null;
  if (toContent && input.role !== undefined) throw badRequest('Invalid "role": this invite is to content; change its "level".');
  if (!toContent && input.level !== undefined) throw badRequest('Invalid "level": this invite is to the organization; change its "role".');
  const changed = {
    ...invite,
    ...(toContent ? { level: input.level ?? invite.level } : { role: input.role === undefined ? invite.role : input.role }),
    ...(expiresAt !== undefined && { expiresAt }),
  };
  assertMayGive(target, changed);
  const row = await ctx.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<LinkInviteRow[]>`
      UPDATE "LinkInvite" SET role = ${changed.role}::"MemberRole", level = ${changed.level}::"MemberRole",
             "expiresAt" = ${changed.expiresAt}::timestamptz
       WHERE id = ${inviteId} RETURNING *`;
    if (!row) throw notFound('Invite');
    const fields = changedFields(gives(invite), gives(row));
    if (Object.keys(fields).length) await recordEvents(tx, ctx, [linkEvent('invite_link_updated', row, { changed: fields })]);
    return row;
  });
  rememberTarget(row, target);
  return row;
}

export async function deleteLinkInvite(ctx: Context, organizationId: string, inviteId: string): Promise<void> {
  const { invite } = await managedLinkInvite(ctx, organizationId, inviteId);
  await ctx.prisma.$transaction(async (tx) => {
    if (await tx.$executeRaw`DELETE FROM "LinkInvite" WHERE id = ${inviteId}`) {
      await recordEvents(tx, ctx, [linkEvent('invite_link_deleted', invite, gives(invite))]);
    }
  });
}

/** The membership a join with an invite link left the viewer with. */
export interface Joined {
  organizationId: string;
  userId: string;
  role: LinkInviteRow['role'];
}

interface InviteToJoin extends LinkInviteRow {
  inviteLinks: boolean;
  spaceDeletedAt: Date | null;
  contentTitle: string | null;
  /** The viewer's membership before joining: null when they were not a member. */
  disabled: boolean | null;
  memberRole: MemberRole | null;
}

/**
 * Joins the viewer with an invite link, in one statement (so atomically): membership with the invite's role (or as a
 * guest, for an invite to content), raised but never lowered, and for an invite to content a grant of its level,
 * raised but never lowered. A disabled member stays out; links of an organization that disabled them do not work.
 */
export async function joinWithLinkInvite(ctx: Context, organizationId: string, inviteId: string): Promise<Joined> {
  // A token scoped to organizations (an SSO session's is to one) knows no other, so it joins none.
  if (!actsIn(ctx.viewer, organizationId)) throw notFound('Invite');
  const userId = ctx.viewer.userId;
  const [invite] = await ctx.sql<InviteToJoin>(Prisma.sql`
    SELECT i.*, o."inviteLinks", s."deletedAt" AS "spaceDeletedAt", coalesce(s.title, c.title) AS "contentTitle", m.disabled,
           m.role AS "memberRole"
      FROM "LinkInvite" i JOIN "Organization" o ON o.id = i."organizationId"
      LEFT JOIN "Space" s ON s.id = i."spaceId"
      LEFT JOIN "Collection" c ON c.id = i."collectionId"
      LEFT JOIN "Member" m ON m."organizationId" = i."organizationId" AND m."userId" = ${userId}
     WHERE i.id = ${inviteId} AND i."organizationId" = ${organizationId}`);
  if (!invite) throw notFound('Invite');
  if (!invite.inviteLinks) throw linksDisabled();
  if (invite.expiresAt && invite.expiresAt <= ctx.clock.now()) throw new ApiError(410, 'This invite link has expired: ask for a new one.');
  const disabled = () => new ApiError(403, 'Your membership of this organization is disabled: an admin must enable it again.');
  if (invite.disabled) throw disabled();
  if (invite.spaceDeletedAt) throw conflict('The space of this invite is deleted.');
  const content = invite.spaceId ?? invite.collectionId;
  const grantColumn = Prisma.raw(invite.spaceId ? '"spaceId"' : '"collectionId"');
  // LEAST of two roles is the higher (the enum is declared from admin down), and ignores a null (a guest).
  const grant = content
    ? Prisma.sql`, granted AS (
        INSERT INTO "ContentGrant" (id, "organizationId", ${grantColumn}, "userId", role, "createdAt")
        SELECT ${newId()}, m."organizationId", ${content}, m."userId", ${invite.level ?? 'read'}::"MemberRole", ${ctx.clock.now()} FROM member m
        ON CONFLICT (${grantColumn}, "userId") DO UPDATE SET role = LEAST("ContentGrant".role, EXCLUDED.role)
         WHERE "ContentGrant".role IS DISTINCT FROM LEAST("ContentGrant".role, EXCLUDED.role)
        RETURNING role
      )`
    : Prisma.empty;
  return ctx.prisma.$transaction(async (tx) => {
    const [member] = await tx.$queryRaw<(Joined & { granted: MemberRole | null })[]>(Prisma.sql`
      WITH member AS (
        INSERT INTO "Member" ("organizationId", "userId", role, "joinedAt")
        VALUES (${organizationId}, ${userId}, ${content ? null : invite.role}::"MemberRole", ${ctx.clock.now()})
        ON CONFLICT ("organizationId", "userId") DO UPDATE SET role = LEAST("Member".role, EXCLUDED.role) WHERE NOT "Member".disabled
        RETURNING "organizationId", "userId", role
      ) ${grant}
      SELECT member.*, ${content ? Prisma.sql`(SELECT role FROM granted)` : Prisma.sql`NULL::"MemberRole"`} AS granted FROM member`);
    // Disabled between the read and the write.
    if (!member) throw disabled();
    const { granted, ...joined } = member;
    const via = { via: 'invite_link', invite: invite.id };
    const target = { type: 'user', id: userId, label: null };
    const wasMember = invite.disabled !== null;
    await recordEvents(tx, ctx, [
      ...(!wasMember ? [{ action: 'member_joined', organizationId, target, payload: { role: joined.role, ...via } }] : []),
      ...(wasMember && invite.memberRole !== joined.role
        ? [
            {
              action: 'member_role_updated',
              organizationId,
              target,
              payload: { role: { from: invite.memberRole, to: joined.role }, ...via },
            },
          ]
        : []),
      ...(content && granted
        ? [
            {
              action: 'grants_updated',
              organizationId,
              target: { type: invite.spaceId ? 'space' : 'collection', id: content, label: invite.contentTitle },
              spaceId: invite.spaceId,
              payload: { role: granted, users: [userId], teams: [], ...via },
            },
          ]
        : []),
    ]);
    return joined;
  });
}
