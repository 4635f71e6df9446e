// The counters of a space (open comments, change requests by status), batched for every space of a request:
// two statements whatever the number of spaces, each reading only the requested spaces' rows.
import { loaderFor, type Context } from '../kernel/context.js';

export interface SpaceCounts {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

export function spaceCounts(ctx: Context, spaceId: string): Promise<SpaceCounts> {
  return loaderFor<string, SpaceCounts>(ctx, 'space-counts', async (ids) => {
    const [comments, changeRequests] = await Promise.all([
      ctx.prisma.$queryRaw<{ spaceId: string; open: number }[]>`
        SELECT "spaceId", count(*)::int AS open FROM "Comment"
         WHERE "spaceId" = ANY(${[...ids]}::text[]) AND status = 'open' GROUP BY 1`,
      ctx.prisma.$queryRaw<{ spaceId: string; total: number; open: number; draft: number }[]>`
        SELECT "spaceId", count(*)::int AS total,
               (count(*) FILTER (WHERE status = 'open'))::int AS open, (count(*) FILTER (WHERE status = 'draft'))::int AS draft
          FROM "ChangeRequest" WHERE "spaceId" = ANY(${[...ids]}::text[]) GROUP BY 1`,
    ]);
    const openComments = new Map(comments.map((c) => [c.spaceId, c.open]));
    const requests = new Map(changeRequests.map((c) => [c.spaceId, c]));
    return ids.map((id) => ({
      comments: openComments.get(id) ?? 0,
      changeRequests: requests.get(id)?.total ?? 0,
      changeRequestsOpen: requests.get(id)?.open ?? 0,
      changeRequestsDraft: requests.get(id)?.draft ?? 0,
    }));
  }).load(spaceId);
}
