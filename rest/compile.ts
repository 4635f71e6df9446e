// Compiles route definitions against the GraphQL schema, once, at start-up: parse, validate, and precompute how
// REST values become variables and how results become REST bodies. A route that does not compile stops the service
// from starting, with the route named in the error.
import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  Kind,
  isCompositeType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  parse,
  typeFromAST,
  validate,
} from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { RouteDefinition } from './route.js';

/** How to turn one GraphQL result value into its REST form. */
export type OutputPlan =
  | { kind: 'leaf' }
  | { kind: 'enum'; rest: ReadonlyMap<string, string> }
  | { kind: 'list'; of: OutputPlan }
  | { kind: 'object'; fields: readonly { key: string; keepNull: boolean; plan: OutputPlan }[] };

export interface CompiledRoute {
  definition: RouteDefinition;
  document: DocumentNode;
  operationName: string;
  /** Runs the operation: compiled to JavaScript by graphql-jit, or graphql-js's execute where jit cannot compile it. */
  run(context: unknown, variables: Record<string, unknown>): Promise<ExecutionResult> | ExecutionResult;
  /** Variable name to its GraphQL input type. */
  variables: ReadonlyMap<string, GraphQLInputType>;
  /** Response keys leading from `data` to the body. */
  bodyPath: readonly string[];
  /** Writes the body's REST JSON. */
  write: Writer;
}

const restSpellings = new WeakMap<GraphQLEnumType, { toRest: Map<string, string>; fromRest: Map<string, string> }>();

/** REST spelling of each value of an enum (from `extensions.rest`, else the GraphQL name), both ways. */
export function enumSpellings(type: GraphQLEnumType) {
  let spellings = restSpellings.get(type);
  if (!spellings) {
    spellings = { toRest: new Map(), fromRest: new Map() };
    for (const value of type.getValues()) {
      const rest = (value.extensions as { rest?: string }).rest ?? value.name;
      spellings.toRest.set(value.name, rest);
      spellings.fromRest.set(rest, value.name);
    }
    restSpellings.set(type, spellings);
  }
  return spellings;
}

function outputPlan(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>): OutputPlan {
  if (isNonNullType(type)) return outputPlan(type.ofType, selectionSet, fragments);
  if (isListType(type)) return { kind: 'list', of: outputPlan(type.ofType, selectionSet, fragments) };
  if (isEnumType(type)) return { kind: 'enum', rest: enumSpellings(type).toRest };
  if (!isCompositeType(type) || !selectionSet) return { kind: 'leaf' };
  if (!isObjectType(type)) throw new Error(`Abstract type ${type.name} is not supported in REST operations yet.`);
  const fields: { key: string; keepNull: boolean; plan: OutputPlan }[] = [];
  for (const node of collectFields(selectionSet, fragments)) {
    const key = node.alias?.value ?? node.name.value;
    if (node.name.value === '__typename') {
      fields.push({ key, keepNull: false, plan: { kind: 'leaf' } });
      continue;
    }
    const field = type.getFields()[node.name.value];
    const keepNull = (field.extensions as { restKeepNull?: boolean }).restKeepNull === true;
    fields.push({ key, keepNull, plan: outputPlan(field.type, node.selectionSet, fragments) });
  }
  return { kind: 'object', fields };
}

/** Fields of a selection set with fragments inlined, first occurrence of each response key kept. */
function collectFields(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen = new Set<string>()): FieldNode[] {
  const out: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(selection);
      }
    } else {
      const inner = selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : fragments.get(selection.name.value)!.selectionSet;
      out.push(...collectFields(inner, fragments, seen));
    }
  }
  return out;
}

function withUniqueFragments(document: DocumentNode): DocumentNode {
  const seen = new Set<string>();
  return {
    ...document,
    definitions: document.definitions.filter((d) => {
      if (d.kind !== Kind.FRAGMENT_DEFINITION) return true;
      if (seen.has(d.name.value)) return false;
      seen.add(d.name.value);
      return true;
    }),
  };
}

