// A REST endpoint is one line of data: method and path, GitBook's operationId, and the GraphQL field it runs.
//
//   route('GET /v1/orgs/:organizationId/spaces', 'listSpacesInOrganizationById', 'organization(id: $organizationId).spaces')
//
// The field is a path from the root type (Query for GET, Mutation otherwise), written as GraphQL arguments:
// - `$name` where `:name` is a path parameter binds that parameter;
// - `$body` binds the JSON body (translated from REST spellings, unknown fields dropped);
// - any other `$name` binds the query parameter `name`;
// - an argument the path leaves out binds the query parameter of the same name when it has one (`page`, `limit`).
// A last parameter written `:name*` takes the rest of the path, slashes included (`/content/path/:pagePath*` answers
// `/content/path/guide/install`, which GitBook's client sends unencoded); the route's `path` keeps it as `:name`.
// The compiler (compile.ts) builds the operation, named after the operationId, and the selection: the registered
// fragment of the returned type, or for a type without one (a list envelope, urls, permissions) all its fields
// without arguments, each selected the same way. The body is the value of the last field of the path.
//
// `pick` selects only some fields of what the last field returns, each as it would be selected alone: the body is that
// object with those fields (GitBook's `{pages}` of a revision is `pick: ['pages']`).
//
// `operation` is the escape hatch: a whole GraphQL operation, with `body` naming the path of the response body inside
// `data` ('' for `data` itself).
//
// `alternateStatus` lets a Boolean of the result choose the status: a PUT that answers 201 when it created and 200 when
// it replaced, a DELETE that answers 205 when it deleted and 204 when there was nothing to delete.
export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** GitBook's published OpenAPI spec versions (npm @gitbook/api) that the routes follow. */
export type SpecVersion = '0202' | '0181' | '0167' | '0143' | '0137' | '0130' | '0091';

/**
 * Where a route's operation is documented: a version of GitBook's spec, or `extension` for the product's own
 * operations (webhooks), which GitBook's API lacks: they are documented only in the served document, marked
 * `x-extension`, and named in GitBook's style.
 */
export type RouteSpec = SpecVersion | 'extension';

export type Status = 200 | 201 | 204 | 205;

/**
 * The status to answer instead of the route's own, when a Boolean of the result is true: `when` is its dotted path of
 * response keys from `data` (`putOpenAPISpec.created`), or, led by `!`, when it is false. A field route selects it
 * (beside the body, say) without the body showing it; an operation route must select it itself.
 */
export interface AlternateStatus {
  status: Status;
  when: string;
}

export interface RouteDefinition {
  method: Method;
  /** Path with `:name` parameters, starting with /v1. */
  path: string;
  /** The last parameter of the path, when it takes the rest of the path, slashes included (`:name*`). */
  restOfPath?: string;
  /** GitBook's operationId; also the name of the GraphQL operation. */
  name: string;
  /** Field path with argument bindings, e.g. `updateSpace(id: $spaceId, input: $body)`. */
  field?: string;
  /** With `field`: the fields of its value the body holds, instead of its default selection. */
  pick?: readonly string[];
  /** Escape hatch: one named GraphQL operation (named `name`) whose fragments come from the registry. */
  operation?: string;
  /** With `operation`: dotted path of the response body inside `data`; '' for `data` itself. */
  body?: string;
  status: Status;
  /** Another status, chosen by a Boolean of the result. */
  alternateStatus?: AlternateStatus;
  /** The version of GitBook's spec that documents this endpoint (tests validate against it), or `extension`. */
  spec: RouteSpec;
  /** The body is `{}` whatever the field returns: GitBook's answer to some actions, which its client parses as JSON. */
  emptyObject?: boolean;
  /**
   * Honours `Prefer: return=minimal` (RFC 7240) with 204 and no body; `return=representation` (the default) is
   * acknowledged too. Either way `Preference-Applied` says which. GitBook's spec offers it on some updates.
   */
  returnPreference?: boolean;
  /** Can answer 410 Gone: what the path names existed and has expired (an invite link). */
  gone?: boolean;
}

export interface RouteOptions {
  status?: Status;
  pick?: readonly string[];
  alternateStatus?: AlternateStatus;
  spec?: RouteSpec;
  emptyObject?: boolean;
  returnPreference?: boolean;
  gone?: boolean;
}

type Endpoint = `${Method} /v1${string}`;

/** The method and path of `METHOD /v1/...`, a trailing `:name*` read as the parameter that takes the rest of the path. */
function parseEndpoint(endpoint: Endpoint): Pick<RouteDefinition, 'method' | 'path' | 'restOfPath'> {
  const [method, template] = endpoint.split(' ') as [Method, string];
  const restOfPath = /\/:(\w+)\*$/.exec(template)?.[1];
  const path = restOfPath ? template.slice(0, -1) : template;
  if (path.includes('*')) throw new Error(`Route ${endpoint}: only the last path parameter may take the rest of the path (:name*).`);
  return { method, path, ...(restOfPath && { restOfPath }) };
}

/** `route('PATCH /v1/spaces/:spaceId', 'updateSpaceById', 'updateSpace(id: $spaceId, input: $body)')`. */
export function route(endpoint: Endpoint, name: string, field: string, options: RouteOptions = {}): RouteDefinition {
  return {
    ...parseEndpoint(endpoint),
    name,
    field,
    pick: options.pick,
    status: options.status ?? 200,
    alternateStatus: options.alternateStatus,
    spec: options.spec ?? '0202',
    emptyObject: options.emptyObject,
    returnPreference: options.returnPreference,
    gone: options.gone,
  };
}

/** The escape hatch: a hand-written operation, for shapes a field path cannot express. */
export function operationRoute(endpoint: Endpoint, operation: string, options: RouteOptions & { body: string }): RouteDefinition {
  const name = /^\s*(?:query|mutation)\s+(\w+)/.exec(operation)?.[1];
  if (!name) throw new Error(`Route ${endpoint}: the operation must be a named query or mutation.`);
  return {
    ...parseEndpoint(endpoint),
    name,
    operation,
    body: options.body,
    status: options.status ?? 200,
    alternateStatus: options.alternateStatus,
    spec: options.spec ?? '0202',
  };
}

/**
 * What a domain contributes to the REST surface: its routes, and the REST selection of the types it owns, keyed by
 * GraphQL type name. A selection may alias (`organization: organizationId`), may leave a composite field without a
 * sub-selection (`urls permissions`: the compiler selects it in full), and may mark a field `@keepNull` when null
 * means something in REST (by default an absent optional field is omitted, not written as null).
 */
export interface RestModule {
  fragments?: Record<string, string>;
  routes: RouteDefinition[];
}
