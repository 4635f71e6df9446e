// The REST engine's alternate status (rest/route.ts, AlternateStatus), which the spec routes use: a route may answer
// another status when a Boolean of its result says so. The compiler selects that Boolean beside the body and refuses
// one that is not a Boolean or cannot be selected; the OpenAPI document describes both statuses.
import { describe, expect, it } from 'vitest';
import { compileRoutes } from '../../rest/compile.js';
import { operationRoute, route } from '../../rest/route.js';
import { openAPIRest } from '../../src/openapi/routes.js';
import { schema } from '../../src/schema.js';
import { ourDocument } from '../support/openapi.js';

const PUT = 'PUT /v1/orgs/:organizationId/openapi/:specSlug' as const;
const put = 'putOpenAPISpec(organizationId: $organizationId, slug: $specSlug, input: $body)';
const compile = (...routes: ReturnType<typeof route>[]) => compileRoutes(schema, [{ fragments: openAPIRest.fragments, routes }]);

describe('an alternate status', () => {
  it('selects its Boolean beside the body, which writes only the body', () => {
    const [compiled] = compile(
      route(PUT, 'createOrUpdateOpenAPISpecBySlug', `${put}.spec`, { alternateStatus: { status: 201, when: 'putOpenAPISpec.created' } }),
    );
    expect(compiled.alternateStatus).toEqual({ status: 201, keys: ['putOpenAPISpec', 'created'], whenFalse: false });
    expect(compiled.bodyPath).toEqual(['putOpenAPISpec', 'spec']);
    expect(compiled.plan.kind === 'object' && compiled.plan.typeName).toBe('OpenAPISpec');
  });

  it('reads `!` as "when false"', () => {
    const [compiled] = compile(
      route(
        'DELETE /v1/orgs/:organizationId/openapi/:specSlug',
        'deleteOpenAPISpecBySlug',
        'deleteOpenAPISpec(organizationId: $organizationId, slug: $specSlug)',
        {
          status: 205,
          alternateStatus: { status: 204, when: '!deleteOpenAPISpec' },
        },
      ),
    );
    expect(compiled.alternateStatus).toEqual({ status: 204, keys: ['deleteOpenAPISpec'], whenFalse: true });
  });

  it('refuses a path that is not a Boolean, one the type does not have, and one an operation does not select', () => {
    expect(() => compile(route(PUT, 'x', `${put}.spec`, { alternateStatus: { status: 201, when: 'putOpenAPISpec.spec' } }))).toThrow(
      /alternate status's putOpenAPISpec.spec is not a Boolean/,
    );
    expect(() => compile(route(PUT, 'x', `${put}.spec`, { alternateStatus: { status: 201, when: 'putOpenAPISpec.made' } }))).toThrow(
      /Cannot query field "made"/,
    );
    expect(() => compile(route(PUT, 'x', `${put}.spec`, { alternateStatus: { status: 201, when: 'elsewhere.created' } }))).toThrow(
      /leads through elsewhere, which is not selected/,
    );
    const operation = operationRoute(
      PUT,
      `mutation x($organizationId: ID!, $specSlug: String!, $body: PutOpenAPISpecInput!) { ${put} { spec { id } } }`,
      { body: 'putOpenAPISpec.spec', alternateStatus: { status: 201, when: 'putOpenAPISpec.created' } },
    );
    expect(() => compileRoutes(schema, [{ routes: [operation] }])).toThrow(/putOpenAPISpec.created is not in the selection/);
  });

  it('is described in the OpenAPI document beside the route’s own status', () => {
    const paths = ourDocument().paths as Record<
      string,
      Record<string, { responses: Record<string, { content?: unknown; headers: object }> }>
    >;
    const spec = paths['/orgs/{organizationId}/openapi/{specSlug}'];
    expect(Object.keys(spec.put.responses)).toEqual(expect.arrayContaining(['200', '201']));
    expect(spec.put.responses['201'].headers).toHaveProperty('Location');
    expect(spec.put.responses['200'].headers).not.toHaveProperty('Location');
    expect(Object.keys(spec.delete.responses)).toEqual(expect.arrayContaining(['204', '205']));
    expect(spec.delete.responses['204'].content).toBeUndefined();
  });
});
