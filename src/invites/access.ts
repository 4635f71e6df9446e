// How a request reaches an invite link: through what it gives access to. An invite to the organization is managed by
// its admins, an invite to a space or a collection by those with `viewInviteLinks` there (policies.inviteLink), and
// nobody gives more than they hold. The targets and the viewer's level on each are read once per page of invites.

import type { Collection as CollectionRow, LinkInvite as LinkInviteRow, Space as SpaceRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { authorize, collections, contentLevelAnnotation, forbidden, type Guard, organizations, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { atLeast, type GrantedLevel, type Level, organizationLevel, policies } from '../kernel/permissions.js';

/** The content a link invite gives access to (none for an invite to the organization), and the viewer's level there. */
export interface InviteTarget {
  content: SpaceRow | CollectionRow | null;
  level: Level;
}

/** The invites' targets and the viewer's level on each, for a page of invites: a statement per kind of content at most. */
export const inviteTargetAnnotation = rowAnnotation<LinkInviteRow, InviteTarget>('link invite target', async (ctx, rows) => {
  const ids = (column: 'spaceId' | 'collectionId') => [...new Set(rows.flatMap((row) => row[column] ?? []))];
  const [spaceIds, collectionIds] = [ids('spaceId'), ids('collectionId')];
  const [spaceRows, collectionRows] = await Promise.all([
    spaceIds.length ? ctx.sql<SpaceRow>(Prisma.sql`SELECT * FROM "Space" WHERE id = ANY(${spaceIds}::text[])`) : [],
    collectionIds.length ? ctx.sql<CollectionRow>(Prisma.sql`SELECT * FROM "Collection" WHERE id = ANY(${collectionIds}::text[])`) : [],
  ]);
  const content = new Map<string, SpaceRow | CollectionRow>([...spaceRows, ...collectionRows].map((row) => [row.id, row]));
  await contentLevelAnnotation.annotate(ctx, [...content.values()]);
  const members = await ctx.membership.loadMany(rows.map((row) => row.organizationId));
  return Promise.all(
    rows.map(async (row, i) => {
      const target = content.get(row.spaceId ?? row.collectionId ?? '') ?? null;
      const member = members[i];
      const level = target ? await contentLevelAnnotation.of(ctx, target) : organizationLevel(member instanceof Error ? undefined : member);
      return { content: target, level };
    }),
  );
});

/** Invite links are seen by whoever manages them (policies.inviteLink). */
export const linkInvitesManaged: Guard<LinkInviteRow> = {
  kind: 'Invite',
  policy: policies.inviteLink,
  level: rowAnnotation('link invite level', async (ctx, rows) => {
    await inviteTargetAnnotation.annotate(ctx, rows);
    return Promise.all(
      rows.map(async (row) => {
        const { level } = await inviteTargetAnnotation.of(ctx, row);
        const needed = row.spaceId ? policies.space.viewInviteLinks : row.collectionId ? policies.collection.viewInviteLinks : 'admin';
        return atLeast(level, needed) ? level : null;
      }),
    );
  }),
};

/** What an invite gives: a role in the organization, or a level on its space or collection (null: a guest). */
export const givenLevel = (invite: Pick<LinkInviteRow, 'role' | 'level' | 'spaceId' | 'collectionId'>): GrantedLevel =>
  (invite.spaceId || invite.collectionId ? invite.level : invite.role) ?? 'guest';

/**
 * Loads an invite link of the organization and checks that the viewer manages it: an organization invite is managed
 * by the organization's admins, an invite to content by those with `viewInviteLinks` on it. Another organization's
 * invite is not found. Returns the invite, with its target and the viewer's level there already known.
 */
export async function managedLinkInvite(ctx: Context, organizationId: string, inviteId: string) {
  const [invite] = await ctx.sql<LinkInviteRow>(Prisma.sql`SELECT * FROM "LinkInvite" WHERE id = ${inviteId}`);
  if (!invite || invite.organizationId !== organizationId) throw notFound('Invite');
  const target = await managedTarget(ctx, invite);
  inviteTargetAnnotation.set(invite, target);
  return { invite, target };
}

/** The target of an existing invite, which the viewer must manage (an invite to a deleted space too); 404 or 403 otherwise. */
async function managedTarget(ctx: Context, invite: LinkInviteRow): Promise<InviteTarget> {
  if (invite.spaceId) {
    const { row, level } = await authorize(ctx, spaces, invite.spaceId, 'viewInviteLinks', { allowDeleted: true });
    return { content: row, level };
  }
  if (invite.collectionId) {
    const { row, level } = await authorize(ctx, collections, invite.collectionId, 'viewInviteLinks');
    return { content: row, level };
  }
  const { level } = await authorize(ctx, organizations, invite.organizationId, 'admin');
  return { content: null, level };
}

/** Refuses an invite that would give more than the viewer holds on its target (organization admins hold everything). */
export function assertMayGive(target: InviteTarget, invite: Pick<LinkInviteRow, 'role' | 'level' | 'spaceId' | 'collectionId'>) {
  const given = givenLevel(invite);
  if (!atLeast(target.level, given)) {
    throw forbidden(`invite as ${given}`, invite.spaceId ? 'Space' : invite.collectionId ? 'Collection' : 'Organization');
  }
}

/** Records what the viewer was authorized with, so that the invite's fields read no more. */
export const rememberTarget = (invite: LinkInviteRow, target: InviteTarget) => inviteTargetAnnotation.set(invite, target);
