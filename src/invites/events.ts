// What the invites' changes record (src/kernel/events.ts), with their labels for the audit log's list of actions. Who
// joins records src/members' member_joined (and, joining by e-mail link, api_token_created for a first token).
export const invitesActions = {
  invite_link_created: 'Invite link created',
  invite_link_updated: 'Invite link updated',
  invite_link_deleted: 'Invite link deleted',
} as const;
