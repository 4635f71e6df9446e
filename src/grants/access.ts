// What can be granted: the kinds of content, and where their grants and rows live (the service writes grants, the
// GraphQL lists read them).
/** The kinds of content that can be granted, and where their grants and rows live. */
export const contentKinds = {
  Space: { table: 'Space', grantColumn: 'spaceId' },
  Collection: { table: 'Collection', grantColumn: 'collectionId' },
} as const;
export type ContentKind = keyof typeof contentKinds;
