// Questions about what a GraphQL query selects, for resolvers that can skip work the query does not need.
import { type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';

/** True when, under the current field, the query selects no field outside `allowed` (fragments included). */
export function selectsOnly(info: GraphQLResolveInfo, allowed: ReadonlySet<string>): boolean {
  const check = (set: SelectionSetNode | undefined): boolean =>
    !set ||
    set.selections.every((selection) => {
      if (selection.kind === Kind.FIELD) return allowed.has(selection.name.value);
      if (selection.kind === Kind.INLINE_FRAGMENT) return check(selection.selectionSet);
      return check(info.fragments[selection.name.value]?.selectionSet);
    });
  return info.fieldNodes.every((node) => check(node.selectionSet));
}
