// Invite links (to the organization with a role, to a space or a collection with a level) and the lists that show
// them to those who manage them; the results of inviting by e-mail and of joining with a link.
import { Collection } from '../collections/types.js';
import {
  type Collection as CollectionRow,
  type LinkInvite as LinkInviteRow,
  Prisma,
  type Space as SpaceRow,
} from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { authorize, collections, contentLevels, forbidden, type Guard, organizations, spaces } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import { notFound } from '../kernel/errors.js';
import { type ListSource, listArgs, listOf, listPage, readsParentKeyOnly } from '../kernel/lists.js';
import { atLeast, type GrantedLevel, type Level, organizationLevel, policies } from '../kernel/permissions.js';
import { Organization } from '../organizations/types.js';
import { Space } from '../spaces/types.js';

/** The content a link invite gives access to (none for an invite to the organization), and the viewer's level there. */
export interface InviteTarget {
  content: SpaceRow | CollectionRow | null;
  level: Level;
}

/** The invites' targets and the viewer's level on each, for a page of invites: a statement per kind of content at most. */
const inviteTargets = rowAnnotation<LinkInviteRow, InviteTarget>('link invite target', async (ctx, rows) => {
  const ids = (column: 'spaceId' | 'collectionId') => [...new Set(rows.flatMap((row) => row[column] ?? []))];
  const [spaceIds, collectionIds] = [ids('spaceId'), ids('collectionId')];
  const [spaceRows, collectionRows] = await Promise.all([
    spaceIds.length ? ctx.sql<SpaceRow>(Prisma.sql`SELECT * FROM "Space" WHERE id = ANY(${spaceIds}::text[])`) : [],
    collectionIds.length ? ctx.sql<CollectionRow>(Prisma.sql`SELECT * FROM "Collection" WHERE id = ANY(${collectionIds}::text[])`) : [],
  ]);
  const content = new Map<string, SpaceRow | CollectionRow>([...spaceRows, ...collectionRows].map((row) => [row.id, row]));
  await contentLevels.annotate(ctx, [...content.values()]);
  const members = await ctx.membership.loadMany(rows.map((row) => row.organizationId));
  return Promise.all(
    rows.map(async (row, i) => {
      const target = content.get(row.spaceId ?? row.collectionId ?? '') ?? null;
      const member = members[i];
      const level = target ? await contentLevels.of(ctx, target) : organizationLevel(member instanceof Error ? undefined : member);
      return { content: target, level };
    }),
  );
});

/** Invite links are seen by whoever manages them (policies.inviteLink). */
const linkInvitesManaged: Guard<LinkInviteRow> = {
  kind: 'Invite',
  policy: policies.inviteLink,
  level: rowAnnotation('link invite level', async (ctx, rows) => {
    await inviteTargets.annotate(ctx, rows);
    return Promise.all(
      rows.map(async (row) => {
        const { level } = await inviteTargets.of(ctx, row);
        const needed = row.spaceId ? policies.space.viewInviteLinks : row.collectionId ? policies.collection.viewInviteLinks : 'admin';
        return atLeast(level, needed) ? level : null;
      }),
    );
  }),
};

/** What an invite gives: a role in the organization, or a level on its space or collection (null: a guest). */
const givenLevel = (invite: Pick<LinkInviteRow, 'role' | 'level' | 'spaceId' | 'collectionId'>): GrantedLevel =>
  (invite.spaceId || invite.collectionId ? invite.level : invite.role) ?? 'guest';

/** True when the viewer already has at least what the invite gives. */
async function redundant(ctx: Context, invite: LinkInviteRow): Promise<boolean> {
  const { level } = await inviteTargets.of(ctx, invite);
  return atLeast(level, givenLevel(invite));
}

const EXPIRES_AT = 'When the link stops working (joining with it is then refused, 410); null: never.';

export const InviteLinkToOrganization = builder.objectRef<LinkInviteRow>('InviteLinkToOrganization').implement({
  access: linkInvitesManaged,
  description: 'An invite link to the organization: whoever follows it joins with its role. Its id is the secret of the link.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'invite' }),
    id: t.exposeID('id'),
    role: t.field({ type: MemberRoleEnum, nullable: true, description: 'Role given; null: guest.', resolve: (row) => row.role }),
    redundant: t.boolean({ description: 'The viewer already has at least this role.', resolve: (row, _args, ctx) => redundant(ctx, row) }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: EXPIRES_AT }),
  }),
});

