// The one entry point of access control: load an object by id through the caller's permissions, and check an action
// of its policy (permissions.ts). Whatever the caller may not see is "not found", exactly like what does not exist;
// 403 is for what the caller can see but may not do; 409 for an action on a deleted object.
import { type Collection, Prisma, type Space } from '../generated/prisma/client.js';
import { type RowAnnotation, rowAnnotation } from './annotations.js';
import { type Context, viewerMembershipSql } from './context.js';
import { ApiError, badRequest, conflict, notFound } from './errors.js';
import {
  type ActionOf,
  atLeast,
  contentLevel,
  type GrantedLevel,
  highestRole,
  type Level,
  memberLevelSql,
  organizationLevel,
  type Policy,
  policies,
  type Role,
} from './permissions.js';
import { rowById } from './rows.js';

export interface Resource<Row extends object, P extends Policy> {
  /** How messages name it ("Space not found"). */
  kind: string;
  policy: P;
  /** The row with this id, with what `query` (plugin-prisma's selection) adds; null when there is none. */
  load(ctx: Context, id: string, query?: object): Promise<Row | null>;
  /** The viewer's level on a row. */
  level: RowAnnotation<Row, Level>;
  /** True for a row that refuses every action but `view` until it is restored. */
  deleted?(row: Row): boolean;
}

export interface Authorized<Row> {
  row: Row;
  level: GrantedLevel;
}

export interface AuthorizeOptions {
  /** Allow the action on a deleted row (delete and restore themselves). */
  allowDeleted?: boolean;
  query?: object;
}

export const forbidden = (action: string, kind: string) =>
  new ApiError(403, `You do not have the "${action}" permission on this ${kind.toLowerCase()}.`);

/** Loads `id` and checks `action`: 404 when the viewer may not see it, 403 when it may not do it, 409 when deleted. */
export async function authorize<Row extends object, P extends Policy>(
  ctx: Context,
  resource: Resource<Row, P>,
  id: string,
  action: ActionOf<P>,
  options: AuthorizeOptions = {},
): Promise<Authorized<Row>> {
  const row = await resource.load(ctx, id, options.query);
  const level = row && (await resource.level.of(ctx, row));
  if (!row || !level) throw notFound(resource.kind);
  if (!atLeast(level, resource.policy[action])) throw forbidden(action, resource.kind);
  if (action !== 'view' && !options.allowDeleted && resource.deleted?.(row)) {
    throw conflict(`The ${resource.kind.toLowerCase()} is deleted; restore it first.`);
  }
  return { row, level };
}

/**
 * Like authorize, for an object named in a request body (`field`), which must belong to `organizationId`: one the
 * viewer cannot see, or of another organization, is a 400 naming the field.
 */
export async function authorizeReference<Row extends { organizationId: string }, P extends Policy>(
  ctx: Context,
  resource: Resource<Row, P>,
  reference: { id: string; field: string; organizationId: string },
  action: ActionOf<P>,
): Promise<Authorized<Row>> {
  const row = await resource.load(ctx, reference.id);
  const level = row?.organizationId === reference.organizationId ? await resource.level.of(ctx, row) : null;
  if (!row || !level || resource.deleted?.(row)) {
    throw badRequest(`Invalid "${reference.field}": no such ${resource.kind.toLowerCase()} in this organization.`);
  }
  if (!atLeast(level, resource.policy[action])) throw forbidden(action, resource.kind);
  return { row, level };
}

// --- the resources every domain builds on ---------------------------------------------------------------------------

/** An organization is reached through the viewer's membership alone: a member can see it, so no row is loaded. */
export const organizations: Resource<{ id: string }, typeof policies.organization> = {
  kind: 'Organization',
  policy: policies.organization,
  load: async (ctx, id) => ((await ctx.membership.load(id)) ? { id } : null),
  level: rowAnnotation('organization level', async (ctx, rows) => {
    const members = await ctx.membership.loadMany(rows.map((row) => row.id));
    return members.map((member) => organizationLevel(member instanceof Error ? undefined : member));
  }),
};

interface ContentRow {
  organizationId: string;
  effectiveLevel: Collection['effectiveLevel'];
}

/**
 * The highest role granted to the viewer, or to a team of theirs, on each row or on a collection above it: one
 * statement for the batch, walking up the tree from every row at once.
 */
