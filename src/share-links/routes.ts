// REST endpoints of a site's share links, and the REST shape of a ShareLink.
import { type RestModule, route } from '../../rest/route.js';

const site = '/v1/orgs/:organizationId/sites/:siteId';
const siteKey = 'organizationId: $organizationId, siteId: $siteId';
const linkKey = `${siteKey}, shareLinkId: $shareLinkId`;

export const shareLinkRest: RestModule = {
  fragments: {
    ShareLink: 'object id name active createdAt urls',
  },
  routes: [
    route(`GET ${site}/share-links`, 'listSiteShareLinks', 'organization(id: $organizationId).site(id: $siteId).shareLinks'),
    route(`POST ${site}/share-links`, 'createSiteShareLink', `createSiteShareLink(${siteKey}, input: $body)`, { status: 201 }),
    route(`PATCH ${site}/share-links/:shareLinkId`, 'updateSiteShareLinkById', `updateSiteShareLink(${linkKey}, input: $body)`),
    route(`DELETE ${site}/share-links/:shareLinkId`, 'deleteSiteShareLinkById', `deleteSiteShareLink(${linkKey})`, { status: 205 }),
  ],
};
