// The OpenAPI 3.1 document of the REST surface, built from the compiled routes: each path, parameter, body and
// response schema is read from what the engine runs (the variables' GraphQL types, the output plan the writer
// follows), so the document cannot describe an endpoint or a field the service does not have. Paths are written as
// GitBook's spec writes them: relative to the server's /v1, with `{name}` parameters.
import {
  type GraphQLInputType,
  type GraphQLNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { bytesText } from './body.js';
import type { CompiledRoute, VariableBinding } from './compile.js';
import { takesIdempotencyKey } from './idempotency.js';
import type { RouteDefinition, Status } from './route.js';
import { enumSpellings } from './spellings.js';
import type { ObjectPlan, OutputPlan } from './writer.js';

type JsonSchema = Record<string, unknown>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  DateTime: { type: 'string', format: 'date-time' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
};

const scalarSchema = (type: GraphQLNamedType): JsonSchema => ({
  ...(SCALARS[type.name] ?? {}),
  ...(type.description && !SCALARS[type.name] ? { description: type.description } : {}),
});

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer', description: 'The HTTP status.' }, message: { type: 'string' } },
    },
  },
};

const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the window resets, in UTC epoch seconds.', schema: { type: 'integer' } },
};

const ERRORS = {
  BadRequest: [400, 'The request is invalid: a parameter or a body field is missing, of the wrong type or out of range.'],
  Unauthorized: [401, 'No API token, or one that is unknown, revoked or expired.'],
  Forbidden: [403, 'The token may see the resource but not do this.'],
  NotFound: [404, 'No such resource, or one the token may not see.'],
  Conflict: [409, 'The request conflicts with the current state of the resource.'],
  Gone: [410, 'The resource existed and has expired.'],
  UnprocessableContent: [422, 'The Idempotency-Key was used for another request (method, path or body).'],
  PayloadTooLarge: [413, 'The body is larger than the operation takes (its request body says how large it may be).'],
  UnsupportedMediaType: [415, 'The body is not sent as application/json.'],
  TooManyRequests: [429, 'A rate limit or quota is exceeded: retry after Retry-After seconds.'],
} as const;
type ErrorName = keyof typeof ERRORS;

/** Schemas shared by name under components.schemas; a second, different shape of one type gets a numbered name. */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly names = new Map<string, string>();

  ref(baseName: string, build: () => JsonSchema, identity: string): JsonSchema {
    let name = this.names.get(identity);
    if (!name) {
      name = baseName;
      for (let n = 2; name in this.schemas; n++) name = `${baseName}${n}`;
      this.names.set(identity, name);
      this.schemas[name] = {};
      this.schemas[name] = build();
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The schema of an output; `name` names the outermost object instead of its GraphQL type (a body that is `data`). */
  output(plan: OutputPlan, name?: string): JsonSchema {
    switch (plan.kind) {
      case 'leaf':
        return { ...(SCALARS[plan.scalar] ?? {}) };
      case 'enum':
        return { type: 'string', enum: [...plan.rest.values()] };
      case 'list':
        return { type: 'array', items: this.output(plan.of) };
      case 'object':
        return this.ref(name ?? plan.typeName, () => this.object(plan), `output ${name ?? ''} ${JSON.stringify(shapeOf(plan))}`);
      case 'abstract':
        return { anyOf: [...plan.byType.values()].map((object) => this.output(object)) };
    }
  }

  private object(plan: ObjectPlan): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    for (const field of plan.fields) {
      let schema = this.output(field.plan);
      // Null is written only where it means something (@keepNull); an absent optional field is left out instead.
      if (field.keepNull && !field.nonNull) schema = { anyOf: [schema, { type: 'null' }] };
      properties[field.key] = field.description ? { ...schema, description: field.description } : schema;
    }
    const required = plan.fields.filter((f) => f.nonNull || f.keepNull).map((f) => f.key);
    // Exactly these keys: the writer writes nothing else.
    return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
  }

  input(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.input(type.ofType);
    if (isListType(type)) return { type: 'array', items: this.input(type.ofType) };
    if (isEnumType(type)) return { type: 'string', enum: [...enumSpellings(type).toRest.values()] };
    if (isInputObjectType(type)) {
      return this.ref(
        type.name,
        () => {
          const fields = Object.values(type.getFields());
          const properties = Object.fromEntries(
            fields.map((f) => {
              const schema = this.input(f.type);
              return [f.name, f.description ? { ...schema, description: f.description } : schema];
            }),
          );
          const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
          return {
            type: 'object',
            ...(type.description ? { description: type.description } : {}),
            properties,
            ...(required.length ? { required } : {}),
          };
        },
        `input ${type.name}`,
      );
    }
    return isScalarType(type) ? scalarSchema(type) : {};
  }
}

