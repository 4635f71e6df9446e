// Output plans: which response keys of a result a route writes, in which spelling, with which type (writer.ts), and
// the places in the plan a route reads besides its body (its alternate status).
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import { ETAG_KEY } from './etags.js';
import { alternateKeys } from './field-paths.js';
import type { RouteDefinition, Status } from './route.js';
import { enumSpellings } from './spellings.js';
import { type ObjectPlan, type OutputPlan, TYPE_KEY } from './writer.js';

/** The plan of the value at these response keys under `root`; undefined when the selection does not reach it. */
export function planAt(root: OutputPlan, keys: readonly string[]): OutputPlan | undefined {
  let plan: OutputPlan | undefined = root;
  for (const key of keys) plan = plan?.kind === 'object' ? plan.fields.find((f) => f.key === key)?.plan : undefined;
  return plan;
}

/** The status a Boolean of the result chooses instead (route.ts, AlternateStatus): its response keys from `data`. */
export interface AlternateStatusPlan {
  status: Status;
  keys: readonly string[];
  whenFalse: boolean;
}

/** The keys of an alternate status, checked against the plan of `data`: they must lead to a Boolean. */
export function alternateOf(definition: RouteDefinition, root: OutputPlan): AlternateStatusPlan | undefined {
  if (!definition.alternateStatus) return undefined;
  const { status, when } = definition.alternateStatus;
  const keys = alternateKeys(when);
  const plan = planAt(root, keys);
  if (!plan) throw new Error(`the alternate status's ${when} is not in the selection.`);
  if (plan.kind !== 'leaf' || plan.scalar !== 'Boolean') throw new Error(`the alternate status's ${when} is not a Boolean.`);
  return { status, keys, whenFalse: when.startsWith('!') };
}

/** Builds output plans: which response keys to write, in which spelling, for each selection. */
export class Planner {
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
        if (key !== TYPE_KEY && key !== ETAG_KEY && !seen.has(key)) {
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
