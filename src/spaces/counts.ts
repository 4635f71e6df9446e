// The counters of a space (open comments, change requests by status), batched for every space of a request:
// one statement whatever the number of spaces, reading only the requested spaces' rows through their indexes.
import { loaderFor, type Context } from '../kernel/context.js';

export interface SpaceCounts {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

export function spaceCounts(ctx: Context, spaceId: string): Promise<SpaceCounts> {
  return loaderFor<string, SpaceCounts>(ctx, 'space-counts', async (ids) => {
    const rows = await ctx.prisma.$queryRaw<(SpaceCounts & { id: string })[]>`
      SELECT s.id,
        (SELECT count(*) FROM "Comment" c WHERE c."spaceId" = s.id AND c.status = 'open')::int AS comments,
        (SELECT count(*) FROM "ChangeRequest" r WHERE r."spaceId" = s.id)::int AS "changeRequests",
        (SELECT count(*) FROM "ChangeRequest" r WHERE r."spaceId" = s.id AND r.status = 'open')::int AS "changeRequestsOpen",
        (SELECT count(*) FROM "ChangeRequest" r WHERE r."spaceId" = s.id AND r.status = 'draft')::int AS "changeRequestsDraft"
      FROM unnest(${[...ids]}::text[]) AS s(id)`;
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)!);
  }).load(spaceId);
}

const knownCounts = new WeakMap<{ id: string }, SpaceCounts>();

/** Loads the counters of a page of spaces in one go and keeps them beside the rows (see rememberLevels). */
export async function rememberCounts(ctx: Context, spaces: { id: string }[]): Promise<void> {
  const counts = await Promise.all(spaces.map((space) => spaceCounts(ctx, space.id)));
  spaces.forEach((space, i) => knownCounts.set(space, counts[i]));
}

/** A resolver for one counter: synchronous for rows whose counters were remembered. */
export const counter =
  (key: keyof SpaceCounts) =>
  (space: { id: string }, _args: unknown, ctx: Context): number | Promise<number> => {
    const known = knownCounts.get(space);
    return known ? known[key] : spaceCounts(ctx, space.id).then((counts) => counts[key]);
  };
