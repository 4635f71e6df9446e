// What the space services take: plain shapes, which the GraphQL inputs of mutations.ts validate and hand over (the
// typecheck holds the two together where the resolvers call). A move takes content/tree.ts's MoveContent.
import type { ContentLevel, SpaceEditMode } from '../generated/prisma/enums.js';

export interface NewSpace {
  title?: string | null;
  emoji?: string | null;
  /** Parent collection. */
  parent?: string | null;
  editMode?: SpaceEditMode | null;
  language?: string | null;
  /** Refused by validation: templates are not available on this server. */
  template?: unknown;
  /** Refused by validation: computed content sources are not available on this server. */
  computedSource?: unknown;
  empty?: boolean | null;
}

export interface SpaceChange {
  title?: string | null;
  /** null removes the emoji. */
  emoji?: string | null;
  editMode?: SpaceEditMode | null;
  /** A role, inherit, or null for no default access. */
  defaultLevel?: ContentLevel | null;
  language?: string | null;
  mergeRules?: unknown;
}

export interface SpaceTransfer {
  /** Target organization. */
  organization: string;
  /** Collection of the target organization to put the space in. */
  collection?: string | null;
}
