// REST endpoints of sites and of their adaptive schema, and the REST shape of a Site.
import { type RestModule, route } from '../../rest/route.js';

const sites = '/v1/orgs/:organizationId/sites';
const site = `${sites}/:siteId`;
const siteKey = 'organizationId: $organizationId, siteId: $siteId';
const siteField = 'organization(id: $organizationId).site(id: $siteId)';

export const siteRest: RestModule = {
  fragments: {
    Site: `object id type appliedType title hostname basename proxy visibility defaultLevel permissions published
      siteSpaces: siteSpaceCount createdAt adaptiveContent ads features urls`,
  },
  routes: [
    route(`GET ${sites}`, 'listSites', 'organization(id: $organizationId).sites'),
    route(`POST ${sites}`, 'createSite', 'createSite(organizationId: $organizationId, input: $body)', { status: 201 }),
    route(`GET ${site}`, 'getSiteById', siteField),
    route(`PATCH ${site}`, 'updateSiteById', `updateSite(${siteKey}, input: $body)`),
    route(`DELETE ${site}`, 'deleteSiteById', `deleteSite(${siteKey})`, { status: 205 }),
    route(`POST ${site}/publish`, 'publishSite', `publishSite(${siteKey})`),
    route(`POST ${site}/unpublish`, 'unpublishSite', `unpublishSite(${siteKey})`),
    route(`GET ${site}/adaptive-schema`, 'getSiteAdaptiveSchema', `${siteField}.adaptiveSchema`),
    route(`PUT ${site}/adaptive-schema`, 'updateSiteAdaptiveSchema', `updateSiteAdaptiveSchema(${siteKey}, input: $body)`),
  ],
};
