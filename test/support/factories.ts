// Test data written straight into the database with Prisma, as the API would have written it. Each builder takes
// overrides, fills in the parents and defaults that are missing, and returns what it created.

import { positionFor } from '../../src/content/tree.js';
import type { Collection, Organization, Prisma, PrismaClient, Site, Space } from '../../src/generated/prisma/client.js';
import { hashToken, newApiToken, newId } from '../../src/kernel/ids.js';
import { refreshEffectiveLevels } from '../../src/kernel/permissions.js';
import type { Person } from './app.js';

let sequence = 0;
/** Distinguishes default titles, names and e-mail addresses (each test file has its own database). */
const nextNumber = () => ++sequence;

/** A user with one API token. */
export async function buildUser(prisma: PrismaClient, overrides: Partial<Prisma.UserUncheckedCreateInput> = {}): Promise<Person> {
  const number = nextNumber();
  const user = await prisma.user.create({
    data: { id: newId(), email: `user${number}@example.com`, displayName: `User ${number}`, ...overrides },
    select: { id: true, email: true },
  });
  const token = newApiToken();
  // Plain SQL naming the columns every version has: the upgrade tests build users on databases of earlier migrations,
  // where Prisma would send columns added since (a list's default is sent by Prisma, not left to the database).
  const tokenId = newId();
  await prisma.$executeRaw`INSERT INTO "ApiToken" (id, "userId", "tokenHash") VALUES (${tokenId}, ${user.id}, ${hashToken(token)})`;
  return { userId: user.id, email: user.email, token, tokenId };
}

export interface OrganizationOverrides extends Partial<Prisma.OrganizationUncheckedCreateInput> {
  /** The admin who owns the organization; built when missing. */
  owner?: Person;
}

/** An organization with its owner as admin. */
export async function buildOrganization(
  prisma: PrismaClient,
  { owner, ...overrides }: OrganizationOverrides = {},
): Promise<{ organization: Organization; owner: Person }> {
  const admin = owner ?? (await buildUser(prisma));
  const organization = await prisma.organization.create({ data: { id: newId(), title: `Organization ${nextNumber()}`, ...overrides } });
  await prisma.member.create({ data: { organizationId: organization.id, userId: admin.userId, role: 'admin' } });
  return { organization, owner: admin };
}

export interface MemberOverrides extends Partial<Omit<Prisma.MemberUncheckedCreateInput, 'userId'>> {
  /** The user who joins; built when missing. */
  user?: Person;
}

/**
 * Makes a user a member of an organization and returns that user. The role is read (the default role organizations
 * give new members) unless given; null makes a guest.
 */
export async function buildMember(prisma: PrismaClient, { user, ...overrides }: MemberOverrides = {}): Promise<Person> {
  const person = user ?? (await buildUser(prisma));
  const organizationId = overrides.organizationId ?? (await buildOrganization(prisma)).organization.id;
  await prisma.member.create({ data: { role: 'read', ...overrides, organizationId, userId: person.userId } });
  return person;
}

/** The organization of the parent collection, or a new organization for content without a parent. */
async function organizationFor(prisma: PrismaClient, parentId: string | null): Promise<string> {
  if (parentId) {
    return (await prisma.collection.findUniqueOrThrow({ where: { id: parentId }, select: { organizationId: true } })).organizationId;
  }
  return (await buildOrganization(prisma)).organization.id;
}

/** effectiveLevel is derived from the tree, so it is no override: it is recomputed after every insert. */
export type CollectionOverrides = Partial<Omit<Prisma.CollectionUncheckedCreateInput, 'effectiveLevel'>>;

/** A collection, after the existing siblings under its parent (top level when no parentId is given). */
export async function buildCollection(prisma: PrismaClient, overrides: CollectionOverrides = {}): Promise<Collection> {
  const id = overrides.id ?? newId();
  const parentId = overrides.parentId ?? null;
  const organizationId = overrides.organizationId ?? (await organizationFor(prisma, parentId));
  await prisma.collection.create({
    data: {
      title: `Collection ${nextNumber()}`,
      position: overrides.position ?? (await positionFor(prisma, organizationId, parentId, id)),
      ...overrides,
      id,
      organizationId,
    },
  });
  await refreshEffectiveLevels(prisma, organizationId);
  return prisma.collection.findUniqueOrThrow({ where: { id } });
}

/** revisionId points at the first revision, created with the space, as the API does. */
export type SpaceOverrides = Partial<Omit<Prisma.SpaceUncheckedCreateInput, 'effectiveLevel' | 'revisionId'>>;

