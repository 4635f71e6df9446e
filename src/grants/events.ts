// What the grants' changes record (src/kernel/events.ts), with their labels for the audit log's list of actions.
export const grantsActions = {
  grants_updated: 'Access granted',
  grants_removed: 'Access removed',
} as const;
