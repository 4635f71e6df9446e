// The actions the spaces record (src/spaces/service.ts), with their labels: listed by the audit log (src/audit-actions.ts).
export const spacesActions = {
  space_created: 'Space created',
  space_updated: 'Space updated',
  space_deleted: 'Space deleted',
  space_restored: 'Space restored',
  space_moved: 'Space moved',
  space_transferred: 'Space transferred',
} as const;
