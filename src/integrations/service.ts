// Integrations: who sees one, publishing (by an admin of the owning organization) and unpublishing.
//
// Visibility: a public integration is seen and listed by everyone; an unlisted one is reached by name by everyone
// and listed only for its owner organization; a private one is seen by the members (with a role) of its owner
// organization only, and is not found by anyone else. Names are unique across the instance.
//
// A publish is the whole manifest: fields left out take their defaults (a republish that leaves out `secrets` removes
// them). Republishing bumps `version`, and only the owner organization republishes (409 for another). A private
// integration is installed in its owner organization only, so an integration installed elsewhere cannot be
// republished private (409). Unpublishing removes the integration with its installations everywhere: its owner could
// not remove the installations of other organizations, so refusing while they exist would leave it published forever.
import type { Integration as IntegrationRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { authorize, forbidden, organizations } from '../kernel/authorize.js';
import { type Context, loaderFor, viewerMembershipSql, viewerRoleSql } from '../kernel/context.js';
import { conflict, notFound } from '../kernel/errors.js';
import { recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { type SealedFor, seal } from '../kernel/sealed.js';
import { storeAssets } from './assets.js';
import { integrationEvent } from './events.js';
import type { Block, Category, Configurations, ContentSource, ExternalLink, Scope, Target, Visibility } from './manifest.js';

export type { IntegrationRow };

/** The viewer is a member with a role of the organization whose id is this SQL expression. */
const memberOfSql = (ctx: Context, organizationId: Prisma.Sql) =>
  Prisma.sql`EXISTS (SELECT 1 FROM "Member" m
    WHERE m."organizationId" = ${organizationId} AND ${viewerMembershipSql(ctx.viewer, 'm')} AND ${viewerRoleSql(ctx.viewer, 'm')} IS NOT NULL)`;

/** Integrations (aliased `alias`) listed for the viewer: public ones, and all of their own organizations. */
export const listedSql = (ctx: Context, alias: string) =>
  Prisma.sql`(${Prisma.raw(alias)}.visibility = 'public' OR ${memberOfSql(ctx, Prisma.raw(`${alias}."ownerOrganizationId"`))})`;

/** Integrations (aliased `alias`) the viewer reaches by name: public and unlisted ones, and all of their own organizations. */
const reachableSql = (ctx: Context, alias: string) =>
  Prisma.sql`(${Prisma.raw(alias)}.visibility IN ('public', 'unlisted') OR ${memberOfSql(ctx, Prisma.raw(`${alias}."ownerOrganizationId"`))})`;

/** The integration with this name, when the viewer may see it; 404 otherwise. */
export async function integrationNamed(ctx: Context, name: string): Promise<IntegrationRow> {
  const [row] = await ctx.sql<IntegrationRow>(
    Prisma.sql`SELECT * FROM "Integration" i WHERE i.name = ${name} AND ${reachableSql(ctx, 'i')}`,
  );
  if (!row) throw notFound('Integration');
  return row;
}

const administeredKey = Symbol('organizations the viewer administers');

/** The ids of the organizations the viewer administers: one statement per request. */
export function administeredOrganizations(ctx: Context): Promise<ReadonlySet<string>> {
  return loaderFor<string, ReadonlySet<string>>(ctx, administeredKey, async (keys) => {
    const rows = await ctx.sql<{ organizationId: string }>(
      Prisma.sql`SELECT m."organizationId" FROM "Member" m WHERE ${viewerMembershipSql(ctx.viewer, 'm')} AND ${viewerRoleSql(ctx.viewer, 'm')} = 'admin'`,
    );
    const ids = new Set(rows.map((row) => row.organizationId));
    return keys.map(() => ids);
  }).load('viewer');
}

/** 403 unless the viewer administers the organization that owns the integration (which they can see). */
export async function checkOwnerAdmin(ctx: Context, integration: IntegrationRow): Promise<void> {
  if ((await ctx.membership.load(integration.ownerOrganizationId))?.role !== 'admin') throw forbidden('admin', 'Integration');
}

export interface PublishIntegration {
  organization: string;
  title: string;
  description: string;
  script: string;
  icon?: string | null;
  summary?: string | null;
  previewImages?: string[] | null;
  visibility?: Visibility | null;
  target?: Target | null;
  scopes?: Scope[] | null;
  categories?: Category[] | null;
  blocks?: Block[] | null;
  contentSources?: ContentSource[] | null;
  externalLinks?: ExternalLink[] | null;
  configurations?: Configurations | null;
  secrets?: Record<string, string> | null;
  /** The header value. */
  contentSecurityPolicy?: string | null;
}

/** The id of the organization named by its id or by its subdomain (hostname); 404 when there is none. */
async function organizationIdOf(ctx: Context, idOrSubdomain: string): Promise<string> {
  const [found] = await ctx.sql<{ id: string }>(Prisma.sql`
    SELECT id FROM "Organization" WHERE id = ${idOrSubdomain} OR hostname = ${idOrSubdomain}
     ORDER BY id = ${idOrSubdomain} DESC LIMIT 1`);
  if (!found) throw notFound('Organization');
  return found.id;
}

/**
 * What an integration's sealed secrets are bound to: its name, the key its publishing upserts on (a republish keeps
 * the row's id, which the statement that writes the secrets does not know beforehand).
 */
export const integrationSecretsSealedFor = (name: string): SealedFor => ({ purpose: 'integration-secrets', rowId: name });

const json = (value: unknown) => Prisma.sql`${JSON.stringify(value)}::jsonb`;

/**
 * Publishes the integration, or republishes it (version + 1) for the organization that owns it. The assets are stored
 * first (content-addressed: a publish that fails leaves only bytes no row names). One statement writes the row and
 * brings the status of its installations in line with the required account configuration.
 */
export async function publishIntegration(ctx: Context, name: string, input: PublishIntegration): Promise<IntegrationRow> {
  const organizationId = await organizationIdOf(ctx, input.organization);
  await authorize(ctx, organizations, organizationId, 'admin');
  const { script, icon, previewImages } = await storeAssets(ctx, input);
  const now = ctx.clock.now();
  const secrets =
    input.secrets && Object.keys(input.secrets).length
      ? seal(ctx.secret, integrationSecretsSealedFor(name), JSON.stringify(input.secrets))
      : null;
  const publishing = Prisma.sql`
    WITH published AS (
      INSERT INTO "Integration" AS current (id, name, "ownerOrganizationId", version, title, description, summary, script, icon,
          "previewImages", visibility, target, scopes, categories, blocks, "contentSources", configurations, "externalLinks",
          "secretsCiphertext", "contentSecurityPolicy", "createdAt", "updatedAt")
      VALUES (${newId()}, ${name}, ${organizationId}, 1, ${input.title}, ${input.description}, ${input.summary ?? null}, ${script},
          ${icon}, ${previewImages}::text[], ${input.visibility ?? 'private'}, ${input.target ?? 'all'}, ${input.scopes ?? []}::text[],
          ${input.categories ?? []}::text[], ${json(input.blocks ?? [])}, ${json(input.contentSources ?? [])},
          ${json(input.configurations ?? {})}, ${json(input.externalLinks ?? [])}, ${secrets},
          ${input.contentSecurityPolicy || null}, ${now}, ${now})
      ON CONFLICT (name) DO UPDATE SET version = current.version + 1, title = EXCLUDED.title, description = EXCLUDED.description,
          summary = EXCLUDED.summary, script = EXCLUDED.script, icon = EXCLUDED.icon, "previewImages" = EXCLUDED."previewImages",
          visibility = EXCLUDED.visibility, target = EXCLUDED.target, scopes = EXCLUDED.scopes, categories = EXCLUDED.categories,
          blocks = EXCLUDED.blocks, "contentSources" = EXCLUDED."contentSources", configurations = EXCLUDED.configurations,
          "externalLinks" = EXCLUDED."externalLinks", "secretsCiphertext" = EXCLUDED."secretsCiphertext",
          "contentSecurityPolicy" = EXCLUDED."contentSecurityPolicy", "updatedAt" = EXCLUDED."updatedAt"
        WHERE current."ownerOrganizationId" = EXCLUDED."ownerOrganizationId"
          AND (EXCLUDED.visibility <> 'private' OR NOT EXISTS (SELECT 1 FROM "IntegrationInstallation" ii
                WHERE ii."integrationId" = current.id AND ii."organizationId" <> current."ownerOrganizationId"))
      RETURNING *
    ), statuses AS (
      UPDATE "IntegrationInstallation" ii SET status = ${installationStatusSql(Prisma.sql`ii.configuration`, Prisma.sql`p.configurations`)}
        FROM published p WHERE ii."integrationId" = p.id AND ii.status <> 'paused'
    )
    SELECT * FROM published`;
  const published = await ctx.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<IntegrationRow[]>(publishing);
    if (row) {
      const { version, visibility, target, scopes } = row;
      await recordEvents(tx, ctx, [integrationEvent('integration_published', row, { version, visibility, target, scopes })]);
    }
    return row;
  });
  if (!published) throw await publishConflict(ctx, name, organizationId);
  return published;
}

