// REST endpoints of teams and their members, and the REST shapes of a Team and a team member.
import { type RestModule, route } from '../../rest/route.js';

const team = '/v1/orgs/:organizationId/teams/:teamId';

export const teamRest: RestModule = {
  fragments: {
    Team: 'object id title members: memberCount spaces: spaceCount createdAt permissions',
    TeamMember: 'organization team permissions',
  },
  routes: [
    route('GET /v1/orgs/:organizationId/teams', 'listTeamsInOrganizationById', 'organization(id: $organizationId).teams'),
    route(
      'GET /v1/orgs/:organizationId/members/:userId/teams',
      'listTeamsForOrganizationMember',
      'organization(id: $organizationId).member(userId: $userId).teams',
    ),
    route('PUT /v1/orgs/:organizationId/teams', 'createOrganizationTeam', 'createTeam(organizationId: $organizationId, input: $body)', {
      status: 201,
    }),
    route(`GET ${team}`, 'getTeamInOrganizationById', 'organization(id: $organizationId).team(teamId: $teamId)'),
    route(`PATCH ${team}`, 'updateTeamInOrganizationById', 'updateTeam(organizationId: $organizationId, teamId: $teamId, input: $body)'),
    route(`DELETE ${team}`, 'removeTeamFromOrganizationById', 'deleteTeam(organizationId: $organizationId, teamId: $teamId)', {
      status: 204,
    }),
    route(`GET ${team}/members`, 'listTeamMembersInOrganizationById', 'organization(id: $organizationId).team(teamId: $teamId).members'),
    route(
      `PUT ${team}/members`,
      'updateMembersInOrganizationTeam',
      'updateTeamMembers(organizationId: $organizationId, teamId: $teamId, input: $body)',
      { status: 204 },
    ),
    route(
      `PUT ${team}/members/:userId`,
      'addMemberToOrganizationTeamById',
      'setTeamMember(organizationId: $organizationId, teamId: $teamId, userId: $userId, input: $body)',
      { status: 204 },
    ),
    route(
      `DELETE ${team}/members/:userId`,
      'deleteMemberFromOrganizationTeamById',
      'removeTeamMember(organizationId: $organizationId, teamId: $teamId, userId: $userId)',
      { status: 204 },
    ),
  ],
};
