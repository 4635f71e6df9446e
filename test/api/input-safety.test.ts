// No input reaches the database unchecked: every hostile value a client can send, in any field of any route's body,
// in a path or in a query string, is a 4xx in the error shape, never a 500, and nothing invalid is stored.
import { getNamedType, isInputObjectType, isNonNullType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileRoutes } from '../../rest/compile.js';
import { restModules, schema } from '../../src/schema.js';
import { type Person, useApi } from '../support/app.js';
import { buildOrganization, buildUser } from '../support/factories.js';

const { t } = useApi();
let alice: Person;
let acme: string;
let other: string;
let collectionId: string;
let spaceId: string;

beforeAll(async () => {
  alice = await buildUser(t.prisma, { displayName: 'Alice' });
  acme = (await buildOrganization(t.prisma, { title: 'Acme', owner: alice })).organization.id;
  other = (await buildOrganization(t.prisma, { title: 'Other', owner: alice })).organization.id;
  collectionId = (await t.request('POST', `/v1/orgs/${acme}/collections`, { token: alice.token, body: { title: 'Guides' } })).body.id;
  spaceId = (await t.request('POST', `/v1/orgs/${acme}/spaces`, { token: alice.token, body: { title: 'Handbook' } })).body.id;
});

const nested = (depth: number): unknown => {
  let value: unknown = { type: 'none' };
  for (let i = 0; i < depth; i++) value = { type: 'rules', rules: [value] };
  return value;
};

