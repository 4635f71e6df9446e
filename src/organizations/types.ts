// The Organization type and the queries that return organizations.

import { type Organization as OrganizationRow, Prisma } from '../generated/prisma/client.js';
import { BillingPlan, OrganizationCommunityType, OrganizationType, OrganizationUseCase } from '../generated/prisma/enums.js';
import { authorizeRow, organizations } from '../kernel/authorize.js';
import { builder, permissionsFor, permissionsType, prismaEnum } from '../kernel/builder.js';
import { type Context, loaderFor, memberSeenSql, membershipOf, viewerMembershipSql, viewerMembershipsSql } from '../kernel/context.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import { notFound } from '../kernel/errors.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { type Membership, policies } from '../kernel/permissions.js';
import { apiUrl, appUrl } from '../kernel/urls.js';

const OrganizationTypeEnum = prismaEnum('OrganizationType', OrganizationType);
const OrganizationUseCaseEnum = prismaEnum('OrganizationUseCase', OrganizationUseCase);
const OrganizationCommunityTypeEnum = prismaEnum('OrganizationCommunityType', OrganizationCommunityType);
const BillingPlanEnum = prismaEnum('BillingPlan', BillingPlan);

const OrganizationUrls = builder.objectRef<{ location: string; app: string; logo: string | null }>('OrganizationUrls').implement({
  fields: (t) => ({
    location: t.exposeString('location', { description: 'URL of the organization in the API.' }),
    app: t.exposeString('app', { description: 'URL of the organization in the application.' }),
    logo: t.exposeString('logo', { nullable: true }),
  }),
});

const notApplicable = { status: 'notapplicable', count: 0 };
const OrganizationTrial = builder.objectRef<typeof notApplicable>('OrganizationTrial').implement({
  description: 'Trials do not apply to a self-hosted instance: always `notapplicable`.',
  fields: (t) => ({ status: t.exposeString('status'), count: t.exposeInt('count') }),
});

const OrganizationPermissions = permissionsType('OrganizationPermissions', policies.organization);

