// Who sees integrations' installations (policies.installation): the admins of the organization that installed it, and
// the admins of the organization that publishes the integration; an installation on a space, also whoever may install
// integrations on that space.
import { type InstallationSpace, type Integration, type IntegrationInstallation, Prisma } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { contentLevelAnnotation, type Guard, rowOf, spaces } from '../kernel/authorize.js';
import { type Context, viewerMembershipSql, viewerRoleSql } from '../kernel/context.js';
import { allows, type Level, policies, type Role } from '../kernel/permissions.js';
import { batchedRowById } from '../kernel/rows.js';

const roleIn = async (ctx: Context, organizationId: string): Promise<Role | null> =>
  (await ctx.membership.load(organizationId))?.role ?? null;

/** Admin where the viewer administers the installing organization or the publishing one; none otherwise. */
async function installationLevel(ctx: Context, row: Pick<IntegrationInstallation, 'organizationId' | 'integrationId'>): Promise<Level> {
  const integration = await batchedRowById<Integration>(ctx, 'Integration', row.integrationId);
  const roles = await Promise.all([roleIn(ctx, row.organizationId), roleIn(ctx, integration.ownerOrganizationId)]);
  return roles.includes('admin') ? 'admin' : null;
}

/**
 * Whether the viewer administers the installing or the publishing organization of the installation (aliased
 * `installation`), as SQL: lists read it in their page statement (`viewerAdmin`), so judging a page costs nothing.
 */
export const viewerAdminSql = (ctx: Context, installation: Prisma.Sql) => Prisma.sql`EXISTS (SELECT 1 FROM "Member" m
    WHERE ${viewerMembershipSql(ctx.viewer, 'm')} AND ${viewerRoleSql(ctx.viewer, 'm')} = 'admin'
      AND (m."organizationId" = ${installation}."organizationId"
           OR m."organizationId" = (SELECT i."ownerOrganizationId" FROM "Integration" i WHERE i.id = ${installation}."integrationId")))`;

type Judged = { viewerAdmin?: boolean };

export const installations: Guard<Pick<IntegrationInstallation, 'organizationId' | 'integrationId'> & Judged> = {
  kind: 'Integration installation',
  policy: policies.installation,
  level: rowAnnotation('installation level', (ctx, rows) =>
    Promise.all(rows.map((row) => (row.viewerAdmin === undefined ? installationLevel(ctx, row) : row.viewerAdmin ? 'admin' : null))),
  ),
};

export const spaceInstallations: Guard<Pick<InstallationSpace, 'installationId' | 'spaceId'> & Judged> = {
  kind: 'Integration installation',
  policy: policies.installation,
  // The space first: whoever installed it there was judged on the space, which the request remembers.
  level: rowAnnotation('space installation level', (ctx, rows) =>
    Promise.all(
      rows.map(async (row): Promise<Level> => {
        if (row.viewerAdmin) return 'admin';
        const space = await rowOf(ctx, spaces, row.spaceId);
        const onSpace = space ? await contentLevelAnnotation.of(ctx, space) : null;
        if (allows(policies.installation.view, onSpace) || row.viewerAdmin === false) return onSpace;
        const installation = await batchedRowById<IntegrationInstallation>(ctx, 'IntegrationInstallation', row.installationId);
        return installationLevel(ctx, installation);
      }),
    ),
  ),
};
