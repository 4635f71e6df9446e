// The REST engine itself: routing, methods, bodies, request ids, and route compilation at start-up.

import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  print,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileRoute } from '../../rest/compile.js';
import { Fragments } from '../../rest/fragments.js';
import { route } from '../../rest/route.js';
import { jsonWriter, type OutputPlan } from '../../rest/writer.js';
import { restModules, schema } from '../../src/schema.js';
import { type Person, useApi } from '../support/app.js';
import { buildOrganization, buildUser } from '../support/factories.js';
import { gitbookClient } from '../support/openapi.js';

const { t } = useApi();
let alice: Person;
let acme: string;

beforeAll(async () => {
  alice = await buildUser(t.prisma, { displayName: 'Alice' });
  acme = (await buildOrganization(t.prisma, { title: 'Acme', owner: alice })).organization.id;
});

describe('routing', () => {
  it('answers 404 in the error shape for unknown paths, inside and outside /v1', async () => {
    for (const path of ['/v1/nothing-here', '/v1/orgs/x/nothing', '/elsewhere']) {
      const res = await t.request('GET', path, { token: alice.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: expect.any(String) } });
    }
  });

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const res = await t.request('PUT', `/v1/orgs/${acme}`, { token: alice.token, body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, PATCH');
    expect(res.body.error.code).toBe(405);
  });

  it('answers 404 for an id that cannot exist, without reaching the database', async () => {
    const res = await t.counted('GET', '/v1/spaces/has%20space', { token: alice.token });
    expect(res.status).toBe(404);
    expect(res.statements).toBe(1); // the token lookup only
  });

  it('takes a path parameter of any length to its operation, which judges it (issue 22: over 100 characters was "No endpoint")', async () => {
    for (const length of [101, 10_000]) {
      const id = await t.request('GET', `/v1/spaces/${'s'.repeat(length)}`, { token: alice.token });
      expect([id.status, id.body]).toEqual([404, { error: { code: 404, message: 'Space not found' } }]);
      const slug = await t.request('PUT', `/v1/orgs/${acme}/openapi/${'S'.repeat(length)}`, {
        token: alice.token,
        body: { source: { url: 'https://example.com/openapi.json' } },
      });
      expect(slug.body.error.message).toBe('Invalid "slug": must be at most 100 characters.');
    }
  });

  it('challenges with WWW-Authenticate: Bearer on 401, for REST and GraphQL alike', async () => {
    for (const [method, path] of [
      ['GET', '/v1/orgs'],
      ['POST', '/graphql'],
    ]) {
      const res = await t.request(method, path, {
        token: 'dpa_unknown',
        body: method === 'POST' ? { query: '{ organizations { count } }' } : undefined,
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('answers HEAD on every GET route as GET would, without the body', async () => {
    const get = await t.request('GET', `/v1/orgs/${acme}`, { token: alice.token });
    const head = await t.request('HEAD', `/v1/orgs/${acme}`, { token: alice.token });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
    const allowed = await t.request('PUT', `/v1/orgs/${acme}`, { token: alice.token, body: {} });
    expect(allowed.headers.get('allow')).toBe('GET, HEAD, PATCH');
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

  it('refuses a body over 1 MiB with 413', async () => {
    const res = await t.request('POST', `/v1/orgs/${acme}/collections`, {
      token: alice.token,
      body: { title: 'x', padding: 'p'.repeat(1_100_000) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: { code: 413, message: 'Request bodies are limited to 1 MiB here.' } });
  });

  it('says in REST words which type a field takes', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 42 }, 'Invalid "title": expected a string.'],
      [{ parent: ['x'] }, 'Invalid "parent": expected a string.'],
    ];
    for (const [body, message] of cases) {
      const res = await t.request('POST', `/v1/orgs/${acme}/collections`, { token: alice.token, body });
      expect(res.body).toEqual({ error: { code: 400, message } });
    }
    const flag = await t.request('PATCH', `/v1/orgs/${acme}`, { token: alice.token, body: { sso: 'yes' } });
    expect(flag.body.error.message).toBe('Invalid "sso": expected true or false.');
  });
});

describe('route compilation', () => {
  const fragments = new Fragments(schema, restModules);

  it('fails at start-up, naming the route, when a field path does not exist', () => {
    const broken = route('GET /v1/broken/:id', 'broken', 'space(id: $id).nope');
    expect(() => compileRoute(schema, fragments, broken)).toThrow(/GET \/v1\/broken\/:id \(broken\): Space has no field nope/);
  });

  it('fails when a path parameter is bound to no argument', () => {
    const broken = route('GET /v1/x/:spaceId', 'x', 'organizations');
    expect(() => compileRoute(schema, fragments, broken)).toThrow(/:spaceId is bound to no argument/);
  });

  it('fails when a required argument is not bound', () => {
    const broken = route('PATCH /v1/x/:spaceId', 'x', 'updateSpace(id: $spaceId)');
    expect(() => compileRoute(schema, fragments, broken)).toThrow(/updateSpace\(input:\) is required and not bound/);
  });

  it('selects only the fields a route picks of the last field, each as it is selected alone, and refuses one the type lacks', () => {
    const pages = compileRoute(schema, fragments, route('GET /v1/x/:spaceId', 'x', 'space(id: $spaceId).content', { pick: ['pages'] }));
    expect(print(pages.document)).toContain(
      'content(metadata: $metadata, computed: $computed) {\n      pages {\n        ...RevisionPageFields',
    );
    expect(pages.plan).toMatchObject({ kind: 'object', typeName: 'Revision', fields: [{ key: 'pages' }] });
    const broken = route('GET /v1/x/:spaceId', 'x', 'space(id: $spaceId).content', { pick: ['nope'] });
    expect(() => compileRoute(schema, fragments, broken)).toThrow(/pick: Revision has no field nope/);
  });

  it('refuses a fragment registered twice for one type', () => {
    expect(
      () =>
        new Fragments(schema, [
          { fragments: { Space: 'id' }, routes: [] },
          { fragments: { Space: 'title' }, routes: [] },
        ]),
    ).toThrow(/SpaceFields is registered twice/);
  });

  it('builds the operation from the field path: variables from the arguments, the envelope and fragments from the schema', () => {
    const compiled = compileRoute(
      schema,
      fragments,
      route('GET /v1/orgs/:organizationId/spaces', 'listSpaces', 'organization(id: $organizationId).spaces'),
    );
    const text = print(compiled.document);
    expect(text).toMatch(/^query listSpaces\(\$organizationId: ID!, \$page: String, \$limit: Int\)/);
    expect(text).toContain('spaces(page: $page, limit: $limit) {\n      items {\n        ...SpaceFields');
    expect(text).toContain('next {\n        page\n      }\n      count');
    // The permissions selection is every action of the policy, not a list typed again.
    expect(text).toContain('permissions {\n    view\n    access\n    admin');
    expect(compiled.variables.map((v) => `${v.source}:${v.name}`)).toEqual(['path:organizationId', 'query:page', 'query:limit']);
    expect(compiled.variables.find((v) => v.name === 'limit')?.range).toEqual({ min: 0, max: 1000 });
    expect(compiled.bodyPath).toEqual(['organization', 'spaces']);
  });

  it('fails when an integer query parameter is bound to an argument that declares no range', () => {
    const counted = (extensions: Record<string, unknown>) =>
      new GraphQLSchema({
        query: new GraphQLObjectType({
          name: 'Query',
          fields: { things: { type: GraphQLInt, args: { count: { type: GraphQLInt, extensions } }, resolve: () => 1 } },
        }),
      });
    const things = route('GET /v1/things', 'things', 'things');
    const unranged = counted({});
    expect(() => compileRoute(unranged, new Fragments(unranged, []), things)).toThrow(
      /query parameter count is an Int whose argument declares no range/,
    );
    const ranged = counted({ integerRange: { min: 2, max: 5 } });
    expect(compileRoute(ranged, new Fragments(ranged, []), things).variables).toEqual([
      { name: 'count', source: 'query', type: GraphQLInt, range: { min: 2, max: 5 } },
    ]);
  });
});

// Issue 22: a limit past GraphQL's 32-bit Int reached GraphQL's coercion, whose refusal was answered as a 500.
describe('integer query parameters', () => {
  const spaces = () => `/v1/orgs/${acme}/spaces`;
  const refusedLimit = { error: { code: 400, message: 'Invalid "limit": must be an integer from 0 to 1000.' } };

  it('refuses a limit out of its published range, whatever its size, with a 400 naming the range', async () => {
    const texts = [
      '-1',
      '1001',
      `${2 ** 31 - 1}`,
      `${2 ** 31}`,
      `${2 ** 53 + 1}`,
      '99999999999999999999999',
      `-${'9'.repeat(400)}`,
      '1e3',
      'ten',
      '',
    ];
    for (const text of texts) {
      const res = await t.request('GET', `${spaces()}?limit=${text}`, { token: alice.token });
      expect(res, `limit=${text}`).toMatchObject({ status: 400, body: refusedLimit });
    }
  });

  it('refuses them through GitBook’s client as well', async () => {
    const api = gitbookClient('0202', t.url, alice.token);
    for (const limit of [2 ** 31, 2 ** 53 + 1, 1e23, -1]) {
      const error = await api.orgs.listSpacesInOrganizationById(acme, { limit }).then(
        () => undefined,
        (thrown: { code: number; errorMessage: string }) => thrown,
      );
      expect(error, `limit ${limit}`).toMatchObject({ code: 400, errorMessage: refusedLimit.error.message });
    }
  });

  it('takes both ends of the range: 0 answers the count alone, 1000 a page of up to 1000', async () => {
    await t.request('POST', spaces(), { token: alice.token, body: { title: 'Counted' } });
    const all = await t.request('GET', `${spaces()}?limit=1000`, { token: alice.token });
    expect(all.status).toBe(200);
    expect(all.body.items.map((space: { title: string }) => space.title)).toContain('Counted');
    expect(all.body.items).toHaveLength(all.body.count);
    const none = await t.request('GET', `${spaces()}?limit=0`, { token: alice.token });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ items: [], count: all.body.count });
  });

  it('gives GraphQL the same range; an Int past 32 bits is refused by GraphQL itself, never with a 500', async () => {
    const graphql = (query: string, variables: Record<string, unknown> = {}) =>
      t.request('POST', '/graphql', { token: alice.token, body: { query, variables: { org: acme, ...variables } } });
    const byVariable = 'query ($org: ID!, $limit: Int) { organization(id: $org) { spaces(limit: $limit) { count } } }';
    const inRange = await graphql(byVariable, { limit: 1001 });
    expect(inRange.body.errors).toMatchObject([{ message: refusedLimit.error.message, extensions: { code: 'BAD_REQUEST' } }]);
    for (const limit of [2 ** 31, 1e23]) {
      const past = await graphql(byVariable, { limit });
      expect(past.status).toBe(400);
      expect(past.body.errors[0].message).toMatch(
        /^Variable "\$limit" got invalid value .*; Int cannot represent non 32-bit signed integer value/,
      );
    }
    const literal = await graphql('query ($org: ID!) { organization(id: $org) { spaces(limit: 99999999999999999999999) { count } } }');
    expect(literal.status).toBeLessThan(500);
    expect(literal.body.errors).toMatchObject([{ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }]);
  });

  it('states each range in the OpenAPI document', async () => {
    const document = (await t.request('GET', '/openapi.json')).body;
    const parameters = document.paths['/orgs/{organizationId}/spaces'].get.parameters;
    expect(parameters.find((p: { name: string }) => p.name === 'limit')).toEqual({
      name: 'limit',
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 0, maximum: 1000 },
    });
  });
});