async function grantedRoles(ctx: Context, ids: readonly string[]): Promise<Map<string, Role>> {
  const rows = await ctx.sql<{ id: string; role: Role }>(Prisma.sql`
    WITH RECURSIVE above(id, node) AS (
      SELECT r.id, r.id FROM unnest(${[...ids]}::text[]) AS r(id)
      UNION ALL
      SELECT above.id, n."parentId" FROM above
        JOIN (SELECT id, "parentId" FROM "Collection" UNION ALL SELECT id, "parentId" FROM "Space") n ON n.id = above.node
       WHERE n."parentId" IS NOT NULL
    )
    SELECT above.id, g.role FROM above
      JOIN "ContentGrant" g ON g."collectionId" = above.node OR g."spaceId" = above.node
     WHERE g."userId" = ${ctx.viewer.userId}
        OR g."teamId" IN (SELECT tm."teamId" FROM "TeamMember" tm WHERE tm."userId" = ${ctx.viewer.userId})`);
  const byId = new Map<string, Role[]>();
  for (const row of rows) byId.set(row.id, [...(byId.get(row.id) ?? []), row.role]);
  return new Map([...byId].map(([id, roles]) => [id, highestRole(roles)!]));
}

/**
 * The viewer's level on collections and spaces: their organization role capped by the content's effective level,
 * raised by grants. Grants are read only in organizations where the viewer has some (the membership says so), so
 * most requests pay nothing for them.
 */
export const contentLevels = rowAnnotation<ContentRow & { id: string }, Level>('content level', async (ctx, rows) => {
  const members = (await ctx.membership.loadMany(rows.map((row) => row.organizationId))).map((member) =>
    member instanceof Error ? undefined : member,
  );
  const withGrants = rows.filter((_row, i) => members[i]?.granted && members[i]?.role !== 'admin').map((row) => row.id);
  const granted = withGrants.length ? await grantedRoles(ctx, withGrants) : new Map<string, Role>();
  return rows.map((row, i) => contentLevel(members[i], row.effectiveLevel, granted.get(row.id) ?? null));
});

export const collections: Resource<Collection, typeof policies.collection> = {
  kind: 'Collection',
  policy: policies.collection,
  load: (ctx, id, query) => rowById(ctx, 'Collection', id, query, () => ctx.prisma.collection.findUnique({ ...query, where: { id } })),
  level: contentLevels,
};

export const spaces: Resource<Space, typeof policies.space> = {
  kind: 'Space',
  policy: policies.space,
  load: (ctx, id, query) => rowById(ctx, 'Space', id, query, () => ctx.prisma.space.findUnique({ ...query, where: { id } })),
  level: contentLevels,
  deleted: (space) => space.deletedAt !== null,
};

/** An action that both collections and spaces have. */
type ContentAction = ActionOf<typeof policies.collection> & ActionOf<typeof policies.space>;

/**
 * Checks `action` on a collection and on every collection and space below it, deleted spaces included, for what acts
 * on the whole subtree (delete, transfer): 403 unless the viewer may do it on each. To be called in the transaction of
 * the change, which acts on the ids returned and nothing else: one statement reads the subtree, locks its rows (a
 * concurrent move into it, new grant on it or change to it waits for this transaction) and computes the viewer's level
 * on each node from what is committed then (memberLevelSql), whatever authorize() read before.
 */
export async function authorizeSubtree(
  tx: Pick<Prisma.TransactionClient, '$queryRaw'>,
  ctx: Context,
  collectionId: string,
  action: ContentAction,
): Promise<{ collectionIds: string[]; spaceIds: string[] }> {
  const nodes = await tx.$queryRaw<{ kind: 'collection' | 'space'; id: string; level: Role | null }[]>`
    WITH RECURSIVE below(id) AS (
        SELECT id FROM "Collection" WHERE id = ${collectionId}
        UNION ALL
        SELECT c.id FROM "Collection" c JOIN below ON c."parentId" = below.id
      ), collections AS (
        SELECT id, "organizationId", "effectiveLevel" FROM "Collection" WHERE id IN (SELECT id FROM below) FOR UPDATE
      ), spaces AS (
        SELECT id, "organizationId", "effectiveLevel" FROM "Space" WHERE "parentId" IN (SELECT id FROM below) FOR UPDATE
      )
    SELECT n.kind, n.id, ${memberLevelSql('m', Prisma.sql`n.id`, Prisma.sql`n."effectiveLevel"`)}::text AS level
      FROM (SELECT 'collection' AS kind, * FROM collections UNION ALL SELECT 'space', * FROM spaces) n
      LEFT JOIN "Member" m ON m."organizationId" = n."organizationId" AND ${viewerMembershipSql(ctx.viewer, 'm')}`;
  if (!nodes.length) throw notFound('Collection');
  if (!nodes.every((node) => atLeast(node.level, policies[node.kind][action]))) {
    throw new ApiError(403, `You do not have the "${action}" permission on every collection and space in this collection.`);
  }
  const idsOf = (kind: 'collection' | 'space') => nodes.filter((node) => node.kind === kind).map((node) => node.id);
  return { collectionIds: idsOf('collection'), spaceIds: idsOf('space') };
}
