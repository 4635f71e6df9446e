// What can be done to organizations and their members: plain functions, used by the GraphQL resolvers and by the
// admin command line alike. Functions that take a Context act for its viewer and check its permissions.
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import type { MemberRole } from '../generated/prisma/enums.js';
import { authorize, organizations } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, conflict, isUniqueViolation } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { OrganizationChange } from './inputs.js';

type Db = PrismaClient | Prisma.TransactionClient;

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
  try {
    await ctx.prisma.organization.update({ where: { id }, data, select: { id: true } });
  } catch (error) {
    throw isUniqueViolation(error) ? conflict('Another organization already uses this hostname.') : error;
  }
}

/** A new organization owned (as admin) by an existing user. */
export async function createOrganization(db: Db, input: { title: string; ownerId: string }) {
  const organization = await db.organization.create({ data: { id: newId(), title: input.title }, select: { id: true, title: true } });
  await db.member.create({ data: { organizationId: organization.id, userId: input.ownerId, role: 'admin' } });
  return organization;
}

/** Adds a user to an organization, or changes their role (null: guest). Tells whether they were a member already. */
export async function setMember(db: Db, input: { organizationId: string; userId: string; role: MemberRole | null }) {
  const key = { organizationId_userId: { organizationId: input.organizationId, userId: input.userId } };
  const existing = await db.member.findUnique({ where: key, select: { role: true } });
  const member = await db.member.upsert({
    where: key,
    create: { organizationId: input.organizationId, userId: input.userId, role: input.role },
    update: { role: input.role },
    select: { role: true },
  });
  return { role: member.role, updated: existing !== null };
}
