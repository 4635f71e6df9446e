// REST endpoints of the grants on spaces and collections, and of the spaces a member can access.
import { type RestModule, type RouteDefinition, route } from '../../rest/route.js';

const contentRoutes = (kind: 'Space' | 'Collection'): RouteDefinition[] => {
  const base = `/v1/${kind.toLowerCase()}s/:${kind.toLowerCase()}Id/permissions` as const;
  const id = `$${kind.toLowerCase()}Id`;
  const content = `${kind.toLowerCase()}(id: ${id})`;
  return [
    route(`POST ${base}`, `inviteTo${kind}`, `inviteTo${kind}(id: ${id}, input: $body)`, { status: 204 }),
    route(`GET ${base}/users`, `listUserPermissionsIn${kind}`, `${content}.userPermissions`),
    route(
      `PATCH ${base}/users/:userId`,
      `updateUserPermissionIn${kind}`,
      `update${kind}UserPermission(id: ${id}, userId: $userId, input: $body)`,
      { status: 204 },
    ),
    route(`DELETE ${base}/users/:userId`, `removeUserFrom${kind}`, `remove${kind}UserPermission(id: ${id}, userId: $userId)`, {
      status: 205,
    }),
    route(`GET ${base}/teams`, `listTeamPermissionsIn${kind}`, `${content}.teamPermissions`),
    route(
      `PATCH ${base}/teams/:teamId`,
      `updateTeamPermissionIn${kind}`,
      `update${kind}TeamPermission(id: ${id}, teamId: $teamId, input: $body)`,
      { status: 204 },
    ),
    route(`DELETE ${base}/teams/:teamId`, `removeTeamFrom${kind}`, `remove${kind}TeamPermission(id: ${id}, teamId: $teamId)`, {
      status: 205,
    }),
    route(`GET ${base}/aggregate`, `listPermissionsAggregateIn${kind}`, `${content}.permissionsAggregate`),
  ];
};

export const grantRest: RestModule = {
  routes: [
    ...contentRoutes('Space'),
    ...contentRoutes('Collection'),
    route(
      'GET /v1/orgs/:organizationId/members/:userId/spaces',
      'listSpacesForOrganizationMember',
      'organization(id: $organizationId).member(userId: $userId).spaces',
    ),
  ],
};