export function compileRoute(schema: GraphQLSchema, definition: RouteDefinition): CompiledRoute {
  const where = `${definition.method} ${definition.path}`;
  const document = withUniqueFragments(parse(definition.operation, { noLocation: false }));
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`Route ${where}: ${errors.map((e) => e.message).join('; ')}`);
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1 || !operations[0].name) throw new Error(`Route ${where}: needs exactly one named operation.`);
  const operation = operations[0];
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const variables = new Map<string, GraphQLInputType>();
  for (const v of operation.variableDefinitions ?? []) {
    variables.set(v.variable.name.value, typeFromAST(schema, v.type as never) as GraphQLInputType);
  }
  for (const param of definition.path.matchAll(/:(\w+)/g)) {
    if (!variables.has(param[1])) throw new Error(`Route ${where}: path parameter :${param[1]} has no variable $${param[1]}.`);
  }
  const rootType = operation.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
  let plan = outputPlan(rootType, operation.selectionSet, fragments);
  const bodyPath = definition.body === undefined ? [plan.kind === 'object' && plan.fields.length === 1 ? plan.fields[0].key : '?'] : definition.body.split('.').filter(Boolean);
  for (const key of bodyPath) {
    const field = plan.kind === 'object' ? plan.fields.find((f) => f.key === key) : undefined;
    if (!field) throw new Error(`Route ${where}: the body path ${bodyPath.join('.')} is not in the selection (one root field is expected by default).`);
    plan = field.plan;
  }
  const operationName = operation.name!.value;
  const jit = compileQuery(schema, document, operationName);
  const run: CompiledRoute['run'] = isCompiledQuery(jit)
    ? (context, variableValues) => jit.query(undefined, context, variableValues)
    : (contextValue, variableValues) => execute({ schema, document, operationName, variableValues, contextValue });
  return { definition, document, operationName, run, variables, bodyPath, write: jsonWriter(plan) };
}

type Writer = (value: unknown) => string;

/**
 * Compiles an output plan into a function that writes the REST JSON of a GraphQL result directly: REST enum
 * spellings, absent optional fields omitted rather than null, keys in selection order. One pass, no intermediate copy
 * of the result (the copy and the generic JSON.stringify walk were a large share of list requests' CPU and garbage).
 */
function jsonWriter(plan: OutputPlan): Writer {
  switch (plan.kind) {
    case 'leaf':
      return (value) => JSON.stringify(value);
    case 'enum':
      return (value) => JSON.stringify(plan.rest.get(value as string) ?? value);
    case 'list': {
      const item = jsonWriter(plan.of);
      return (value) => `[${(value as unknown[]).map((v) => (v === null || v === undefined ? 'null' : item(v))).join(',')}]`;
    }
    case 'object': {
      const fields = plan.fields.map((f) => ({ key: f.key, prefix: `${JSON.stringify(f.key)}:`, keepNull: f.keepNull, write: jsonWriter(f.plan) }));
      return (value) => {
        const source = value as Record<string, unknown>;
        let out = '';
        for (const field of fields) {
          const v = source[field.key];
          if (v === null || v === undefined) {
            if (field.keepNull) out += `,${field.prefix}null`;
          } else {
            out += `,${field.prefix}${field.write(v)}`;
          }
        }
        return `{${out.slice(1)}}`;
      };
    }
  }
}

/**
 * The GraphQL form of a REST input value: enum values in REST spelling become GraphQL names, and fields the input
 * type does not know are dropped (GitBook clients of other versions send fields this API does not take).
 * Anything of the wrong shape is passed through for GraphQL's own coercion to reject with a precise message.
 */
export function fromRest(value: unknown, type: GraphQLInputType): unknown {
  if (value === null || value === undefined) return value;
  if (type instanceof GraphQLNonNull) return fromRest(value, type.ofType);
  if (type instanceof GraphQLList) return Array.isArray(value) ? value.map((v) => fromRest(v, type.ofType)) : fromRest(value, type.ofType);
  if (type instanceof GraphQLEnumType) return typeof value === 'string' ? (enumSpellings(type).fromRest.get(value) ?? value) : value;
  if (type instanceof GraphQLInputObjectType && typeof value === 'object' && !Array.isArray(value)) {
    const fields = type.getFields();
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (fields[key]) out[key] = fromRest(v, fields[key].type);
    }
    return out;
  }
  return value;
}
