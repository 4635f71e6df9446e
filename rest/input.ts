// REST request values as GraphQL variables. Every problem is a 400 that names the REST field, found here with the
// field's path in hand rather than by reading GraphQL's coercion messages afterwards.
import { type GraphQLInputType, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType } from 'graphql';
import { type IntegerRange, outOfRange } from '../src/kernel/validation.js';
import { RestError } from './errors.js';
import { enumSpellings } from './spellings.js';

/** How REST says what a built-in scalar takes; the API's own scalars word their errors for clients already. */
const EXPECTED: Record<string, string> = {
  String: 'expected a string',
  ID: 'expected a string',
  Int: 'expected an integer',
  Float: 'expected a number',
  Boolean: 'expected true or false',
};

const invalid = (path: readonly string[], problem: string) =>
  new RestError(400, `Invalid ${path.length ? `"${path.join('.')}"` : 'body'}: ${problem}.`);

/**
 * The GraphQL form of a JSON value: enum values in REST spelling become GraphQL names, fields the input type does not
 * know are dropped (GitBook clients of other versions send fields this API does not take), and anything GraphQL would
 * refuse is refused here, naming the field. Scalars are checked with their own parser but passed on as sent:
 * execution parses them again.
 */
export function fromRest(value: unknown, type: GraphQLInputType, path: readonly string[] = []): unknown {
  if (isNonNullType(type)) {
    if (value === null || value === undefined) throw invalid(path, 'required');
    return fromRest(value, type.ofType, path);
  }
  if (value === null || value === undefined) return value;
  if (isListType(type)) {
    const items = Array.isArray(value) ? value : [value];
    return items.map((item, i) => fromRest(item, type.ofType, [...path, String(i)]));
  }
  if (isEnumType(type)) {
    const name = typeof value === 'string' ? enumSpellings(type).fromRest.get(value) : undefined;
    if (name === undefined)
      throw invalid(path, `must be one of ${[...enumSpellings(type).fromRest.keys()].map((v) => JSON.stringify(v)).join(', ')}`);
    return name;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) throw invalid(path, 'must be an object');
    const out: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      const given = (value as Record<string, unknown>)[field.name];
      if (given === undefined && !(isNonNullType(field.type) && field.defaultValue === undefined)) continue;
      out[field.name] = fromRest(given, field.type, [...path, field.name]);
    }
    return out;
  }
  try {
    type.parseValue(value);
  } catch (error) {
    throw invalid(path, EXPECTED[type.name] ?? (error as Error).message.replace(/\.$/, ''));
  }
  return value;
}

/** GraphQL's Int: 32 bits, signed. */
const GRAPHQL_INT: IntegerRange = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/**
 * A query-string value as the variable's type: Int, Float, Boolean and enums are parsed from text. An Int is checked
 * against its argument's range (compile.ts makes every integer query parameter declare one), whatever its size.
 */
export function queryValue(name: string, text: string, type: GraphQLInputType, range?: IntegerRange): unknown {
  const named = getNamedType(type);
  switch (named.name) {
    case 'Int': {
      const { min, max } = range ?? GRAPHQL_INT;
      // Number() of any run of digits is a number or Infinity, on the same side of both bounds as the digits' value.
      const number = Number(text);
      if (!/^-?\d+$/.test(text) || number < min || number > max) throw invalid([name], outOfRange({ min, max }));
      return number;
    }
    case 'Float': {
      const number = Number(text);
      if (text.trim() === '' || !Number.isFinite(number)) throw invalid([name], 'must be a number');
      return number;
    }
    case 'Boolean':
      if (text !== 'true' && text !== 'false') throw invalid([name], 'must be true or false');
      return text === 'true';
    default:
      // Enums from their REST spelling; other scalars (a DateTime) checked by their own parser, naming the parameter.
      return fromRest(text, named, [name]);
  }
}

export const isList = (type: GraphQLInputType) => isListType(isNonNullType(type) ? type.ofType : type);
