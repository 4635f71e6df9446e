// A space's summary: what its shape carries besides its row. Its counters (open comments, change requests by status),
// its Git sync (src/git-sync/state.ts) and the site space that gives its published URLs
// (src/site-structure/space-urls.ts), read for a batch of spaces in one statement whatever their number, through
// those spaces' rows and indexes only.
import { Prisma, type Space } from '../generated/prisma/client.js';
import { type GitSyncSummary, gitSyncSql, summaryOf } from '../git-sync/state.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { publishedSiteSpaceSql, publishedUrlsOf, type SpacePublishedUrls } from '../site-structure/space-urls.js';

export interface SpaceCounts {
  openComments: number;
  changeRequests: number;
  openChangeRequests: number;
  draftChangeRequests: number;
}

/** What the summary's statement reads of a space. */
type SpaceSummary = SpaceCounts & { gitSync: GitSyncSummary | null; urls: SpacePublishedUrls };

export const spaceSummaryAnnotation = rowAnnotation<Pick<Space, 'id'>, SpaceSummary>('space summary', async (ctx, spaces) => {
  const ids = spaces.map((space) => space.id);
  // Two grouped scans over the spaces' rows, rather than a subquery per space and counter. A space's comments are its
  // own, not those of its change requests (each counts its own).
  const rows = await ctx.sql<SpaceCounts & { id: string; gitSync: unknown; published: unknown }>(Prisma.sql`
    SELECT s.id, coalesce(c.open, 0)::int AS "openComments", coalesce(r.total, 0)::int AS "changeRequests",
           coalesce(r.open, 0)::int AS "openChangeRequests", coalesce(r.draft, 0)::int AS "draftChangeRequests",
           ${gitSyncSql(Prisma.sql`s.id`)} AS "gitSync", ${publishedSiteSpaceSql(Prisma.sql`s.id`)} AS published
      FROM unnest(${ids}::text[]) AS s(id)
      LEFT JOIN (SELECT "spaceId", count(*) AS open FROM "Comment"
                  WHERE "spaceId" = ANY(${ids}::text[]) AND status = 'open' AND "changeRequestId" IS NULL GROUP BY 1) c
        ON c."spaceId" = s.id
      LEFT JOIN (SELECT "spaceId", count(*) AS total, count(*) FILTER (WHERE status = 'open') AS open,
                        count(*) FILTER (WHERE status = 'draft') AS draft
                   FROM "ChangeRequest" WHERE "spaceId" = ANY(${ids}::text[]) GROUP BY 1) r ON r."spaceId" = s.id`);
  const byId = new Map(
    rows.map(({ published, ...row }) => [row.id, { ...row, gitSync: summaryOf(row.gitSync), urls: publishedUrlsOf(ctx, published) }]),
  );
  return ids.map((id) => byId.get(id)!);
});
