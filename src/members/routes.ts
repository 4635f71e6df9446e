// REST endpoints of organization members, and the REST shape of a Member.
import { type RestModule, route } from '../../rest/route.js';

export const memberRest: RestModule = {
  fragments: {
    Member: 'object id role @keepNull user disabled joinedAt lastSeenAt sso spaces: spaceCount teams: teamCount sites: siteCount',
  },
  routes: [
    route('GET /v1/orgs/:organizationId/members', 'listMembersInOrganizationById', 'organization(id: $organizationId).members'),
    route(
      'GET /v1/orgs/:organizationId/members/:userId',
      'getMemberInOrganizationById',
      'organization(id: $organizationId).member(userId: $userId)',
    ),
    route(
      'PATCH /v1/orgs/:organizationId/members/:userId',
      'updateMemberInOrganizationById',
      'updateMember(organizationId: $organizationId, userId: $userId, input: $body)',
    ),
    route(
      'POST /v1/orgs/:organizationId/members/:userId/sso',
      'setUserAsSSOMemberForOrganization',
      'setMemberSSO(organizationId: $organizationId, userId: $userId)',
    ),
    route(
      'DELETE /v1/orgs/:organizationId/members/:userId',
      'removeMemberFromOrganizationById',
      'removeMember(organizationId: $organizationId, userId: $userId)',
      { status: 204 },
    ),
    // GitBook's ping answers `{}` here: the visit it records is bookkeeping (src/kernel/context.ts).
    route(
      'POST /v1/orgs/:organizationId/ping',
      'updateOrganizationMemberLastSeenAt',
      'updateMemberLastSeenAt(organizationId: $organizationId)',
      { emptyObject: true },
    ),
  ],
};
