// Compiles route definitions against the GraphQL schema, once, at start-up: builds each route's operation from its
// field path and the registered fragments, validates it, and precomputes how REST values become variables and how
// results become REST bodies; graphql-jit compiles it on its first call. A route that does not compile stops the
// service from starting, with the route named in the error.
import {
  type ArgumentNode,
  type DocumentNode,
  type ExecutionResult,
  execute,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLEnumType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type NamedTypeNode,
  type OperationDefinitionNode,
  parse,
  parseType,
  type SelectionNode,
  type SelectionSetNode,
  TypeInfo,
  typeFromAST,
  validate,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { type IntegerRange, integerRangeOf } from '../src/kernel/validation.js';
import { documentBodyLimit } from './body.js';
import type { RestModule, RouteDefinition, Status } from './route.js';
import { jsonWriter, type ObjectPlan, type OutputPlan, TYPE_KEY, type Writer } from './writer.js';

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
  /** The status a Boolean of the result chooses instead (route.ts, AlternateStatus): its response keys from `data`. */
  alternateStatus?: { status: Status; keys: readonly string[]; whenFalse: boolean };
  /** The largest request body the route reads, in bytes: its operation's (body.ts). */
  bodyLimit: number;
}

const restSpellings = new WeakMap<GraphQLEnumType, { toRest: Map<string, string>; fromRest: Map<string, string> }>();

/** REST spelling of each value of an enum (`extensions.rest`, else the GraphQL name), both ways. */
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

// --- fragments ---------------------------------------------------------------------------------------------------

const selectionSet = (selections: readonly SelectionNode[]): SelectionSetNode => ({ kind: Kind.SELECTION_SET, selections });
const fieldNode = (name: string, set?: SelectionSetNode, alias?: string): FieldNode => ({
  kind: Kind.FIELD,
  name: { kind: Kind.NAME, value: name },
  ...(alias && { alias: { kind: Kind.NAME, value: alias } }),
  ...(set && { selectionSet: set }),
});
const fragmentName = (typeName: string) => `${typeName}Fields`;

/**
 * The registered REST selections of every type, as fragment definitions completed against the schema. Fields
 * marked `@keepNull` are remembered as `Type.responseKey` (the directive is REST's, not GraphQL's, so it is removed).
 */
export class Fragments {
  readonly definitions = new Map<string, FragmentDefinitionNode>();
  readonly keepNull = new Set<string>();

  constructor(
    private readonly schema: GraphQLSchema,
    modules: readonly RestModule[],
  ) {
    const sources = new Map<string, string>();
    for (const module of modules) {
      for (const [typeName, selection] of Object.entries(module.fragments ?? {})) {
        if (sources.has(typeName)) throw new Error(`REST fragment ${fragmentName(typeName)} is registered twice.`);
        sources.set(typeName, selection);
      }
    }
    // Every fragment is known before any is completed: a bare field of a type registered by a later module still
    // takes that type's fragment.
    for (const [typeName, selection] of sources) {
      const parsed = parse(`fragment ${fragmentName(typeName)} on ${typeName} { ${selection} }`, { noLocation: true });
      this.definitions.set(typeName, parsed.definitions[0] as FragmentDefinitionNode);
    }
    for (const [typeName, definition] of this.definitions) {
      const type = schema.getType(typeName);
      if (!type || !isCompositeType(type))
        throw new Error(`REST fragment ${fragmentName(typeName)}: no composite type ${typeName} in the schema.`);
      this.definitions.set(typeName, { ...definition, selectionSet: this.complete(definition.selectionSet, type, typeName) });
    }
  }

  /** A selection set whose composite fields without a sub-selection get their type's default selection. */
  private complete(set: SelectionSetNode, type: GraphQLCompositeType, where: string): SelectionSetNode {
    return selectionSet(
      set.selections.map((selection) => {
        if (selection.kind !== Kind.FIELD) return selection;
        if (selection.name.value === '__typename') return selection;
        const field = 'getFields' in type ? type.getFields()[selection.name.value] : undefined;
        if (!field) throw new Error(`REST fragment ${fragmentName(where)}: ${type.name} has no field ${selection.name.value}.`);
        const named = getNamedType(field.type);
        const sub = selection.selectionSet
          ? this.complete(selection.selectionSet, named as GraphQLCompositeType, where)
          : this.defaultSelection(named);
        if (selection.directives?.some((d) => d.name.value === 'keepNull'))
          this.keepNull.add(`${type.name}.${selection.alias?.value ?? selection.name.value}`);
        return { ...selection, directives: selection.directives?.filter((d) => d.name.value !== 'keepNull'), selectionSet: sub };
      }),
    );
  }

