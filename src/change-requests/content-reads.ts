// A change request's content, read as the space's is (src/revisions/types.ts): `ChangeRequest.content`, its current
// revision; and the other way round, `Revision.mergedFrom`, the change request whose merge made a merge revision.
import type { ChangeRequest as ChangeRequestRow, Revision as RevisionRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { builder } from '../kernel/builder.js';
import { type Context, loaderFor } from '../kernel/context.js';
import { contentArgs, contentOf, Revision } from '../revisions/types.js';
import { ChangeRequest } from './types.js';

// Whoever reads the change request may read its content: `view` on the space (`changeRequests`, access.ts).
builder.objectField(ChangeRequest, 'content', (t) =>
  t.field({
    type: Revision,
    description: 'The change request’s current content (its active revision).',
    args: contentArgs,
    resolve: (changeRequest, args, ctx) => contentOf(ctx, changeRequest.revisionId, args),
  }),
);

const mergedFromLoader = Symbol('change requests by merge revision');

/**
 * Of a merge revision, the change request whose merge made it; null for any other revision. One statement for every
 * merge revision asked for in the tick, through the revisionMergedId index.
 */
export async function mergedFromOf(ctx: Context, revision: RevisionRow): Promise<ChangeRequestRow | null> {
  if (revision.type !== 'merge') return null;
  return loaderFor<RevisionRow, ChangeRequestRow | null, string>(
    ctx,
    mergedFromLoader,
    async (revisions) => {
      const rows = await ctx.sql<ChangeRequestRow>(Prisma.sql`
        SELECT * FROM "ChangeRequest" WHERE "revisionMergedId" = ANY(${revisions.map((r) => r.id)}::text[])`);
      const byRevision = new Map(rows.map((row) => [row.revisionMergedId, row]));
      return revisions.map((r) => byRevision.get(r.id) ?? null);
    },
    { cacheKeyFn: (r) => r.id },
  ).load(revision);
}

// A merge revision is in the space of the change request it merged, so whoever reads the one sees the other.
builder.objectField(Revision, 'mergedFrom', (t) =>
  t.field({
    type: ChangeRequest,
    nullable: true,
    description: 'Of a merge revision: the change request whose merge made it.',
    resolve: ({ revision }, _args, ctx) => mergedFromOf(ctx, revision),
  }),
);
