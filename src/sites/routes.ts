// REST endpoints of sites, of their adaptive schema and of the claims of their hosts (custom hostnames), and the REST
// shapes of a Site and a CustomHostname.
import { type RestModule, route } from '../../rest/route.js';

const sites = '/v1/orgs/:organizationId/sites';
const site = `${sites}/:siteId`;
const siteKey = 'organizationId: $organizationId, siteId: $siteId';
const siteField = 'organization(id: $organizationId).site(id: $siteId)';
const customHostname = '/v1/custom-hostnames/:hostname';

export const siteRest: RestModule = {
  fragments: {
    Site: `object id type appliedType title hostname basename proxy visibility defaultLevel permissions published
      siteSpaces: siteSpaceCount createdAt adaptiveContent ads features urls`,
    CustomHostname: 'object hostname target isActive status urls verification',
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
    route(`GET ${customHostname}`, 'getCustomHostname', 'customHostname(hostname: $hostname)'),
    route(`PATCH ${customHostname}`, 'dnsRevalidateCustomHostname', 'revalidateCustomHostname(hostname: $hostname)', { status: 204 }),
    // GitBook's spec: 205 when the claim was removed, 204 when there was none.
    route(`DELETE ${customHostname}`, 'removeCustomHostname', 'removeCustomHostname(hostname: $hostname)', {
      status: 205,
      alternateStatus: { status: 204, when: '!removeCustomHostname' },
    }),
  ],
};
