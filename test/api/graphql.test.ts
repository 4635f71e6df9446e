// /graphql: the same tokens and rules as /v1, GraphiQL for browsers, and nested queries without N+1.
import { print } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileRoute } from '../../rest/compile.js';
import { Fragments } from '../../rest/fragments.js';
import { restModules, schema } from '../../src/schema.js';
import { type Person, useApi } from '../support/app.js';
import { buildOrganization, buildUser } from '../support/factories.js';

const { t } = useApi();
let alice: Person;
let bob: Person;
let acme: string;

beforeAll(async () => {
  [alice, bob] = await Promise.all([buildUser(t.prisma, { displayName: 'Alice' }), buildUser(t.prisma, { displayName: 'Bob' })]);
  acme = (await buildOrganization(t.prisma, { title: 'Acme', owner: alice })).organization.id;
  await buildOrganization(t.prisma, { title: 'Other', owner: bob });
});

const graphql = (query: string, variables: object = {}, token: string | null = alice.token) =>
  t.counted('POST', '/graphql', { token, body: { query, variables } });
/** As a client that accepts GraphQL over HTTP's own type: a request error (invalid, or refused by a limit) is a 400. */
const strict = (query: string, variables: object = {}) =>
  t.counted('POST', '/graphql', {
    token: alice.token,
    body: { query, variables },
    headers: { accept: 'application/graphql-response+json' },
  });

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

  it('weighs a list by its limit: three nested lists of 1000 cost past GRAPHQL_MAX_COST (1000000), of 5 they run', async () => {
    const nested = `query ($n: Int) { organizations(limit: $n) { items {
      collections(limit: $n) { items { spaces(limit: $n) { items { id title } } } } } } }`;
    const large = await strict(nested, { n: 1000 });
    expect(large.status).toBe(400);
    expect(large.body.data).toBeUndefined();
    // 1000 organizations × 1000 collections × 1000 spaces × (id, title), and the pages and their items fields.
    expect(large.body.errors[0].message).toBe(
      'Query cost limit of 1000000 exceeded: this query costs 2004004004. Ask for smaller pages (`limit`) or fewer fields.',
    );
    // Refused before it runs: the one statement is the token's lookup, which the rate limits make first.
    expect(large.statements).toBe(1);
    const small = await graphql(nested, { n: 5 });
    expect(small.body.errors).toBeUndefined();
    expect(small.body.data.organizations.items).toEqual([{ collections: { items: [] } }]);
  });

  it('reads the limit from a literal, a variable, or the variable’s default, and takes 50 when none is given', async () => {
    const lists = (limit: string) => `organizations(limit: 1000) { items { collections(limit: 1000) { items {
      spaces${limit} { items { id title } } } } } }`;
    const cases: [string, Record<string, unknown>, number][] = [
      [`{ ${lists('(limit: 1000)')} }`, {}, 2004004004],
      [`query ($n: Int) { ${lists('(limit: $n)')} }`, { n: 1000 }, 2004004004],
      [`query ($n: Int = 1000) { ${lists('(limit: $n)')} }`, {}, 2004004004],
      // 1000 × 1000 × 50 spaces.
      [`{ ${lists('')} }`, {}, 104004004],
    ];
    for (const [query, variables, cost] of cases) {
      const res = await graphql(query, variables);
      // To a client asking for application/json, a refusal is a 200 with the errors, as GraphQL over HTTP has it.
      expect(res.status).toBe(200);
      expect(res.body.errors?.[0].message, query).toMatch(new RegExp(`^Query cost limit of 1000000 exceeded: this query costs ${cost}\\.`));
      expect(res.statements).toBe(1);
    }
  });

  it('runs the benchmark’s reads, REST’s own operations, through /graphql at the pages REST allows', async () => {
    const operationOf = (path: string) => {
      const definition = restModules.flatMap((module) => module.routes).find((r) => r.method === 'GET' && r.path === path)!;
      return print(compileRoute(schema, new Fragments(schema, restModules), definition).document);
    };
    const space = await t.request('POST', `/v1/orgs/${acme}/spaces`, { token: alice.token, body: { title: 'Read' } });
    const reads: [string, Record<string, unknown>][] = [
      ['/v1/spaces/:spaceId', { spaceId: space.body.id }],
      ['/v1/orgs/:organizationId/spaces', { organizationId: acme, limit: 1000 }],
      ['/v1/orgs/:organizationId/collections', { organizationId: acme, limit: 1000 }],
    ];
    for (const [path, variables] of reads) {
      const res = await graphql(operationOf(path), variables);
      expect(res.body.errors, path).toBeUndefined();
    }
  });

  it('refuses a document of more than GRAPHQL_MAX_TOKENS (5000) tokens as it parses it', async () => {
    // `{ viewer {`, n fields, `} }`: 5 + n tokens.
    const res = await strict(`{ viewer { ${'id '.repeat(4996)}} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ message: 'Syntax Error: Token limit of 5000 exceeded.' })]);
    expect(res.statements).toBe(1);
    // 5000 tokens parse (and 4995 fields of one name are then too many for graphql-js's own merge check).
    const within = await strict(`{ viewer { ${'id '.repeat(4995)}} }`);
    expect(within.body.errors[0].message).not.toMatch(/Token limit/);
    expect((await graphql(`{ viewer { ${'id '.repeat(100)}} }`)).body.errors).toBeUndefined();
  });

  it('refuses more than GRAPHQL_MAX_DIRECTIVES (50) directives', async () => {
    const res = await strict(`{ viewer { id ${'@include(if: true) '.repeat(51)}} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/Directives limit of 50 exceeded, found 51/);
    expect(res.statements).toBe(1);
  });

  it('refuses 50,000 directives by the token limit, as it parses them, never walking them', async () => {
    const res = await strict(`{ viewer { id ${'@include(if: true) '.repeat(50_000)}} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ message: 'Syntax Error: Token limit of 5000 exceeded.' })]);
    expect(res.statements).toBe(1);
  });

  it('leaves introspection alone, as GraphiQL needs it', async () => {
    const res = await graphql(
      '{ __schema { types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } } } }',
    );
    expect(res.body.errors).toBeUndefined();
  });
});
