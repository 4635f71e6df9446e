// The benchmark's yardstick: the three read endpoints written by hand with Koa and Prisma, the way a careful
// engineer would without a GraphQL core, returning byte-identical JSON (checked by the benchmark before it measures).
// It lives in bench/ only: it is not part of the product.
import Koa from 'koa';
import type { Config } from '../src/config.js';
import type { Collection, PrismaClient, Space } from '../src/generated/prisma/client.js';
import { hashToken } from '../src/kernel/ids.js';
import { type PageTokens, parseLimit, type SortValue } from '../src/kernel/pagination.js';
import { contentLevel, type Level, type Membership, permissionsOf, policies } from '../src/kernel/permissions.js';
import { HttpError } from './http-error.js';

const spacePermissions = (level: Level) => permissionsOf(policies.space, level);
const collectionPermissions = (level: Level) => permissionsOf(policies.collection, level);

/** Prisma `where` selecting the rows strictly after `values` in ascending order of `fields`. */
function after(fields: readonly string[], values: SortValue[]): Record<string, unknown> {
  return {
    OR: fields.map((field, i) => ({
      ...Object.fromEntries(fields.slice(0, i).map((f, j) => [f, values[j]])),
      [field]: { gt: values[i] },
    })),
  };
}

interface Deps {
  prisma: PrismaClient;
  config: Config;
  pageTokens: PageTokens;
}

const REST_SPELLING: Record<string, string> = { share_link: 'share-link', visitor_auth: 'visitor-auth', in_collection: 'in-collection' };

interface Counts {
  comments: number;
  total: number;
  open: number;
  draft: number;
}

