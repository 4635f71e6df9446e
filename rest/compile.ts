// Compiles route definitions against the GraphQL schema, once, at start-up: builds each route's operation (from its
// field path, field-paths.ts, or as written) with the registered fragments (fragments.ts), validates it, and
// precomputes how REST values become variables and how results become REST bodies (planning.ts, writer.ts);
// graphql-jit compiles it on its first call. A route that does not compile stops the service from starting, with the
// route named in the error.
import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  Kind,
  type NamedTypeNode,
  type OperationDefinitionNode,
  parse,
  TypeInfo,
  typeFromAST,
  validate,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { type IntegerRange, integerRangeOf } from '../src/kernel/validation.js';
import { documentBodyLimit } from './body.js';
import { withETag } from './etags.js';
import { operationFromFieldPath, pathParameters } from './field-paths.js';
import { Fragments, fieldNode, selectionSet } from './fragments.js';
import { type AlternateStatusPlan, alternateOf, Planner, planAt } from './planning.js';
import type { RestModule, RouteDefinition } from './route.js';
import { jsonWriter, type OutputPlan, TYPE_KEY, type Writer } from './writer.js';

/** Where a variable's value comes from in the HTTP request. */
export type VariableSource = 'path' | 'query' | 'body';

export interface VariableBinding {
  name: string;
  source: VariableSource;
  type: GraphQLInputType;
  /** The range the argument it is bound to declares (rest/input.ts): every integer query parameter has one. */
  range?: IntegerRange;
}

export interface CompiledRoute {
  definition: RouteDefinition;
  document: DocumentNode;
  /** Runs the operation: compiled to JavaScript by graphql-jit, or graphql-js's execute where jit cannot compile it. */
  run(context: unknown, variables: Record<string, unknown>): Promise<ExecutionResult> | ExecutionResult;
  variables: readonly VariableBinding[];
  /** Response keys leading from `data` to the body. */
  bodyPath: readonly string[];
  /** How the body is written: its keys, spellings and types. */
  plan: OutputPlan;
  /** Writes the body's REST JSON. */
  write: Writer;
  alternateStatus?: AlternateStatusPlan;
  /** The largest request body the route reads, in bytes: its operation's (body.ts). */
  bodyLimit: number;
  /** Whether the body carries its object's tag (etags.ts), answered as the ETag header. */
  tagged: boolean;
}

function sourceOf(name: string, pathParams: readonly string[]): VariableSource {
  if (pathParams.includes(name)) return 'path';
  return name === 'body' ? 'body' : 'query';
}

/** Adds `__restType: __typename` to every selection on an interface or union, for the writer to dispatch on. */
function withTypeKeys(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  const typeInfo = new TypeInfo(schema);
  return visit(
    document,
    visitWithTypeInfo(typeInfo, {
      SelectionSet(set) {
        const parent = typeInfo.getParentType();
        if (!parent || !isAbstractType(parent)) return undefined;
        if (set.selections.some((s) => s.kind === Kind.FIELD && s.alias?.value === TYPE_KEY)) return undefined;
        return selectionSet([fieldNode('__typename', undefined, TYPE_KEY), ...set.selections]);
      },
    }),
  );
}

/** The integer range each variable's argument declares, by variable name; two arguments of one variable must agree. */
function variableRanges(schema: GraphQLSchema, document: DocumentNode): Map<string, IntegerRange> {
  const typeInfo = new TypeInfo(schema);
  const ranges = new Map<string, IntegerRange>();
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Argument(argument) {
        if (argument.value.kind !== Kind.VARIABLE) return;
        const range = integerRangeOf(typeInfo.getArgument()?.extensions);
        if (!range) return;
        const name = argument.value.name.value;
        const known = ranges.get(name);
        if (known && (known.min !== range.min || known.max !== range.max))
          throw new Error(`$${name} is bound to arguments of different ranges.`);
        ranges.set(name, range);
      },
    }),
  );
  return ranges;
}

/** Every route of the modules, compiled against their fragments; throws, naming the route, if one does not compile. */
export function compileRoutes(schema: GraphQLSchema, modules: readonly RestModule[]): CompiledRoute[] {
  const fragments = new Fragments(schema, modules);
  return modules.flatMap((module) => module.routes).map((definition) => compileRoute(schema, fragments, definition));
}