const contentOf = async (ctx: Context, invite: LinkInviteRow) => {
  const { content } = await inviteTargets.of(ctx, invite);
  if (!content) throw notFound('Invite');
  return content;
};

export const InviteLinkToSpace = builder.objectRef<LinkInviteRow>('InviteLinkToSpace').implement({
  access: linkInvitesManaged,
  description: 'An invite link to a space: whoever follows it joins the organization (as a guest if new) with this level on the space.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'invite' }),
    id: t.exposeID('id'),
    level: t.field({ type: MemberRoleEnum, nullable: true, resolve: (row) => row.level }),
    redundant: t.boolean({ description: 'The viewer already has at least this level.', resolve: (row, _args, ctx) => redundant(ctx, row) }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: EXPIRES_AT }),
    space: t.field({ type: Space, resolve: async (row, _args, ctx) => (await contentOf(ctx, row)) as SpaceRow }),
  }),
});

export const InviteLinkToCollection = builder.objectRef<LinkInviteRow>('InviteLinkToCollection').implement({
  access: linkInvitesManaged,
  description:
    'An invite link to a collection: whoever follows it joins the organization (as a guest if new) with this level on the collection.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'invite' }),
    id: t.exposeID('id'),
    level: t.field({ type: MemberRoleEnum, nullable: true, resolve: (row) => row.level }),
    redundant: t.boolean({ description: 'The viewer already has at least this level.', resolve: (row, _args, ctx) => redundant(ctx, row) }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: EXPIRES_AT }),
    collection: t.field({ type: Collection, resolve: async (row, _args, ctx) => (await contentOf(ctx, row)) as CollectionRow }),
  }),
});

export const OrganizationInviteLink = builder.unionType('OrganizationInviteLink', {
  description: 'An invite link of an organization: to the organization, to a space or to a collection.',
  types: [InviteLinkToOrganization, InviteLinkToSpace, InviteLinkToCollection],
  resolveType: (row) => (row.spaceId ? InviteLinkToSpace : row.collectionId ? InviteLinkToCollection : InviteLinkToOrganization),
});

/**
 * Loads an invite link of the organization and checks that the viewer manages it: an organization invite is managed
 * by the organization's admins, an invite to content by those with `viewInviteLinks` on it. Another organization's
 * invite is not found. Returns the invite, with its target and the viewer's level there already known.
 */
