// What the organizations' changes record (src/kernel/events.ts), with their labels for the audit log's list of actions.
export const organizationsActions = {
  organization_created: 'Organization created',
  organization_updated: 'Organization settings updated',
} as const;
