// Reaching an object through the viewer's permissions. Whatever the viewer may not see is "not found".
import type { ContentLevel } from '../generated/prisma/enums.js';
import type { Context } from './context.js';
import { notFound } from './errors.js';
import { contentLevel, type Level, type Membership } from './permissions.js';

/** The viewer's membership of an organization; 404 (as `kind`) when the viewer is not a member. */
export async function memberOf(ctx: Context, organizationId: string, kind: string): Promise<Membership> {
  const member = await ctx.membership.load(organizationId);
  if (!member) throw notFound(kind);
  return member;
}

export interface ContentRow {
  organizationId: string;
  effectiveLevel: ContentLevel | null;
}

/** The viewer's level on a collection or space (null: may not see it). */
export async function levelOn(ctx: Context, content: ContentRow): Promise<Level> {
  return contentLevel(await ctx.membership.load(content.organizationId), content.effectiveLevel);
}

const knownLevels = new WeakMap<ContentRow, Level>();

/**
 * Computes the viewer's level on rows fetched for a list, once for all of them, so that each row's `permissions`
 * resolves synchronously: a promise per field per row was a large share of a list request's allocations.
 */
export async function rememberLevels(ctx: Context, rows: ContentRow[]): Promise<void> {
  const organizations = [...new Set(rows.map((row) => row.organizationId))];
  const members = new Map(organizations.map((id, i) => [id, i]));
  const loaded = await ctx.membership.loadMany(organizations);
  for (const row of rows) {
    const member = loaded[members.get(row.organizationId)!];
    knownLevels.set(row, contentLevel(member instanceof Error ? undefined : member, row.effectiveLevel));
  }
}

/** The viewer's level on a row: at once when the list that fetched it remembered it, otherwise through the loader. */
export function levelOf(ctx: Context, row: ContentRow): Level | Promise<Level> {
  return knownLevels.has(row) ? knownLevels.get(row)! : levelOn(ctx, row);
}

/** Like levelOn, but 404 (as `kind`) when the viewer may not see the content. */
export async function visibleLevel(ctx: Context, content: ContentRow | null, kind: string): Promise<Exclude<Level, null>> {
  const level = content && (await levelOn(ctx, content));
  if (!level) throw notFound(kind);
  return level;
}