export async function managedLinkInvite(ctx: Context, organizationId: string, inviteId: string) {
  const [invite] = await ctx.sql<LinkInviteRow>(Prisma.sql`SELECT * FROM "LinkInvite" WHERE id = ${inviteId}`);
  if (!invite || invite.organizationId !== organizationId) throw notFound('Invite');
  const target = await managedTarget(ctx, invite);
  inviteTargets.set(invite, target);
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
export const rememberTarget = (invite: LinkInviteRow, target: InviteTarget) => inviteTargets.set(invite, target);

// --- lists -----------------------------------------------------------------------------------------------------------

/** Invites in id order: the (organizationId, id) index serves every list. */
const linkInvites = (name: string, where: Prisma.Sql, ofParent?: ListSource<LinkInviteRow>['ofParent']): ListSource<LinkInviteRow> => ({
  table: 'LinkInvite',
  ...(ofParent ? { ofParent } : { parentColumn: 'organizationId' }),
  orderBy: [{ column: 'id', type: 'text' }],
  where: () => where,
  scope: (parentKey) => `${name}:${parentKey}`,
  annotations: [inviteTargets],
});

const organizationInvites = linkInvites('link-invites', Prisma.sql`t."spaceId" IS NULL AND t."collectionId" IS NULL`);
/** Keyed by `organizationId:contentId` (ids hold no colon), so that the organization's index finds them. */
const contentInvites = (column: 'spaceId' | 'collectionId') =>
  linkInvites(
    `${column}-link-invites`,
    Prisma.sql`TRUE`,
    (parent) =>
      Prisma.sql`t."organizationId" = split_part(${parent}, ':', 1) AND t.${Prisma.raw(`"${column}"`)} = split_part(${parent}, ':', 2)`,
  );
const spaceInvites = contentInvites('spaceId');
const collectionInvites = contentInvites('collectionId');

const InviteLinkToOrganizationList = listOf('InviteLinkToOrganization', InviteLinkToOrganization);
const InviteLinkToSpaceList = listOf('InviteLinkToSpace', InviteLinkToSpace);
const InviteLinkToCollectionList = listOf('InviteLinkToCollection', InviteLinkToCollection);

builder.objectFields(Organization, (t) => ({
  linkInvites: t.field({
    type: InviteLinkToOrganizationList,
    description: 'Invite links to the organization (for its admins); invites to content are listed on their space or collection.',
    args: listArgs,
    ...readsParentKeyOnly,
    resolve: async (org, args, ctx, info) => {
      await authorize(ctx, organizations, org.id, 'admin');
      return listPage(organizationInvites, ctx, info, org.id, args);
    },
  }),
  linkInvite: t.field({
    type: OrganizationInviteLink,
    description: 'An invite link of the organization, for whoever manages it.',
    args: { inviteId: t.arg.id({ required: true }) },
    ...readsParentKeyOnly,
    resolve: async (org, args, ctx) => (await managedLinkInvite(ctx, org.id, args.inviteId)).invite,
  }),
}));

builder.objectField(Space, 'linkInvites', (t) =>
  t.field({
    type: InviteLinkToSpaceList,
    description: 'Invite links to this space, for those who may manage them (`viewInviteLinks`).',
    args: listArgs,
    resolve: async (space, args, ctx, info) => {
      if (!atLeast(await contentLevels.of(ctx, space), policies.space.viewInviteLinks)) throw forbidden('viewInviteLinks', 'Space');
      return listPage(spaceInvites, ctx, info, `${space.organizationId}:${space.id}`, args);
    },
  }),
);

builder.objectField(Collection, 'linkInvites', (t) =>
  t.field({
    type: InviteLinkToCollectionList,
    description: 'Invite links to this collection, for those who may manage them (`viewInviteLinks`).',
    args: listArgs,
    resolve: async (collection, args, ctx, info) => {
      if (!atLeast(await contentLevels.of(ctx, collection), policies.collection.viewInviteLinks)) {
        throw forbidden('viewInviteLinks', 'Collection');
      }
      return listPage(collectionInvites, ctx, info, `${collection.organizationId}:${collection.id}`, args);
    },
  }),
);

// --- results -----------------------------------------------------------------------------------------------------------

export interface InviteUsersOutcome {
  users: string[];
  invited: number;
  failedSSOEmails: string[];
  undeliveredEmails: string[];
}

export const InviteUsersResult = builder.objectRef<InviteUsersOutcome>('InviteUsersResult').implement({
  description: 'What inviting by e-mail did.',
  fields: (t) => ({
    users: t.exposeIDList('users', { description: 'Ids of the users invited (created for unknown addresses); members are skipped.' }),
    invited: t.exposeInt('invited', { description: 'Invites written: new, or renewed with a new link and expiry.' }),
    failedSSOEmails: t.exposeStringList('failedSSOEmails', {
      description: 'Addresses asked to be invited as SSO users that are members of another organization: invited with a join link instead.',
    }),
    undeliveredEmails: t.exposeStringList('undeliveredEmails', {
      description: 'Addresses whose invite was written but whose e-mail the mail server did not accept: invite them again to retry.',
    }),
  }),
});

export interface Joined {
  organizationId: string;
  userId: string;
  role: LinkInviteRow['role'];
}

export const InviteJoin = builder.objectRef<Joined>('InviteJoin').implement({
  description: 'The membership a join with an invite link left the viewer with.',
  fields: (t) => ({
    organizationId: t.exposeID('organizationId'),
    userId: t.exposeID('userId'),
    role: t.field({ type: MemberRoleEnum, nullable: true, description: 'Role in the organization; null: guest.', resolve: (j) => j.role }),
  }),
});
