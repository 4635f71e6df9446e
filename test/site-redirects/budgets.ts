// Statement budgets of the site-redirect routes (see test/support/budgets.ts), over a site of the budget world with a
// section, a site space showing the world's space and a page of it. Creating and looking up a page destination pay
// for the site space, the space's revision and its page tree.
import { newId } from '../../src/kernel/ids.js';
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';
import { buildPage, buildSite, buildSiteSection, buildSiteSpace } from './fixtures.js';

const SITE = '/v1/orgs/:organizationId/sites/:siteId';

export const siteRedirectBudgets: DomainBudgets = {
  budgets: {
    [`GET ${SITE}/redirects`]: 4,
    [`POST ${SITE}/redirects`]: 10,
    [`PATCH ${SITE}/redirects/:siteRedirectId`]: 9,
    [`DELETE ${SITE}/redirects/:siteRedirectId`]: 7,
    [`GET ${SITE}/redirect`]: 7,
  },
  calls: async ({ t, organizationId, space }) => {
    const site = await buildSite(t.prisma, { organizationId, title: 'Redirects budget', hostname: 'redirects.budget.example.com' });
    const section = await buildSiteSection(t.prisma, site.id, 'guides');
    const siteSpace = await buildSiteSpace(t.prisma, site.id, space.id, 'book', { sectionId: section.id });
    const pageId = await buildPage(t.prisma, space.id, 'budget-page');
    const redirect = (source: string, destination: object, captureWildcard = false) =>
      t.prisma.siteRedirect.create({ data: { id: newId(), siteId: site.id, source, destination, captureWildcard } });
    const changed = await redirect('/budget/changed', { kind: 'external', url: 'https://example.com/' });
    const doomed = await redirect('/budget/doomed', { kind: 'external', url: 'https://example.com/' });
    await redirect('/budget/pages/*', { kind: 'site-page', siteSpaceId: siteSpace.id, pageId }, true);
    const redirects = `/v1/orgs/${organizationId}/sites/${site.id}/redirects`;
    const calls: Record<string, BudgetCall> = {
      [`GET ${SITE}/redirects`]: { path: redirects },
      [`POST ${SITE}/redirects`]: {
        path: redirects,
        body: { source: '/budget/new', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId } },
      },
      [`PATCH ${SITE}/redirects/:siteRedirectId`]: {
        path: `${redirects}/${changed.id}`,
        body: { destination: { kind: 'site-section', siteSectionId: section.id }, permanent: true },
      },
      [`DELETE ${SITE}/redirects/:siteRedirectId`]: { path: `${redirects}/${doomed.id}` },
      [`GET ${SITE}/redirect`]: { path: `/v1/orgs/${organizationId}/sites/${site.id}/redirect?source=/budget/pages/a/b` },
    };
    return calls;
  },
};
