// What other domains keep in step with page versions (the search index, the links), written in the revision store's
// own statements so that they cost no round trip: hooks, given at the composition root (src/composition.ts) and
// carried by the services, so that the store knows nothing of what follows it. Each hook adds common table
// expressions to the statement that writes the versions; the store puts every hook's into that one statement, and its
// own come first, for the hooks to read:
// - `closed`: the ids of the page versions a revision ends (an UPDATE ... RETURNING id);
// - `versions`: the INSERT of new page versions (their ids and contents are given to the hook beforehand);
// - `copied` and `pairs`: a copy of page versions into another space, `pairs` holding each copy's id and its source's
//   ("sourceId").
import type { PageVersion, Prisma } from '../generated/prisma/client.js';

/** The line page versions are written on. */
export interface WrittenLine {
  spaceId: string;
  line: string;
  /** Whether it is the space's primary content ("main"), not a change request's line. */
  primary: boolean;
}

/** What a hook adds to one of the store's statements. */
export interface StatementPart {
  /** `name AS (...)`, comma-separated, named apart from the store's own and from other hooks'. */
  with: Prisma.Sql;
  /**
   * A common table expression that does its work only when read (a SELECT calling a function, an enqueue's): the
   * statement's end reads it whole. Data-modifying ones need nothing: PostgreSQL runs them whatever is read.
   */
  read?: string;
}

export interface PageVersionHook {
  /** Page versions of `line` end: `closed` holds their ids. */
  closing?(line: WrittenLine): StatementPart | null;
  /** These page versions are written on `line` (by `versions`), tombstones among them (`deleted`). */
  inserting?(line: WrittenLine, versions: readonly PageVersion[]): StatementPart | null;
  /** The page versions of a revision are copied into the first revision of `toSpaceId`'s primary line (`pairs`). */
  copying?(toSpaceId: string): StatementPart | null;
}

declare module '../kernel/context.js' {
  interface Services {
    /** The revision store's hooks (src/revisions/hooks.ts), given by the composition root (src/composition.ts). */
    pageVersionHooks: readonly PageVersionHook[];
  }
}
