// Granting a space or collection to users and teams of its organization, changing and removing those grants. The
// content's admins manage its grants, and give no more than they hold themselves.
import { Prisma } from '../generated/prisma/client.js';
import type { MemberRole } from '../generated/prisma/enums.js';
import { authorize, collections, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { ApiError, badRequest } from '../kernel/errors.js';
import { type EventRecorder, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { atLeast } from '../kernel/permissions.js';
import { type ContentKind, contentKinds } from './access.js';

export type Grantee = 'user' | 'team';

export interface GrantInput {
  role?: MemberRole | null;
  users?: readonly string[] | null;
  teams?: readonly string[] | null;
}

/** `role` is required and may be null (it then removes access): GraphQL cannot say so, so it is checked here. */
function requiredRole(role: MemberRole | null | undefined): MemberRole | null {
  if (role === undefined) throw badRequest('Invalid "role": required: a role, or null to remove the access granted.');
  return role;
}

/** The content, checked for `admin`, refusing a role above the caller's own level on it. */
async function contentToGrant(ctx: Context, kind: ContentKind, id: string, role: MemberRole | null) {
  const { row, level } = kind === 'Space' ? await authorize(ctx, spaces, id, 'admin') : await authorize(ctx, collections, id, 'admin');
  if (role && !atLeast(level, role)) {
    throw new ApiError(403, `You cannot grant the role "${role}": it is above your own level on this ${kind.toLowerCase()}.`);
  }
  return row;
}

/** The ids among `ids` that are not users who are members of the organization (or not its teams), in one statement. */
async function unknownGrantees(ctx: Context, organizationId: string, grantee: Grantee, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const known = await ctx.sql<{ id: string }>(
    grantee === 'user'
      ? Prisma.sql`SELECT "userId" AS id FROM "Member" WHERE "organizationId" = ${organizationId} AND "userId" = ANY(${[...ids]}::text[])`
      : Prisma.sql`SELECT id FROM "Team" WHERE "organizationId" = ${organizationId} AND id = ANY(${[...ids]}::text[])`,
  );
  const found = new Set(known.map((row) => row.id));
  return ids.filter((id) => !found.has(id));
}

const noSuch = (grantee: Grantee, id: string) => new ApiError(404, `No ${grantee} ${JSON.stringify(id)} in this organization.`);

/**
 * Sets the role of users and teams on the content (null: removes their grants), in one transaction: one statement per
 * kind of grantee, whatever their number.
 */
export async function grantContent(ctx: Context, kind: ContentKind, id: string, input: GrantInput): Promise<void> {
  const role = requiredRole(input.role);
  const users = [...new Set(input.users ?? [])];
  const teams = [...new Set(input.teams ?? [])];
  if (!users.length && !teams.length) throw badRequest('Invalid "users": give at least one user or team.');
  const content = await contentToGrant(ctx, kind, id, role);
  const [unknownUser] = await unknownGrantees(ctx, content.organizationId, 'user', users);
  if (unknownUser) throw noSuch('user', unknownUser);
  const [unknownTeam] = await unknownGrantees(ctx, content.organizationId, 'team', teams);
  if (unknownTeam) throw noSuch('team', unknownTeam);
  await ctx.prisma.$transaction(async (tx) => {
    const changed =
      (users.length ? await setGrants(tx, kind, content, 'user', users, role) : 0) +
      (teams.length ? await setGrants(tx, kind, content, 'team', teams, role) : 0);
    if (changed) await recordGrants(tx, ctx, kind, content, role, { users, teams });
  });
}

/** Sets (or with null removes) one grantee's role on the content; 404 for a user or team not of its organization. */
export async function setGrant(
  ctx: Context,
  kind: ContentKind,
  id: string,
  grantee: Grantee,
  granteeId: string,
  input: { role?: MemberRole | null },
): Promise<void> {
  const role = requiredRole(input.role);
  const content = await contentToGrant(ctx, kind, id, role);
  if ((await unknownGrantees(ctx, content.organizationId, grantee, [granteeId])).length) throw noSuch(grantee, granteeId);
  await ctx.prisma.$transaction(async (tx) => {
    if (await setGrants(tx, kind, content, grantee, [granteeId], role))
      await recordGrants(tx, ctx, kind, content, role, granteesOf(grantee, granteeId));
  });
}

type Writer = Pick<Prisma.TransactionClient, '$executeRaw'>;

const granteesOf = (grantee: Grantee, id: string) => ({ users: grantee === 'user' ? [id] : [], teams: grantee === 'team' ? [id] : [] });

/** The event of a change of grants on the content: the role given to its users and teams, or their grants removed (null). */
function recordGrants(
  tx: Writer,
  recorder: EventRecorder,
  kind: ContentKind,
  content: { id: string; organizationId: string; title: string },
  role: MemberRole | null,
  grantees: { users: readonly string[]; teams: readonly string[] },
) {
  return recordEvents(tx, recorder, [
    {
      action: role === null ? 'grants_removed' : 'grants_updated',
      organizationId: content.organizationId,
      target: { type: kind.toLowerCase(), id: content.id, label: content.title },
      spaceId: kind === 'Space' ? content.id : null,
      payload: { ...(role !== null && { role }), ...grantees },
    },
  ]);
}

/** Returns how many grants it wrote or removed. */
async function setGrants(
  tx: Writer,
  kind: ContentKind,
  content: { id: string; organizationId: string },
  grantee: Grantee,
  ids: readonly string[],
  role: MemberRole | null,
): Promise<number> {
  const contentColumn = Prisma.raw(`"${contentKinds[kind].grantColumn}"`);
  const granteeColumn = Prisma.raw(grantee === 'user' ? '"userId"' : '"teamId"');
  if (role === null) {
    return tx.$executeRaw`DELETE FROM "ContentGrant" WHERE ${contentColumn} = ${content.id} AND ${granteeColumn} = ANY(${[...ids]}::text[])`;
  }
  // A grant that already has the role is left alone, so that a change that changes nothing records nothing.
  return tx.$executeRaw`
    INSERT INTO "ContentGrant" (id, "organizationId", ${contentColumn}, ${granteeColumn}, role)
    SELECT g.id, ${content.organizationId}, ${content.id}, g.grantee, ${role}::"MemberRole"
      FROM unnest(${ids.map(() => newId())}::text[], ${[...ids]}::text[]) AS g(id, grantee)
    ON CONFLICT (${contentColumn}, ${granteeColumn}) DO UPDATE SET role = EXCLUDED.role WHERE "ContentGrant".role <> EXCLUDED.role`;
}

/** Removes one grantee's grant; removing a grant that does not exist is not an error (the result is the same). */
export async function removeGrant(ctx: Context, kind: ContentKind, id: string, grantee: Grantee, granteeId: string): Promise<void> {
  const content = await contentToGrant(ctx, kind, id, null);
  await ctx.prisma.$transaction(async (tx) => {
    if (await setGrants(tx, kind, content, grantee, [granteeId], null))
      await recordGrants(tx, ctx, kind, content, null, granteesOf(grantee, granteeId));
  });
}
