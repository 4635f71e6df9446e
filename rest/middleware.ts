// Serves /v1: finds the route, authenticates, maps the request to variables, runs the precompiled operation, and
// writes the REST response (body, status, Location) or the error body `{"error":{"code","message"}}`.
import { getNamedType, GraphQLEnumType, type GraphQLError, type GraphQLInputType, type GraphQLSchema, isListType, isNonNullType } from 'graphql';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { Context as KoaContext, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { authenticate, createContext, type Services } from '../src/kernel/context.js';
import { ApiError, badRequest, notFound, statusOf } from '../src/kernel/errors.js';
import { ID_PATTERN } from '../src/kernel/ids.js';
import { type CompiledRoute, compileRoute, enumSpellings, fromRest } from './compile.js';
import type { RouteDefinition } from './route.js';

const MAX_BODY = '1mb';
const METHODS_WITH_BODY = new Set(['POST', 'PATCH', 'PUT']);

function queryValue(name: string, text: string, type: GraphQLInputType): unknown {
  const named = getNamedType(type);
  switch (named.name) {
    case 'Int':
      if (!/^-?\d+$/.test(text)) throw badRequest(`Invalid "${name}": must be an integer.`);
      return Number(text);
    case 'Float': {
      const number = Number(text);
      if (text.trim() === '' || !Number.isFinite(number)) throw badRequest(`Invalid "${name}": must be a number.`);
      return number;
    }
    case 'Boolean':
      if (text !== 'true' && text !== 'false') throw badRequest(`Invalid "${name}": must be true or false.`);
      return text === 'true';
    default:
      if (named instanceof GraphQLEnumType) {
        const value = enumSpellings(named).fromRest.get(text);
        if (!value) throw badRequest(`Invalid "${name}": must be one of ${[...enumSpellings(named).fromRest.keys()].join(', ')}.`);
        return value;
      }
      return text;
  }
}

function unwrapsToList(type: GraphQLInputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

async function readJsonBody(ctx: KoaContext): Promise<unknown> {
  const length = ctx.request.length;
  const chunked = !!ctx.get('transfer-encoding');
  if (!length && !chunked) return undefined;
  if (!ctx.is('application/json', '+json')) {
    throw new ApiError(415, 'Request bodies must be JSON, sent with Content-Type: application/json.');
  }
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit: MAX_BODY, encoding: 'utf8', length: length || undefined });
  } catch (error) {
    throw badRequest(`Request body could not be read: ${(error as Error).message}.`);
  }
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON.');
  }
}

/** GraphQL's coercion messages, rephrased around the REST field they are about. */
function variableError(error: GraphQLError): ApiError {
  const message = error.message;
  const missingField = /Field "(\w+)" of required type "[^"]+" was not provided\./.exec(message);
  const at = /^Variable "\$(\w+)" got invalid value .*? at "([^"]+)"; (.*)$/s.exec(message);
  if (at) {
    const field = at[2].replace(/^input\.?/, '');
    if (missingField) return badRequest(`Invalid "${field ? `${field}.` : ''}${missingField[1]}": required.`);
    return badRequest(`Invalid "${field || at[1]}": ${at[3]}`);
  }
  if (missingField) return badRequest(`Invalid "${missingField[1]}": required.`);
  if (/^Variable "\$input" of required type/.test(message)) return badRequest('A JSON request body is required.');
  const plain = /^Variable "\$(\w+)" got invalid value .*?; (.*)$/s.exec(message);
  if (plain) return badRequest(`Invalid "${plain[1]}": ${plain[2]}`);
  return badRequest(message);
}

function sendError(ctx: KoaContext, error: ApiError) {
  ctx.status = error.status;
  ctx.body = { error: { code: error.status, message: error.message } };
}

export function restMiddleware(schema: GraphQLSchema, definitions: readonly RouteDefinition[], services: Services): Middleware {
  const router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true });
  for (const definition of definitions) {
    const compiled = compileRoute(schema, definition);
    router.on(definition.method as HTTPMethod, definition.path, () => {}, compiled);
  }
  const methods = [...new Set(definitions.map((d) => d.method))];

  async function run(ctx: KoaContext, route: CompiledRoute, params: Record<string, string | undefined>) {
    const viewer = await authenticate(services, ctx.get('authorization'));
    const variables: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(params)) {
      const type = route.variables.get(name)!;
      // An id that cannot exist is simply not found.
      if (getNamedType(type).name === 'ID' && !ID_PATTERN.test(value ?? '')) throw notFound('Resource');
      variables[name] = value;
    }
    for (const [name, raw] of Object.entries(ctx.query)) {
      const type = route.variables.get(name);
      if (!type || name in params || name === 'input' || raw === undefined) continue;
      const texts = Array.isArray(raw) ? raw : [raw];
      variables[name] = unwrapsToList(type) ? texts.map((t) => queryValue(name, t, type)) : queryValue(name, texts[0], type);
    }
    const inputType = route.variables.get('input');
    if (METHODS_WITH_BODY.has(ctx.method)) {
      const body = await readJsonBody(ctx);
      if (inputType) variables.input = body === undefined && isNonNullType(inputType) ? {} : fromRest(body, inputType);
    }
    const result = await route.run(createContext(services, viewer), variables);
    if (result.errors?.length) {
      const [first] = result.errors;
      if (!first.path) throw variableError(first);
      const status = statusOf(first);
      if (status >= 500) throw first.originalError ?? first;
      throw first.originalError instanceof ApiError ? first.originalError : new ApiError(status as 400, first.message);
    }
    const body = route.bodyPath.reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], result.data);
    const status = route.definition.status;
    ctx.status = status;
    if (status === 204 || status === 205) {
      ctx.body = null;
      return;
    }
    if (status === 201) {
      const location = (body as { urls?: { location?: string } }).urls?.location;
      if (location) ctx.set('Location', location);
    }
    ctx.type = 'application/json';
    ctx.body = body === null || body === undefined ? 'null' : route.write(body);
  }

  return async (ctx, next) => {
    if (ctx.path !== '/v1' && !ctx.path.startsWith('/v1/')) return next();
    try {
      const match = router.find(ctx.method as HTTPMethod, ctx.path);
      if (!match) {
        const others = methods.filter((m) => router.find(m as HTTPMethod, ctx.path));
        if (others.length) {
          ctx.set('Allow', others.join(', '));
          throw new ApiError(405, `Method ${ctx.method} is not allowed here; use ${others.join(', ')}.`);
        }
        throw new ApiError(404, `No endpoint ${ctx.method} ${ctx.path}.`);
      }
      await run(ctx, match.store as CompiledRoute, match.params);
    } catch (error) {
      if (error instanceof ApiError) return sendError(ctx, error);
      ctx.state.error = error;
      sendError(ctx, new ApiError(500, 'Internal server error.'));
    }
  };
}