/** What makes two plans of one type the same schema: keys, nullability and nested shapes. */
function shapeOf(plan: OutputPlan): unknown {
  switch (plan.kind) {
    case 'object':
      return [plan.typeName, plan.fields.map((f) => [f.key, f.nonNull, f.keepNull, shapeOf(f.plan)])];
    case 'list':
      return ['list', shapeOf(plan.of)];
    case 'abstract':
      return [...plan.byType.values()].map(shapeOf);
    case 'enum':
      return [...plan.rest.values()];
    case 'leaf':
      return plan.scalar;
  }
}

/** A body that is the whole `data` of an operation (operationRoute) is named after the operation, not `Query`. */
const bodyName = (route: CompiledRoute) =>
  route.bodyPath.length ? undefined : `${route.definition.name.charAt(0).toUpperCase()}${route.definition.name.slice(1)}Response`;

/** `listSpacesInOrganizationById` -> `List spaces in organization by id`. */
const summaryOf = (operationId: string) => {
  const words = operationId.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const specPath = (path: string) => path.replace(/^\/v1/, '').replace(/:(\w+)/g, '{$1}') || '/';

/** The errors a route can answer, from what it takes: only a route with a body can get a 413, and so on. */
function errorsOf(definition: RouteDefinition, variables: readonly VariableBinding[]): ErrorName[] {
  const has = (source: VariableBinding['source']) => variables.some((v) => v.source === source);
  const writes = definition.method !== 'GET';
  const keyed = takesIdempotencyKey(definition);
  return (
    [
      [has('query') || has('body') || keyed, 'BadRequest'],
      [true, 'Unauthorized'],
      [writes, 'Forbidden'],
      [has('path'), 'NotFound'],
      [writes && definition.method !== 'DELETE', 'Conflict'],
      [definition.gone === true, 'Gone'],
      [keyed, 'UnprocessableContent'],
      [has('body'), 'PayloadTooLarge'],
      [has('body'), 'UnsupportedMediaType'],
      [true, 'TooManyRequests'],
    ] as const
  )
    .filter(([applies]) => applies)
    .map(([, name]) => name);
}

/** The request header of routes that honour a return preference, and the response header that acknowledges it. */
const PREFER = {
  name: 'Prefer',
  in: 'header',
  required: false,
  description: '`return=minimal` answers 204 without a body; `return=representation` (the default) the object.',
  schema: { type: 'string', enum: ['return=minimal', 'return=representation'] },
};
const PREFERENCE_APPLIED = { 'Preference-Applied': { description: 'The return preference applied.', schema: { type: 'string' } } };

/** The request header of routes that take an Idempotency-Key (idempotency.ts), and the response header of a replay. */
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same request sent again with the same key, by the same token, within IDEMPOTENCY_KEY_HOURS, gets the ' +
    'first answer again without running; 409 while the first runs, 422 when the key was used for another request.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};
const IDEMPOTENT_REPLAYED = {
  'Idempotent-Replayed': {
    description: 'The answer is that of an earlier request with the same Idempotency-Key.',
    schema: { const: 'true' },
  },
};

/** The response header of a route whose body carries its object's tag (etags.ts), and a GET's conditional header. */
const ETAG = {
  ETag: { description: 'Strong entity tag of the object answered; If-Match and If-None-Match take it.', schema: { type: 'string' } },
};
const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'Entity tags (or *): when one is the object’s, the answer is 304 without a body.',
  schema: { type: 'string' },
};

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'No content', 205: 'Reset content' };

