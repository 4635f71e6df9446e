// The installation types, and the lists of installations: of an integration (its owner organization's admins), of an
// organization (its admins, with their integrations) and of an installation's spaces.
import { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { InstallationSelection, InstallationStatus } from '../generated/prisma/enums.js';
import { authorize, organizations } from '../kernel/authorize.js';
import { builder, prismaEnum } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import { containsPattern, type ListSource } from '../kernel/lists.js';
import { batchedRowById } from '../kernel/rows.js';
import { apiUrl, appUrl } from '../kernel/urls.js';
import { Organization } from '../organizations/types.js';
import { installations, spaceInstallations, viewerAdminSql } from './access.js';
import { publicEndpoint } from './assets.js';
import { type InstallationRow, installationFor, type SpaceInstallationRow, spaceCountSql } from './installations.js';
import { checkOwnerAdmin, type IntegrationRow } from './service.js';
import { Integration } from './types.js';

export const InstallationStatusEnum = prismaEnum(
  'IntegrationInstallationStatus',
  InstallationStatus,
  'active: enabled; pending: its configuration lacks a property the integration requires; paused: disabled.',
);
export const InstallationSelectionEnum = prismaEnum(
  'IntegrationInstallationSelection',
  InstallationSelection,
  'all: every space (or site) of the organization; selected: those it is installed on.',
);

const InstallationTarget = builder.objectRef<{ organization: string }>('IntegrationInstallationTarget').implement({
  fields: (t) => ({ organization: t.exposeID('organization') }),
});

interface InstallationUrlsShape {
  location: string;
  app?: string;
  publicEndpoint: string;
  publicContentEndpoint: string;
}
const InstallationUrls = builder.objectRef<InstallationUrlsShape>('IntegrationInstallationUrls').implement({
  fields: (t) => ({
    location: t.exposeString('location'),
    app: t.exposeString('app', { nullable: true }),
    publicEndpoint: t.exposeString('publicEndpoint'),
    publicContentEndpoint: t.exposeString('publicContentEndpoint'),
  }),
});

const installationPath = (row: { integrationName: string; id: string }) => `integrations/${row.integrationName}/installations/${row.id}`;
const endpointOf = (ctx: Context, name: string, installationId: string) => `${publicEndpoint(ctx, name)}/installations/${installationId}`;

export const IntegrationInstallation = builder.objectRef<InstallationRow>('IntegrationInstallation').implement({
  access: installations,
  description: 'An integration installed in an organization.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.expose('status', { type: InstallationStatusEnum }),
    spaceSelection: t.expose('spaceSelection', { type: InstallationSelectionEnum }),
    siteSelection: t.expose('siteSelection', { type: InstallationSelectionEnum }),
    spaces: t.exposeInt('spaceCount', { description: 'The number of spaces it is enabled in (deleted ones excepted).' }),
    configuration: t.expose('configuration', { type: 'JSON' }),
    externalIds: t.exposeStringList('externalIds'),
    target: t.field({ type: InstallationTarget, resolve: (row) => ({ organization: row.organizationId }) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    urls: t.field({
      type: InstallationUrls,
      resolve: (row, _args, ctx) => {
        const endpoint = endpointOf(ctx, row.integrationName, row.id);
        return {
          location: apiUrl(ctx, installationPath(row)),
          app: appUrl(ctx, `o/${row.organizationId}/integrations/${row.integrationName}`),
          publicEndpoint: endpoint,
          publicContentEndpoint: endpoint,
        };
      },
    }),
  }),
});
export const IntegrationInstallationList = listOf('IntegrationInstallation', IntegrationInstallation);

export const IntegrationSpaceInstallation = builder.objectRef<SpaceInstallationRow>('IntegrationSpaceInstallation').implement({
  access: spaceInstallations,
  description: 'An installation enabled on one space, with the space’s own configuration.',
  fields: (t) => ({
    integration: t.exposeString('integrationName', { description: 'The integration’s name.' }),
    installation: t.exposeID('installationId'),
    status: t.expose('status', { type: InstallationStatusEnum }),
    configuration: t.expose('configuration', { type: 'JSON' }),
    externalIds: t.exposeStringList('externalIds'),
    space: t.exposeID('spaceId'),
    urls: t.field({
      type: InstallationUrls,
      resolve: (row, _args, ctx) => {
        const endpoint = endpointOf(ctx, row.integrationName, row.installationId);
        const installation = { integrationName: row.integrationName, id: row.installationId };
        return {
          location: apiUrl(ctx, `${installationPath(installation)}/spaces/${row.spaceId}`),
          publicEndpoint: endpoint,
          publicContentEndpoint: endpoint,
        };
      },
    }),
  }),
});
const IntegrationSpaceInstallationList = listOf('IntegrationSpaceInstallation', IntegrationSpaceInstallation);

const OrganizationInstallation = builder.objectRef<InstallationRow>('OrganizationInstallation').implement({
  access: installations,
  description: 'An installation of the organization, with its integration.',
  fields: (t) => ({
    installation: t.field({ type: IntegrationInstallation, resolve: (row) => row }),
    integration: t.field({
      type: Integration,
      resolve: (row, _args, ctx) => batchedRowById<IntegrationRow>(ctx, 'Integration', row.integrationId),
    }),
  }),
});
const OrganizationInstallationList = listOf('OrganizationInstallation', OrganizationInstallation);

const installationComputed = (_parent: Prisma.Sql, ctx: Context) => ({
  spaceCount: spaceCountSql('t'),
  integrationName: Prisma.sql`(SELECT i.name FROM "Integration" i WHERE i.id = t."integrationId")`,
  viewerAdmin: viewerAdminSql(ctx, Prisma.sql`t`),
});
const byCreation = [
  { column: 'createdAt', type: 'timestamptz' },
  { column: 'id', type: 'text' },
] as const;

const integrationInstallations: ListSource<InstallationRow, { externalId?: string | null }> = {
  table: 'IntegrationInstallation',
  parentColumn: 'integrationId',
  orderBy: byCreation,
  where: (_ctx, args) => (args.externalId ? Prisma.sql`${args.externalId} = ANY(t."externalIds")` : Prisma.sql`TRUE`),
  computed: installationComputed,
  scope: (integrationId, args) => `integration-installations:${integrationId}:${args.externalId ?? ''}`,
};

const organizationInstallations: ListSource<InstallationRow, { search?: string | null }> = {
  table: 'IntegrationInstallation',
  parentColumn: 'organizationId',
  orderBy: byCreation,
  where: (_ctx, args) =>
    args.search
      ? Prisma.sql`EXISTS (SELECT 1 FROM "Integration" i WHERE i.id = t."integrationId"
          AND (i.name ILIKE ${containsPattern(args.search)} OR i.title ILIKE ${containsPattern(args.search)}))`
      : Prisma.sql`TRUE`,
  computed: installationComputed,
  scope: (organizationId, args) => `organization-installations:${organizationId}:${args.search ?? ''}`,
};

const installationSpaces: ListSource<SpaceInstallationRow> = {
  table: 'InstallationSpace',
  parentColumn: 'installationId',
  idColumn: 'spaceId',
  orderBy: [{ column: 'spaceId', type: 'text' }],
  where: () => Prisma.sql`EXISTS (SELECT 1 FROM "Space" s WHERE s.id = t."spaceId" AND s."deletedAt" IS NULL)`,
  computed: (_parent, ctx) => ({
    viewerAdmin: Prisma.sql`(SELECT ${viewerAdminSql(ctx, Prisma.sql`ii`)} FROM "IntegrationInstallation" ii WHERE ii.id = t."installationId")`,
    integrationName: Prisma.sql`(SELECT i.name FROM "IntegrationInstallation" ii JOIN "Integration" i ON i.id = ii."integrationId"
      WHERE ii.id = t."installationId")`,
    status: Prisma.sql`(SELECT ii.status FROM "IntegrationInstallation" ii WHERE ii.id = t."installationId")`,
    externalIds: Prisma.sql`(SELECT ii."externalIds" FROM "IntegrationInstallation" ii WHERE ii.id = t."installationId")`,
  }),
  scope: (installationId) => `installation-spaces:${installationId}`,
};

builder.objectFields(Integration, (t) => ({
  installations: t.field({
    type: IntegrationInstallationList,
    description: 'Its installations in every organization, oldest first: for its owner organization’s admins.',
    args: {
      ...listArgs,
      externalId: t.arg.string({ description: 'Only installations with this external id.', validate: z.string().max(100) }),
    },
    resolve: async (integration, args, ctx, info) => {
      await checkOwnerAdmin(ctx, integration);
      return listPage(integrationInstallations, ctx, info, integration.id, args);
    },
  }),
  installation: t.field({
    type: IntegrationInstallation,
    description: 'One of its installations: for the installing organization’s admins and its owner organization’s.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (integration, args, ctx) => (await installationFor(ctx, integration, args.id, 'view')).installation,
  }),
}));

builder.objectFields(IntegrationInstallation, (t) => ({
  installationSpaces: t.field({
    type: IntegrationSpaceInstallationList,
    description: 'The spaces it is installed on, each with its configuration (under `all` it is enabled in every space).',
    args: listArgs,
    resolve: (installation, args, ctx, info) => listPage(installationSpaces, ctx, info, installation.id, args),
  }),
}));

builder.objectFields(Organization, (t) => ({
  installations: t.field({
    type: OrganizationInstallationList,
    description: 'The integrations installed in the organization, with their installations, oldest first (its admins).',
    args: {
      ...listArgs,
      search: t.arg.string({
        description: 'Only installations of integrations whose name or title contains this text.',
        validate: z.string().max(100),
      }),
    },
    resolve: async (organization, args, ctx, info) => {
      await authorize(ctx, organizations, organization.id, 'listInstallations');
      return listPage(organizationInstallations, ctx, info, organization.id, args);
    },
  }),
}));
