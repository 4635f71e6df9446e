// REST endpoints of API tokens and their REST shape: an extension of GitBook's API (spec `extension`), named in its
// style. A user's own under /v1/user/tokens; an organization's admins list and revoke those acting in it.
import { type RestModule, route } from '../../rest/route.js';

const extension = { spec: 'extension' } as const;

export const tokenRest: RestModule = {
  fragments: {
    ApiToken:
      'object id label kind user { id displayName } organizations spaces access reaches token createdAt lastUsedAt expiresAt revokedAt urls',
  },
  routes: [
    route('GET /v1/user/tokens', 'listUserApiTokens', 'apiTokens', extension),
    route('POST /v1/user/tokens', 'createUserApiToken', 'createApiToken(input: $body)', { ...extension, status: 201 }),
    route('GET /v1/user/tokens/:tokenId', 'getUserApiTokenById', 'apiToken(id: $tokenId)', extension),
    route('DELETE /v1/user/tokens/:tokenId', 'revokeUserApiTokenById', 'revokeApiToken(tokenId: $tokenId)', { ...extension, status: 204 }),
    route('GET /v1/orgs/:organizationId/tokens', 'listOrganizationApiTokens', 'organization(id: $organizationId).tokens', extension),
    route(
      'DELETE /v1/orgs/:organizationId/tokens/:tokenId',
      'revokeOrganizationApiTokenById',
      'revokeOrganizationApiToken(organizationId: $organizationId, tokenId: $tokenId)',
      { ...extension, status: 204 },
    ),
  ],
};
