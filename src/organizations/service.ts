// What can be done to organizations and their members: plain functions, used by the GraphQL resolvers and by the
// admin command line alike. Functions that take a Context act for its viewer and check its permissions.
import { Prisma } from '../generated/prisma/client.js';
import type { MemberRole } from '../generated/prisma/enums.js';
import { authorize, organizations } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { ApiError, badRequest, conflict, isUniqueViolation } from '../kernel/errors.js';
import { lockIfMatch } from '../kernel/etags.js';
import { changedFields, type EventRecorder, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import type { OrganizationChange } from './inputs.js';

export async function updateOrganization(ctx: Context, id: string, input: OrganizationChange): Promise<void> {
  await authorize(ctx, organizations, id, 'admin');
  const { logo, defaultContent, mergeRules, ...fields } = input;
  if (defaultContent) {
    const site = await ctx.prisma.site.findFirst({
      where: { id: (defaultContent as { site: string }).site, organizationId: id },
      select: { id: true },
    });
    if (!site) throw badRequest('Invalid "defaultContent.site": no such site in this organization.');
  }
  const data: Prisma.OrganizationUpdateInput = {
    ...(fields.title != null && { title: fields.title }),
    ...(fields.emailDomains != null && { emailDomains: fields.emailDomains }),
    ...(fields.hostname !== undefined && { hostname: fields.hostname }),
    ...(fields.defaultRole !== undefined && { defaultRole: fields.defaultRole }),
    ...(fields.sso != null && { sso: fields.sso }),
    ...(fields.ai != null && { ai: fields.ai }),
    ...(fields.inviteLinks != null && { inviteLinks: fields.inviteLinks }),
    ...(logo !== undefined && { logoURL: logo }),
    ...(defaultContent !== undefined && { defaultContent: defaultContent ?? Prisma.DbNull }),
    ...(mergeRules != null && { mergeRules: mergeRules as Prisma.InputJsonValue }),
  };
  const settings = {
    title: true,
    emailDomains: true,
    hostname: true,
    defaultRole: true,
    defaultContent: true,
    logoURL: true,
    sso: true,
    ai: true,
    inviteLinks: true,
    mergeRules: true,
  } as const;
  try {
    await ctx.prisma.$transaction(async (tx) => {
      await lockIfMatch(tx, ctx, 'Organization', id);
      const before = await tx.organization.findUniqueOrThrow({ where: { id }, select: settings });
      const after = await tx.organization.update({ where: { id }, data, select: settings });
      const changed = changedFields(before, after);
      if (!Object.keys(changed).length) return;
      await recordEvents(tx, ctx, [
        {
          action: 'organization_updated',
          organizationId: id,
          target: { type: 'organization', id, label: after.title },
          payload: { changed },
        },
      ]);
    });
  } catch (error) {
    throw isUniqueViolation(error) ? conflict('Another organization already uses this hostname.') : error;
  }
}

/** A new organization owned (as admin) by an existing user, recorded in the transaction `tx`. */
export async function createOrganization(
  tx: Prisma.TransactionClient,
  recorder: EventRecorder,
  input: { title: string; ownerId: string; emailDomains?: string[] },
) {
  const organization = await tx.organization.create({
    data: { id: newId(), title: input.title, emailDomains: input.emailDomains ?? [] },
    select: { id: true, title: true },
  });
  await tx.member.create({ data: { organizationId: organization.id, userId: input.ownerId, role: 'admin' } });
  await recordEvents(tx, recorder, [
    {
      action: 'organization_created',
      organizationId: organization.id,
      target: { type: 'organization', id: organization.id, label: organization.title },
      payload: { owner: input.ownerId },
    },
  ]);
  return organization;
}

/**
 * The viewer creates an organization, of which they become the admin: any user where ORGANIZATION_CREATION is `users`,
 * the instance's admins where it is `admins`. A token scoped to organizations or spaces creates none: the new one would
 * lie outside its scope.
 */
export async function createOrganizationForViewer(ctx: Context, input: { title: string; emailDomains?: string[] | null }) {
  const { viewer, config } = ctx;
  if (viewer.organizations || viewer.spaces) {
    throw new ApiError(403, 'A token scoped to organizations or spaces creates no organization: use a token of your own without scopes.');
  }
  if (config.organizationCreation === 'admins' && !(await ctx.instanceAdmins.has(viewer.userId))) {
    throw new ApiError(403, "Only the instance's admins create organizations here (ORGANIZATION_CREATION=admins).");
  }
  const organization = await ctx.prisma.$transaction((tx) =>
    createOrganization(tx, ctx, { title: input.title, ownerId: viewer.userId, emailDomains: input.emailDomains ?? [] }),
  );
  return organization.id;
}

/**
 * Adds a user to an organization, or changes their role (null: guest), recorded in the transaction `tx`. Tells whether
 * they were a member already.
 */
export async function setMember(
  tx: Prisma.TransactionClient,
  recorder: EventRecorder,
  input: { organizationId: string; user: { id: string; displayName: string }; role: MemberRole | null },
) {
  const { organizationId, user, role } = input;
  const key = { organizationId_userId: { organizationId, userId: user.id } };
  const existing = await tx.member.findUnique({ where: key, select: { role: true } });
  const member = await tx.member.upsert({
    where: key,
    create: { organizationId, userId: user.id, role },
    update: { role },
    select: { role: true },
  });
  const event = { organizationId, target: { type: 'user', id: user.id, label: user.displayName } };
  if (!existing) await recordEvents(tx, recorder, [{ ...event, action: 'member_joined', payload: { role } }]);
  else if (existing.role !== role) {
    await recordEvents(tx, recorder, [{ ...event, action: 'member_role_updated', payload: { role: { from: existing.role, to: role } } }]);
  }
  return { role: member.role, updated: existing !== null };
}
