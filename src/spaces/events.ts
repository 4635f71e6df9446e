// The changes of spaces that are recorded (src/kernel/events.ts), with their labels, as the audit log lists them: by
// users through the API (service.ts), and the purge of spaces deleted long enough ago by its job, as the system
// (purge.ts).
export const spacesActions = {
  space_created: 'Space created',
  space_updated: 'Space updated',
  space_deleted: 'Space deleted',
  space_restored: 'Space restored',
  space_moved: 'Space moved',
  space_transferred: 'Space transferred',
  space_purged: 'Space purged',
} as const;
