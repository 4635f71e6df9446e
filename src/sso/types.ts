// The SamlProvider type, an organization's SAML providers (for its admins) and the sign-in choices it offers (for its
// members).
import type { SamlProvider as SamlProviderRow, Team as TeamRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { SamlProviderStatus } from '../generated/prisma/enums.js';
import { authorize, organizations } from '../kernel/authorize.js';
import { builder, prismaEnum } from '../kernel/builder.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { batchedRowById } from '../kernel/rows.js';
import { apiUrl } from '../kernel/urls.js';
import { Organization } from '../organizations/types.js';
import { Team } from '../teams/types.js';
import { samlProviders } from './access.js';
import { serviceOf } from './saml.js';

/**
 * The sign-in URL a provider answers until its own is set: a URI (as GitBook's shape requires) that leads nowhere, and
 * that an update takes back as "not set".
 */
export const UNSET_SSO_URL = 'about:blank';

export const SamlProviderStatusEnum = prismaEnum(
  'SamlProviderStatus',
  SamlProviderStatus,
  'active: signs people in; pending: the identity provider’s entityID, certificate or ssoURL is missing.',
);

const SamlProviderService = builder.objectRef<ReturnType<typeof serviceOf>>('SamlProviderService').implement({
  description: 'This service, as the identity provider is configured to know it.',
  fields: (t) => ({
    acsURL: t.exposeString('acsURL', { description: 'Assertion Consumer Service URL: where the identity provider posts its responses.' }),
    startURL: t.exposeString('startURL', { description: 'Where a sign-in through this provider starts.' }),
    entityID: t.exposeString('entityID', { description: 'This service’s entity id, where its SAML metadata is served.' }),
  }),
});

const SamlProviderUrls = builder.objectRef<{ location: string }>('SamlProviderUrls').implement({
  fields: (t) => ({ location: t.exposeString('location') }),
});

export const SamlProvider = builder.objectRef<SamlProviderRow>('SamlProvider').implement({
  access: samlProviders,
  description: 'A SAML identity provider through which the organization’s members sign in.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'saml-provider' }),
    id: t.exposeID('id'),
    label: t.exposeString('label'),
    // GitBook's SAMLProvider requires all three, as strings (ssoURL a URI), in every published version: a pending
    // provider answers placeholders that no configured one can have, and its status says it is pending.
    ssoURL: t.string({
      description: `The identity provider’s sign-in URL; \`${UNSET_SSO_URL}\` until set.`,
      resolve: (provider) => provider.ssoURL ?? UNSET_SSO_URL,
    }),
    entityID: t.string({
      description: 'The identity provider’s entity id; empty until set.',
      resolve: (provider) => provider.entityID ?? '',
    }),
    certificate: t.string({
      description: 'The identity provider’s signing certificate, in PEM; empty until set.',
      resolve: (provider) => provider.certificate ?? '',
    }),
    defaultTeam: t.field({
      type: Team,
      nullable: true,
      description: 'The team people join when they first sign in.',
      // The teams of a page in one statement.
      resolve: (provider, _args, ctx) => (provider.defaultTeamId ? batchedRowById<TeamRow>(ctx, 'Team', provider.defaultTeamId) : null),
    }),
    defaultRole: t.field({
      type: MemberRoleEnum,
      nullable: true,
      description: 'The role people get when they first sign in; null: guest.',
      resolve: (provider) => provider.defaultRole,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    status: t.expose('status', { type: SamlProviderStatusEnum }),
    service: t.field({ type: SamlProviderService, resolve: (provider, _args, ctx) => serviceOf(ctx.config, provider.id) }),
    urls: t.field({
      type: SamlProviderUrls,
      resolve: (provider, _args, ctx) => ({ location: apiUrl(ctx, `orgs/${provider.organizationId}/saml/${provider.id}`) }),
    }),
  }),
});
export const SamlProviderList = listOf('SamlProvider', SamlProvider);

interface SsoProviderLoginRow {
  id: string;
  label: string;
}

const SsoProviderLogin = builder.objectRef<SsoProviderLoginRow>('SsoProviderLogin').implement({
  description: 'A way to sign in to the organization: an active SAML provider.',
  fields: (t) => ({
    id: t.exposeID('id'),
    label: t.exposeString('label'),
    startURL: t.string({ resolve: (login, _args, ctx) => serviceOf(ctx.config, login.id).startURL }),
  }),
});

// Unpaged, as GitBook's spec has it: an organization has at most MAX_PROVIDERS providers (service.ts).
const SsoProviderLoginList = builder.objectRef<{ items: SsoProviderLoginRow[] }>('SsoProviderLoginList').implement({
  fields: (t) => ({ items: t.field({ type: [SsoProviderLogin], resolve: (list) => list.items }) }),
});

/** In the order they were added. */
const organizationProviders: ListSource<SamlProviderRow> = {
  table: 'SamlProvider',
  parentColumn: 'organizationId',
  orderBy: [
    { column: 'createdAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  where: () => Prisma.sql`TRUE`,
  scope: (organizationId) => `saml-providers:${organizationId}`,
};

builder.objectFields(Organization, (t) => ({
  samlProviders: t.field({
    type: SamlProviderList,
    description: 'SAML providers of the organization, in the order they were added. Admins only.',
    args: listArgs,
    resolve: async (org, args, ctx, info) => {
      await authorize(ctx, organizations, org.id, 'admin');
      return listPage(organizationProviders, ctx, info, org.id, args);
    },
  }),
  samlProvider: t.field({
    type: SamlProvider,
    description: 'One SAML provider of the organization. Admins only.',
    args: { samlProviderId: t.arg.id({ required: true }) },
    resolve: async (org, args, ctx) => (await authorize(ctx, samlProviders, { id: args.samlProviderId, parent: org.id }, 'view')).row,
  }),
  ssoProviderLogins: t.field({
    type: SsoProviderLoginList,
    description: 'The active SAML providers, to sign in with: for any member.',
    resolve: async (org, _args, ctx) => {
      await authorize(ctx, organizations, org.id, 'view');
      const items = await ctx.sql<SsoProviderLoginRow>(Prisma.sql`
        SELECT id, label FROM "SamlProvider" WHERE "organizationId" = ${org.id} AND status = 'active' ORDER BY "createdAt", id`);
      return { items };
    },
  }),
}));
