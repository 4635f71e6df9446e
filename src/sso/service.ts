// What an organization's admins do with its SAML providers: create, update and delete them. A provider's status is
// derived from its identity provider's fields in the same statement that writes them, so that concurrent updates of
// different fields cannot leave an active provider without a certificate.
import { createHash } from 'node:crypto';
import { Prisma, type SamlProvider as SamlProviderRow } from '../generated/prisma/client.js';
import type { MemberRole } from '../generated/prisma/enums.js';
import { authorize, organizations } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, conflict, notFound } from '../kernel/errors.js';
import { type ChangeEvent, changedFields, recordEvents } from '../kernel/events.js';
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

/** A certificate as events keep it: it is long, and its SHA-256 fingerprint tells which one it is. */
const fingerprint = (certificate: string | null) =>
  certificate && `sha256:${createHash('sha256').update(certificate.replace(/\s+/g, '')).digest('hex')}`;

/** An event about the provider. */
const providerEvent = (
  action: string,
  provider: Pick<SamlProviderRow, 'id' | 'organizationId' | 'label'>,
  payload?: Record<string, unknown>,
): ChangeEvent => ({
  action,
  organizationId: provider.organizationId,
  target: { type: 'saml-provider', id: provider.id, label: provider.label },
  ...(payload && { payload }),
});

type ProviderSettings = Pick<SamlProviderRow, 'label' | 'entityID' | 'certificate' | 'ssoURL' | 'defaultTeamId' | 'defaultRole' | 'status'>;
const settingsOf = ({ label, entityID, certificate, ssoURL, defaultTeamId, defaultRole, status }: ProviderSettings) => ({
  label,
  entityID,
  certificate,
  ssoURL,
  defaultTeamId,
  defaultRole,
  status,
});

async function checkDefaultTeam(ctx: Context, organizationId: string, teamId: string | null | undefined): Promise<void> {
  if (!teamId) return;
  const [team] = await ctx.sql<{ id: string }>(
    Prisma.sql`SELECT id FROM "Team" WHERE id = ${teamId} AND "organizationId" = ${organizationId}`,
  );
  if (!team) throw badRequest('Invalid "defaultTeam": no such team in this organization.');
}

/** The new value of a column: the change's when it has one, else the row's own (in an UPDATE, the old value). */
function changed(column: string, type: string, value: string | null | undefined): Prisma.Sql {
  return Prisma.sql`CASE WHEN ${value !== undefined} THEN ${value ?? null}::${Prisma.raw(type)} ELSE ${Prisma.raw(`"SamlProvider"."${column}"`)} END`;
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
    const provider = await tx.samlProvider.create({
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
    await recordEvents(tx, ctx, [
      providerEvent('saml_provider_created', provider, { ...settingsOf(provider), certificate: fingerprint(provider.certificate) }),
    ]);
    return provider;
  });
}

/** Applies a change and returns the provider as written. */
export async function updateProvider(ctx: Context, organizationId: string, providerId: string, change: ProviderChange) {
  await authorize(ctx, organizations, organizationId, 'admin');
  await checkDefaultTeam(ctx, organizationId, change.defaultTeam);
  const entityID = changed('entityID', 'text', change.entityID);
  const certificate = changed('certificate', 'text', change.certificate);
  const ssoURL = changed('ssoURL', 'text', change.ssoURL);
  return ctx.prisma.$transaction(async (tx) => {
    // Answers the row as it was too (locked, so as it was just before this change), for the event's changed fields.
    const [written] = await tx.$queryRaw<(SamlProviderRow & { before: SamlProviderRow })[]>`
      UPDATE "SamlProvider" SET label = ${changed('label', 'text', change.label ?? undefined)}, "entityID" = ${entityID},
        certificate = ${certificate}, "ssoURL" = ${ssoURL}, "defaultTeamId" = ${changed('defaultTeamId', 'text', change.defaultTeam)},
        "defaultRole" = ${changed('defaultRole', '"MemberRole"', change.defaultRole)}, status = ${statusOf(entityID, certificate, ssoURL)}
      FROM (SELECT * FROM "SamlProvider" WHERE id = ${providerId} AND "organizationId" = ${organizationId} FOR UPDATE) AS old
      WHERE "SamlProvider".id = old.id
      RETURNING "SamlProvider".*, row_to_json(old) AS before`;
    if (!written) throw notFound('SAML provider');
    const { before, ...row } = written;
    const fields = changedFields(settingsOf(before), settingsOf(row));
    if (fields.certificate) {
      fields.certificate = { from: fingerprint(before.certificate), to: fingerprint(row.certificate) };
    }
    if (Object.keys(fields).length) await recordEvents(tx, ctx, [providerEvent('saml_provider_updated', row, { changed: fields })]);
    return row;
  });
}

/** Deletes a provider with its pending requests and consumed assertions (by cascade); its members stay members. */
export async function deleteProvider(ctx: Context, organizationId: string, providerId: string): Promise<void> {
  await authorize(ctx, organizations, organizationId, 'admin');
  await ctx.prisma.$transaction(async (tx) => {
    const [deleted] = await tx.$queryRaw<Pick<SamlProviderRow, 'id' | 'organizationId' | 'label'>[]>`
      DELETE FROM "SamlProvider" WHERE id = ${providerId} AND "organizationId" = ${organizationId} RETURNING id, "organizationId", label`;
    if (!deleted) throw notFound('SAML provider');
    await recordEvents(tx, ctx, [providerEvent('saml_provider_deleted', deleted)]);
  });
}
