// The one entry point of access control: load an object by id through the caller's permissions, and check an action
// of its policy (permissions.ts). Whatever the caller may not see is "not found", exactly like what does not exist;
// 403 is for what the caller can see but may not do; 409 for an action on a deleted object.
import type { Collection, Space } from '../generated/prisma/client.js';
import { type RowAnnotation, rowAnnotation } from './annotations.js';
import type { Context } from './context.js';
import { ApiError, badRequest, conflict, notFound } from './errors.js';
import {
  type ActionOf,
  atLeast,
  contentLevel,
  type GrantedLevel,
  type Level,
  organizationLevel,
  type Policy,
  policies,
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

/** The viewer's level on collections and spaces, from their organization role and the content's effective level. */
export const contentLevels = rowAnnotation<ContentRow, Level>('content level', async (ctx, rows) => {
  const members = await ctx.membership.loadMany(rows.map((row) => row.organizationId));
  return rows.map((row, i) => {
    const member = members[i];
    return contentLevel(member instanceof Error ? undefined : member, row.effectiveLevel);
  });
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