/** Why a publish of an existing name wrote nothing: another owner, or installations elsewhere of one made private. */
async function publishConflict(ctx: Context, name: string, organizationId: string) {
  const [existing] = await ctx.sql<{ ownerOrganizationId: string; elsewhere: number }>(Prisma.sql`
    SELECT i."ownerOrganizationId", (SELECT count(*)::int FROM "IntegrationInstallation" ii
        WHERE ii."integrationId" = i.id AND ii."organizationId" <> i."ownerOrganizationId") AS elsewhere
      FROM "Integration" i WHERE i.name = ${name}`);
  if (!existing || existing.ownerOrganizationId !== organizationId)
    return conflict(`An integration named "${name}" is already published by another organization.`);
  return conflict(
    `The integration is installed in ${existing.elsewhere} other organization${existing.elsewhere === 1 ? '' : 's'}: ` +
      'a private integration is installed in its owner organization only. Keep it public or unlisted, or unpublish it first.',
  );
}

/**
 * The status of an installation with this configuration under an integration's configurations (SQL expressions):
 * active when the configuration has every property the account configuration requires, pending otherwise.
 */
export const installationStatusSql = (configuration: Prisma.Sql, configurations: Prisma.Sql) =>
  Prisma.sql`(CASE WHEN ${configuration} ?& ARRAY(SELECT jsonb_array_elements_text(COALESCE(${configurations} #> '{account,required}', '[]'::jsonb)))
    THEN 'active' ELSE 'pending' END)::"InstallationStatus"`;

/** Unpublishes the integration (its owner organization's admins): its installations everywhere go with it. */
export async function unpublishIntegration(ctx: Context, name: string): Promise<void> {
  const integration = await integrationNamed(ctx, name);
  await checkOwnerAdmin(ctx, integration);
  await ctx.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`DELETE FROM "Integration" WHERE id = ${integration.id}`;
    await recordEvents(tx, ctx, [integrationEvent('integration_unpublished', integration)]);
  });
}
