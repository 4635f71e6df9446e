// What the collection services take: plain shapes, which the GraphQL inputs of mutations.ts validate and hand over (the
// typecheck holds the two together where the resolvers call). A move takes content/tree.ts's MoveContent.
import type { ContentLevel } from '../generated/prisma/enums.js';

export interface NewCollection {
  title?: string | null;
  /** Parent collection. */
  parent?: string | null;
}

export interface CollectionChange {
  title?: string | null;
  description?: string | null;
  /** A role, inherit, or null for no default access. */
  defaultLevel?: ContentLevel | null;
}

export interface CollectionTransfer {
  /** Target organization. */
  organization: string;
}