  /**
   * What a route selects of a type: its registered fragment; for an abstract type, each possible type's selection;
   * for any other object type, every field that takes no arguments, each selected the same way.
   */
  defaultSelection(type: GraphQLNamedType, path: readonly string[] = []): SelectionSetNode | undefined {
    if (isLeafType(type)) return undefined;
    if (this.definitions.has(type.name)) {
      return selectionSet([{ kind: Kind.FRAGMENT_SPREAD, name: { kind: Kind.NAME, value: fragmentName(type.name) } }]);
    }
    if (path.includes(type.name))
      throw new Error(`${[...path, type.name].join(' > ')}: a type that contains itself needs a REST fragment.`);
    if (isAbstractType(type)) {
      return selectionSet(
        this.schema.getPossibleTypes(type).map((possible) => ({
          kind: Kind.INLINE_FRAGMENT,
          typeCondition: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: possible.name } },
          selectionSet: this.defaultSelection(possible, [...path, type.name])!,
        })),
      );
    }
    const object = type as GraphQLObjectType;
    return selectionSet(
      Object.values(object.getFields())
        .filter((field) => field.args.length === 0)
        .map((field) => fieldNode(field.name, this.defaultSelection(getNamedType(field.type), [...path, type.name]))),
    );
  }

  /** Definitions of the fragments a document spreads, directly or through other fragments. */
  usedBy(document: DocumentNode): FragmentDefinitionNode[] {
    const used = new Map<string, FragmentDefinitionNode>();
    const byName = new Map([...this.definitions.values()].map((d) => [d.name.value, d]));
    const walk = (node: DocumentNode | FragmentDefinitionNode) =>
      visit(node, {
        FragmentSpread(spread) {
          const definition = byName.get(spread.name.value);
          if (definition && !used.has(spread.name.value)) {
            used.set(spread.name.value, definition);
            walk(definition);
          }
        },
      });
    walk(document);
    return [...used.values()];
  }
}

// --- operations --------------------------------------------------------------------------------------------------

const pathParameters = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);

function sourceOf(name: string, pathParams: readonly string[]): VariableSource {
  if (pathParams.includes(name)) return 'path';
  return name === 'body' ? 'body' : 'query';
}

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
function operationFromFieldPath(schema: GraphQLSchema, fragments: Fragments, definition: RouteDefinition) {
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

  // Rebuild the nested selection from the leaf outwards, the leaf with its default selection.
  let selection = fragments.defaultSelection(getNamedType(leaf.type));
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

/** The response keys of an alternate status's Boolean, from `data`, without its `!`. */
const alternateKeys = (when: string) => when.replace(/^!/, '').split('.');

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

/** The keys of an alternate status, checked against the plan of `data`: they must lead to a Boolean. */
function alternateOf(definition: RouteDefinition, root: OutputPlan): CompiledRoute['alternateStatus'] {
  if (!definition.alternateStatus) return undefined;
  const { status, when } = definition.alternateStatus;
  const keys = alternateKeys(when);
  let plan = root;
  for (const key of keys) {
    const field = plan.kind === 'object' ? plan.fields.find((f) => f.key === key) : undefined;
    if (!field) throw new Error(`the alternate status's ${when} is not in the selection.`);
    plan = field.plan;
  }
  if (plan.kind !== 'leaf' || plan.scalar !== 'Boolean') throw new Error(`the alternate status's ${when} is not a Boolean.`);
  return { status, keys, whenFalse: when.startsWith('!') };
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
    let plan: OutputPlan = rootPlan;
    for (const key of bodyPath) {
      const field = plan.kind === 'object' ? plan.fields.find((f) => f.key === key) : undefined;
      if (!field) throw new Error(`the body path ${bodyPath.join('.')} is not in the selection.`);
      plan = field.plan;
    }
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
    return { definition, document, run, variables, bodyPath, plan, write: jsonWriter(plan), alternateStatus, bodyLimit };
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

/** Builds output plans: which response keys to write, in which spelling, for each selection. */
class Planner {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly keepNull: ReadonlySet<string>,
  ) {}

  plan(type: GraphQLOutputType, set: SelectionSetNode | undefined): OutputPlan {
    if (isNonNullType(type)) return this.plan(type.ofType, set);
    if (isListType(type)) return { kind: 'list', of: this.plan(type.ofType, set) };
    if (isEnumType(type)) return { kind: 'enum', rest: enumSpellings(type).toRest };
    if (!isCompositeType(type) || !set) return { kind: 'leaf', scalar: type.name };
    if (isObjectType(type)) return this.objectPlan(type, set);
    return {
      kind: 'abstract',
      byType: new Map(this.schema.getPossibleTypes(type).map((possible) => [possible.name, this.objectPlan(possible, set)])),
    };
  }

  private objectPlan(type: GraphQLObjectType, set: SelectionSetNode): ObjectPlan {
    const fields = this.collect(type, set, new Set()).map((node) => {
      const key = node.alias?.value ?? node.name.value;
      const keepNull = this.keepNull.has(`${type.name}.${key}`);
      if (node.name.value === '__typename') return { key, keepNull, nonNull: true, plan: { kind: 'leaf', scalar: 'String' } as const };
      const field = type.getFields()[node.name.value];
      const plan = this.plan(field.type, node.selectionSet);
      return { key, keepNull, nonNull: isNonNullType(field.type), description: field.description ?? undefined, plan };
    });
    return { kind: 'object', typeName: type.name, fields };
  }

  /** Fields a selection set applies to objects of `type`, fragments inlined, first occurrence of each key kept. */
  private collect(type: GraphQLObjectType, set: SelectionSetNode, seen: Set<string>): FieldNode[] {
    const out: FieldNode[] = [];
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (key !== TYPE_KEY && !seen.has(key)) {
          seen.add(key);
          out.push(selection);
        }
        continue;
      }
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : this.fragments.get(selection.name.value)!;
      const condition = fragment.typeCondition && this.schema.getType(fragment.typeCondition.name.value);
      const applies = !condition || condition === type || (isAbstractType(condition) && this.schema.isSubType(condition, type));
      if (applies) out.push(...this.collect(type, fragment.selectionSet, seen));
    }
    return out;
  }
}
