// The cost of a GraphQL operation sent to /graphql, checked before it runs: an upper bound of the work it asks for.
// A leaf field costs 1 and a field with a selection 2. A field that takes `limit` pages a list: the list's selection
// (its page's `items`, or the field's own when the field is the list) counts once per item the page may hold, `limit`
// times (the argument's default, else 50, when it is not given), so nested lists multiply. `limit` is read from the
// literal, or from the request's variables (their defaults included), as execution will read it. A list nothing
// pages (a page tree, a file list) counts once. Introspection (`__schema`, `__type`) costs nothing: GraphiQL sends it.
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  GraphQLError,
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  isCompositeType,
  isListType,
  Kind,
  type SelectionSetNode,
  valueFromAST,
} from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { DEFAULT_LIMIT } from './kernel/pagination.js';

const LEAF_COST = 1;
const OBJECT_COST = 2;
const INTROSPECTION = new Set(['__schema', '__type']);

/** The items a field's page may hold: its `limit` as sent, else the argument's default, else DEFAULT_LIMIT; 1 without one. */
function limitOf(node: FieldNode, field: GraphQLField<unknown, unknown>, variables: Record<string, unknown>): number {
  const arg = field.args.find((a) => a.name === 'limit');
  if (!arg) return 1;
  const given = node.arguments?.find((a) => a.name.value === 'limit')?.value;
  const value = given ? valueFromAST(given, arg.type, variables) : undefined;
  const limit = typeof value === 'number' ? value : typeof arg.defaultValue === 'number' ? arg.defaultValue : DEFAULT_LIMIT;
  // A limit below 1 is refused when the list runs; here it weighs what a list of one would.
  return Math.max(1, limit);
}

/** The cost of the operation the request runs (the named one, or the document's only one); 0 when there is none. */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> = {},
): number {
  const operation = getOperationAST(document, operationName);
  if (!operation) return 0;
  // As execution will see them, defaults of the operation's variables included; variables it would refuse weigh nothing.
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 });
  const values = coerced.coerced ?? {};
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const fragmentCosts = new Map<string, number>();

  /** The cost of a selection on `parent`, whose list fields hold `pageSize` items (those of the page being read). */
  const costOf = (set: SelectionSetNode, parent: GraphQLCompositeType | undefined, pageSize: number): number => {
    let cost = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (INTROSPECTION.has(selection.name.value)) continue;
        const field = parent && 'getFields' in parent ? parent.getFields()[selection.name.value] : undefined;
        if (!selection.selectionSet) {
          cost += LEAF_COST;
          continue;
        }
        const list = field !== undefined && isListType(getNullableType(field.type));
        const limit = field ? limitOf(selection, field, values) : 1;
        const type = field && getNamedType(field.type);
        // A paged field that is the list repeats its selection; a page (items, count, next) repeats its lists'.
        const repeat = list ? pageSize * limit : 1;
        const children = costOf(selection.selectionSet, type && isCompositeType(type) ? type : undefined, list ? 1 : limit);
        cost += OBJECT_COST + repeat * children;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition && schema.getType(selection.typeCondition.name.value);
        cost += costOf(selection.selectionSet, condition && isCompositeType(condition) ? condition : parent, pageSize);
      } else {
        // A fragment costs the same wherever it is spread with the same page size: each is walked once per size.
        const key = `${selection.name.value}/${pageSize}`;
        let fragmentCost = fragmentCosts.get(key);
        if (fragmentCost === undefined) {
          const fragment = fragments.get(selection.name.value);
          const condition = fragment && schema.getType(fragment.typeCondition.name.value);
          // Set before the walk, so that a cycle (which validation refuses anyway) ends.
          fragmentCosts.set(key, 0);
          fragmentCost = fragment
            ? costOf(fragment.selectionSet, condition && isCompositeType(condition) ? condition : undefined, pageSize)
            : 0;
          fragmentCosts.set(key, fragmentCost);
        }
        cost += fragmentCost;
      }
    }
    return cost;
  };
  return costOf(operation.selectionSet, schema.getRootType(operation.operation) ?? undefined, 1);
}

/**
 * Refuses an operation costlier than `maxCost` as it is validated, before its context (the token's statement) is made,
 * as an invalid operation is refused (src/graphql.ts). The cost depends on the variables, so it is checked after validation proper, on every request, and the
 * refusal is thrown rather than made the validation's result, which is cached per document.
 */
export function costLimitPlugin(maxCost: number): Plugin<{ params?: GraphQLParams }> {
  return {
    onValidate({ params: { schema, documentAST }, context }) {
      return ({ valid }) => {
        if (!valid) return;
        const cost = operationCost(schema, documentAST, context.params?.operationName, context.params?.variables);
        if (cost <= maxCost) return;
        throw new GraphQLError(
          `Query cost limit of ${maxCost} exceeded: this query costs ${cost}. Ask for smaller pages (\`limit\`) or fewer fields.`,
          { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { spec: true, status: 400 } } },
        );
      };
    },
  };
}
