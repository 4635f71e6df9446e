// A REST endpoint is data: method, path, the GraphQL operation it runs, and its success status.
//
// Variable mapping is by name, declared by the operation itself:
// - each path parameter (`:spaceId`) fills the variable of the same name;
// - each query parameter fills the variable of the same name when the operation declares one (coerced from text to
//   the variable's type: Int, Float, Boolean, enum); others are ignored, as GitBook's API ignores them;
// - the JSON body fills `$input`, translated from REST spellings to GraphQL ones (enum values such as `share-link`).
// The response body is the value of the operation's single root field; `body` can name another path into `data`
// (`organization.collections`), or `''` for the whole `data` object.
export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path with `:name` parameters, starting with /v1. */
  path: string;
  /** One GraphQL operation followed by the fragments it spreads (a fragment repeated by composition is kept once). */
  operation: string;
  status: 200 | 201 | 204 | 205;
  /** Dotted path of the response body inside `data`; default: the single root field; '' for `data` itself. */
  body?: string;
}

export const route = (definition: RouteDefinition) => definition;
