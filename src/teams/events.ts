// What the teams' changes record (src/kernel/events.ts), with their labels for the audit log's list of actions.
export const teamsActions = {
  team_created: 'Team created',
  team_updated: 'Team updated',
  team_deleted: 'Team deleted',
  team_members_updated: 'Team members updated',
  team_member_added: 'Team member added',
  team_member_role_updated: 'Team member role updated',
  team_member_removed: 'Team member removed',
} as const;
