// The changes of users that record events (src/kernel/events.ts), with their labels. A user belongs to no organization:
// their change is recorded in each organization they are a member of.
export const usersActions = {
  user_updated: 'User profile updated',
} as const;