export const Organization = builder.prismaObject('Organization', {
  access: organizations,
  fields: (t) => ({
    object: t.string({ resolve: () => 'organization' }),
    id: t.exposeID('id'),
    etag: t.string(etagField(tagOf)),
    title: t.exposeString('title'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    emailDomains: t.exposeStringList('emailDomains'),
    hostname: t.exposeString('hostname', { nullable: true }),
    customHostname: t.exposeString('customHostname', { nullable: true }),
    type: t.expose('type', { type: OrganizationTypeEnum }),
    useCase: t.expose('useCase', { type: OrganizationUseCaseEnum, nullable: true }),
    communityType: t.expose('communityType', { type: OrganizationCommunityTypeEnum, nullable: true }),
    defaultRole: t.expose('defaultRole', {
      type: MemberRoleEnum,
      nullable: true,
      description: 'Role of new members; null: they join as guests.',
    }),
    defaultContent: t.expose('defaultContent', { type: 'JSON', nullable: true }),
    sso: t.exposeBoolean('sso'),
    ai: t.exposeBoolean('ai'),
    inviteLinks: t.exposeBoolean('inviteLinks'),
    plan: t.expose('plan', { type: BillingPlanEnum }),
    mergeRules: t.expose('mergeRules', { type: 'JSON' }),
    trial: t.field({ type: OrganizationTrial, resolve: () => notApplicable }),
    internal_isOnNewTrial: t.boolean({ deprecationReason: 'Always true.', resolve: () => true }),
    urls: t.field({
      type: OrganizationUrls,
      select: { logoURL: true },
      resolve: (org, _args, ctx) => ({ location: apiUrl(ctx, `orgs/${org.id}`), app: appUrl(ctx, `o/${org.id}`), logo: org.logoURL }),
    }),
    permissions: t.field({
      type: OrganizationPermissions,
      resolve: (org, _args, ctx) => permissionsFor(ctx, policies.organization, organizations.level.of(ctx, org)),
    }),
  }),
});

export const OrganizationList = listOf('Organization', Organization);

/**
 * What anyone may know of an organization they are not a member of (an integration's publisher, an organization that
 * claims their e-mail domain): who it is, not how it is run. It answers the published Organization shape, with
 * neutral values where only members may know: no e-mail domains, the free plan, invite links off, no merge rules; its
 * permissions are the viewer's, none for a non-member.
 */
export const PublicOrganization = builder
  .objectRef<Pick<OrganizationRow, 'id' | 'title' | 'createdAt' | 'type' | 'logoURL'>>('PublicOrganization')
  .implement({
    description: 'An organization as anyone may see it: its id, title, type and logo.',
    fields: (t) => ({
      object: t.string({ resolve: () => 'organization' }),
      id: t.exposeID('id'),
      title: t.exposeString('title'),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
      type: t.expose('type', { type: OrganizationTypeEnum }),
      emailDomains: t.stringList({ description: 'Never shown: always empty.', resolve: () => [] }),
      inviteLinks: t.boolean({ description: 'Never shown: always false.', resolve: () => false }),
      plan: t.field({ type: BillingPlanEnum, description: 'Never shown: always free.', resolve: () => BillingPlan.free }),
      mergeRules: t.field({ type: 'JSON', description: 'Never shown: always no rule.', resolve: () => ({ type: 'none' }) }),
      trial: t.field({ type: OrganizationTrial, resolve: () => notApplicable }),
      urls: t.field({
        type: OrganizationUrls,
        resolve: (org, _args, ctx) => ({ location: apiUrl(ctx, `orgs/${org.id}`), app: appUrl(ctx, `o/${org.id}`), logo: org.logoURL }),
      }),
      permissions: t.field({
        type: OrganizationPermissions,
        resolve: (org, _args, ctx) => permissionsFor(ctx, policies.organization, organizations.level.of(ctx, org)),
      }),
    }),
  });

const publicColumns = { id: true, title: true, createdAt: true, type: true, logoURL: true } as const;

/** The public projection of organizations by id, with every other asked for in the same tick: one statement. */
export function publicOrganization(ctx: Context, id: string) {
  return loaderFor<string, Pick<OrganizationRow, keyof typeof publicColumns> | undefined>(ctx, publicOrganizations, async (ids) => {
    const rows = await ctx.prisma.organization.findMany({ select: publicColumns, where: { id: { in: [...ids] } } });
    return ids.map((wanted) => rows.find((row) => row.id === wanted));
  }).load(id);
}
const publicOrganizations = Symbol('public organizations');

/** The viewer's organizations: a root list, whose one parent is the viewer. */
const viewerOrganizations: ListSource<OrganizationRow> = {
  table: 'Organization',
  orderBy: [{ column: 'id', type: 'text' }],
  where: (ctx) => Prisma.sql`EXISTS (SELECT 1 FROM "Member" m WHERE m."organizationId" = t.id AND ${viewerMembershipSql(ctx.viewer, 'm')})`,
  scope: (userId) => `orgs:${userId}`,
  fetch: (ctx, query, ids) => ctx.prisma.organization.findMany({ ...query, where: { id: { in: ids } } }),
  annotations: [organizations.level],
};

/**
 * The organization's row, read with the viewer's membership in it (primed in the request's membership loader, so that
 * authorizing it reads nothing more), recording their visit; null when there is no such organization.
 */
async function withMembership(ctx: Context, id: string): Promise<OrganizationRow | null> {
  // The same statement records the viewer's visit to the organization (src/kernel/context.ts memberSeenSql).
  const [found] = await ctx.sql<OrganizationRow & { __membership: Membership | null }>(Prisma.sql`
    WITH seen AS (${memberSeenSql(viewerMembershipSql(ctx.viewer, 'seen'), Prisma.sql`${[id]}::text[]`, ctx.clock.now())})
    SELECT o.*, (SELECT to_jsonb(ms) FROM (${viewerMembershipsSql(ctx.viewer, Prisma.sql`ARRAY[o.id]`)}) ms) AS "__membership"
      FROM "Organization" o WHERE o.id = ${id}`);
  if (!found) return null;
  const { __membership, ...row } = found;
  ctx.membership.prime(id, __membership ? membershipOf(ctx.viewer, __membership) : undefined);
  return row;
}

builder.queryFields((t) => ({
  organizations: t.field({
    type: OrganizationList,
    description: 'Organizations the viewer is a member of, in a stable order.',
    args: listArgs,
    resolve: (_root, args, ctx, info) => listPage(viewerOrganizations, ctx, info, ctx.viewer.userId, args),
  }),
  organization: t.prismaField({
    type: 'Organization',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_query, _root, args, ctx) => {
      const row = await withMembership(ctx, args.id);
      if (!row) throw notFound('Organization');
      await authorizeRow(ctx, organizations, row, 'view');
      return row;
    },
  }),
  organizationsForEmailDomain: t.field({
    type: [PublicOrganization],
    description:
      'Organizations that claim an e-mail domain, among those the viewer belongs to or could join with its own e-mail address: their public projection.',
    args: { emailDomain: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const domain = args.emailDomain.trim().toLowerCase();
      const viewer = await ctx.prisma.user.findUniqueOrThrow({ where: { id: ctx.viewer.userId }, select: { email: true } });
      const ownDomain = viewer.email.split('@').pop()!.toLowerCase() === domain;
      return ctx.prisma.organization.findMany({
        select: publicColumns,
        where: {
          emailDomains: { has: domain },
          // A token scoped to organizations sees no other.
          ...(ctx.viewer.organizations ? { id: { in: [...ctx.viewer.organizations] } } : {}),
          ...(ownDomain ? {} : { members: { some: { userId: ctx.viewer.userId, disabled: false } } }),
        },
        orderBy: { id: 'asc' },
      });
    },
  }),
}));
