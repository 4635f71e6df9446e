// The REST engine itself: routing, methods, bodies, request ids, and route compilation at start-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRoute } from '../../rest/compile.js';
import { route } from '../../rest/route.js';
import { schema } from '../../src/schema.js';
import { type Person, startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let alice: Person;
let acme: string;

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.person('Alice');
  acme = await t.organization('Acme', alice);
});
afterAll(() => t?.close());

describe('routing', () => {
  it('answers 404 in the error shape for unknown paths, inside and outside /v1', async () => {
    for (const path of ['/v1/nothing-here', '/v1', '/elsewhere']) {
      const res = await t.request('GET', path, { token: alice.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: expect.any(String) } });
    }
  });

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const res = await t.request('PUT', `/v1/orgs/${acme}`, { token: alice.token, body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PATCH');
    expect(res.body.error.code).toBe(405);
  });

  it('answers 404 for an id that cannot exist, without reaching the database', async () => {
    const res = await t.counted('GET', '/v1/spaces/has%20space', { token: alice.token });
    expect(res.status).toBe(404);
    expect(res.statements).toBe(1); // the token lookup only
  });

  it('keeps an incoming X-Request-Id and makes one otherwise', async () => {
    const kept = await t.request('GET', '/v1/orgs', { token: alice.token, headers: { 'x-request-id': 'trace-123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-123');
    const made = await t.request('GET', '/v1/orgs', { token: alice.token });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('bodies', () => {
  it('ignores body fields the endpoint does not take (clients of other spec versions send them)', async () => {
    const res = await t.request('POST', `/v1/orgs/${acme}/collections`, { token: alice.token, body: { title: 'Kept', color: 'blue' } });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Kept');
  });

  it('names the field whose type is wrong', async () => {
    const res = await t.request('POST', `/v1/orgs/${acme}/collections`, { token: alice.token, body: { title: 42 } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('title');
  });

  it('says which enum values are allowed', async () => {
    const res = await t.request('POST', `/v1/orgs/${acme}/spaces`, { token: alice.token, body: { editMode: 'frozen' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('editMode');
  });

  it('accepts a body-less POST where every field is optional', async () => {
    const res = await t.request('POST', `/v1/orgs/${acme}/spaces`, { token: alice.token });
    expect(res.status).toBe(201);
  });

  it('refuses a body over 1 MB with 400', async () => {
    const res = await t.request('POST', `/v1/orgs/${acme}/collections`, { token: alice.token, body: { title: 'x', padding: 'p'.repeat(1_100_000) } });
    expect(res.status).toBe(400);
  });
});

describe('route compilation', () => {
  it('fails at start-up, naming the route, when an operation does not validate', () => {
    const broken = route({ method: 'GET', path: '/v1/broken/:id', status: 200, operation: 'query broken($id: ID!) { space(id: $id) { nope } }' });
    expect(() => compileRoute(schema, broken)).toThrow(/GET \/v1\/broken\/:id: .*nope/);
  });

  it('fails when a path parameter has no variable', () => {
    const broken = route({ method: 'GET', path: '/v1/x/:spaceId', status: 200, operation: 'query x { organizations { count } }' });
    expect(() => compileRoute(schema, broken)).toThrow(/:spaceId has no variable/);
  });
});
