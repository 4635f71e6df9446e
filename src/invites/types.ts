// Invite links (to the organization with a role, to a space or a collection with a level) and the lists that show
// them to those who manage them (who does: access.ts); the results of inviting by e-mail and of joining with a link.
import { Collection } from '../collections/types.js';
import {
  type Collection as CollectionRow,
  type LinkInvite as LinkInviteRow,
  Prisma,
  type Space as SpaceRow,
} from '../generated/prisma/client.js';
import { authorize, contentLevelAnnotation, forbidden, organizations } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import { notFound } from '../kernel/errors.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { atLeast, policies } from '../kernel/permissions.js';
import { Organization } from '../organizations/types.js';
import { Space } from '../spaces/types.js';
import { givenLevel, inviteTargetAnnotation, linkInvitesManaged, managedLinkInvite } from './access.js';
import type { InviteUsersOutcome } from './email-invites.js';
import type { Joined } from './service.js';

/** True when the viewer already has at least what the invite gives. */
async function redundant(ctx: Context, invite: LinkInviteRow): Promise<boolean> {
  const { level } = await inviteTargetAnnotation.of(ctx, invite);
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
  const { content } = await inviteTargetAnnotation.of(ctx, invite);
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

// --- lists -----------------------------------------------------------------------------------------------------------

/** Invites in id order: the (organizationId, id) index serves every list. */
const linkInvites = (name: string, where: Prisma.Sql, ofParent?: ListSource<LinkInviteRow>['ofParent']): ListSource<LinkInviteRow> => ({
  table: 'LinkInvite',
  ...(ofParent ? { ofParent } : { parentColumn: 'organizationId' }),
  orderBy: [{ column: 'id', type: 'text' }],
  where: () => where,
  scope: (parentKey) => `${name}:${parentKey}`,
  annotations: [inviteTargetAnnotation],
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
    resolve: async (org, args, ctx, info) => {
      await authorize(ctx, organizations, org.id, 'admin');
      return listPage(organizationInvites, ctx, info, org.id, args);
    },
  }),
  linkInvite: t.field({
    type: OrganizationInviteLink,
    description: 'An invite link of the organization, for whoever manages it.',
    args: { inviteId: t.arg.id({ required: true }) },
    resolve: async (org, args, ctx) => (await managedLinkInvite(ctx, org.id, args.inviteId)).invite,
  }),
}));

builder.objectField(Space, 'linkInvites', (t) =>
  t.field({
    type: InviteLinkToSpaceList,
    description: 'Invite links to this space, for those who may manage them (`viewInviteLinks`).',
    args: listArgs,
    resolve: async (space, args, ctx, info) => {
      if (!atLeast(await contentLevelAnnotation.of(ctx, space), policies.space.viewInviteLinks))
        throw forbidden('viewInviteLinks', 'Space');
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
      if (!atLeast(await contentLevelAnnotation.of(ctx, collection), policies.collection.viewInviteLinks)) {
        throw forbidden('viewInviteLinks', 'Collection');
      }
      return listPage(collectionInvites, ctx, info, `${collection.organizationId}:${collection.id}`, args);
    },
  }),
);

// --- results -----------------------------------------------------------------------------------------------------------

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

export const InviteJoin = builder.objectRef<Joined>('InviteJoin').implement({
  description: 'The membership a join with an invite link left the viewer with.',
  fields: (t) => ({
    organizationId: t.exposeID('organizationId'),
    userId: t.exposeID('userId'),
    role: t.field({ type: MemberRoleEnum, nullable: true, description: 'Role in the organization; null: guest.', resolve: (j) => j.role }),
  }),
});
