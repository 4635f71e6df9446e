// How a request reaches an organization's OpenAPI specifications: through the viewer's membership of the organization
// (policies.openAPISpec). Every member reads them; members who may create them also change and delete them. Anyone
// outside the organization learns nothing of them: 404, as for the organization itself.
import { Prisma } from '../generated/prisma/client.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { authorize, childResource, forbidden, type Guard, organizations } from '../kernel/authorize.js';
import { type Context, loaderFor } from '../kernel/context.js';
import { type ActionOf, allows, policies } from '../kernel/permissions.js';

export type SpecAction = ActionOf<typeof policies.openAPISpec>;

export const SPEC_KIND = 'OpenAPI specification';
export const VERSION_KIND = 'OpenAPI specification version';

/** What names a spec in URLs. */
export interface SpecKey {
  id: string;
  organizationId: string;
  slug: string;
}

/** Specs are judged by the viewer's standing in their organization (policies.openAPISpec). */
export const openAPISpecs = childResource<Pick<SpecKey, 'id' | 'organizationId'>, typeof policies.openAPISpec, { id: string }>(
  organizations,
  { kind: SPEC_KIND, policy: policies.openAPISpec, table: 'OpenAPISpec', parentKey: 'organizationId' },
);

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

/** Versions are judged by their spec's organization, which whatever reached them read already (specKeys). */
export const openAPISpecVersions: Guard<{ specId: string }> = {
  kind: VERSION_KIND,
  policy: policies.openAPISpec,
  level: rowAnnotation('openapi spec version level', async (ctx, rows) => {
    const specs = await specKeys(ctx).loadMany(rows.map((row) => row.specId));
    return Promise.all(specs.map((spec) => (spec && !(spec instanceof Error) ? openAPISpecs.level.of(ctx, spec) : null)));
  }),
};

/**
 * 403 unless the viewer may do `action` on the organization's specs (creating one among them); 404 when not a member
 * of it.
 */
export async function checkSpecAction(ctx: Context, organizationId: string, action: SpecAction): Promise<void> {
  const { level } = await authorize(ctx, organizations, organizationId, 'view');
  if (!allows(policies.openAPISpec[action], level)) throw forbidden(action, SPEC_KIND);
}
