// The operation of a field-path route (route.ts): the path's fields nested, its arguments bound to variables (named
// ones as written, the others, when a query string can carry them, by their own names), the last field's default
// selection, and the Boolean an alternate status reads added to it.
import {
  type ArgumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  parseType,
  type SelectionSetNode,
} from 'graphql';
import { type Fragments, fieldNode, selectionSet } from './fragments.js';
import type { RouteDefinition } from './route.js';

/** The parameters of a route's path (`:name`), in order. */
export const pathParameters = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);

/** An argument a query string can carry: a scalar or enum, or a list of them. */
const isQueryable = (type: GraphQLInputType) => isLeafType(getNamedType(type));

/** Splits `a(x: $y).b.c` into its fields, dots inside parentheses excepted. */
function splitFieldPath(fieldPath: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of fieldPath) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === '.' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  return [...parts, current];
}

/** The operation of a field-path route: variables bound as route.ts describes, the last field's default selection. */
export function operationFromFieldPath(schema: GraphQLSchema, fragments: Fragments, definition: RouteDefinition) {
  const rootType = definition.method === 'GET' ? schema.getQueryType()! : schema.getMutationType()!;
  const segments = splitFieldPath(definition.field!);
  const parsed = parse(`{ ${segments.join(' { ')}${' }'.repeat(segments.length - 1)} }`, { noLocation: true });
  const pathParams = pathParameters(definition.path);
  const variables = new Map<string, GraphQLInputType>();
  const bind = (name: string, type: GraphQLInputType, where: string) => {
    const known = variables.get(name);
    if (known && String(known) !== String(type)) throw new Error(`$${name} is bound as ${known} and as ${type} (${where}).`);
    variables.set(name, type);
  };

  const chain: FieldNode[] = [];
  let node = (parsed.definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
  let parentType: GraphQLObjectType = rootType;
  let leaf: GraphQLField<unknown, unknown> | undefined;
  for (;;) {
    const field = parentType.getFields()[node.name.value];
    if (!field) throw new Error(`${parentType.name} has no field ${node.name.value}.`);
    const args: ArgumentNode[] = [...(node.arguments ?? [])];
    for (const argument of args) {
      const arg = field.args.find((a) => a.name === argument.name.value);
      if (!arg) throw new Error(`${parentType.name}.${field.name} has no argument ${argument.name.value}.`);
      if (argument.value.kind === Kind.VARIABLE) bind(argument.value.name.value, arg.type, `${field.name}(${arg.name})`);
    }
    for (const arg of field.args) {
      if (args.some((a) => a.name.value === arg.name)) continue;
      if (isQueryable(arg.type) && !pathParams.includes(arg.name)) {
        bind(arg.name, arg.type, `${field.name}(${arg.name})`);
        args.push({
          kind: Kind.ARGUMENT,
          name: { kind: Kind.NAME, value: arg.name },
          value: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: arg.name } },
        });
      } else if (isNonNullType(arg.type) && arg.defaultValue === undefined) {
        throw new Error(`${parentType.name}.${field.name}(${arg.name}:) is required and not bound.`);
      }
    }
    chain.push({ ...node, arguments: args });
    const next = node.selectionSet?.selections[0] as FieldNode | undefined;
    const named = getNamedType(field.type);
    if (!next) {
      leaf = field;
      break;
    }
    if (!isObjectType(named)) throw new Error(`${parentType.name}.${field.name} is not an object: ${next.name.value} cannot follow it.`);
    parentType = named;
    node = next;
  }

  // Rebuild the nested selection from the leaf outwards, the leaf with its default selection or the fields it picks.
  let selection = definition.pick ? picked(fragments, leaf, definition.pick) : fragments.defaultSelection(getNamedType(leaf.type));
  for (const field of [...chain].reverse()) selection = selectionSet([{ ...field, selectionSet: selection }]);
  if (definition.alternateStatus) selection = withFieldAt(selection!, alternateKeys(definition.alternateStatus.when));
  const operation: OperationDefinitionNode = {
    kind: Kind.OPERATION_DEFINITION,
    operation: rootType === schema.getQueryType() ? ('query' as never) : ('mutation' as never),
    name: { kind: Kind.NAME, value: definition.name },
    variableDefinitions: [...variables].map(([name, type]) => ({
      kind: Kind.VARIABLE_DEFINITION,
      variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: name } },
      type: parseType(String(type), { noLocation: true }),
    })),
    selectionSet: selection!,
  };
  return { operation, bodyPath: chain.map((field) => field.alias?.value ?? field.name.value) };
}

/** The selection of a route's `pick`: these fields of the last field's object type, each with its default selection. */
function picked(fragments: Fragments, leaf: GraphQLField<unknown, unknown>, names: readonly string[]): SelectionSetNode {
  const type = getNamedType(leaf.type);
  if (!isObjectType(type)) throw new Error(`pick: ${leaf.name} is not an object.`);
  return selectionSet(
    names.map((name) => {
      const field = type.getFields()[name];
      if (!field) throw new Error(`pick: ${type.name} has no field ${name}.`);
      return fieldNode(name, fragments.defaultSelection(getNamedType(field.type)));
    }),
  );
}

/** The response keys of an alternate status's Boolean, from `data`, without its `!`. */
export const alternateKeys = (when: string) => when.replace(/^!/, '').split('.');

/** The selection with the field at these response keys added where it is missing (only the last key may be). */
function withFieldAt(set: SelectionSetNode, keys: readonly string[]): SelectionSetNode {
  const [key, ...rest] = keys;
  const index = set.selections.findIndex((s) => s.kind === Kind.FIELD && (s.alias?.value ?? s.name.value) === key);
  if (index < 0) {
    if (rest.length) throw new Error(`the alternate status's ${keys.join('.')} leads through ${key}, which is not selected.`);
    return selectionSet([...set.selections, fieldNode(key)]);
  }
  if (!rest.length) return set;
  const field = set.selections[index] as FieldNode;
  const selections = [...set.selections];
  selections[index] = { ...field, selectionSet: withFieldAt(field.selectionSet ?? selectionSet([]), rest) };
  return selectionSet(selections);
}
