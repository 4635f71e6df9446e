// The Organization type and the queries that return organizations.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder, keepNull, permissionsType, restEnum } from '../kernel/builder.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import type { Organization as OrganizationRow } from '../generated/prisma/client.js';
import { memberOf } from '../kernel/access.js';
import { selectsOnly } from '../kernel/selection.js';
import { listArgs, listOf } from '../kernel/lists.js';
import { listPage } from '../kernel/pagination.js';
import { organizationPermissions } from '../kernel/permissions.js';
import { apiUrl, appUrl } from '../kernel/urls.js';

const OrganizationTypeEnum = restEnum('OrganizationType', { business: 'business', community: 'community' });
const OrganizationUseCaseEnum = restEnum('OrganizationUseCase', {
  internalDocs: 'internalDocs', docsSite: 'docsSite', audienceControlledSite: 'audienceControlledSite', productDocs: 'productDocs',
  teamKnowledgeBase: 'teamKnowledgeBase', designSystem: 'designSystem', openSourceDocs: 'openSourceDocs', notes: 'notes', other: 'other',
});
const OrganizationCommunityTypeEnum = restEnum('OrganizationCommunityType', { nonProfit: 'nonProfit', openSource: 'openSource', education: 'education' });
const BillingPlanEnum = restEnum('BillingPlan', {
  free_2024: 'free_2024', plus_2024: 'plus_2024', pro_2024: 'pro_2024', enterprise_2024: 'enterprise_2024',
  community_2024: 'community_2024', free: 'free', plus: 'plus', pro: 'pro', internal: 'internal',
});

const OrganizationUrls = builder.objectRef<{ location: string; app: string; logo: string | null }>('OrganizationUrls').implement({
  fields: (t) => ({
    location: t.exposeString('location', { description: 'URL of the organization in the API.' }),
    app: t.exposeString('app', { description: 'URL of the organization in the application.' }),
    logo: t.exposeString('logo', { nullable: true }),
  }),
});

const OrganizationTrial = builder.objectRef<{ status: string; count: number }>('OrganizationTrial').implement({
  description: 'Trials do not apply to a self-hosted instance: always `notapplicable`.',
  fields: (t) => ({ status: t.exposeString('status'), count: t.exposeInt('count') }),
});

const OrganizationPermissions = permissionsType('OrganizationPermissions', () => organizationPermissions(undefined));

export const Organization = builder.prismaObject('Organization', {
  fields: (t) => ({
    object: t.string({ resolve: () => 'organization' }),
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    emailDomains: t.exposeStringList('emailDomains'),
    hostname: t.exposeString('hostname', { nullable: true }),
    customHostname: t.exposeString('customHostname', { nullable: true }),
    type: t.expose('type', { type: OrganizationTypeEnum }),
    useCase: t.expose('useCase', { type: OrganizationUseCaseEnum, nullable: true }),
    communityType: t.expose('communityType', { type: OrganizationCommunityTypeEnum, nullable: true }),
    defaultRole: t.expose('defaultRole', { type: MemberRoleEnum, nullable: true, description: 'Role of new members; null: they join as guests.', ...keepNull }),
    defaultContent: t.expose('defaultContent', { type: 'JSON', nullable: true }),
    sso: t.exposeBoolean('sso'),
    ai: t.exposeBoolean('ai'),
    inviteLinks: t.exposeBoolean('inviteLinks'),
    plan: t.expose('plan', { type: BillingPlanEnum }),
    mergeRules: t.expose('mergeRules', { type: 'JSON' }),
    trial: t.field({ type: OrganizationTrial, resolve: () => ({ status: 'notapplicable', count: 0 }) }),
    internal_isOnNewTrial: t.boolean({ deprecationReason: 'Always true.', resolve: () => true }),
    urls: t.field({
      type: OrganizationUrls,
      select: { logoURL: true },
      resolve: (org, _args, ctx) => ({ location: apiUrl(ctx, `orgs/${org.id}`), app: appUrl(ctx, `o/${org.id}`), logo: org.logoURL }),
    }),
    permissions: t.field({
      type: OrganizationPermissions,
      resolve: async (org, _args, ctx) => organizationPermissions(await ctx.membership.load(org.id)),
    }),
  }),
});

export const OrganizationList = listOf('Organization', Organization);

/** Fields of Organization that read nothing but the id (the lists hanging off it). */
const ID_ONLY_FIELDS = new Set(['__typename', 'id', 'spaces', 'collections']);

builder.queryFields((t) => ({
  organizations: t.field({
    type: OrganizationList,
    description: 'Organizations the viewer is a member of, in a stable order.',
    args: listArgs,
    resolve: (_root, args, ctx, info) => {
      const mine = { members: { some: { userId: ctx.viewer.userId, disabled: false } } };
      return listPage({
        tokens: ctx.pageTokens,
        scope: `orgs:${ctx.viewer.userId}`,
        page: args.page,
        limit: args.limit,
        orderBy: ['id'],
        fetch: ({ where, orderBy, take }) =>
          ctx.prisma.organization.findMany({ ...queryFromInfo({ context: ctx, info, path: ['items'] }), where: { ...mine, ...where }, orderBy, take }),
        count: () => ctx.prisma.organization.count({ where: mine }),
      });
    },
  }),
  organization: t.prismaField({
    type: 'Organization',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx, info) => {
      const id = String(args.id);
      await memberOf(ctx, id, 'Organization');
      // Lists under an organization need nothing but its id (membership is already proven): skip loading the row.
      if (selectsOnly(info, ID_ONLY_FIELDS)) return { id } as OrganizationRow;
      return ctx.prisma.organization.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  organizationsForEmailDomain: t.prismaField({
    type: ['Organization'],
    description:
      'Organizations that claim an e-mail domain, among those the viewer belongs to or could join with its own e-mail address.',
    args: { emailDomain: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const domain = args.emailDomain.trim().toLowerCase();
      const viewer = await ctx.prisma.user.findUniqueOrThrow({ where: { id: ctx.viewer.userId }, select: { email: true } });
      const ownDomain = viewer.email.split('@').pop()!.toLowerCase() === domain;
      return ctx.prisma.organization.findMany({
        ...query,
        where: {
          emailDomains: { has: domain },
          ...(ownDomain ? {} : { members: { some: { userId: ctx.viewer.userId, disabled: false } } }),
        },
        orderBy: { id: 'asc' },
      });
    },
  }),
}));