function spaceJson(deps: Deps, s: Space, member: Membership, counts: Counts) {
  const api = `${deps.config.publicUrl}/v1`;
  const out: Record<string, unknown> = {
    object: 'space',
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    visibility: REST_SPELLING[s.visibility] ?? s.visibility,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
  if (s.deletedAt) out.deletedAt = s.deletedAt.toISOString();
  if (s.editMode) out.editMode = s.editMode;
  out.mergeRules = s.mergeRules;
  out.organization = s.organizationId;
  if (s.parentId) out.parent = s.parentId;
  if (s.language) out.language = s.language;
  if (s.visitorAuthBackend) out.visitorAuth = { backend: s.visitorAuthBackend };
  out.revision = s.revisionId;
  out.defaultLevel = s.defaultLevel;
  out.comments = counts.comments;
  out.changeRequests = counts.total;
  out.changeRequestsOpen = counts.open;
  out.changeRequestsDraft = counts.draft;
  out.urls = { location: `${api}/spaces/${s.id}`, app: `${deps.config.appUrl}/s/${s.id}` };
  out.permissions = spacePermissions(contentLevel(member, s.effectiveLevel));
  return out;
}

function collectionJson(deps: Deps, c: Collection, member: Membership) {
  const out: Record<string, unknown> = { object: 'collection', id: c.id, title: c.title };
  if (c.description !== null) out.description = c.description;
  out.organization = c.organizationId;
  if (c.parentId) out.parent = c.parentId;
  out.defaultLevel = c.defaultLevel;
  out.urls = { location: `${deps.config.publicUrl}/v1/collections/${c.id}`, app: `${deps.config.appUrl}/c/${c.id}` };
  out.permissions = collectionPermissions(contentLevel(member, c.effectiveLevel));
  return out;
}

async function countsFor(prisma: PrismaClient, spaceIds: string[]): Promise<Map<string, Counts>> {
  const [comments, requests] = await Promise.all([
    prisma.comment.groupBy({ by: ['spaceId'], where: { spaceId: { in: spaceIds }, status: 'open' }, _count: { _all: true } }),
    prisma.changeRequest.groupBy({ by: ['spaceId', 'status'], where: { spaceId: { in: spaceIds } }, _count: { _all: true } }),
  ]);
  const counts = new Map(spaceIds.map((id) => [id, { comments: 0, total: 0, open: 0, draft: 0 }]));
  for (const c of comments) counts.get(c.spaceId)!.comments = c._count._all;
  for (const r of requests) {
    const entry = counts.get(r.spaceId)!;
    entry.total += r._count._all;
    if (r.status === 'open') entry.open = r._count._all;
    if (r.status === 'draft') entry.draft = r._count._all;
  }
  return counts;
}

export function createBaseline(deps: Deps): Koa {
  const { prisma } = deps;

  async function viewer(authorization: string | undefined) {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    const row = token
      ? await prisma.apiToken.findUnique({ where: { tokenHash: hashToken(token) }, select: { userId: true, revokedAt: true } })
      : null;
    if (!row || row.revokedAt) throw new HttpError(401, 'The API token is unknown, revoked or expired.');
    return row.userId;
  }

  async function membership(userId: string, organizationId: string): Promise<Membership | undefined> {
    const member = await prisma.member.findUnique({
      where: { organizationId_userId: { organizationId, userId } },
      select: { role: true, disabled: true },
    });
    // Without grants: the benchmark's data set holds none (the product does read them, in its membership statement).
    return member && !member.disabled ? { role: member.role, granted: false } : undefined;
  }

  function visible(member: Membership) {
    return member.role === 'admin' ? {} : { NOT: { effectiveLevel: null } };
  }

  async function page<T extends { id: string; position: number }>(
    scope: string,
    query: Record<string, string | string[] | undefined>,
    fetch: (args: { where: object; take: number }) => Promise<T[]>,
  ) {
    const take = parseLimit(query.limit ? Number(query.limit) : undefined);
    const where = typeof query.page === 'string' ? after(['position', 'id'], deps.pageTokens.decode(scope, query.page)) : {};
    const rows = await fetch({ where, take: take + 1 });
    const items = rows.slice(0, take);
    const last = items.at(-1);
    return { items, next: rows.length > take && last ? { page: deps.pageTokens.encode(scope, [last.position, last.id]) } : undefined };
  }

  const app = new Koa();
  app.use(async (ctx) => {
    try {
      const userId = await viewer(ctx.get('authorization'));
      const spaceById = /^\/spaces\/([\w-]+)$/.exec(ctx.path);
      const organizationSpaces = /^\/orgs\/([\w-]+)\/spaces$/.exec(ctx.path);
      const organizationCollections = /^\/orgs\/([\w-]+)\/collections$/.exec(ctx.path);
      if (spaceById) {
        const space = await prisma.space.findUnique({ where: { id: spaceById[1] } });
        const member = space && (await membership(userId, space.organizationId));
        if (!space || !member || !contentLevel(member, space.effectiveLevel)) throw new HttpError(404, 'Space not found');
        ctx.body = spaceJson(deps, space, member, (await countsFor(prisma, [space.id])).get(space.id)!);
      } else if (organizationSpaces) {
        const organizationId = organizationSpaces[1];
        const member = await membership(userId, organizationId);
        if (!member) throw new HttpError(404, 'Organization not found');
        const base = { organizationId, deletedAt: null, ...visible(member) };
        const [{ items, next }, count] = await Promise.all([
          page(`orgs/${organizationId}/spaces`, ctx.query, ({ where, take }) =>
            prisma.space.findMany({ where: { ...base, ...where }, orderBy: [{ position: 'asc' }, { id: 'asc' }], take }),
          ),
          prisma.space.count({ where: base }),
        ]);
        const counts = await countsFor(
          prisma,
          items.map((s) => s.id),
        );
        ctx.body = { items: items.map((s) => spaceJson(deps, s, member, counts.get(s.id)!)), ...(next && { next }), count };
      } else if (organizationCollections) {
        const organizationId = organizationCollections[1];
        const member = await membership(userId, organizationId);
        if (!member) throw new HttpError(404, 'Organization not found');
        const nested = ctx.query.nested !== 'false';
        const base = { organizationId, ...(nested ? {} : { parentId: null }), ...visible(member) };
        const [{ items, next }, count] = await Promise.all([
          page(`orgs/${organizationId}/collections:${nested}`, ctx.query, ({ where, take }) =>
            prisma.collection.findMany({ where: { ...base, ...where }, orderBy: [{ position: 'asc' }, { id: 'asc' }], take }),
          ),
          prisma.collection.count({ where: base }),
        ]);
        ctx.body = { items: items.map((c) => collectionJson(deps, c, member)), ...(next && { next }), count };
      } else {
        throw new HttpError(404, `No endpoint ${ctx.method} ${ctx.path}.`);
      }
    } catch (error) {
      const status = error instanceof HttpError ? error.status : ((error as { status?: number }).status ?? 500);
      ctx.status = status;
      ctx.body = { error: { code: status, message: (error as Error).message } };
    }
  });
  return app;
}
