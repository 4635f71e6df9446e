// REST endpoints of a site's publishing auth (visitor authentication), and the REST shape of a PublishingAuth.
import { type RestModule, route } from '../../rest/route.js';

const auth = '/v1/orgs/:organizationId/sites/:siteId/publishing/auth';
const siteKey = 'organizationId: $organizationId, siteId: $siteId';

export const publishingAuthRest: RestModule = {
  fragments: {
    PublishingAuth: 'object backend privateKey fallbackURL logoutURL integration',
  },
  routes: [
    route(`GET ${auth}`, 'getSitePublishingAuthById', 'organization(id: $organizationId).site(id: $siteId).publishingAuth'),
    route(`PATCH ${auth}`, 'updateSitePublishingAuthById', `updateSitePublishingAuth(${siteKey}, input: $body)`),
    route(`POST ${auth}/regenerate`, 'regenerateSitePublishingAuthById', `regenerateSitePublishingAuth(${siteKey})`),
  ],
};
