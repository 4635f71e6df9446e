// What an organization's admins do with its SAML providers: create, update and delete them. A provider's status is
// derived from its identity provider's fields in the same statement that writes them, so that concurrent updates of
// different fields cannot leave an active provider without a certificate.
import { Prisma, type SamlProvider as SamlProviderRow } from '../generated/prisma/client.js';
import type { MemberRole } from '../generated/prisma/enums.js';
import { authorize, organizations } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, conflict, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';

/** Providers an organization may have: its sign-in choices are listed unpaged. */
export const MAX_PROVIDERS = 25;

/** A change of provider fields: undefined leaves a field as it is, null clears it. */
export interface ProviderChange {
  label?: string | null;
  entityID?: string | null;
  certificate?: string | null;
  ssoURL?: string | null;
  defaultTeam?: string | null;
  defaultRole?: MemberRole | null;
}

async function checkDefaultTeam(ctx: Context, organizationId: string, teamId: string | null | undefined): Promise<void> {
  if (!teamId) return;
  const [team] = await ctx.sql<{ id: string }>(
    Prisma.sql`SELECT id FROM "Team" WHERE id = ${teamId} AND "organizationId" = ${organizationId}`,
  );
  if (!team) throw badRequest('Invalid "defaultTeam": no such team in this organization.');
}

/** The new value of a column: the change's when it has one, else the row's own (in an UPDATE, the old value). */
function changed(column: string, type: string, value: string | null | undefined): Prisma.Sql {
  return Prisma.sql`CASE WHEN ${value !== undefined} THEN ${value ?? null}::${Prisma.raw(type)} ELSE ${Prisma.raw(`"${column}"`)} END`;
}

/** Active when the identity provider's entity id, certificate and sign-in URL are all set. */
const statusOf = (entityID: Prisma.Sql, certificate: Prisma.Sql, ssoURL: Prisma.Sql) =>
  Prisma.sql`(CASE WHEN (${entityID}) IS NOT NULL AND (${certificate}) IS NOT NULL AND (${ssoURL}) IS NOT NULL
    THEN 'active' ELSE 'pending' END)::"SamlProviderStatus"`;

export async function createProvider(ctx: Context, organizationId: string, input: ProviderChange & { label: string }) {
  await authorize(ctx, organizations, organizationId, 'admin');
  await checkDefaultTeam(ctx, organizationId, input.defaultTeam);
  const { label, entityID = null, certificate = null, ssoURL = null, defaultTeam = null, defaultRole } = input;
  return ctx.prisma.$transaction(async (tx) => {
    // Serialises creations in the organization, so that two at once cannot both pass the count.
    await tx.$queryRaw`SELECT id FROM "Organization" WHERE id = ${organizationId} FOR UPDATE`;
    const providers = await tx.samlProvider.count({ where: { organizationId } });
    if (providers >= MAX_PROVIDERS) throw conflict(`An organization has at most ${MAX_PROVIDERS} SAML providers: delete one first.`);
    return tx.samlProvider.create({
      data: {
        id: newId(),
        organizationId,
        label,
        entityID,
        certificate,
        ssoURL,
        defaultTeamId: defaultTeam,
        ...(defaultRole !== undefined && { defaultRole }),
        status: entityID && certificate && ssoURL ? 'active' : 'pending',
      },
    });
  });
}

/** Applies a change and returns the provider as written. */
export async function updateProvider(ctx: Context, organizationId: string, providerId: string, change: ProviderChange) {
  await authorize(ctx, organizations, organizationId, 'admin');
  await checkDefaultTeam(ctx, organizationId, change.defaultTeam);
  const entityID = changed('entityID', 'text', change.entityID);
  const certificate = changed('certificate', 'text', change.certificate);
  const ssoURL = changed('ssoURL', 'text', change.ssoURL);
  const [row] = await ctx.sql<SamlProviderRow>(Prisma.sql`
    UPDATE "SamlProvider" SET label = ${changed('label', 'text', change.label ?? undefined)}, "entityID" = ${entityID},
      certificate = ${certificate}, "ssoURL" = ${ssoURL}, "defaultTeamId" = ${changed('defaultTeamId', 'text', change.defaultTeam)},
      "defaultRole" = ${changed('defaultRole', '"MemberRole"', change.defaultRole)}, status = ${statusOf(entityID, certificate, ssoURL)}
    WHERE id = ${providerId} AND "organizationId" = ${organizationId}
    RETURNING *`);
  if (!row) throw notFound('SAML provider');
  return row;
}

/** Deletes a provider with its pending requests and consumed assertions (by cascade); its members stay members. */
export async function deleteProvider(ctx: Context, organizationId: string, providerId: string): Promise<void> {
  await authorize(ctx, organizations, organizationId, 'admin');
  const deleted = await ctx.sql<{ id: string }>(
    Prisma.sql`DELETE FROM "SamlProvider" WHERE id = ${providerId} AND "organizationId" = ${organizationId} RETURNING id`,
  );
  if (!deleted.length) throw notFound('SAML provider');
}
