// The Pothos schema builder every domain adds its types to.
import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import PrismaPlugin from '@pothos/plugin-prisma';
import { GraphQLError, Kind } from 'graphql';
import type PrismaTypes from '../generated/pothos-prisma-types.js';
import { getDatamodel } from '../generated/pothos-prisma-types.js';
import type { Context } from './context.js';

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  DefaultInputFieldRequiredness: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [PrismaPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
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

builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
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
      Object.entries<string>(rest).map(([graphqlName, restValue]) => [graphqlName, { value: graphqlName, extensions: { rest: restValue } }]),
    ) as Record<T, { value: T; extensions: { rest: string } }>,
  });
}

/** Field option: in REST, return this field as `null` instead of omitting it (null means something here). */
export const keepNull = { extensions: { restKeepNull: true } } as const;

/**
 * A `permissions` object type whose boolean fields are the keys of what `compute` returns (src/kernel/permissions.ts
 * is the single source: a new permission there is a new field here).
 */
export function permissionsType<K extends string>(name: string, compute: (level: null) => Record<K, boolean>) {
  const keys = Object.keys(compute(null)) as K[];
  return builder.objectRef<Record<K, boolean>>(name).implement({
    fields: (t) => Object.fromEntries(keys.map((key) => [key, t.boolean({ resolve: (permissions) => permissions[key] })])),
  });
}

/** Applies `fn` to a value that may or may not be a promise, staying synchronous when it is not. */
export function mapMaybePromise<T, R>(value: T | Promise<T>, fn: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
