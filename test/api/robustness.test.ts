// Bad input never breaks the API: every REST route, called without a token, with ids nobody has, and on real objects
// (each route's own, test/support/route-calls.ts) with bodies and query strings of the wrong shape, answers in the
// error shape with a 4xx status, never a 5xx; each integer query parameter out of its range, whatever the size of the
// integer, is a 400 naming the range; a path parameter of any length reaches the operation (never "No endpoint"); a
// body past the route's limit (announced, or sent) is a 413 in the error shape, which the client reads. The routes
// come from the route table, so a new route is covered the day it is added.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT } from '../../rest/body.js';
import { compileRoutes } from '../../rest/compile.js';
import type { RouteDefinition } from '../../rest/route.js';
import { restModules, schema } from '../../src/schema.js';
import { type Person, type Response, useApi } from '../support/app.js';
import type { BudgetCall } from '../support/budgets.js';
import { jsonOfSize, rawRequest } from '../support/raw-http.js';
import { buildRouteCalls, routeCallsEnv } from '../support/route-calls.js';

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

// Thousands of requests in a minute: the rate limits would answer most of them (test/api/rate-limits.test.ts has them).
const { t } = useApi({ env: { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '0', ...routeCallsEnv } });
let admin: Person;
/** A call of each route that succeeds, by route key: real objects in its path (test/support/route-calls.ts). */
let calls: Record<string, BudgetCall>;

beforeAll(async () => {
  ({ admin, calls } = await buildRouteCalls(t));
});

const keyOf = (route: RouteDefinition) => `${route.method} ${route.path}`;
const compiled = new Map(compileRoutes(schema, restModules).map((route) => [keyOf(route.definition), route]));
/** Each route's body limit, as its operation declares it (rest/body.ts). */
const bodyLimits = new Map([...compiled].map(([key, route]) => [key, route.bodyLimit]));
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

  const integers = compiled.get(keyOf(route))!.variables.filter((v) => v.source === 'query' && v.range);
  if (integers.length) {
    it('answers each integer query parameter out of its range with a 400 naming the range, whatever its size', async () => {
      const { path } = calls[keyOf(route)];
      const withQuery = (query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;
      for (const { name, range } of integers) {
        const { min, max } = range!;
        // Past each bound, past 32 bits (GraphQL's Int), past 2^53 (exact doubles), and 1e23 written out, either sign.
        const sizes = [`${2 ** 31}`, `${2 ** 53 + 1}`, `1${'0'.repeat(23)}`];
        const outside = [`${min - 1}`, `${max + 1}`, ...sizes, ...sizes.map((size) => `-${size}`)].filter(
          (text) => Number(text) < min || Number(text) > max,
        );
        for (const text of outside) {
          const response = await t.request(route.method, withQuery(`${name}=${text}`), { token: admin.token });
          expect([response.status, response.body], `${name}=${text}`).toEqual([
            400,
            { error: { code: 400, message: `Invalid "${name}": must be an integer from ${min} to ${max}.` } },
          ]);
        }
        for (const text of [`${min}`, `${max}`]) {
          const response = await t.request(route.method, withQuery(`${name}=${text}`), { token: admin.token });
          expect(response.status, `${name}=${text}: ${response.text.slice(0, 300)}`).toBeLessThan(300);
        }
      }
    });
  }

  if (route.path.includes(':')) {
    it('takes an overlong path parameter to the operation, which answers it: never "No endpoint", never a 5xx', async () => {
      const call = calls[keyOf(route)];
      const [realPath, query] = call.path.split('?');
      const real = realPath.split('/');
      const template = route.path.split('/');
      for (const [index, segment] of template.entries()) {
        if (!segment.startsWith(':')) continue;
        for (const length of [101, 4000]) {
          // The parameter that takes the rest of the path is the last: the long value replaces all it took.
          const end = segment.slice(1) === route.restOfPath ? real.length : index + 1;
          const path = [...real.slice(0, index), 'x'.repeat(length), ...real.slice(end)].join('/') + (query ? `?${query}` : '');
          const body = hasBody(route) ? (call.body ?? {}) : undefined;
          const response = await t.request(route.method, path, { token: admin.token, body });
          const what = `${name} with ${segment} of ${length} characters`;
          expectHandled(response, what);
          expect(response.text, what).not.toMatch(/No endpoint|is not allowed here/);
        }
      }
    });
  }

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
