// Statement budgets of the site-structure routes (see test/support/budgets.ts), over a published site with two sections
// of two site spaces each; deletions get a section and a site space of their own.
import { newId } from '../../src/kernel/ids.js';
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';
import { buildSite, buildSpace } from '../support/factories.js';

const SITE = '/v1/orgs/:organizationId/sites/:siteId';

export const siteStructureBudgets: DomainBudgets = {
  budgets: {
    [`POST ${SITE}/site-spaces`]: 15,
    [`GET ${SITE}/site-spaces`]: 8,
    [`PATCH ${SITE}/site-spaces/:siteSpaceId`]: 14,
    [`DELETE ${SITE}/site-spaces/:siteSpaceId`]: 12,
    [`POST ${SITE}/site-spaces/:siteSpaceId/move`]: 14,
    [`POST ${SITE}/sections`]: 18,
    [`GET ${SITE}/sections`]: 9,
    [`PATCH ${SITE}/sections/:siteSectionId`]: 13,
    [`DELETE ${SITE}/sections/:siteSectionId`]: 11,
    [`POST ${SITE}/sections/:siteSectionId/move`]: 15,
    [`GET ${SITE}/structure`]: 9,
    [`GET ${SITE}/published`]: 10,
    'GET /v1/urls/published': 4,
  },
  calls: async ({ t, organizationId, space }) => {
    const { id: siteId } = await buildSite(t.prisma, {
      organizationId,
      title: 'Structure',
      published: true,
      hostname: 'structure.budget.example',
    });
    const sections = ['guides', 'api', 'doomed'].map((path, i) => ({ id: newId(), siteId, title: path, path, position: i + 1 }));
    await t.prisma.siteSection.createMany({ data: sections });
    const spaces = [
      space.id,
      ...(await Promise.all([1, 2, 3].map((i) => buildSpace(t.prisma, { organizationId, title: `Site space ${i}` })))).map((s) => s.id),
    ];
    const siteSpaces = ['v1', 'v2', 'doomed', 'v1'].map((path, i) => ({
      id: newId(),
      siteId,
      sectionId: sections[i < 3 ? 0 : 1].id,
      spaceId: spaces[i],
      path,
      position: i + 1,
    }));
    await t.prisma.siteSpace.createMany({ data: siteSpaces });
    await t.prisma.siteSection.update({ where: { id: sections[0].id }, data: { defaultSiteSpaceId: siteSpaces[0].id } });
    await t.prisma.siteSection.update({ where: { id: sections[1].id }, data: { defaultSiteSpaceId: siteSpaces[3].id } });
    await t.prisma.site.update({ where: { id: siteId }, data: { defaultSiteSectionId: sections[0].id } });
    const site = `/v1/orgs/${organizationId}/sites/${siteId}`;
    const calls: Record<string, BudgetCall> = {
      [`POST ${SITE}/site-spaces`]: { path: `${site}/site-spaces`, body: { spaceId: space.id, sectionId: sections[1].id } },
      [`GET ${SITE}/site-spaces`]: { path: `${site}/site-spaces` },
      [`PATCH ${SITE}/site-spaces/:siteSpaceId`]: {
        path: `${site}/site-spaces/${siteSpaces[1].id}`,
        body: { path: 'latest', hidden: true },
      },
      [`DELETE ${SITE}/site-spaces/:siteSpaceId`]: { path: `${site}/site-spaces/${siteSpaces[2].id}` },
      [`POST ${SITE}/site-spaces/:siteSpaceId/move`]: {
        path: `${site}/site-spaces/${siteSpaces[1].id}/move`,
        body: { position: { before: { type: 'site-space', siteSpace: siteSpaces[0].id } } },
      },
      [`POST ${SITE}/sections`]: { path: `${site}/sections`, body: { spaceId: space.id, title: 'Changelog' } },
      [`GET ${SITE}/sections`]: { path: `${site}/sections` },
      [`PATCH ${SITE}/sections/:siteSectionId`]: {
        path: `${site}/sections/${sections[1].id}`,
        body: { title: 'API reference', icon: 'code' },
      },
      [`DELETE ${SITE}/sections/:siteSectionId`]: { path: `${site}/sections/${sections[2].id}` },
      [`POST ${SITE}/sections/:siteSectionId/move`]: {
        path: `${site}/sections/${sections[1].id}/move`,
        body: { position: { before: { type: 'site-section', siteSection: sections[0].id } } },
      },
      [`GET ${SITE}/structure`]: { path: `${site}/structure` },
      [`GET ${SITE}/published`]: { path: `${site}/published` },
      'GET /v1/urls/published': {
        path: `/v1/urls/published?url=${encodeURIComponent('https://structure.budget.example/api/v1/intro')}`,
      },
    };
    return calls;
  },
};