/** A space with its first (empty) revision, after the existing siblings under its parent collection, if any. */
export async function buildSpace(prisma: PrismaClient, overrides: SpaceOverrides = {}): Promise<Space> {
  const id = overrides.id ?? newId();
  const parentId = overrides.parentId ?? null;
  const organizationId = overrides.organizationId ?? (await organizationFor(prisma, parentId));
  await prisma.space.create({
    data: {
      title: `Space ${nextNumber()}`,
      // As the createSpace mutation decides it: in-collection exists only for spaces in a collection.
      visibility: parentId ? 'in_collection' : 'private',
      position: overrides.position ?? (await positionFor(prisma, organizationId, parentId, id)),
      ...overrides,
      id,
      organizationId,
    },
  });
  const revision = await prisma.revision.create({ data: { id: newId(), spaceId: id } });
  await refreshEffectiveLevels(prisma, organizationId);
  return prisma.space.update({ where: { id }, data: { revisionId: revision.id } });
}

/**
 * `count` top-level collections after the existing ones, in a constant number of statements whatever the count
 * (for the statement-count tests). Returns their ids in order.
 */
export async function buildCollections(
  prisma: PrismaClient,
  { organizationId, count }: { organizationId: string; count: number },
): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newId());
  const firstPosition = await positionFor(prisma, organizationId, null, ids[0]);
  // Top level with defaultLevel inherit: effectiveLevel is inherit, the column default, so nothing to refresh.
  await prisma.collection.createMany({
    data: ids.map((id, i) => ({ id, organizationId, title: `Collection ${nextNumber()}`, position: firstPosition + i })),
  });
  return ids;
}

/**
 * `count` spaces, each with its first revision, after the existing siblings under `parentId` (top level when missing),
 * in a constant number of statements whatever the count. Returns their ids in order.
 */
export async function buildSpaces(
  prisma: PrismaClient,
  { organizationId, parentId = null, count }: { organizationId: string; parentId?: string | null; count: number },
): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newId());
  const revisionIds = ids.map(() => newId());
  const titles = ids.map(() => `Space ${nextNumber()}`);
  const firstPosition = await positionFor(prisma, organizationId, parentId, ids[0]);
  const positions = ids.map((_, i) => firstPosition + i);
  // Unnest inserts rather than createMany, which costs Prisma about a millisecond per row (the statement-count tests
  // build 10,000 spaces). Visibility and effectiveLevel as the createSpace mutation sets them.
  await prisma.$executeRaw`
    INSERT INTO "Space" (id, "organizationId", "parentId", title, visibility, "effectiveLevel", position, "updatedAt")
    SELECT v.id, ${organizationId}, ${parentId}::text, v.title,
           CASE WHEN p.id IS NULL THEN 'private' ELSE 'in_collection' END::"SpaceVisibility",
           CASE WHEN p.id IS NULL THEN 'inherit' ELSE p."effectiveLevel" END, v.position, now()
      FROM unnest(${ids}::text[], ${titles}::text[], ${positions}::float8[]) AS v(id, title, position)
      LEFT JOIN "Collection" p ON p.id = ${parentId}::text`;
  await prisma.$executeRaw`
    INSERT INTO "Revision" (id, "spaceId") SELECT * FROM unnest(${revisionIds}::text[], ${ids}::text[])`;
  await prisma.$executeRaw`
    UPDATE "Space" s SET "revisionId" = v.revision
      FROM unnest(${ids}::text[], ${revisionIds}::text[]) AS v(space, revision) WHERE s.id = v.space`;
  return ids;
}

/**
 * A site; a hostname or proxy given is claimed and proven, as the API leaves it once the DNS check found the proof:
 * an active claim of the hostname, and the organization's active claim of the proxy's host (shared when it holds one).
 */
export async function buildSite(
  prisma: PrismaClient,
  data: Partial<Prisma.SiteUncheckedCreateInput> & { organizationId: string },
): Promise<Site> {
  const site = await prisma.site.create({
    data: { id: newId(), title: 'Docs', hostnameActive: !!data.hostname, proxyActive: !!data.proxy, ...data },
  });
  const claim = {
    organizationId: site.organizationId,
    token: newId(),
    state: 'active' as const,
    createdAt: site.createdAt,
    checkedAt: site.createdAt,
  };
  await prisma.hostClaim.createMany({
    data: [
      ...(site.hostname ? [{ ...claim, host: site.hostname, kind: 'hostname' as const, siteId: site.id }] : []),
      ...(site.proxy ? [{ ...claim, host: site.proxy.split('/')[0], kind: 'proxy' as const }] : []),
    ],
    skipDuplicates: true,
  });
  return site;
}
