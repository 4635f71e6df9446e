// /graphql: the same tokens and rules as /v1, GraphiQL for browsers, and nested queries without N+1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Person, startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let alice: Person;
let bob: Person;
let acme: string;

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob] = await Promise.all([t.person('Alice'), t.person('Bob')]);
  acme = await t.organization('Acme', alice);
  await t.organization('Other', bob);
});
afterAll(() => t?.close());

const graphql = (query: string, variables: object = {}, token: string | null = alice.token) =>
  t.counted('POST', '/graphql', { token, body: { query, variables } });

describe('authentication', () => {
  it('answers 401 without a token or with an unknown one', async () => {
    for (const token of [null, 'dpa_nope']) {
      const res = await graphql('{ organizations { count } }', {}, token);
      expect(res.status).toBe(401);
      expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
  });

  it('serves GraphiQL to a browser without a token', async () => {
    const res = await t.request('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain('GraphiQL');
  });
});

describe('resources', () => {
  it('reaches objects only through the caller permissions: another organization is not found', async () => {
    const res = await graphql('query ($id: ID!) { organization(id: $id) { title } }', { id: acme }, bob.token);
    expect(res.body.errors[0].message).toBe('Organization not found');
    expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('creates and reads through mutations with the REST field names', async () => {
    const created = await graphql(
      'mutation ($org: ID!) { createSpace(organizationId: $org, input: { title: "Handbook", emoji: "1f4d6" }) { id object title visibility defaultLevel } }',
      { org: acme },
    );
    expect(created.body.data.createSpace).toMatchObject({
      object: 'space',
      title: 'Handbook',
      visibility: 'private',
      defaultLevel: 'inherit',
    });
    const bad = await graphql(
      'mutation ($org: ID!) { createSpace(organizationId: $org, input: { title: "x" , emoji: "not an emoji" }) { id } }',
      { org: acme },
    );
    expect(bad.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(bad.body.errors[0].message).toContain('emoji');
  });
});

// Refused before running: the only statement is the token's lookup, which the rate limits make first (to count the
// request against the token, src/rate-limits.ts); nothing of the query runs.
describe('limits', () => {
  it('refuses a query deeper than GRAPHQL_MAX_DEPTH (15) before running it', async () => {
    let selection = 'id';
    for (let i = 0; i < 8; i++) selection = `collections { items { organization { ${selection} } } }`;
    const res = await graphql(`query ($id: ID!) { organization(id: $id) { ${selection} } }`, { id: acme });
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].message).toMatch(/depth limit of 15/);
    expect(res.statements).toBe(1);
  });

  it('refuses more than GRAPHQL_MAX_ALIASES (50) aliases: each alias of a list would be a list, and a statement, of its own', async () => {
    const fields = Array.from({ length: 51 }, (_, i) => `f${i}: organizations { count }`).join(' ');
    const res = await graphql(`{ ${fields} }`);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].message).toMatch(/aliases limit of 50/i);
    expect(res.statements).toBe(1);
  });

  it('refuses a query costlier than GRAPHQL_MAX_COST (10000)', async () => {
    const deep =
      'organizations { items { collections { items { spaces { items { organization { collections { items { spaces { items { id title } } } } } } } } } } }';
    const fields = Array.from({ length: 40 }, (_, i) => `f${i}: ${deep}`).join(' ');
    const res = await graphql(`{ ${fields} }`);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].message).toMatch(/cost limit of 10000/i);
    expect(res.statements).toBe(1);
  });

  it('leaves introspection alone, as GraphiQL needs it', async () => {
    const res = await graphql(
      '{ __schema { types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } } } }',
    );
    expect(res.body.errors).toBeUndefined();
  });
});
