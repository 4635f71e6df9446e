// What the collections' changes record (src/kernel/events.ts), with their labels for the audit log's list of actions.
export const collectionsActions = {
  collection_created: 'Collection created',
  collection_updated: 'Collection updated',
  collection_deleted: 'Collection deleted',
  collection_moved: 'Collection moved',
  collection_transferred: 'Collection transferred',
} as const;
