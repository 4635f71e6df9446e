// How a request reaches an API token (policies.apiToken): its user sees it when it lies within the scopes of the token
// they call with (a scoped token sees, and revokes, only what it could have minted); an admin of an organization the
// token acts in sees it there. A token acts in an organization its user is an enabled member of, unless its scope (or
// its SSO session) keeps it to others.
import { type ApiToken, Prisma } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { type Resource, rowsOfTable } from '../kernel/authorize.js';
import { type Viewer, viewerMembershipSql, viewerRoleSql } from '../kernel/context.js';
import { type Level, policies } from '../kernel/permissions.js';

/** The organizations a token's scope keeps it to (an SSO session's one), or null: every organization of its user. */
export const scopeOf = (token: Pick<ApiToken, 'organizationId' | 'organizations'>): string[] | null =>
  token.organizationId ? [token.organizationId] : token.organizations.length ? token.organizations : null;

/** SQL: the token aliased `token` acts in the organization whose id is `organizationId`. */
export const actsInSql = (token: string, organizationId: Prisma.Sql) => {
  const t = Prisma.raw(token);
  return Prisma.sql`(${t}."organizationId" IS NULL OR ${t}."organizationId" = ${organizationId})
    AND (cardinality(${t}.organizations) = 0 OR ${organizationId} = ANY(${t}.organizations))
    AND EXISTS (SELECT 1 FROM "Member" holder WHERE holder."userId" = ${t}."userId" AND holder."organizationId" = ${organizationId}
                   AND NOT holder.disabled)`;
};

/** SQL: the token aliased `token` is live (neither revoked nor expired at `now`). */
export const liveSql = (token: string, now: Date) => {
  const t = Prisma.raw(token);
  return Prisma.sql`${t}."revokedAt" IS NULL AND (${t}."expiresAt" IS NULL OR ${t}."expiresAt" > ${now})`;
};

const within = (inner: readonly string[] | null, outer: readonly string[] | null) =>
  outer === null || (inner !== null && inner.length > 0 && inner.every((id) => outer.includes(id)));

/** Whether a token lies within the scopes of the viewer's token: what that token could have minted. */
export const withinScope = (viewer: Viewer, token: Pick<ApiToken, 'organizationId' | 'organizations' | 'spaces'>) =>
  within(scopeOf(token), viewer.organizations) && within(token.spaces.length ? token.spaces : null, viewer.spaces);

export const apiTokens: Resource<ApiToken, typeof policies.apiToken> = {
  kind: 'API token',
  policy: policies.apiToken,
  loadMany: rowsOfTable('ApiToken'),
  level: rowAnnotation<ApiToken, Level>('api token level', async (ctx, rows) => {
    const others = rows.filter((row) => row.userId !== ctx.viewer.userId).map((row) => row.id);
    const administered = others.length
      ? await ctx.sql<{ id: string }>(Prisma.sql`
          SELECT DISTINCT t.id FROM "ApiToken" t
            JOIN "Member" m ON ${viewerMembershipSql(ctx.viewer, 'm')} AND ${viewerRoleSql(ctx.viewer, 'm')} = 'admin'
           WHERE t.id = ANY(${others}::text[]) AND ${actsInSql('t', Prisma.sql`m."organizationId"`)}`)
      : [];
    const admin = new Set(administered.map((row) => row.id));
    return rows.map((row): Level => {
      if (row.userId === ctx.viewer.userId) return withinScope(ctx.viewer, row) ? 'guest' : null;
      return admin.has(row.id) ? 'admin' : null;
    });
  }),
  ownerOf: (token) => token.userId,
};
