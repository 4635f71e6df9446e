// The one entry point of access control. A Resource says how to load a kind of object and what level the viewer has
// on it; its policy (permissions.ts) says what each action needs. authorize() loads an object by id (or by its key
// within a parent) and checks an action; can() and authorizeRow() judge a row already in hand. Whatever the viewer may
// not see is "not found", exactly like what does not exist; 403 is for what the viewer can see but may not do; 409 for
// an action on a deleted object. src/kernel/access.ts applies the same `view` check to every GraphQL field that
// returns a protected object, whatever its parent.
import { type Collection, Prisma, type Space } from '../generated/prisma/client.js';
import { type RowAnnotation, rowAnnotation } from './annotations.js';
import { type Context, loaderFor, viewerMembershipSql } from './context.js';
import { ApiError, badRequest, conflict, notFound } from './errors.js';
import {
  type ActionOf,
  allows,
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

export interface Resource<Row extends object, P extends Policy = Policy> {
  /** How messages name it ("Space not found"). */
  kind: string;
  policy: P;
  /** The rows with these ids that exist, in one statement (any order); absent for rows without an id of their own. */
  loadMany?(ctx: Context, ids: readonly string[]): Promise<Row[]>;
  /** The row with this id read with plugin-prisma's query, for a root field whose selection needs relations. */
  loadWithQuery?(ctx: Context, id: string, query: object): Promise<Row | null>;
  /** The viewer's level on a row: they see it when the level satisfies the policy's `view`. */
  level: RowAnnotation<Row, Level>;
  /** True for a row that refuses every action but `view` until it is restored (its own, or its parent's). */
  deleted?(row: Row, ctx: Context): boolean | Promise<boolean>;
  /** For a child resource: the column of its row that holds its parent's id (checked by authorize's `{ id, parent }`). */
  parentKey?: keyof Row & string;
  /** For a child named by another key within its parent (a change request's number, a field's name): that lookup. */
  findInParent?(ctx: Context, parent: string, key: string): Promise<Row | null>;
  /** The user who wrote a row, for the policy's `owner` rules. */
  ownerOf?(row: Row): string;
}

/** What judges who may see the objects of a GraphQL type (src/kernel/access.ts): the resource of their rows. */
export type Guard<Row extends object> = Pick<Resource<Row>, 'kind' | 'policy' | 'level' | 'ownerOf'>;

export interface Authorized<Row> {
  row: Row;
  level: GrantedLevel;
}

export interface AuthorizeOptions {
  /** Allow the action on a deleted row (delete and restore themselves). */
  allowDeleted?: boolean;
  query?: object;
}

/** An object by its id, or by its key within the parent the request names (a path's organization, site or space). */
export type Target = string | { id: string; parent: string };

export const forbidden = (action: string, kind: string) =>
  new ApiError(403, `You do not have the "${action}" permission on this ${kind.toLowerCase()}.`);

const rowLoaders = new WeakMap<object, symbol>();

/**
 * The request's loader of a resource's rows by id: rows asked for in one tick are read in one statement, and a row
 * already seen in this request (remembered) costs nothing.
 */
function rowLoader<Row extends object>(ctx: Context, resource: Resource<Row>) {
  let key = rowLoaders.get(resource);
  if (!key) {
    key = Symbol(`${resource.kind} rows`);
    rowLoaders.set(resource, key);
  }
  return loaderFor<string, Row | null>(ctx, key, async (ids) => {
    if (!resource.loadMany) throw new Error(`${resource.kind} rows have no id of their own.`);
    const rows = await resource.loadMany(ctx, ids);
    const byId = new Map(rows.map((row) => [(row as { id: string }).id, row]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}

/** The row with this id (null when none), batched with the request's other rows of the resource. */
export const rowOf = <Row extends object>(ctx: Context, resource: Resource<Row>, id: string): Promise<Row | null> =>
  rowLoader(ctx, resource).load(id);

/** Records a row read some other way, so that its children find it without a statement. */
export function remember<Row extends object>(ctx: Context, resource: Resource<Row>, row: Row): Row {
  rowLoader(ctx, resource).prime((row as { id: string }).id, row);
  return row;
}

const isOwner = <Row extends object>(ctx: Context, resource: Resource<Row>, row: Row) => resource.ownerOf?.(row) === ctx.viewer.userId;

/** Whether the viewer may see a row at all. */
export function visible<Row extends object>(resource: Guard<Row>, level: Level, owner = false): level is GrantedLevel {
  return allows(resource.policy.view, level, owner);
}

/**
 * Judges an action on a row already in hand: its level, when the viewer may see the row and do the action; 404 when
 * they may not see it, 403 when they see it but may not do it, 409 on a deleted row for any action but view.
 */
export async function authorizeRow<Row extends object, P extends Policy>(
  ctx: Context,
  resource: Resource<Row, P>,
  row: Row,
  action: ActionOf<P>,
  options: AuthorizeOptions = {},
): Promise<GrantedLevel> {
  const level = await resource.level.of(ctx, row);
  const owner = isOwner(ctx, resource, row);
  if (!visible(resource, level, owner)) throw notFound(resource.kind);
  if (!allows(resource.policy[action], level, owner)) throw forbidden(action, resource.kind);
  if (action !== 'view' && !options.allowDeleted && (await resource.deleted?.(row, ctx))) {
    throw conflict(`The ${resource.kind.toLowerCase()} is deleted; restore it first.`);
  }
  if (typeof (row as { id?: unknown }).id === 'string') remember(ctx, resource, row);
  return level;
}

/** Whether the viewer may do `action` on a row already in hand (never throws). */
export async function can<Row extends object, P extends Policy>(
  ctx: Context,
  resource: Resource<Row, P>,
  row: Row,
  action: ActionOf<P>,
): Promise<boolean> {
  const level = await resource.level.of(ctx, row);
  const owner = isOwner(ctx, resource, row);
  return visible(resource, level, owner) && allows(resource.policy[action], level, owner);
}

/**
 * Loads a target and checks `action` on it. A child named with its parent (`{ id, parent }`) that belongs to another
 * parent is not found, like one that does not exist.
 */
export async function authorize<Row extends object, P extends Policy>(
  ctx: Context,
  resource: Resource<Row, P>,
  target: Target,
  action: ActionOf<P>,
  options: AuthorizeOptions = {},
): Promise<Authorized<Row>> {
  const row = await loadTarget(ctx, resource, target, options.query);
  if (!row) throw notFound(resource.kind);
  const level = await authorizeRow(ctx, resource, row, action, options);
  return { row, level };
}

async function loadTarget<Row extends object>(ctx: Context, resource: Resource<Row>, target: Target, query?: object) {
  if (typeof target === 'string') {
    if (query && resource.loadWithQuery && Object.keys(query).length) return resource.loadWithQuery(ctx, target, query);
    return rowOf(ctx, resource, target);
  }
  if (resource.findInParent) return resource.findInParent(ctx, target.parent, target.id);
  const row = await rowOf(ctx, resource, target.id);
  const parentKey = resource.parentKey;
  if (!parentKey) throw new Error(`${resource.kind} is not a child resource: authorize it by id.`);
  return row && (row as Record<string, unknown>)[parentKey] === target.parent ? row : null;
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
  const row = await rowOf(ctx, resource, reference.id);
  const level = row?.organizationId === reference.organizationId ? await resource.level.of(ctx, row) : null;
  const owner = row ? isOwner(ctx, resource, row) : false;
  if (!row || !visible(resource, level, owner) || (await resource.deleted?.(row, ctx))) {
    throw badRequest(`Invalid "${reference.field}": no such ${resource.kind.toLowerCase()} in this organization.`);
  }
  if (!allows(resource.policy[action], level, owner)) throw forbidden(action, resource.kind);
  return { row, level };
}

/**
 * The level of a child resource's rows: the viewer's level on each row's parent (read with the request's other rows
 * of the parent, or already remembered), adjusted by `adjust` when the child narrows it.
 */
export function inheritedLevel<Row extends object, ParentRow extends object>(
  name: string,
  parent: Resource<ParentRow>,
  parentId: (row: Row) => string,
  adjust?: (ctx: Context, rows: readonly Row[], levels: Level[]) => Promise<Level[]>,
): RowAnnotation<Row, Level> {
  return rowAnnotation<Row, Level>(name, async (ctx, rows) => {
    const parents: (ParentRow | null)[] = await Promise.all(rows.map((row) => rowOf(ctx, parent, parentId(row))));
    const found = parents.filter((row): row is ParentRow => row !== null);
    await parent.level.annotate(ctx, found);
    const levels = await Promise.all(
      parents.map(async (row) => (row && visible(parent, await parent.level.of(ctx, row)) ? parent.level.of(ctx, row) : null)),
    );
    return adjust ? adjust(ctx, rows, levels) : levels;
  });
}

/**
 * The resource of rows that belong to a parent (an organization's teams, a site's share links, a space's change
 * requests): read from their table (none for rows without an id of their own), named within the parent by
 * `parentKey`, and judged by the viewer's level on the parent under their own policy.
 */
export function childResource<Row extends object, P extends Policy, ParentRow extends object>(
  parent: Resource<ParentRow>,
  spec: Omit<Resource<Row, P>, 'level' | 'loadMany'> & { table?: string; parentKey: keyof Row & string },
): Resource<Row, P> {
  const { table, ...rest } = spec;
  return {
    ...(table && { loadMany: rowsOfTable<Row>(table) }),
    level: inheritedLevel(`${spec.kind} level`, parent, (row) => row[spec.parentKey] as string),
    ...rest,
  };
}

// --- the resources every domain builds on ---------------------------------------------------------------------------

/** An organization is reached through the viewer's membership alone: a member can see it, so no row is loaded. */
export const organizations: Resource<{ id: string }, typeof policies.organization> = {
  kind: 'Organization',
  policy: policies.organization,
  loadMany: async (ctx, ids) => {
    const members = await ctx.membership.loadMany(ids);
    return ids.filter((_id, i) => members[i] && !(members[i] instanceof Error)).map((id) => ({ id }));
  },
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
 * raised by grants (for a token scoped to spaces, on those spaces only). Grants are read only in organizations where the viewer has some (the membership says so), so
 * most requests pay nothing for them.
 */
export const contentLevelAnnotation = rowAnnotation<ContentRow & { id: string }, Level>('content level', async (ctx, rows) => {
  const scope = ctx.viewer.spaces;
  // A token scoped to spaces sees those spaces as its user does, and no other collection or space.
  const members = (await ctx.membership.loadMany(rows.map((row) => row.organizationId))).map((member, i) => {
    if (member instanceof Error || !member) return undefined;
    return scope ? (scope.includes(rows[i].id) ? member.spaces : undefined) : member;
  });
  const withGrants = rows.filter((_row, i) => members[i]?.granted && members[i]?.role !== 'admin').map((row) => row.id);
  const granted = withGrants.length ? await grantedRoles(ctx, withGrants) : new Map<string, Role>();
  return rows.map((row, i) => contentLevel(members[i], row.effectiveLevel, granted.get(row.id) ?? null));
});

/** Every row of a table with these ids, in one statement. */
export const rowsOfTable =
  <Row>(table: string) =>
  (ctx: Context, ids: readonly string[]) =>
    ctx.sql<Row>(Prisma.sql`SELECT * FROM ${Prisma.raw(`"${table}"`)} WHERE id = ANY(${[...ids]}::text[])`);

export const collections: Resource<Collection, typeof policies.collection> = {
  kind: 'Collection',
  policy: policies.collection,
  loadMany: rowsOfTable('Collection'),
  loadWithQuery: (ctx, id, query) =>
    rowById(ctx, 'Collection', id, query, () => ctx.prisma.collection.findUnique({ ...query, where: { id } })),
  level: contentLevelAnnotation,
};

export const spaces: Resource<Space, typeof policies.space> = {
  kind: 'Space',
  policy: policies.space,
  loadMany: rowsOfTable('Space'),
  loadWithQuery: (ctx, id, query) => rowById(ctx, 'Space', id, query, () => ctx.prisma.space.findUnique({ ...query, where: { id } })),
  level: contentLevelAnnotation,
  deleted: (space) => space.deletedAt !== null,
};

/**
 * The id of a collection or space's parent collection, when the viewer may see that collection; null otherwise: a
 * space seen through a grant, or its own default level, under a restricted collection does not tell of it. Its
 * organization's admins see every collection, without a statement; others' parents are read in one batch.
 */
export async function visibleParentId(ctx: Context, content: { organizationId: string; parentId: string | null }): Promise<string | null> {
  if (!content.parentId) return null;
  const member = await ctx.membership.load(content.organizationId);
  if (member?.role === 'admin') return content.parentId;
  const parent = await rowOf(ctx, collections, content.parentId);
  return parent && (await can(ctx, collections, parent, 'view')) ? content.parentId : null;
}

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
  if (!nodes.every((node) => allows(policies[node.kind][action], node.level))) {
    throw new ApiError(403, `You do not have the "${action}" permission on every collection and space in this collection.`);
  }
  const idsOf = (kind: 'collection' | 'space') => nodes.filter((node) => node.kind === kind).map((node) => node.id);
  return { collectionIds: idsOf('collection'), spaceIds: idsOf('space') };
}
