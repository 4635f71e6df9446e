// Serves /v1: finds the route, maps the request to variables, runs the precompiled operation with the context the
// service creates, and writes the REST response (body, status, Location) or the error body
// `{"error":{"code","message"}}`; given a store of Idempotency-Keys, it replays a retry's first answer (idempotency.ts).
// The engine knows nothing of the API's domains, authentication or error types.
import { maxHeaderSize } from 'node:http';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { getNamedType, isNonNullType } from 'graphql';
import type { Context as KoaContext, Middleware } from 'koa';
import { answerTooLarge, BodyTooLarge, hasBody, readBody, refuseAnnounced } from './body.js';
import type { CompiledRoute } from './compile.js';
import { headersOf, RestError, statusOf } from './errors.js';
import { ETAG_KEY, ifMatchOf, noneMatchNames } from './etags.js';
import {
  answerOf,
  fingerprintOf,
  type IdempotencyStore,
  idempotencyKeyOf,
  isKept,
  type KeyClaim,
  refusal,
  replay,
  takesIdempotencyKey,
} from './idempotency.js';
import { fromRest, isList, queryValue } from './input.js';
import type { RouteDefinition } from './route.js';

const METHODS_WITH_BODY = new Set(['POST', 'PATCH', 'PUT']);

export interface RestOptions<C = unknown> {
  /** The routes, compiled at start-up (compileRoutes). */
  routes: readonly CompiledRoute[];
  /**
   * The GraphQL context of one request, given the tags of its If-Match for the writes to check (etags.ts); throws
   * (with an HTTP status) when the caller is not authenticated.
   */
  createContext(request: KoaContext, preconditions: { ifMatch?: readonly string[] }): Promise<C>;
  /** Ids that can exist; a path id outside it is not found without running anything. */
  idPattern: RegExp;
  /** Where the Idempotency-Keys of requests are kept (idempotency.ts); without it the header is ignored. */
  idempotency?: IdempotencyStore<C>;
}

/** The request's body, read once (whoever asks first), at most the route's limit; undefined when there is none. */
type BodyReader = () => Promise<Buffer | undefined>;

function bodyReader(ctx: KoaContext, limit: number): BodyReader {
  let read: Promise<Buffer | undefined> | undefined;
  return () => (read ??= hasBody(ctx) ? readBody(ctx, limit) : Promise.resolve(undefined));
}

/** The JSON body; undefined when there is none. */
async function readJsonBody(ctx: KoaContext, body: BodyReader): Promise<unknown> {
  if (!hasBody(ctx)) return undefined;
  if (!ctx.is('application/json', '+json')) {
    throw new RestError(415, 'Request bodies must be JSON, sent with Content-Type: application/json.');
  }
  const text = ((await body()) ?? Buffer.alloc(0)).toString('utf8');
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new RestError(400, 'Request body is not valid JSON.');
  }
}