describe('abstract types', () => {
  // A schema of its own: the API has no interface yet, and pages and site structures will need them.
  const pets = makeSchema();

  it('writes each object by its concrete type, with REST spellings, and never writes the dispatch key', async () => {
    const fragments = new Fragments(pets, [{ fragments: { Dog: 'kind name barks', Cat: 'kind name lives' }, routes: [] }]);
    const compiled = compileRoute(pets, fragments, route('GET /v1/pets', 'listPets', 'pets'));
    const result = await compiled.run({}, {});
    expect(compiled.write(result.data!.pets)).toBe('[{"kind":"good-dog","name":"Rex","barks":true},{"kind":"cat","name":"Tom","lives":9}]');
  });
});

function makeSchema() {
  const Kind = new GraphQLEnumType({
    name: 'PetKind',
    values: { good_dog: { value: 'good_dog', extensions: { rest: 'good-dog' } }, cat: { value: 'cat' } },
  });
  const Pet: GraphQLInterfaceType = new GraphQLInterfaceType({
    name: 'Pet',
    fields: { kind: { type: new GraphQLNonNull(Kind) }, name: { type: new GraphQLNonNull(GraphQLString) } },
    resolveType: (pet: { lives?: number }) => (pet.lives === undefined ? 'Dog' : 'Cat'),
  });
  const Dog = new GraphQLObjectType({
    name: 'Dog',
    interfaces: [Pet],
    fields: {
      kind: { type: new GraphQLNonNull(Kind) },
      name: { type: new GraphQLNonNull(GraphQLString) },
      barks: { type: GraphQLBoolean },
    },
  });
  const Cat = new GraphQLObjectType({
    name: 'Cat',
    interfaces: [Pet],
    fields: { kind: { type: new GraphQLNonNull(Kind) }, name: { type: new GraphQLNonNull(GraphQLString) }, lives: { type: GraphQLInt } },
  });
  const query = new GraphQLObjectType({
    name: 'Query',
    fields: {
      pets: {
        type: new GraphQLList(Pet),
        resolve: () => [
          { kind: 'good_dog', name: 'Rex', barks: true },
          { kind: 'cat', name: 'Tom', lives: 9 },
        ],
      },
    },
  });
  return new GraphQLSchema({ query, types: [Dog, Cat] });
}

