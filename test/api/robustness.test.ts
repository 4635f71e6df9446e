// Bad input never breaks the API: every REST route, called without a token, with ids nobody has, and on real objects
// (each route's own, test/support/route-calls.ts) with bodies and query strings of the wrong shape, answers in the
// error shape with a 4xx status, never a 5xx. The routes come from the route table, so a new route is covered the
// day it is added.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../rest/route.js';
import { restModules } from '../../src/schema.js';
import { type Person, type Response, startTestApp, type TestApp } from '../support/app.js';
import type { BudgetCall } from '../support/budgets.js';
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

/** A response that is not a server error, and when it is an error, one in the API's shape with its own status. */
function expectHandled(response: Response, what: string) {
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
});
