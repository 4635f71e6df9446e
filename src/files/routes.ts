// REST endpoint of an organization's storage usage: an extension of GitBook's API (spec `extension`).
import { type RestModule, route } from '../../rest/route.js';

export const fileRest: RestModule = {
  fragments: { OrganizationStorage: 'object usedBytes quotaBytes' },
  routes: [
    route('GET /v1/orgs/:organizationId/storage', 'getOrganizationStorage', 'organization(id: $organizationId).storage', {
      spec: 'extension',
    }),
  ],
};
