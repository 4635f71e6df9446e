// Installations of an integration in an organization, and their spaces.
//
// - Installing, changing and uninstalling need `installIntegration` (admin) in the installing organization; a private
//   integration is installed in its owner organization only. An organization installs an integration once (409).
// - An installation is seen by the installing organization's admins and by the admins of the integration's owner
//   organization (as GitBook's integration token sees its installations); the installing organization's other members
//   are refused (403); anyone else does not find it.
// - Status: active when the configuration has every property the integration's account configuration requires,
//   pending otherwise (republishing re-evaluates it, service.ts); `paused` is never set here. When the integration
//   declares account properties, a configuration holds only those, with values of their types.
// - Spaces: with `space_selection` all, the installation is enabled in every space of its organization; with
//   `selected`, in the spaces it is installed on. Installing on a space needs the space's `installIntegration`
//   (creators and up) and an integration whose target includes spaces. Installing on a space an installation enabled
//   in all spaces (GitBook's documented flow: install in the organization, configure, then enable on chosen spaces)
//   switches it to `selected`, with that space and any it was installed on before it was set to all: so it also needs
//   the organization's `installIntegration` (admins), as it takes the integration from every other space. Under `all`,
//   removing a space is refused (409: set the selection to `selected` first).
import type { InstallationSpace, IntegrationInstallation } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import type { InstallationSelection } from '../generated/prisma/enums.js';
import { authorize, authorizeReference, can, forbidden, organizations, rowOf, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { ApiError, badRequest, conflict, notFound } from '../kernel/errors.js';
import { changedFields, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import type { Membership } from '../kernel/permissions.js';
import { viewerAdminSql } from './access.js';
import { installationEvent } from './events.js';
import { type Configurations, SPACE_TARGETS, type Target } from './manifest.js';
import { type IntegrationRow, installationStatusSql, integrationNamed } from './service.js';

export type InstallationRow = IntegrationInstallation & { spaceCount: number; integrationName: string };
/** An installation on a space, with what it takes from its installation. */
export type SpaceInstallationRow = InstallationSpace & Pick<InstallationRow, 'integrationName' | 'status' | 'externalIds'>;

/** Integrations (aliased `alias`) whose target includes spaces. */
export const spaceTargetSql = (alias: string) => Prisma.sql`${Prisma.raw(alias)}.target IN (${Prisma.join([...SPACE_TARGETS])})`;

/** The number of live spaces the installation (aliased `alias`) is enabled in: none when its target leaves out spaces. */
export const spaceCountSql = (alias: string) => {
  const a = Prisma.raw(alias);
  return Prisma.sql`(CASE WHEN NOT EXISTS (SELECT 1 FROM "Integration" integration WHERE integration.id = ${a}."integrationId" AND ${spaceTargetSql('integration')})
      THEN 0
    WHEN ${a}."spaceSelection" = 'all'
      THEN (SELECT count(*)::int FROM "Space" s WHERE s."organizationId" = ${a}."organizationId" AND s."deletedAt" IS NULL)
    ELSE (SELECT count(*)::int FROM "InstallationSpace" x JOIN "Space" s ON s.id = x."spaceId"
           WHERE x."installationId" = ${a}.id AND s."deletedAt" IS NULL) END)`;
};

/** Installations (aliased `ii`) enabled in the space whose id is this SQL expression. */
export const enabledInSpaceSql = (space: Prisma.Sql) =>
  Prisma.sql`ii.status = 'active' AND ii."organizationId" = (SELECT enabled."organizationId" FROM "Space" enabled WHERE enabled.id = ${space})
    AND (ii."spaceSelection" = 'all' OR EXISTS (SELECT 1 FROM "InstallationSpace" x WHERE x."installationId" = ii.id AND x."spaceId" = ${space}))`;

/** The installation's row as every answer gives it: the written row of a statement (`WITH written AS (...)`). */
/** Rows written or read, with what the installation types answer and whether the viewer administers them. */
const withComputed = (ctx: Context, written: Prisma.Sql, integrationName: string) =>
  Prisma.sql`WITH written AS (${written}) SELECT w.*, ${spaceCountSql('w')} AS "spaceCount", ${integrationName}::text AS "integrationName",
    ${viewerAdminSql(ctx, Prisma.sql`w`)} AS "viewerAdmin" FROM written w`;

type Installed = { integration: IntegrationRow; installation: InstallationRow };

/** The installation of the integration (which the viewer can see) with this id; 404 when there is none. */
async function installationOf(ctx: Context, integration: IntegrationRow, installationId: string): Promise<Installed> {
  const [installation] = await ctx.sql<InstallationRow>(
    withComputed(
      ctx,
      Prisma.sql`SELECT * FROM "IntegrationInstallation" WHERE id = ${installationId} AND "integrationId" = ${integration.id}`,
      integration.name,
    ),
  );
  if (!installation) throw notFound('Integration installation');
  return { integration, installation };
}

const known = (member: Membership | undefined | Error) => (member instanceof Error ? undefined : member);

/**
 * The installation, after checking what the viewer does with it: `view` (its organization's admins, or the owner
 * organization's), `admin` (its organization's admins).
 */
export async function installationFor(
  ctx: Context,
  integration: IntegrationRow,
  installationId: string,
  action: 'view' | 'admin',
): Promise<Installed> {
  const found = await installationOf(ctx, integration, installationId);
  const [installer, owner] = (
    await ctx.membership.loadMany([found.installation.organizationId, found.integration.ownerOrganizationId])
  ).map(known);
  const ownerAdmin = owner?.role === 'admin';
  if (installer?.role === 'admin' || (action === 'view' && ownerAdmin)) return found;
  if (installer || ownerAdmin) throw forbidden(action, 'Integration installation');
  throw notFound('Integration installation');
}

/** A configuration checked against the account configuration the integration declares (400 naming the property). */
function checkedConfiguration(integration: IntegrationRow, configuration: Record<string, unknown>): Record<string, unknown> {
  const account = (integration.configurations as Configurations).account;
  if (!account || !('properties' in account)) return configuration;
  for (const [key, value] of Object.entries(configuration)) {
    const property = account.properties[key];
    const invalid = (problem: string) => badRequest(`Invalid "configuration.${key}": ${problem}.`);
    if (!property) throw invalid(`the integration declares no such property (${Object.keys(account.properties).join(', ') || 'none'})`);
    if (property.type === 'button') throw invalid('a button takes no value');
    if (typeof value !== property.type) throw invalid(`must be a ${property.type}`);
    if (property.type === 'string' && property.enum && !property.enum.includes(value as string))
      throw invalid(`must be one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  return configuration;
}

/** Installs the integration in an organization (its admins), with an empty configuration. */
export async function installIntegration(ctx: Context, name: string, organizationId: string): Promise<InstallationRow> {
  const integration = await integrationNamed(ctx, name);
  await authorize(ctx, organizations, organizationId, 'installIntegration');
  if (integration.visibility === 'private' && organizationId !== integration.ownerOrganizationId)
    throw badRequest('Invalid "organization": a private integration is installed only in the organization that owns it.');
  const now = ctx.clock.now();
  const installation = await ctx.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<InstallationRow[]>(
      withComputed(
        ctx,
        Prisma.sql`INSERT INTO "IntegrationInstallation" AS ii (id, "integrationId", "organizationId", status, "createdAt", "updatedAt")
          SELECT ${newId()}, i.id, ${organizationId}, ${installationStatusSql(Prisma.sql`'{}'::jsonb`, Prisma.sql`i.configurations`)},
                 ${now}, ${now}
            FROM "Integration" i WHERE i.id = ${integration.id}
          ON CONFLICT ("integrationId", "organizationId") DO NOTHING RETURNING *`,
        integration.name,
      ),
    );
    if (row) await recordEvents(tx, ctx, [installationEvent('integration_installed', integration, row, { status: row.status })]);
    return row;
  });
  if (!installation) throw conflict('The integration is already installed in this organization.');
  return installation;
}

export interface InstallationChange {
  externalIds?: string[] | null;
  configuration?: Record<string, unknown> | null;
  space_selection?: InstallationSelection | null;
  site_selection?: InstallationSelection | null;
}

/** The names of the configuration's properties a new configuration changes (set, changed or removed): never their values. */
function changedConfiguration(before: Record<string, unknown>, after: Record<string, unknown> | null | undefined): string[] {
  if (!after) return [];
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name])).sort();
}

/** Changes the fields given; a new configuration re-evaluates the status. */
export async function updateInstallation(
  ctx: Context,
  name: string,
  installationId: string,
  input: InstallationChange,
): Promise<InstallationRow> {
  const { integration, installation } = await installationFor(ctx, await integrationNamed(ctx, name), installationId, 'admin');
  const configuration = Prisma.sql`${JSON.stringify(
    input.configuration ? checkedConfiguration(integration, input.configuration) : installation.configuration,
  )}::jsonb`;
  const change = changedFields(
    { externalIds: installation.externalIds, space_selection: installation.spaceSelection, site_selection: installation.siteSelection },
    {
      externalIds: input.externalIds ?? undefined,
      space_selection: input.space_selection ?? undefined,
      site_selection: input.site_selection ?? undefined,
    },
  );
  const configurationChanged = changedConfiguration(installation.configuration as Record<string, unknown>, input.configuration);
  const changed = { ...change, ...(configurationChanged.length && { configuration: configurationChanged }) };
  const updating = withComputed(
    ctx,
    Prisma.sql`UPDATE "IntegrationInstallation" ii SET
          "externalIds" = ${input.externalIds ?? installation.externalIds}::text[],
          configuration = ${configuration},
          "spaceSelection" = ${input.space_selection ?? installation.spaceSelection}::"InstallationSelection",
          "siteSelection" = ${input.site_selection ?? installation.siteSelection}::"InstallationSelection",
          status = CASE WHEN ii.status = 'paused' THEN ii.status ELSE ${installationStatusSql(configuration, Prisma.sql`i.configurations`)} END,
          "updatedAt" = ${ctx.clock.now()}
        FROM "Integration" i WHERE ii.id = ${installation.id} AND i.id = ii."integrationId" RETURNING ii.*`,
    integration.name,
  );
  if (!Object.keys(changed).length) return (await ctx.sql<InstallationRow>(updating))[0];
  return ctx.prisma.$transaction(async (tx) => {
    const [updated] = await tx.$queryRaw<InstallationRow[]>(updating);
    await recordEvents(tx, ctx, [installationEvent('integration_installation_updated', integration, installation, { changed })]);
    return updated;
  });
}

export async function uninstallIntegration(ctx: Context, name: string, installationId: string): Promise<void> {
  const { integration, installation } = await installationFor(ctx, await integrationNamed(ctx, name), installationId, 'admin');
  await ctx.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`DELETE FROM "IntegrationInstallation" WHERE id = ${installation.id}`;
    await recordEvents(tx, ctx, [installationEvent('integration_uninstalled', integration, installation)]);
  });
}

/** The installation, for a request about one of its spaces: members of its organization only (others: 404). */
async function installationForSpaces(ctx: Context, name: string, installationId: string): Promise<Installed> {
  const found = await installationOf(ctx, await integrationNamed(ctx, name), installationId);
  if (!(await ctx.membership.load(found.installation.organizationId))) throw notFound('Integration installation');
  return found;
}

const targetDescription: Record<Target, string> = { all: 'all targets', site: 'sites', space: 'spaces', organization: 'its organization' };

/**
 * Installs the integration on a space of the installation's organization (the space's `installIntegration`). An
 * installation enabled in all spaces becomes `selected` (the organization's `installIntegration` too), in the same
 * statement and only if the space was not installed on already.
 */
export async function installOnSpace(ctx: Context, name: string, installationId: string, spaceId: string): Promise<SpaceInstallationRow> {
  const { integration, installation } = await installationForSpaces(ctx, name, installationId);
  await authorizeReference(ctx, spaces, { id: spaceId, field: 'space', organizationId: installation.organizationId }, 'installIntegration');
  const target = integration.target as Target;
  if (!SPACE_TARGETS.includes(target))
    throw badRequest(`Invalid "space": this integration is installed on ${targetDescription[target]} only, not on spaces.`);
  const narrows = installation.spaceSelection === 'all';
  if (narrows) {
    const organization = await rowOf(ctx, organizations, installation.organizationId);
    if (!organization || !(await can(ctx, organizations, organization, 'installIntegration')))
      throw new ApiError(
        403,
        'The installation is enabled in all spaces: installing it on one space enables it there only, which needs the ' +
          '"installIntegration" permission on the organization.',
      );
  }
  const selected = narrows
    ? Prisma.sql`, selected AS (UPDATE "IntegrationInstallation" SET "spaceSelection" = 'selected', "updatedAt" = ${ctx.clock.now()}
        WHERE id = ${installation.id} AND "spaceSelection" = 'all' AND EXISTS (SELECT 1 FROM inserted))`
    : Prisma.empty;
  const row = await ctx.prisma.$transaction(async (tx) => {
    const [inserted] = await tx.$queryRaw<InstallationSpace[]>`
      WITH inserted AS (INSERT INTO "InstallationSpace" ("installationId", "spaceId") VALUES (${installation.id}, ${spaceId})
                        ON CONFLICT DO NOTHING RETURNING *) ${selected}
      SELECT * FROM inserted`;
    if (inserted) {
      const payload = narrows ? { changed: { space_selection: { from: 'all', to: 'selected' } } } : {};
      await recordEvents(tx, ctx, [installationEvent('integration_installed_on_space', integration, installation, payload, spaceId)]);
    }
    return inserted;
  });
  if (!row) throw conflict('The integration is already installed on this space.');
  return { ...row, integrationName: integration.name, status: installation.status, externalIds: installation.externalIds };
}

/** Removes the installation from a space (the space's `installIntegration`), under a `selected` space selection. */
export async function uninstallFromSpace(ctx: Context, name: string, installationId: string, spaceId: string): Promise<void> {
  const { integration, installation } = await installationForSpaces(ctx, name, installationId);
  const { row: space } = await authorize(ctx, spaces, spaceId, 'installIntegration');
  if (space.organizationId !== installation.organizationId) throw notFound('Space');
  if (installation.spaceSelection === 'all')
    throw conflict('The installation is enabled in all spaces: set its space_selection to "selected" to choose its spaces.');
  await ctx.prisma.$transaction(async (tx) => {
    const removed = await tx.$executeRaw`
      DELETE FROM "InstallationSpace" WHERE "installationId" = ${installation.id} AND "spaceId" = ${spaceId}`;
    if (!removed) throw notFound('Space installation');
    await recordEvents(tx, ctx, [installationEvent('integration_uninstalled_from_space', integration, installation, {}, spaceId)]);
  });
}
