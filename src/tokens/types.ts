// The ApiToken type; the viewer's own tokens, and the tokens that act in an organization (for its admins).
import { type ApiToken as ApiTokenRow, Prisma, type User as UserRow } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { authorize, can, organizations, rowOf, spaces } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import { type Context, viewerMembershipSql } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { batchedRowById } from '../kernel/rows.js';
import { apiUrl } from '../kernel/urls.js';
import { Organization } from '../organizations/types.js';
import { User } from '../users/types.js';
import { actsInSql, apiTokens, liveSql, scopeOf } from './access.js';
import type { ApiTokenWithSecret } from './service.js';

/** A token, with its secret when its creation answers it. */
type ApiTokenShape = ApiTokenRow & { secret?: string };

const ApiTokenUrls = builder.objectRef<{ location: string }>('ApiTokenUrls').implement({
  fields: (t) => ({ location: t.exposeString('location', { description: 'URL of the token among the user’s own.' }) }),
});

const TokenAccess = builder.enumType('TokenAccess', {
  description: '`read`: every mutation is refused; `write`: whatever the token’s user may do.',
  values: ['read', 'write'] as const,
});

/** Of a scope's ids, those another caller may know of: the token's user sees them all. */
async function shownOrganizations(ctx: Context, token: ApiTokenRow, ids: readonly string[]): Promise<string[]> {
  if (token.userId === ctx.viewer.userId) return [...ids];
  const members = await ctx.membership.loadMany(ids);
  return ids.filter((_id, i) => members[i] && !(members[i] instanceof Error));
}

async function shownSpaces(ctx: Context, token: ApiTokenRow): Promise<string[]> {
  if (token.userId === ctx.viewer.userId) return token.spaces;
  const rows = await Promise.all(token.spaces.map((id) => rowOf(ctx, spaces, id)));
  const seen = await Promise.all(rows.map((row) => (row ? can(ctx, spaces, row, 'view') : false)));
  return token.spaces.filter((_id, i) => seen[i]);
}

/** The organizations each token acts in now, among those the viewer is a member of: one statement for a page. */
const reachedAnnotation = rowAnnotation<ApiTokenRow, string[]>('api token reaches', async (ctx, tokens) => {
  const rows = await ctx.sql<{ id: string; organizationId: string }>(Prisma.sql`
    SELECT t.id, m."organizationId" FROM "ApiToken" t JOIN "Member" m ON ${viewerMembershipSql(ctx.viewer, 'm')}
     WHERE t.id = ANY(${tokens.map((token) => token.id)}::text[]) AND ${actsInSql('t', Prisma.sql`m."organizationId"`)}
     ORDER BY m."organizationId"`);
  return tokens.map((token) => rows.filter((row) => row.id === token.id).map((row) => row.organizationId));
});

export const ApiToken = builder.objectRef<ApiTokenShape>('ApiToken').implement({
  access: apiTokens,
  description: 'An API token: a way in for scripts, scoped to organizations, spaces or reading. An extension of GitBook’s API.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'api-token' }),
    id: t.exposeID('id'),
    label: t.exposeString('label', { nullable: true }),
    kind: t.string({
      description: '`personal`, or `sso-session` for the token of a sign-in through an organization’s SAML provider.',
      resolve: (token) => (token.organizationId ? 'sso-session' : 'personal'),
    }),
    user: t.field({ type: User, resolve: (token, _args, ctx) => batchedRowById<UserRow>(ctx, 'User', token.userId) }),
    organizations: t.stringList({
      description: 'The organizations it acts in, as scoped (those you are a member of); empty: every organization of its user.',
      resolve: (token, _args, ctx) => shownOrganizations(ctx, token, scopeOf(token) ?? []),
    }),
    spaces: t.stringList({
      description: 'The spaces it sees, as scoped (those you see); empty: whatever its user sees.',
      resolve: (token, _args, ctx) => shownSpaces(ctx, token),
    }),
    access: t.field({ type: TokenAccess, resolve: (token) => (token.readOnly ? 'read' : 'write') }),
    reaches: t.stringList({
      description: 'The organizations it acts in now (those you are a member of).',
      resolve: (token, _args, ctx) => reachedAnnotation.of(ctx, token),
    }),
    token: t.string({
      nullable: true,
      description: 'The secret, sent as `Authorization: Bearer <token>`: only in the answer to the creation.',
      resolve: (token) => token.secret ?? null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    urls: t.field({ type: ApiTokenUrls, resolve: (token, _args, ctx) => ({ location: apiUrl(ctx, `user/tokens/${token.id}`) }) }),
  }),
});
export const ApiTokenList = listOf('ApiToken', ApiToken);

export type { ApiTokenWithSecret };

const newestFirst = [
  { column: 'createdAt', type: 'timestamptz' },
  { column: 'id', type: 'text' },
] as const;

/**
 * The viewer's live tokens within the scopes of the token calling (access.ts withinScope, in SQL), newest first: a
 * root list, whose one parent is the viewer.
 */
const viewerTokens: ListSource<ApiTokenRow> = {
  table: 'ApiToken',
  parentColumn: 'userId',
  orderBy: newestFirst,
  descending: () => true,
  where: (ctx) => {
    const { organizations, spaces } = ctx.viewer;
    const inOrganizations = organizations
      ? Prisma.sql`AND (t."organizationId" = ANY(${organizations}::text[])
          OR (t."organizationId" IS NULL AND cardinality(t.organizations) > 0 AND t.organizations <@ ${organizations}::text[]))`
      : Prisma.empty;
    const inSpaces = spaces ? Prisma.sql`AND cardinality(t.spaces) > 0 AND t.spaces <@ ${spaces}::text[]` : Prisma.empty;
    return Prisma.sql`${liveSql('t', ctx.clock.now())} ${inOrganizations} ${inSpaces}`;
  },
  scope: (userId) => `tokens:${userId}`,
};

/** The live tokens that act in an organization, newest first. */
const organizationTokens: ListSource<ApiTokenRow> = {
  table: 'ApiToken',
  ofParent: (organizationId) => actsInSql('t', organizationId),
  orderBy: newestFirst,
  descending: () => true,
  where: (ctx) => liveSql('t', ctx.clock.now()),
  scope: (organizationId) => `organization-tokens:${organizationId}`,
};

builder.queryFields((t) => ({
  apiTokens: t.field({
    type: ApiTokenList,
    description: 'The viewer’s live API tokens, newest first (those within the scopes of the token calling).',
    args: listArgs,
    resolve: (_root, args, ctx, info) => listPage(viewerTokens, ctx, info, ctx.viewer.userId, args),
  }),
  apiToken: t.field({
    type: ApiToken,
    description: 'One of the viewer’s own API tokens.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { row } = await authorize(ctx, apiTokens, args.id, 'view');
      if (row.userId !== ctx.viewer.userId) throw notFound('API token');
      return row;
    },
  }),
}));

builder.objectFields(Organization, (t) => ({
  tokens: t.field({
    type: ApiTokenList,
    description: 'The live API tokens that act in the organization, newest first: its members’ own. Admins only.',
    args: listArgs,
    resolve: async (org, args, ctx, info) => {
      await authorize(ctx, organizations, org.id, 'admin');
      return listPage(organizationTokens, ctx, info, org.id, args);
    },
  }),
}));
