// Collections and spaces form one tree per organization. Siblings of both kinds share one order (`position`), so a
// space can be placed before a collection and the other way round, as in GitBook's sidebar.
import { Prisma } from '../generated/prisma/client.js';
import { authorize, authorizeReference, collections, organizations } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest } from '../kernel/errors.js';

type Tx = Prisma.TransactionClient;

/** A sibling named in a move: `{type: "space", space}` or `{type: "collection", collection}`. */
export interface ContentPositionRef {
  type: string;
  space?: string | null;
  collection?: string | null;
}

/** Where a move puts an item among its new siblings: right before or after one of them; neither: at the end. */
export interface ContentPosition {
  before?: ContentPositionRef | null;
  after?: ContentPositionRef | null;
}

/** Body of POST .../move, shared by collections and spaces (its GraphQL input: types.ts). */
export interface MoveContent {
  /** Target collection; null moves to the top level; absent keeps the current parent. */
  parent?: string | null;
  position?: ContentPosition | null;
}

interface Sibling {
  id: string;
  position: number;
}

async function siblings(tx: Tx, organizationId: string, parentId: string | null, exclude: string): Promise<Sibling[]> {
  return tx.$queryRaw<Sibling[]>`
    SELECT id, position FROM "Space"
     WHERE "organizationId" = ${organizationId} AND "parentId" IS NOT DISTINCT FROM ${parentId}
       AND "deletedAt" IS NULL AND id <> ${exclude}
    UNION ALL
    SELECT id, position FROM "Collection"
     WHERE "organizationId" = ${organizationId} AND "parentId" IS NOT DISTINCT FROM ${parentId} AND id <> ${exclude}
    ORDER BY position, id`;
}

const MIN_GAP = 1e-9;

/**
 * The position for `itemId` under `parentId`: at the end, or right before/after a sibling named in `position`.
 * When the gap between two neighbours is exhausted, the siblings are renumbered first.
 */
export async function positionFor(
  tx: Tx,
  organizationId: string,
  parentId: string | null,
  itemId: string,
  position?: ContentPosition | null,
): Promise<number> {
  let list = await siblings(tx, organizationId, parentId, itemId);
  const ref = position?.before ?? position?.after;
  if (!ref) return (list.at(-1)?.position ?? 0) + 1;
  const refId = ref.space ?? ref.collection;
  const field = position?.before ? 'position.before' : 'position.after';
  let index = list.findIndex((s) => s.id === refId);
  if (index < 0) throw badRequest(`Invalid "${field}": not an item of the target collection.`);
  const [low, high] = position?.before ? [list[index - 1], list[index]] : [list[index], list[index + 1]];
  if (low && high && high.position - low.position < MIN_GAP) {
    await renumber(tx, list);
    list = list.map((s, i) => ({ ...s, position: i + 1 }));
    index = list.findIndex((s) => s.id === refId);
  }
  const before = position?.before ? list[index - 1] : list[index];
  const after = position?.before ? list[index] : list[index + 1];
  if (!before) return after!.position - 1;
  if (!after) return before.position + 1;
  return (before.position + after.position) / 2;
}

async function renumber(tx: Tx, list: Sibling[]): Promise<void> {
  const ids = list.map((s) => s.id);
  const positions = list.map((_, i) => i + 1);
  for (const table of ['Space', 'Collection'] as const) {
    await tx.$executeRaw`
      UPDATE ${Prisma.raw(`"${table}"`)} t SET position = v.position
        FROM unnest(${ids}::text[], ${positions}::float8[]) AS v(id, position) WHERE t.id = v.id`;
  }
}

/** Ids of a collection and all the collections below it. */
export async function collectionSubtree(tx: Pick<Tx, '$queryRaw'>, collectionId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    WITH RECURSIVE sub AS (
      SELECT id FROM "Collection" WHERE id = ${collectionId}
      UNION ALL
      SELECT c.id FROM "Collection" c JOIN sub ON c."parentId" = sub.id
    ) SELECT id FROM sub`;
  return rows.map((r) => r.id);
}

/**
 * Where new content may go in an organization: a collection (named in the body as `field`) the viewer may create in,
 * or the top level when it may create content in the organization. 404 when the viewer is not a member.
 */
export async function creationParent(ctx: Context, organizationId: string, parentId: string | null | undefined, field = 'parent') {
  if (!parentId) {
    await authorize(ctx, organizations, organizationId, 'createContent');
    return null;
  }
  await authorize(ctx, organizations, organizationId, 'view');
  return (await authorizeReference(ctx, collections, { id: parentId, field, organizationId }, 'create')).row;
}

/**
 * Where a move takes an item: the body's `parent` (absent: the item's current parent; null: the top level), which must
 * be a collection of the item's organization that the viewer may create in.
 */
export async function moveTarget(
  ctx: Context,
  item: { parentId: string | null; organizationId: string },
  parent: string | null | undefined,
) {
  const parentId = parent === undefined ? item.parentId : parent;
  if (parentId)
    await authorizeReference(ctx, collections, { id: parentId, field: 'parent', organizationId: item.organizationId }, 'create');
  return parentId;
}
