// Synthetic data sets, written straight into PostgreSQL (unnest inserts): the benchmark's data set and the large
// trees of the statement-count tests. Rows are what the API itself would create: every space has its first revision.
import { randomBytes } from 'node:crypto';
import { pageVersionHooks } from '../src/composition.js';
import type { PrismaClient } from '../src/generated/prisma/client.js';
import { newId } from '../src/kernel/ids.js';
import { MAIN, type PageContent, writeRevision } from '../src/revisions/store.js';

const ROLES = ['read', 'comment', 'edit', 'review', 'create'] as const;

export interface OrganizationShape {
  title: string;
  /** The admin who owns the organization. */
  ownerId: string;
  /** Extra members, with roles cycling through read, comment, edit, review, create. */
  members: number;
  collections: number;
  /** Collections form a tree, four children per collection (top level: the first four), instead of a flat list. */
  nested: boolean;
  spacesPerCollection: number;
  topLevelSpaces: number;
}

export interface SeededOrganization {
  organizationId: string;
  collectionIds: string[];
  spaceIds: string[];
  memberIds: string[];
}

async function insertSpaces(prisma: PrismaClient, organizationId: string, parents: (string | null)[]): Promise<string[]> {
  const ids = parents.map(() => newId());
  const revisions = parents.map(() => newId());
  const positions = parents.map((_, i) => i + 1);
  const titles = parents.map((_, i) => `Space ${i + 1}`);
  await prisma.$executeRaw`
    INSERT INTO "Space" (id, "organizationId", "parentId", title, emoji, visibility, position, "createdAt", "updatedAt")
    SELECT id, ${organizationId}, parent, title, '1f4d8',
           CASE WHEN parent IS NULL THEN 'private'::"SpaceVisibility" ELSE 'in_collection'::"SpaceVisibility" END,
           position, now(), now()
      FROM unnest(${ids}::text[], ${parents}::text[], ${titles}::text[], ${positions}::float8[]) AS v(id, parent, title, position)`;
  await prisma.$executeRaw`
    INSERT INTO "Revision" (id, "spaceId", "createdAt") SELECT r, s, now() FROM unnest(${revisions}::text[], ${ids}::text[]) AS v(r, s)`;
  await prisma.$executeRaw`
    UPDATE "Space" s SET "revisionId" = v.r FROM unnest(${revisions}::text[], ${ids}::text[]) AS v(r, s2) WHERE s.id = v.s2`;
  return ids;
}

export async function seedOrganization(prisma: PrismaClient, shape: OrganizationShape): Promise<SeededOrganization> {
  const organizationId = newId();
  await prisma.organization.create({ data: { id: organizationId, title: shape.title } });
  await prisma.member.create({ data: { organizationId, userId: shape.ownerId, role: 'admin' } });

  const memberIds = Array.from({ length: shape.members }, () => newId());
  if (memberIds.length) {
    const tag = randomBytes(4).toString('hex');
    await prisma.user.createMany({
      data: memberIds.map((id, i) => ({ id, email: `member${i}-${tag}@example.com`, displayName: `Member ${i}` })),
    });
    await prisma.member.createMany({ data: memberIds.map((userId, i) => ({ organizationId, userId, role: ROLES[i % ROLES.length] })) });
  }

  const collectionIds = Array.from({ length: shape.collections }, () => newId());
  // Parents before children: collection i (from 4 on) sits under collection floor(i / 4) - 1.
  const parentOf = (i: number) => (shape.nested && i >= 4 ? collectionIds[Math.floor(i / 4) - 1] : null);
  if (collectionIds.length) {
    await prisma.collection.createMany({
      data: collectionIds.map((id, i) => ({ id, organizationId, parentId: parentOf(i), title: `Collection ${i + 1}`, position: i + 1 })),
    });
  }

  const parents = [
    ...Array.from({ length: shape.topLevelSpaces }, () => null),
    ...collectionIds.flatMap((id) => Array.from({ length: shape.spacesPerCollection }, () => id)),
  ];
  const spaceIds: string[] = [];
  for (let i = 0; i < parents.length; i += 5000) spaceIds.push(...(await insertSpaces(prisma, organizationId, parents.slice(i, i + 5000))));
  return { organizationId, collectionIds, spaceIds, memberIds };
}

/**
 * Makes `pages` the space's content: one revision of the primary line after its current one, written by `ownerId`
 * with the product's hooks (search index, links). Thousands of pages take seconds, hence the transaction's timeout.
 */
export async function publishPages(prisma: PrismaClient, spaceId: string, ownerId: string, pages: PageContent[]): Promise<void> {
  await prisma.$transaction(
    async (tx) => {
      const { revisionId } = await tx.space.findUniqueOrThrow({ where: { id: spaceId }, select: { revisionId: true } });
      const parent = await tx.revision.findUniqueOrThrow({ where: { id: revisionId! } });
      const revision = await writeRevision(
        tx,
        pageVersionHooks,
        { spaceId, line: MAIN, parent, type: 'edits', createdById: ownerId },
        { pages },
      );
      await tx.space.update({ where: { id: spaceId }, data: { revisionId: revision.id } });
    },
    { timeout: 120_000 },
  );
}
