// Every REST route is one of GitBook's operations: it exists in the published spec version the route claims, under
// the same operationId as the route's name, and no two routes answer the same request or share a name. The product's
// own operations (spec `extension`, webhooks) are none of GitBook's: not in its latest spec, neither by path nor by name.
import { describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../rest/route.js';
import { restModules } from '../../src/schema.js';
import { operationExists, operationIdExists, operationIdOf, type SpecVersion, specVersions } from '../support/openapi.js';

const allRoutes = restModules.flatMap((module) => module.routes);
const routes = allRoutes.filter((route) => route.spec !== 'extension');
const extensions = allRoutes.filter((route) => route.spec === 'extension');
const endpointOf = (route: RouteDefinition) => `${route.method} ${route.path}`;
/** The spec's spelling of a route's path: no /v1 prefix, `{name}` for `:name`. */
const specPathOf = (route: RouteDefinition) => route.path.replace(/^\/v1(?=\/|$)/, '').replace(/:(\w+)/g, '{$1}');

/** The route's spec version, failing the test with the route named when that version is not installed. */
function specOf(route: RouteDefinition, label: string): SpecVersion {
  const installed = (specVersions as readonly string[]).includes(route.spec);
  expect(installed, `${label}: spec ${route.spec} is not installed (test/support/openapi.ts has ${specVersions.join(', ')})`).toBe(true);
  return route.spec as SpecVersion;
}

/** Each value shared by more than one route, with the routes sharing it. */
function duplicates(keyOf: (route: RouteDefinition) => string, among: readonly RouteDefinition[]): string[] {
  const byKey = new Map<string, RouteDefinition[]>();
  for (const route of among) byKey.set(keyOf(route), [...(byKey.get(keyOf(route)) ?? []), route]);
  return [...byKey]
    .filter(([, group]) => group.length > 1)
    .map(([key, group]) => `${key}: ${group.map((route) => `${endpointOf(route)} (${route.name})`).join(', ')}`);
}

describe.each(routes.map((route) => [`${endpointOf(route)} (${route.name}, spec ${route.spec})`, route] as const))('%s', (label, route) => {
  it('is an operation of the spec version it claims', () => {
    const version = specOf(route, label);
    expect(
      operationExists(version, route.method, specPathOf(route)),
      `${label}: no ${route.method} ${specPathOf(route)} in spec ${version}`,
    ).toBe(true);
  });

  it("is named after GitBook's operationId", () => {
    const version = specOf(route, label);
    expect(operationIdOf(version, route.method, specPathOf(route)), `${label}: operationId in spec ${version}`).toBe(route.name);
  });
});

describe.each(extensions.map((route) => [`${endpointOf(route)} (${route.name}, extension)`, route] as const))('%s', (label, route) => {
  it("is none of the latest spec's operations", () => {
    expect(operationExists('0202', route.method, specPathOf(route)), `${label}: GitBook has it: claim its spec version`).toBe(false);
    expect(operationIdExists('0202', route.name), `${label}: GitBook names another operation so`).toBe(false);
  });
});

describe('the route table', () => {
  it('has routes at all', () => {
    expect(routes.length).toBeGreaterThan(0);
  });

  it('answers each method and path with one route', () => {
    // Parameter names aside: the router cannot tell /a/:x from /a/:y.
    expect(duplicates((route) => `${route.method} ${route.path.replace(/:\w+/g, ':')}`, allRoutes)).toEqual([]);
  });

  it('gives each route its own name', () => {
    expect(duplicates((route) => route.name, allRoutes)).toEqual([]);
  });
});