describe('the generated JSON writer', () => {
  const plan: OutputPlan = {
    kind: 'object',
    typeName: 'Sample',
    fields: [
      { key: 'title', keepNull: false, nonNull: false, plan: { kind: 'leaf', scalar: 'String' } },
      { key: 'level', keepNull: true, nonNull: false, plan: { kind: 'enum', rest: new Map([['in_collection', 'in-collection']]) } },
      { key: 'count', keepNull: false, nonNull: false, plan: { kind: 'leaf', scalar: 'Int' } },
      { key: 'ratio', keepNull: false, nonNull: false, plan: { kind: 'leaf', scalar: 'Float' } },
      { key: 'ok', keepNull: false, nonNull: false, plan: { kind: 'leaf', scalar: 'Boolean' } },
      { key: 'rules', keepNull: false, nonNull: false, plan: { kind: 'leaf', scalar: 'JSON' } },
      { key: 'tags', keepNull: false, nonNull: false, plan: { kind: 'list', of: { kind: 'leaf', scalar: 'ID' } } },
      { key: 'with "quotes"', keepNull: false, nonNull: false, plan: { kind: 'leaf', scalar: 'String' } },
    ],
  };
  const write = jsonWriter(plan);

  it('writes what JSON.stringify would, for every string that needs escaping', () => {
    for (const text of [
      'plain',
      'say "hi"',
      'back\\slash',
      'line\nbreak',
      '\u0001\u001f',
      '😀 emoji',
      'lone \ud800 surrogate',
      '</script>',
      '',
    ]) {
      const value = {
        title: text,
        level: 'in_collection',
        count: 3,
        ratio: 0.5,
        ok: false,
        rules: { a: [1, text] },
        tags: [text, null],
        'with "quotes"': text,
      };
      expect(JSON.parse(write(value))).toEqual({ ...value, level: 'in-collection' });
      expect(write(value)).toBe(JSON.stringify({ ...value, level: 'in-collection' }));
    }
  });

  it('omits absent fields, and writes null only where null means something', () => {
    expect(write({ title: 'x', level: null, count: undefined })).toBe('{"title":"x","level":null}');
    expect(write({})).toBe('{"level":null}');
  });
});
