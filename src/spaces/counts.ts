// The counters of a space (open comments, change requests by status), computed for a batch of spaces in one
// statement whatever their number, reading only those spaces' rows through their indexes.
import { Prisma, type Space } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';

export interface SpaceCounts {
  openComments: number;
  changeRequests: number;
  openChangeRequests: number;
  draftChangeRequests: number;
}

export const spaceCounts = rowAnnotation<Pick<Space, 'id'>, SpaceCounts>('space counts', async (ctx, spaces) => {
  const ids = spaces.map((space) => space.id);
  const rows = await ctx.sql<SpaceCounts & { id: string }>(Prisma.sql`
    SELECT s.id,
      (SELECT count(*) FROM "Comment" c WHERE c."spaceId" = s.id AND c.status = 'open')::int AS "openComments",
      (SELECT count(*) FROM "ChangeRequest" r WHERE r."spaceId" = s.id)::int AS "changeRequests",
      (SELECT count(*) FROM "ChangeRequest" r WHERE r."spaceId" = s.id AND r.status = 'open')::int AS "openChangeRequests",
      (SELECT count(*) FROM "ChangeRequest" r WHERE r."spaceId" = s.id AND r.status = 'draft')::int AS "draftChangeRequests"
    FROM unnest(${ids}::text[]) AS s(id)`);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)!);
});
