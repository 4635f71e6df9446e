// REST spellings of GraphQL enum values: an enum value's `extensions.rest`, else its GraphQL name. Output plans spell
// results with them (planning.ts), the input reads requests with them (input.ts) and the OpenAPI document lists them.
import type { GraphQLEnumType } from 'graphql';

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
