// What the members' changes record (src/kernel/events.ts), with their labels for the audit log's list of actions.
export const membersActions = {
  member_invited: 'Member invited',
  member_joined: 'Member joined',
  member_role_updated: 'Member role updated',
  member_sso_set: 'Member set as SSO member',
  member_removed: 'Member removed',
} as const;
