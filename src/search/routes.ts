// REST endpoints of search: GitBook's searchOrganizationContent and searchSpaceContent (spec 0.202.0).
import { type RestModule, route } from '../../rest/route.js';

export const searchRest: RestModule = {
  routes: [
    route('GET /v1/orgs/:organizationId/search', 'searchOrganizationContent', 'organization(id: $organizationId).search(query: $query)'),
    route('GET /v1/spaces/:spaceId/search', 'searchSpaceContent', 'space(id: $spaceId).search(query: $query)'),
  ],
};
