// REST endpoints of a site's site spaces and sections, its structure and published view, and the resolution of a
// published URL; the REST shapes of a SiteSpace and a SiteSection.
import { type RestModule, route } from '../../rest/route.js';

const site = '/v1/orgs/:organizationId/sites/:siteId';
const siteField = 'organization(id: $organizationId).site(id: $siteId)';
const siteKey = 'organizationId: $organizationId, siteId: $siteId';

export const siteStructureRest: RestModule = {
  fragments: {
    SiteSpace: 'object id path section space title default condition hidden draft urls',
    SiteSection: 'object id title description default path condition icon draft siteSpaces urls',
  },
  routes: [
    route(`POST ${site}/site-spaces`, 'addSpaceToSite', `addSpaceToSite(${siteKey}, input: $body)`, {
      status: 201,
      returnPreference: true,
    }),
    route(`GET ${site}/site-spaces`, 'listSiteSpaces', `${siteField}.siteSpaces`),
    route(
      `PATCH ${site}/site-spaces/:siteSpaceId`,
      'updateSiteSpaceById',
      `updateSiteSpace(${siteKey}, siteSpaceId: $siteSpaceId, input: $body)`,
      { returnPreference: true },
    ),
    route(`DELETE ${site}/site-spaces/:siteSpaceId`, 'deleteSiteSpaceById', `deleteSiteSpace(${siteKey}, siteSpaceId: $siteSpaceId)`, {
      status: 205,
    }),
    route(
      `POST ${site}/site-spaces/:siteSpaceId/move`,
      'moveSiteSpace',
      `moveSiteSpace(${siteKey}, siteSpaceId: $siteSpaceId, input: $body)`,
    ),
    route(`POST ${site}/sections`, 'addSectionToSite', `addSectionToSite(${siteKey}, input: $body)`, { status: 201 }),
    route(`GET ${site}/sections`, 'listSiteSections', `${siteField}.sections`),
    route(
      `PATCH ${site}/sections/:siteSectionId`,
      'updateSiteSectionById',
      `updateSiteSection(${siteKey}, siteSectionId: $siteSectionId, input: $body)`,
      { returnPreference: true },
    ),
    route(
      `DELETE ${site}/sections/:siteSectionId`,
      'deleteSiteSectionById',
      `deleteSiteSection(${siteKey}, siteSectionId: $siteSectionId)`,
      { status: 205 },
    ),
    route(
      `POST ${site}/sections/:siteSectionId/move`,
      'moveSiteSection',
      `moveSiteSection(${siteKey}, siteSectionId: $siteSectionId, input: $body)`,
    ),
    route(`GET ${site}/structure`, 'getSiteStructure', `${siteField}.structure`),
    route(`GET ${site}/published`, 'getPublishedContentSite', `${siteField}.publishedContent`),
    route('GET /v1/urls/published', 'getPublishedContentByUrl', 'publishedContentByUrl'),
  ],
};
