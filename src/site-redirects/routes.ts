// REST endpoints of a site's redirects, and the REST shape of a SiteRedirect.
import { type RestModule, route } from '../../rest/route.js';

const site = '/v1/orgs/:organizationId/sites/:siteId';
const siteField = 'organization(id: $organizationId).site(id: $siteId)';
const siteKey = 'organizationId: $organizationId, siteId: $siteId';
const redirectKey = `${siteKey}, siteRedirectId: $siteRedirectId`;

export const siteRedirectRest: RestModule = {
  fragments: {
    SiteRedirect: 'object id source destination draft captureWildcard permanent createdAt updatedAt',
  },
  routes: [
    route(`GET ${site}/redirects`, 'listSiteRedirects', `${siteField}.redirects`),
    route(`POST ${site}/redirects`, 'createSiteRedirect', `createSiteRedirect(${siteKey}, input: $body)`, { status: 201 }),
    route(`PATCH ${site}/redirects/:siteRedirectId`, 'updateSiteRedirectById', `updateSiteRedirect(${redirectKey}, input: $body)`),
    route(`DELETE ${site}/redirects/:siteRedirectId`, 'deleteSiteRedirectById', `deleteSiteRedirect(${redirectKey})`, { status: 205 }),
    route(`GET ${site}/redirect`, 'getSiteRedirectBySource', `${siteField}.redirect(source: $source, shareKey: $shareKey)`),
  ],
};
