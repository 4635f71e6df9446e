// Sites, sections, site spaces and pages for the tests of redirects, share links and publishing auth, written with
// Prisma directly (the site domains' own routes are built beside these).
import type { Prisma, PrismaClient, SiteSection, SiteSpace } from '../../src/generated/prisma/client.js';
import { newId } from '../../src/kernel/ids.js';

export { buildSite } from '../support/factories.js';

export function buildSiteSection(
  prisma: PrismaClient,
  siteId: string,
  path: string,
  data: Partial<Prisma.SiteSectionUncheckedCreateInput> = {},
): Promise<SiteSection> {
  return prisma.siteSection.create({ data: { id: newId(), siteId, path, title: path, ...data } });
}

export function buildSiteSpace(
  prisma: PrismaClient,
  siteId: string,
  spaceId: string,
  path: string,
  data: Partial<Prisma.SiteSpaceUncheckedCreateInput> = {},
): Promise<SiteSpace> {
  return prisma.siteSpace.create({ data: { id: newId(), siteId, spaceId, path, ...data } });
}

/** A page of the space's first (current) revision. */
export async function buildPage(
  prisma: PrismaClient,
  spaceId: string,
  slug: string,
  data: Partial<Prisma.PageVersionUncheckedCreateInput> = {},
) {
  const pageId = data.pageId ?? newId();
  await prisma.pageVersion.create({ data: { id: newId(), spaceId, line: 'main', validFrom: 1, pageId, title: slug, slug, ...data } });
  return pageId;
}