export function compileRoute(schema: GraphQLSchema, fragments: Fragments, definition: RouteDefinition): CompiledRoute {
  const where = `${definition.method} ${definition.path}`;
  try {
    let operation: OperationDefinitionNode;
    let bodyPath: string[];
    if (definition.field) {
      ({ operation, bodyPath } = operationFromFieldPath(schema, fragments, definition));
    } else {
      const parsed = parse(definition.operation!, { noLocation: true });
      const operations = parsed.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
      if (operations.length !== 1 || parsed.definitions.length !== 1)
        throw new Error('needs exactly one operation (fragments come from the registry).');
      operation = operations[0];
      bodyPath = definition.body!.split('.').filter(Boolean);
    }
    const withTag = definition.emptyObject ? undefined : withETag(schema, operation, bodyPath);
    if (withTag) operation = withTag;
    const bare: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation] };
    const document = withTypeKeys(schema, { kind: Kind.DOCUMENT, definitions: [operation, ...fragments.usedBy(bare)] });
    const errors = validate(schema, document);
    if (errors.length) throw new Error(errors.map((e) => e.message).join('; '));
    const compiledOperation = document.definitions[0] as OperationDefinitionNode;
    const pathParams = pathParameters(definition.path);
    const ranges = variableRanges(schema, document);
    const variables: VariableBinding[] = (compiledOperation.variableDefinitions ?? []).map((v) => ({
      name: v.variable.name.value,
      source: sourceOf(v.variable.name.value, pathParams),
      type: typeFromAST(schema, v.type as NamedTypeNode) as GraphQLInputType,
      range: ranges.get(v.variable.name.value),
    }));
    for (const param of pathParams) {
      if (!variables.some((v) => v.name === param)) throw new Error(`path parameter :${param} is bound to no argument.`);
    }
    // A query string carries integers of any size: each must have the range it is refused outside of.
    for (const { name, source, type, range } of variables) {
      if (source === 'query' && getNamedType(type).name === 'Int' && !range)
        throw new Error(`query parameter ${name} is an Int whose argument declares no range (integerRange of the kernel).`);
    }
    const fragmentMap = new Map(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
    );
    const rootType = compiledOperation.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
    const planner = new Planner(schema, fragmentMap, fragments.keepNull);
    const rootPlan = planner.plan(rootType, compiledOperation.selectionSet);
    const alternateStatus = alternateOf(definition, rootPlan);
    let plan = planAt(rootPlan, bodyPath);
    if (!plan) throw new Error(`the body path ${bodyPath.join('.')} is not in the selection.`);
    if (definition.emptyObject) plan = { kind: 'object', typeName: 'EmptyObject', fields: [] };
    // Compiled to JavaScript on the route's first call, graphql-jit loaded by the first: the code of every route would
    // be about 45 MB of memory at start-up, and an instance runs a few of them. What can fail (the operation, its
    // validation, the plan) fails above.
    let compiled: CompiledRoute['run'] | undefined;
    const run: CompiledRoute['run'] = (context, variableValues) =>
      compiled
        ? compiled(context, variableValues)
        : jitCompiled(schema, document, definition.name).then((made) => {
            compiled = made;
            return made(context, variableValues);
          });
    const bodyLimit = documentBodyLimit(schema, document);
    return { definition, document, run, variables, bodyPath, plan, write: jsonWriter(plan), alternateStatus, bodyLimit, tagged: !!withTag };
  } catch (error) {
    throw new Error(`Route ${where} (${definition.name}): ${(error as Error).message}`);
  }
}

/** The operation compiled to JavaScript by graphql-jit, or graphql-js's execute where jit cannot compile it. */
async function jitCompiled(schema: GraphQLSchema, document: DocumentNode, operationName: string): Promise<CompiledRoute['run']> {
  const { compileQuery, isCompiledQuery } = await import('graphql-jit');
  const jit = compileQuery(schema, document, operationName);
  return isCompiledQuery(jit)
    ? (context, variableValues) => jit.query(undefined, context, variableValues)
    : (contextValue, variableValues) => execute({ schema, document, operationName, variableValues, contextValue });
}
