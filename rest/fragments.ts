// The REST fragments: the selection each module registers for a type, completed against the schema, and the default
// selection of a type that has none. Routes select a field's type through them (compile.ts, field-paths.ts).
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isLeafType,
  Kind,
  parse,
  type SelectionNode,
  type SelectionSetNode,
  visit,
} from 'graphql';
import type { RestModule } from './route.js';

export const selectionSet = (selections: readonly SelectionNode[]): SelectionSetNode => ({ kind: Kind.SELECTION_SET, selections });
export const fieldNode = (name: string, set?: SelectionSetNode, alias?: string): FieldNode => ({
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