/** "spaceId" -> "Space", "changeRequestId" -> "Change request": the not-found message of the API for that kind. */
const kindOf = (parameter: string) => {
  const words = parameter.replace(/Id$/, '').replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function sendError(ctx: KoaContext, status: number, message: string) {
  ctx.status = status;
  ctx.body = { error: { code: status, message } };
}

/** The route's status, or its alternate when the result's Boolean says so. */
function statusOfResult(route: CompiledRoute, data: unknown): number {
  const alternate = route.alternateStatus;
  if (!alternate) return route.definition.status;
  const flag = alternate.keys.reduce<unknown>((value, key) => (value as Record<string, unknown> | null)?.[key], data);
  return flag === !alternate.whenFalse ? alternate.status : route.definition.status;
}

export function restMiddleware<C>(options: RestOptions<C>): Middleware {
  const { idPattern } = options;
  // find-my-way matches no route when a parameter is over 100 characters, which would answer "No endpoint" for an
  // operation that exists: no parameter is longer than the request line that carries it, and the operation judges it.
  const router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: maxHeaderSize });
  // HEAD answers what GET would, without the body (Koa leaves it out and keeps Content-Length).
  const methodsOf = (definition: RouteDefinition): HTTPMethod[] => (definition.method === 'GET' ? ['GET', 'HEAD'] : [definition.method]);
  // A parameter that takes the rest of the path is find-my-way's wildcard, `*`, given its name back when a request matches.
  const routerPath = ({ path, restOfPath }: RouteDefinition) => (restOfPath ? `${path.slice(0, -restOfPath.length - 1)}*` : path);
  for (const route of options.routes) router.on(methodsOf(route.definition), routerPath(route.definition), () => {}, route);
  const methods = [...new Set(options.routes.flatMap((route) => methodsOf(route.definition)))];

  async function variablesOf(ctx: KoaContext, route: CompiledRoute, params: Record<string, string | undefined>, body: BodyReader) {
    const variables: Record<string, unknown> = {};
    let bodyRead = false;
    for (const { name, source, type, range } of route.variables) {
      if (source === 'path') {
        const value = params[name] ?? '';
        if (getNamedType(type).name === 'ID' && !idPattern.test(value)) throw new RestError(404, `${kindOf(name)} not found`);
        variables[name] = value;
      } else if (source === 'query') {
        const raw = ctx.query[name];
        if (raw === undefined) {
          if (isNonNullType(type)) throw new RestError(400, `Invalid "${name}": required.`);
          continue;
        }
        const texts = Array.isArray(raw) ? raw : [raw];
        variables[name] = isList(type) ? texts.map((text) => queryValue(name, text, type, range)) : queryValue(name, texts[0], type, range);
      } else if (METHODS_WITH_BODY.has(ctx.method)) {
        bodyRead = true;
        const json = await readJsonBody(ctx, body);
        // A body-less request where every field is optional is an empty object.
        variables[name] = fromRest(json === undefined && isNonNullType(type) ? {} : json, type);
      }
    }
    // A body the route does not take is read all the same, under the same limit, and ignored.
    if (!bodyRead) await body();
    return variables;
  }

  async function run(ctx: KoaContext, route: CompiledRoute, context: C, variables: Record<string, unknown>) {
    const result = await route.run(context, variables);
    if (result.errors?.length) {
      const [first] = result.errors;
      const status = statusOf(first);
      if (status === undefined || status >= 500) throw first.originalError ?? first;
      throw first;
    }
    const body = route.bodyPath.reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], result.data);
    const tag = route.tagged ? (body as Record<string, string> | null)?.[ETAG_KEY] : undefined;
    if (tag !== undefined) {
      ctx.set('ETag', `"${tag}"`);
      if (route.definition.method === 'GET' && noneMatchNames(ctx.get('if-none-match'), tag)) {
        ctx.status = 304;
        return;
      }
    }
    const preference = route.definition.returnPreference ? /\breturn=(minimal|representation)\b/.exec(ctx.get('prefer'))?.[1] : undefined;
    if (preference) ctx.set('Preference-Applied', `return=${preference}`);
    const status = preference === 'minimal' ? 204 : statusOfResult(route, result.data);
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

  /**
   * The claim of the request's Idempotency-Key, made once its caller is known and its body read: undefined without a
   * key; otherwise what the store says of the key, which may be the answer to replay.
   */
  async function claimOf(ctx: KoaContext, route: CompiledRoute, context: C, body: BodyReader): Promise<KeyClaim | undefined> {
    if (!options.idempotency || !takesIdempotencyKey(route.definition)) return undefined;
    const key = idempotencyKeyOf(ctx);
    if (key === undefined) return undefined;
    return options.idempotency.claim(context, key, fingerprintOf(ctx, await body()));
  }

  /** Keeps the answer written for a claimed key, or gives the key back when the answer is not one to keep. */
  async function settle(ctx: KoaContext, claim: Extract<KeyClaim, { state: 'claimed' }>) {
    try {
      if (isKept(ctx.status)) await claim.keep(answerOf(ctx));
      else await claim.release();
    } catch (error) {
      // The request ran and its answer stands; the key stays claimed until its lease runs out (the store's).
      ctx.state.error ??= error;
    }
  }

  return async (ctx, next) => {
    if (ctx.path !== '/v1' && !ctx.path.startsWith('/v1/')) return next();
    let claimed: Extract<KeyClaim, { state: 'claimed' }> | undefined;
    try {
      const match = router.find(ctx.method as HTTPMethod, ctx.path);
      if (!match) {
        const others = methods.filter((m) => router.find(m as HTTPMethod, ctx.path));
        if (others.length) {
          ctx.set('Allow', others.join(', '));
          throw new RestError(405, `Method ${ctx.method} is not allowed here; use ${others.join(', ')}.`);
        }
        throw new RestError(404, `No endpoint ${ctx.method} ${ctx.path}.`);
      }
      const route = match.store as CompiledRoute;
      // The route's template, for whoever measures requests by route (the service's metrics).
      ctx.state.route = route.definition.path;
      // Before the token is even looked up: a body announced larger than the route takes is not read at all.
      refuseAnnounced(ctx, route.bodyLimit);
      const { restOfPath } = route.definition;
      const context = await options.createContext(ctx, { ifMatch: ifMatchOf(ctx.get('if-match')) });
      const body = bodyReader(ctx, route.bodyLimit);
      const claim = await claimOf(ctx, route, context, body);
      if (claim?.state === 'answered') return replay(ctx, claim.answer);
      if (claim && claim.state !== 'claimed') throw refusal(ctx, claim.state);
      claimed = claim;
      const params = restOfPath ? { ...match.params, [restOfPath]: match.params['*'] } : match.params;
      await run(ctx, route, context, await variablesOf(ctx, route, params, body));
    } catch (error) {
      if (error instanceof BodyTooLarge) return answerTooLarge(ctx, error);
      const status = statusOf(error);
      if (status !== undefined && status < 500) {
        for (const [name, value] of Object.entries(headersOf(error))) ctx.set(name, value);
        return sendError(ctx, status, (error as Error).message);
      }
      ctx.state.error = error;
      sendError(ctx, 500, 'Internal server error.');
    } finally {
      if (claimed) await settle(ctx, claimed);
    }
  };
}
