// How a request reaches an organization's OpenAPI specifications: through the viewer's membership of the organization.
// Every member reads them (the organization's `view`); members who may create them (`createOpenAPISpec`) also change
// and delete them. Anyone outside the organization learns nothing of them: 404, as for the organization itself.
import { Prisma } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { authorize, forbidden, organizations } from '../kernel/authorize.js';
import { type Context, loaderFor } from '../kernel/context.js';
import { type ActionOf, atLeast, type Level, organizationLevel, type Policy, policies } from '../kernel/permissions.js';

export const openAPISpecPolicy = {
  view: policies.organization.view,
  edit: policies.organization.createOpenAPISpec,
  delete: policies.organization.createOpenAPISpec,
} as const satisfies Policy;

export type SpecAction = ActionOf<typeof openAPISpecPolicy>;

export const SPEC_KIND = 'OpenAPI specification';
export const VERSION_KIND = 'OpenAPI specification version';

/** What names a spec in URLs. */
export interface SpecKey {
  id: string;
  organizationId: string;
  slug: string;
}

/** The viewer's level on specs: their standing in each spec's organization. */
export const specLevels = rowAnnotation<Pick<SpecKey, 'organizationId'>, Level>('openapi spec level', async (ctx, rows) => {
  const members = await ctx.membership.loadMany(rows.map((row) => row.organizationId));
  return members.map((member) => organizationLevel(member instanceof Error ? undefined : member));
});

const specKeysById = Symbol('openapi spec keys by id');

/**
 * The keys of the specs read in this request, by id: a version reaches its spec's slug and organization (for its
 * URLs) through it, primed by whatever read the spec, so that costs no statement.
 */
export const specKeys = (ctx: Context) =>
  loaderFor<string, SpecKey | undefined>(ctx, specKeysById, async (ids) => {
    const rows = await ctx.sql<SpecKey>(
      Prisma.sql`SELECT id, "organizationId", slug FROM "OpenAPISpec" WHERE id = ANY(${[...ids]}::text[])`,
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id));
  });

/** Remembers a spec read, for its versions. */
export const rememberSpec = <Spec extends SpecKey>(ctx: Context, spec: Spec): Spec => {
  specKeys(ctx).prime(spec.id, { id: spec.id, organizationId: spec.organizationId, slug: spec.slug });
  return spec;
};

/** 403 unless the viewer may do `action` on the organization's specs; 404 when not a member of it. */
export async function checkSpecAction(ctx: Context, organizationId: string, action: SpecAction): Promise<void> {
  const { level } = await authorize(ctx, organizations, organizationId, 'view');
  if (!atLeast(level, openAPISpecPolicy[action])) throw forbidden(action, SPEC_KIND);
}
