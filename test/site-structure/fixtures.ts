// Sites for the structure tests, written straight to the database (sites themselves are another domain's), and the
// many site spaces the statement-count tests need, in a constant number of statements.
import type { Prisma, PrismaClient, Site } from '../../src/generated/prisma/client.js';
import { newId } from '../../src/kernel/ids.js';
import { buildSite as buildClaimedSite, buildSpaces } from '../support/factories.js';

/** A site (its hostname and proxy, when given, claimed and proven). */
export async function buildSite(
  prisma: PrismaClient,
  organizationId: string,
  overrides: Partial<Prisma.SiteUncheckedCreateInput> = {},
): Promise<Site> {
  return buildClaimedSite(prisma, { organizationId, ...overrides });
}

/** `count` site spaces (each on a new space of the organization) in a section or at the site's root, by position. */
export async function buildSiteSpaces(
  prisma: PrismaClient,
  { organizationId, siteId, sectionId = null, count }: { organizationId: string; siteId: string; sectionId?: string | null; count: number },
): Promise<string[]> {
  const spaceIds = await buildSpaces(prisma, { organizationId, count });
  const ids = spaceIds.map(() => newId());
  await prisma.siteSpace.createMany({
    data: ids.map((id, i) => ({ id, siteId, sectionId, spaceId: spaceIds[i], path: `space-${i + 1}`, position: i + 1 })),
  });
  return ids;
}
