// REST endpoints of invites, and the REST shapes of invite links.
import { type RestModule, route } from '../../rest/route.js';

const invite = '/v1/orgs/:organizationId/link-invites/:inviteId';
const inviteKey = 'organizationId: $organizationId, inviteId: $inviteId';

export const invitesRest: RestModule = {
  fragments: {
    InviteLinkToOrganization: 'object id role @keepNull redundant expiresAt',
    InviteLinkToSpace: 'object id level @keepNull redundant space expiresAt',
    InviteLinkToCollection: 'object id level @keepNull redundant collection expiresAt',
  },
  routes: [
    route(
      'POST /v1/orgs/:organizationId/invites',
      'inviteUsersToOrganization',
      'inviteUsersToOrganization(organizationId: $organizationId, input: $body)',
    ),
    route('POST /v1/orgs/:organizationId/invites/:inviteId', 'joinOrganizationWithInvite', `joinOrganizationWithInvite(${inviteKey})`, {
      emptyObject: true,
      gone: true,
    }),
    route('GET /v1/orgs/:organizationId/link-invites', 'listOrganizationInviteLinks', 'organization(id: $organizationId).linkInvites'),
    route(
      'POST /v1/orgs/:organizationId/link-invites',
      'createOrganizationInvite',
      'createLinkInvite(organizationId: $organizationId, input: $body)',
      { status: 201 },
    ),
    route(`GET ${invite}`, 'getOrganizationInviteLink', 'organization(id: $organizationId).linkInvite(inviteId: $inviteId)'),
    route(`PATCH ${invite}`, 'updateOrganizationInviteById', `updateLinkInvite(${inviteKey}, input: $body)`),
    route(`DELETE ${invite}`, 'deleteOrganizationInviteById', `deleteLinkInvite(${inviteKey})`, { status: 205 }),
  ],
};