describe('regressions found by fuzzing', () => {
  it('refuses a NUL character in a string field with a 400 naming the field', async () => {
    const res = await t.request('PATCH', `/v1/spaces/${spaceId}`, { token: alice.token, body: { title: 'a\u0000b' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid "title": must not contain NUL characters.');
    const org = await t.request('PATCH', `/v1/orgs/${acme}`, { token: alice.token, body: { title: 'Acme\u0000' } });
    expect(org.status).toBe(400);
    expect(org.body.error.message).toContain('"title"');
  });

  it('refuses a NUL character in an id named in a body, a path or a query string', async () => {
    const body = await t.request('POST', `/v1/orgs/${acme}/spaces`, { token: alice.token, body: { parent: `${collectionId}\u0000` } });
    expect(body.status).toBe(400);
    expect(body.body.error.message).toContain('"parent"');
    expect((await t.request('GET', '/v1/spaces/a%00b', { token: alice.token })).status).toBe(404);
    const query = await t.request('GET', `/v1/orgs/${acme}/spaces?page=a%00b`, { token: alice.token });
    expect(query.status).toBe(400);
    expect(query.body.error.message).toContain('"page"');
    const email = await t.request('GET', '/v1/email-domains/a%00b.com/orgs', { token: alice.token });
    expect(email.status).toBe(400);
  });

  it('refuses mergeRules nested 5,000 levels deep with a 400 naming the field', async () => {
    // Written as text: JSON.stringify itself cannot walk that deep.
    const body = `{"mergeRules":${'{"type":"rules","rules":['.repeat(5000)}{"type":"none"}${']}'.repeat(5000)}}`;
    const res = await t.request('PATCH', `/v1/spaces/${spaceId}`, { token: alice.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Invalid "mergeRules/);
  });

  it('validates mergeRules against the published schema: junk is refused, not stored and echoed', async () => {
    const junk = { type: 'rules', rules: [{ rule: 'anything', payload: 'x'.repeat(900_000) }] };
    const res = await t.request('PATCH', `/v1/spaces/${spaceId}`, { token: alice.token, body: { mergeRules: junk } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Invalid "mergeRules/);
    const items = await t.request('PATCH', `/v1/orgs/${acme}`, {
      token: alice.token,
      body: { mergeRules: { type: 'rules', rules: [{ rule: 'bogus' }] } },
    });
    expect(items.status).toBe(400);
    expect(items.body.error.message).toMatch(/^Invalid "mergeRules\.rules\.0\.rule"/);
    const stored = await t.request('GET', `/v1/spaces/${spaceId}`, { token: alice.token });
    expect(stored.body.mergeRules).toEqual({ type: 'inherit' });
  });

  it('stores valid merge rules, without fields the schema does not define', async () => {
    const rules = {
      type: 'rules',
      rules: [{ rule: 'require_specific_reviewers', users: [alice.userId], extra: 'dropped' }, { rule: 'require_at_least_one_review' }],
    };
    const res = await t.request('PATCH', `/v1/orgs/${acme}`, { token: alice.token, body: { mergeRules: rules } });
    expect(res.status).toBe(200);
    expect(res.body.mergeRules).toEqual({
      type: 'rules',
      rules: [{ rule: 'require_specific_reviewers', users: [alice.userId] }, { rule: 'require_at_least_one_review' }],
    });
  });

  it('refuses null for a field that may be left out but always has a value', async () => {
    const res = await t.request('PATCH', `/v1/spaces/${spaceId}`, { token: alice.token, body: { title: null } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid "title": must not be null.');
    const removed = await t.request('PATCH', `/v1/spaces/${spaceId}`, { token: alice.token, body: { emoji: null } });
    expect(removed.status).toBe(200);
  });

  it('bounds JSON arguments in size', async () => {
    const res = await t.request('PATCH', `/v1/orgs/${acme}`, {
      token: alice.token,
      body: { defaultContent: { type: 'site', site: 'x', padding: 'p'.repeat(70_000) } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Invalid "defaultContent": must be at most 65536 bytes/);
  });

  it('gives GraphQL the same answer: a BAD_REQUEST naming the argument', async () => {
    const res = await t.request('POST', '/graphql', {
      token: alice.token,
      body: {
        query: 'mutation ($id: ID!, $title: String) { updateSpace(id: $id, input: { title: $title }) { id } }',
        variables: { id: spaceId, title: 'x\u0000' },
      },
    });
    expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(res.body.errors[0].message).toBe('Invalid "title": must not contain NUL characters.');
  });
});

/** Values no field may turn into a 500. */
const HOSTILE: unknown[] = [
  'nul\u0000inside',
  '\u0000',
  'x'.repeat(100_000),
  '',
  '   ',
  '\ud800',
  '😀'.repeat(40),
  -1,
  1e308,
  0.5,
  true,
  null,
  [],
  ['a\u0000'],
  {},
  { '\u0000': 1 },
  nested(100),
  'bdcd3c7e-1f3f-4d2e-9b3a-000000000000',
  '\'; DROP TABLE "Space"; --',
];

describe('every field of every body, path and query', () => {
  const compiled = compileRoutes(schema, restModules);
  const ids: Record<string, () => string> = { organizationId: () => acme, collectionId: () => collectionId, spaceId: () => spaceId };
  const pathOf = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => (ids[name] ?? (() => 'example.com'))());

  it.each(
    compiled
      .filter((route) => route.variables.some((v) => v.source === 'body'))
      .map((route) => [`${route.definition.method} ${route.definition.path}`, route]),
  )(
    '%s answers hostile body values with a 4xx',
    async (_name, route) => {
      const bodyType = getNamedType(route.variables.find((v) => v.source === 'body')!.type);
      const fields = isInputObjectType(bodyType) ? Object.values(bodyType.getFields()) : [];
      const required = Object.fromEntries(
        fields.filter((f) => isNonNullType(f.type)).map((f) => [f.name, f.name === 'organization' ? other : 'x']),
      );
      for (const field of fields) {
        for (const value of HOSTILE) {
          const res = await t.request(route.definition.method, pathOf(route.definition.path), {
            token: alice.token,
            body: { ...required, [field.name]: value },
          });
          expect(res.status, `${field.name} = ${JSON.stringify(value)?.slice(0, 60)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
          if (res.status >= 400) expect(res.body).toEqual({ error: { code: res.status, message: expect.any(String) } });
        }
      }
      for (const body of ['[]', '"text"', '42', 'null', '{"a":', '{"title":"\\u0000"}']) {
        const res = await t.request(route.definition.method, pathOf(route.definition.path), { token: alice.token, body });
        expect(res.status, `${body}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      }
    },
    60_000,
  );

  it.each(compiled.map((route) => [`${route.definition.method} ${route.definition.path}`, route]))(
    '%s answers hostile path and query values with a 4xx',
    async (_name, route) => {
      const path = route.definition.path;
      for (const text of ['%00', 'a%00b', '%C0%AF', '..%2F..', 'x'.repeat(3000), '%F0%9F%98%80']) {
        const hostilePath = path.replace(/:(\w+)/g, text);
        const res = await t.request(route.definition.method, hostilePath, {
          token: alice.token,
          body: route.definition.method === 'GET' ? undefined : {},
        });
        expect(res.status, `${hostilePath.slice(0, 80)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      }
      const queries = route.variables.filter((v) => v.source === 'query').map((v) => v.name);
      for (const name of queries) {
        for (const text of ['%00', 'x'.repeat(3000), '-1', '1e309', 'true', '']) {
          const res = await t.request(route.definition.method, `${pathOf(path)}?${name}=${text}`, {
            token: alice.token,
            body: route.definition.method === 'GET' ? undefined : {},
          });
          expect(res.status, `${name}=${text.slice(0, 40)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
        }
      }
    },
  );
});
