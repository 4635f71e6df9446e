// The Pothos schema builder every domain adds its types to.
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import ValidationPlugin from '@pothos/plugin-validation';
import { GraphQLError, Kind } from 'graphql';
import type PrismaTypes from '../generated/pothos-prisma-types.js';
import { getDatamodel } from '../generated/pothos-prisma-types.js';
import AccessPlugin from './access.js';
import type { Context } from './context.js';
import InputGuardPlugin, { MAX_DEPTH } from './input-guard.js';
import { type Level, type Policy, permissionsOf } from './permissions.js';
import ReadOnlyPlugin from './read-only.js';
import { validationError } from './validation.js';

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  DefaultInputFieldRequiredness: false;
  Scalars: {
    ID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
    LargeJSON: { Input: unknown; Output: unknown };
  };
}>({
  // The guard runs before validation: validators never see a NUL character or an over-deep value. A read-only token's
  // mutation is refused before both (the plugin placed after them puts its check first). Access judges what every
  // field returns, whoever resolved it.
  plugins: [InputGuardPlugin, ValidationPlugin, ReadOnlyPlugin, PrismaPlugin, AccessPlugin],
  defaultFieldNullability: false,
  validation: { validationError },
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
});

builder.scalarType('DateTime', {
  description: 'ISO 8601 date-time, in UTC.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString()),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string.');
    return date;
  },
});

/** The largest JSON value an argument takes, serialized. */
const MAX_JSON_BYTES = 64 * 1024;

/** Depth of a JSON value, walked without recursion (a recursive walk is what a deep value would overflow). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (item !== null && typeof item === 'object') for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** A JSON value from a variable or a literal, refused when nested deeper than MAX_DEPTH or, given `maxBytes`, larger. */
function jsonScalar(name: 'JSON' | 'LargeJSON', description: string, maxBytes?: number) {
  builder.scalarType(name, {
    description,
    serialize: (value) => value,
    parseValue: (value) => {
      if (depthOf(value) > MAX_DEPTH) throw new GraphQLError(`must not be nested more than ${MAX_DEPTH} levels deep`);
      if (maxBytes !== undefined && Buffer.byteLength(JSON.stringify(value) ?? '') > maxBytes)
        throw new GraphQLError(`must be at most ${maxBytes} bytes of JSON`);
      return value;
    },
    parseLiteral: function parse(ast): unknown {
      switch (ast.kind) {
        case Kind.STRING:
        case Kind.BOOLEAN:
          return ast.value;
        case Kind.INT:
        case Kind.FLOAT:
          return Number(ast.value);
        case Kind.NULL:
          return null;
        case Kind.LIST:
          return ast.values.map((v) => parse(v));
        case Kind.OBJECT:
          return Object.fromEntries(ast.fields.map((f) => [f.name.value, parse(f.value)]));
        default:
          throw new GraphQLError('Variables are not supported inside JSON literals.');
      }
    },
  });
}

jsonScalar('JSON', `A JSON value, at most ${MAX_DEPTH} levels deep and ${MAX_JSON_BYTES} bytes.`, MAX_JSON_BYTES);
// The bulk of a request (a content batch): the request body's limit (rest/body.ts) bounds it, not MAX_JSON_BYTES.
jsonScalar('LargeJSON', `A JSON value, at most ${MAX_DEPTH} levels deep, as large as the request body of its field may be.`);

builder.queryType({});
builder.mutationType({});

/**
 * An enumeration whose REST spelling differs from what GraphQL allows (`share-link` is `share_link` here).
 * The GraphQL name is also the internal value (and the Prisma enum name); `extensions.rest` gives the REST string,
 * which the REST layer reads to translate in both directions.
 */
export function restEnum<const T extends string>(name: string, rest: Record<T, string>, description?: string) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(
      Object.entries<string>(rest).map(([graphqlName, restValue]) => [
        graphqlName,
        { value: graphqlName, extensions: { rest: restValue } },
      ]),
    ) as Record<T, { value: T; extensions: { rest: string } }>,
  });
}

/** An enumeration spelled the same in GraphQL, REST and the database: a Prisma enum object such as MemberRole. */
export function prismaEnum<const T extends string>(name: string, values: Record<string, T>, description?: string) {
  return builder.enumType(name, { description, values: Object.values(values) });
}

/**
 * The `permissions` object type of a policy (src/kernel/permissions.ts): one boolean per action, so a new action
 * there is a new field here, and REST selects it too (its fragments select permissions objects in full).
 */
export function permissionsType<P extends Policy>(name: string, policy: P) {
  return builder.objectRef<ReturnType<typeof permissionsOf<P>>>(name).implement({
    description: 'What the viewer may do with this object.',
    fields: (t) => Object.fromEntries(Object.keys(policy).map((action) => [action, t.exposeBoolean(action as never, {})])),
  });
}

/**
 * The permissions the viewer is advertised at a level (of the object's author, or not), staying synchronous when the
 * level is known.
 */
export function permissionsFor<P extends Policy>(ctx: Context, policy: P, level: Level | Promise<Level>, owner = false) {
  const { readOnly } = ctx.viewer;
  return level instanceof Promise
    ? level.then((known) => permissionsOf(policy, known, owner, readOnly))
    : permissionsOf(policy, level, owner, readOnly);
}