export function openApiDocument(routes: readonly CompiledRoute[], info: OpenApiInfo): Record<string, unknown> {
  const components = new Components();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const { definition, variables } = route;
    const parameters = variables
      .filter((v) => v.source !== 'body')
      .map((v) => ({
        name: v.name,
        in: v.source,
        required: v.source === 'path' || isNonNullType(v.type),
        schema:
          v.source === 'path'
            ? { type: 'string' }
            : { ...components.input(v.type), ...(v.range && { minimum: v.range.min, maximum: v.range.max }) },
        ...(v.name === definition.restOfPath && { description: 'The rest of the path: it may hold slashes, sent as they are or encoded.' }),
      }));
    const body = variables.find((v) => v.source === 'body');
    const bodyType = body && (isNonNullType(body.type) ? body.type.ofType : body.type);
    // A body whose fields are all optional may be left out (the engine reads it as {}).
    const bodyRequired =
      isInputObjectType(bodyType) && Object.values(bodyType.getFields()).some((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    const success = (status: Status) => ({
      description: STATUS_TEXT[status],
      headers: {
        ...RATE_HEADERS,
        ...(status === 201 ? { Location: { description: 'The URL of the created resource.', schema: { type: 'string' } } } : {}),
        ...(definition.returnPreference ? PREFERENCE_APPLIED : {}),
        ...(takesIdempotencyKey(definition) ? IDEMPOTENT_REPLAYED : {}),
        ...(route.tagged ? ETAG : {}),
      },
      ...(status === 204 || status === 205
        ? {}
        : { content: { 'application/json': { schema: components.output(route.plan, bodyName(route)) } } }),
    });
    const conditional = route.tagged && definition.method === 'GET';
    const path = specPath(definition.path);
    paths[path] ??= {};
    paths[path][definition.method.toLowerCase()] = {
      operationId: definition.name,
      summary: summaryOf(definition.name),
      tags: [path.split('/')[1] || 'api'],
      ...(definition.spec === 'extension' && { 'x-extension': true }),
      ...(parameters.length || definition.returnPreference || takesIdempotencyKey(definition) || conditional
        ? {
            parameters: [
              ...parameters,
              ...(definition.returnPreference ? [PREFER] : []),
              ...(takesIdempotencyKey(definition) ? [IDEMPOTENCY_KEY] : []),
              ...(conditional ? [IF_NONE_MATCH] : []),
            ],
          }
        : {}),
      ...(body
        ? {
            requestBody: {
              description: `JSON, at most ${bytesText(route.bodyLimit)}.`,
              required: bodyRequired,
              content: { 'application/json': { schema: components.input(body.type) } },
            },
          }
        : {}),
      responses: {
        [definition.status]: success(definition.status),
        ...(definition.alternateStatus && { [definition.alternateStatus.status]: success(definition.alternateStatus.status) }),
        ...(conditional && {
          304: { description: 'Not modified: If-None-Match names the object’s tag.', headers: { ...RATE_HEADERS, ...ETAG } },
        }),
        ...(definition.returnPreference && {
          204: {
            description: 'No content: the request asked for it with `Prefer: return=minimal`.',
            headers: { ...RATE_HEADERS, ...PREFERENCE_APPLIED },
          },
        }),
        ...Object.fromEntries(errorsOf(definition, variables).map((name) => [ERRORS[name][0], { $ref: `#/components/responses/${name}` }])),
      },
    };
  }
  const responses = Object.fromEntries(
    Object.entries(ERRORS).map(([name, [status, description]]) => [
      name,
      {
        description,
        ...(status === 401 ? { headers: { 'WWW-Authenticate': { schema: { type: 'string', const: 'Bearer' } } } } : {}),
        ...(status === 429
          ? { headers: { ...RATE_HEADERS, 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } }
          : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info,
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token, sent as `Authorization: Bearer <token>`.' },
      },
      schemas: { Error: ERROR_SCHEMA, ...components.schemas },
      responses,
    },
  };
}
