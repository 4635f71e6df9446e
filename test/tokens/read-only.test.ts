// A read-only token (scope `access: "read"`) runs no mutation: every REST route that changes something, called as it
// succeeds for its user (test/support/route-calls.ts), and every Mutation field of the GraphQL schema, called with
// arguments of the right types, is refused with 403 naming the scope, and records nothing.
import {
  type GraphQLArgument,
  type GraphQLInputType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { restModules, schema } from '../../src/schema.js';
import { useApi } from '../support/app.js';
import type { BudgetCall } from '../support/budgets.js';
import { buildRouteCalls, routeCallsEnv } from '../support/route-calls.js';

const { t } = useApi({ env: routeCallsEnv });
let readOnly: string;
let calls: Record<string, BudgetCall>;

beforeAll(async () => {
  const built = await buildRouteCalls(t);
  calls = built.calls;
  const minted = await t.request('POST', '/v1/user/tokens', { token: built.admin.token, body: { label: 'Reader', access: 'read' } });
  expect(minted.status, minted.text).toBe(201);
  readOnly = minted.body.token;
});

const refusal = (field: string) => `This token's scope is read-only (access: "read"): it may not run ${field}.`;
const changing = restModules.flatMap((module) => module.routes).filter((route) => route.method !== 'GET');

describe('a read-only token', () => {
  it.each(changing.map((route) => [`${route.method} ${route.path}`, route] as const))('is refused %s', async (key, route) => {
    const call = calls[key];
    expect(call, `${key}: no call in test/support/route-calls.ts`).toBeDefined();
    const before = await t.prisma.auditEvent.count();
    const res = await t.request(route.method, call.path, { token: readOnly, body: call.body });
    expect([res.status, res.body?.error?.message], key).toEqual([403, expect.stringMatching(/^This token's scope is read-only/)]);
    expect(await t.prisma.auditEvent.count()).toBe(before);
  });

  /** A literal of the type: the least a value of it needs (required fields of an input object, one item of a list). */
  function literalOf(type: GraphQLInputType): string {
    const named = getNullableType(type);
    if (isListType(named)) return `[${literalOf(named.ofType)}]`;
    if (isEnumType(named)) return named.getValues()[0].name;
    if (isInputObjectType(named)) {
      const required = Object.values(named.getFields()).filter((field) => isNonNullType(field.type));
      return `{ ${required.map((field) => `${field.name}: ${literalOf(field.type)}`).join(', ')} }`;
    }
    if (isScalarType(named) && ['Int', 'Float'].includes(named.name)) return '1';
    if (isScalarType(named) && named.name === 'Boolean') return 'true';
    if (isScalarType(named) && named.name === 'DateTime') return '"2099-01-01T00:00:00Z"';
    if (isScalarType(named) && ['JSON', 'LargeJSON'].includes(named.name)) return '{}';
    return '"x"';
  }
  const argumentsOf = (args: readonly GraphQLArgument[]) => {
    const required = args.filter((arg) => isNonNullType(arg.type));
    return required.length ? `(${required.map((arg) => `${arg.name}: ${literalOf(arg.type)}`).join(', ')})` : '';
  };

  it.each(Object.values(schema.getMutationType()!.getFields()).map((field) => [field.name, field] as const))(
    'is refused the mutation %s through GraphQL',
    async (name, field) => {
      const selection = isScalarType(getNullableType(field.type)) ? '' : ' { __typename }';
      const res = await t.request('POST', '/graphql', {
        token: readOnly,
        body: { query: `mutation { ${name}${argumentsOf(field.args)}${selection} }` },
      });
      expect(res.body.errors?.[0]?.message, JSON.stringify(res.body)).toBe(refusal(name));
    },
  );
});
