// Bad input never breaks the API: every REST route, called without a token, with ids nobody has, and on real objects
// (each route's own, test/support/route-calls.ts) with bodies and query strings of the wrong shape, answers in the
// error shape with a 4xx status, never a 5xx; a body past the route's limit (announced, or sent) is a 413 in the
// error shape. The routes come from the route table, so a new route is covered the day it is added.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT } from '../../rest/body.js';
import { compileRoutes } from '../../rest/compile.js';
import type { RouteDefinition } from '../../rest/route.js';
import { restModules, schema } from '../../src/schema.js';
import { type Person, type Response, startTestApp, type TestApp } from '../support/app.js';
import type { BudgetCall } from '../support/budgets.js';
import { jsonOfSize, rawRequest } from '../support/raw-http.js';
import { buildRouteCalls } from '../support/route-calls.js';

const routes = restModules.flatMap((module) => module.routes);
const label = (route: RouteDefinition) => `${route.method} ${route.path} (${route.name})`;

/** Bodies of the wrong shape: not an object, empty, and every usual field of a wrong type. */
const BAD_BODIES: unknown[] = [
  [],
  'text',
  42,
  {},
  {
    title: { nested: true },
    name: [1, 2],
    subject: 12,
    url: 'not a url',
    source: { kind: 'nowhere' },
    type: 7,
    role: 'emperor',
    changes: 'all of them',
    spaces: 'one',
    visibility: ['public'],
    emoji: { code: 1 },
    parent: 5,
    organization: [],
    position: 'first',
    hostname: 'Not A Host Name',
    permissions: 'all',
  },
];
/** Query strings of the wrong shape: numbers that are not, out of range, unknown enum values, a broken escape. */
const BAD_QUERY = 'limit=-1&page=%E0%A4%A&format=sideways&status=nope&order=sideways&metadata=maybe&computed=2&only=1&search=%00&query=%00';

let t: TestApp;
let admin: Person;
/** A call of each route that succeeds, by route key: real objects in its path (test/support/route-calls.ts). */
let calls: Record<string, BudgetCall>;

beforeAll(async () => {
  // Thousands of requests in a minute: the rate limits would answer most of them (test/api/rate-limits.test.ts has them).
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '0', ALLOW_PRIVATE_NETWORK: 'true' } });
  ({ admin, calls } = await buildRouteCalls(t));
});
afterAll(() => t?.close());

const keyOf = (route: RouteDefinition) => `${route.method} ${route.path}`;
/** Each route's body limit, as its operation declares it (rest/body.ts). */
const bodyLimits = new Map(compileRoutes(schema, restModules).map((route) => [keyOf(route.definition), route.bodyLimit]));
const MiB = 1024 * 1024;

it('gives a larger body limit only to the routes whose documented limits need it', () => {
  const larger = Object.fromEntries([...bodyLimits].filter(([, limit]) => limit !== DEFAULT_BODY_LIMIT));
  expect(larger).toEqual({
    'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/content': 16 * MiB,
    'POST /v1/orgs/:organizationId/openapi': 6 * MiB,
    'PUT /v1/orgs/:organizationId/openapi/:specSlug': 6 * MiB,
    'POST /v1/integrations/:integrationName': 5 * MiB,
  });
});

/** The 413 of a body past `limit` bytes. */
const tooLarge = (limit: number) => ({
  error: { code: 413, message: `Request bodies are limited to ${limit % MiB ? `${limit} bytes` : `${limit / MiB} MiB`} here.` },
});

/** A response that is not a server error, and when it is an error, one in the API's shape with its own status. */
function expectHandled(response: Pick<Response, 'status' | 'body' | 'text'>, what: string) {
  expect(response.status, `${what}: ${response.text.slice(0, 300)}`).toBeLessThan(500);
  if (response.status >= 400) {
    expect(response.body, `${what}: ${response.text.slice(0, 300)}`).toEqual({
      error: { code: response.status, message: expect.any(String) },
    });
  }
}

const hasBody = (route: RouteDefinition) => route.method !== 'GET' && route.method !== 'DELETE';
const readsBody = (route: RouteDefinition) => (route.field ?? route.operation ?? '').includes('$body');

describe.each(routes.map((route) => [label(route), route] as const))('%s', (name, route) => {
  it('answers without a token, and with ids nobody has, in the error shape and never with a 5xx', async () => {
    const unknown = route.path.replace(/:\w+/g, 'nobody-has-this-id');
    expectHandled(await t.request(route.method, unknown, {}), `${name} without a token`);
    const body = hasBody(route) ? {} : undefined;
    expectHandled(await t.request(route.method, unknown, { token: admin.token, body }), `${name} with unknown ids`);
  });

  // Destructive routes have objects of their own there, so the calls may come in any order.
  it('answers bodies and query strings of the wrong shape on real objects with a 4xx', async () => {
    const real = calls[keyOf(route)].path;
    for (const body of hasBody(route) ? BAD_BODIES : [undefined]) {
      const response = await t.request(route.method, real, { token: admin.token, body });
      expectHandled(response, `${name} with body ${JSON.stringify(body)}`);
    }
    if (readsBody(route)) {
      const broken = await t.request(route.method, real, { token: admin.token, body: '{"unfinished": ' });
      expectHandled(broken, `${name} with a body that is not JSON`);
      expect(broken.status).toBe(400);
    }
    expectHandled(await t.request(route.method, `${real}?${BAD_QUERY}`, { token: admin.token }), `${name} with a bad query`);
  });

  it('answers a body announced past its limit with a 413 in the error shape, before reading it', async () => {
    const limit = bodyLimits.get(keyOf(route))!;
    const headers = { 'content-type': 'application/json', 'content-length': limit + 1 };
    // On a real object with a token, and without a token on ids nobody has: neither is looked at first.
    const requests = [
      { path: calls[keyOf(route)].path, headers: { ...headers, authorization: `Bearer ${admin.token}` } },
      { path: route.path.replace(/:\w+/g, 'nobody-has-this-id'), headers },
    ];
    for (const request of requests) {
      const response = await rawRequest(t.url, { method: route.method, ...request, withhold: true });
      expect(response.status, `${name} at ${request.path}`).toBe(413);
      expect(response.body).toEqual(tooLarge(limit));
    }
  });

  if (readsBody(route)) {
    it('takes a body of exactly its limit, and answers a body one byte past it with a 413', async () => {
      const real = calls[keyOf(route)].path;
      const limit = bodyLimits.get(keyOf(route))!;
      const headers = { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' };
      const at = await rawRequest(t.url, { method: route.method, path: real, headers, chunks: [jsonOfSize({}, limit)] });
      expect(at.status, `${name} at its limit: ${at.text.slice(0, 300)}`).not.toBe(413);
      expectHandled(at, `${name} at its limit`);
      const past = await rawRequest(t.url, { method: route.method, path: real, headers, chunks: [jsonOfSize({}, limit + 1)] });
      expect(past.status, name).toBe(413);
      expect(past.body).toEqual(tooLarge(limit));
    });
  }
});
