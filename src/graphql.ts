// GraphQL over HTTP at /graphql: graphql-yoga, the limits a query is held to before it runs, and its request body under
// the limits of the operations it runs; for browsers, GraphiQL's page, made on the first visit and served compressed
// with validators (src/kernel/static-assets.ts).
//
// Query limits (config.graphql): tokens while the document is parsed, so that a huge document costs no more than
// its first tokens; then depth, aliases and directives (graphql-armor) as it is validated; then its cost with the
// request's variables (src/query-cost.ts). Introspection, which GraphiQL sends, is exempt from depth and cost.
//
// Body limits (rest/body.ts): /graphql reads at most the largest limit an operation declares, plus
// DOCUMENT_ALLOWANCE for the query text and the rest of the request, and reads past the default only for a caller
// whose token is valid (anyone else has the default). A body past the default is accepted only as JSON whose
// document's root fields, in every operation, all declare a larger limit, and only up to the smallest of those plus
// DOCUMENT_ALLOWANCE: a content batch may be as large through GraphQL as through REST, and nothing else may.
import { type DocumentNode, type GraphQLError, parse } from 'graphql';
import type { GraphiQLOptions, YogaServerInstance } from 'graphql-yoga';
import type Koa from 'koa';
import {
  answerTooLarge,
  BodyTooLarge,
  DEFAULT_BODY_LIMIT,
  documentBodyLimit,
  hasBody,
  largestBodyLimit,
  readBody,
  refuseAnnounced,
} from '../rest/body.js';
import { RestError } from '../rest/errors.js';
import type { Config } from './config.js';
import type { Context } from './kernel/context.js';
import { type StaticAsset, sendStaticAsset, staticAsset } from './kernel/static-assets.js';
import { costLimitPlugin } from './query-cost.js';
import { schema } from './schema.js';

const DEFAULT_QUERY = '{\n  viewer { displayName email }\n  organizations { items { id title } }\n}\n';

/** Room, beside an operation's own limit, for the query text, the operation's other variables and the JSON around them. */
export const DOCUMENT_ALLOWANCE = 64 * 1024;

/** Headers of the HTTP message's framing, which the request handed to yoga does not carry. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** What /graphql reads for an operation limit: the default, or a larger limit with the allowance. */
const graphqlLimit = (limit: number) => (limit > DEFAULT_BODY_LIMIT ? limit + DOCUMENT_ALLOWANCE : DEFAULT_BODY_LIMIT);

/**
 * A query refused by a limit is answered as an invalid one is (GraphQL over HTTP): 400 to a client that accepts
 * application/graphql-response+json, 200 with the errors to one that asks for application/json. graphql-armor throws
 * its refusals bare; this gives them what yoga gives validation errors.
 */
const refused = (_context: unknown, error: GraphQLError) => {
  Object.assign(error.extensions, { code: 'GRAPHQL_VALIDATION_FAILED', http: { spec: true, status: 400 } });
};

/** GraphiQL's options (graphql-yoga's page). */
const GRAPHIQL: GraphiQLOptions & { query?: string } = {
  title: 'Docs platform management API',
  // The user pastes a token after "Bearer ": every query needs one, the schema's introspection too.
  headers: '{"Authorization": "Bearer "}',
  // Not kept in localStorage, which the tenants' integration scripts served from this origin could read.
  shouldPersistHeaders: false,
  defaultQuery: DEFAULT_QUERY,
  // Yoga's page opens on its welcome comment, not on defaultQuery, unless given it as `query` (graphql-yoga#3979).
  query: DEFAULT_QUERY,
};

export interface GraphqlOptions {
  config: Config;
  /** The request's context once its token is checked; the same promise each time for one request. */
  contextOf(ctx: Koa.Context): Promise<Context>;
}

/** graphql-yoga over the schema, with the query limits as plugins. */
async function graphqlServer(limits: Config['graphql'], contextOf: GraphqlOptions['contextOf']) {
  const [{ createYoga }, { maxAliasesPlugin }, { maxDepthPlugin }, { maxDirectivesPlugin }, { maxTokensPlugin }] = await Promise.all([
    import('graphql-yoga'),
    import('@escape.tech/graphql-armor-max-aliases'),
    import('@escape.tech/graphql-armor-max-depth'),
    import('@escape.tech/graphql-armor-max-directives'),
    import('@escape.tech/graphql-armor-max-tokens'),
  ]);
  return createYoga<{ koa: Koa.Context }, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    // GraphiQL's page is served by graphqlMiddleware, before yoga.
    graphiql: false,
    context: async ({ koa }) => contextOf(koa),
    // Aliases matter here: each alias of a list is a list of its own, with its own statement.
    plugins: [
      maxTokensPlugin({ n: limits.maxTokens, exposeLimits: true, onReject: [refused] }),
      maxAliasesPlugin({ n: limits.maxAliases, exposeLimits: true, onReject: [refused] }),
      maxDepthPlugin({ n: limits.maxDepth, exposeLimits: true, flattenFragments: true, onReject: [refused] }),
      maxDirectivesPlugin({ n: limits.maxDirectives, exposeLimits: true, onReject: [refused] }),
      costLimitPlugin(limits.maxCost),
    ],
  });
}

export function graphqlMiddleware({ config, contextOf }: GraphqlOptions): Koa.Middleware {
  const limits = config.graphql;
  // graphql-yoga and graphql-armor are loaded, and the server made, by the first GraphQL request: the schema is
  // whole from start-up, only the HTTP side of /graphql waits.
  let server: Promise<YogaServerInstance<{ koa: Koa.Context }, Context>> | undefined;
  const yoga = () => (server ??= graphqlServer(limits, contextOf));

  const largest = graphqlLimit(largestBodyLimit(schema));

  // GraphiQL's page inlines all its assets (~9 MB, no CDN, so that it works offline): it is made on the first visit
  // (the module that renders it holds the assets, about 50 MB of memory once parsed) and kept compressed.
  let graphiqlPage: Promise<StaticAsset> | undefined;
  const graphiql = () =>
    (graphiqlPage ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) =>
      staticAsset(renderGraphiQL(GRAPHIQL), 'text/html; charset=utf-8', new Date()),
    ));

  /** The document of a JSON body, or undefined when it has none that parses. */
  function documentOf(ctx: Koa.Context, bytes: Buffer): DocumentNode | undefined {
    if (!ctx.is('application/json', '+json')) return undefined;
    try {
      const { query } = JSON.parse(bytes.toString('utf8')) as { query?: unknown };
      return typeof query === 'string' ? parse(query, { noLocation: true, maxTokens: limits.maxTokens }) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The body, under the limit of what it asks for (see the top of this file); undefined when there is none. */
  async function bodyOf(ctx: Koa.Context): Promise<Buffer | undefined> {
    if (!hasBody(ctx)) return undefined;
    refuseAnnounced(ctx, largest);
    const length = ctx.request.length;
    const mayPassDefault = length === undefined || length > DEFAULT_BODY_LIMIT;
    const admitted =
      mayPassDefault &&
      (await contextOf(ctx).then(
        () => true,
        () => false,
      ));
    const bytes = await readBody(ctx, admitted ? largest : DEFAULT_BODY_LIMIT);
    if (bytes.length <= DEFAULT_BODY_LIMIT) return bytes;
    const document = documentOf(ctx, bytes);
    const limit = document ? graphqlLimit(documentBodyLimit(schema, document)) : DEFAULT_BODY_LIMIT;
    if (bytes.length > limit) throw new BodyTooLarge(limit);
    return bytes;
  }

  return async (ctx, next) => {
    if (ctx.path !== '/graphql') return next();
    ctx.state.route = '/graphql';
    // What yoga would answer with GraphiQL: a browser's page load.
    if ((ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.get('accept').includes('text/html')) {
      sendStaticAsset(ctx, await graphiql(), 'no-cache');
      return;
    }
    let body: Buffer | undefined;
    try {
      body = await bodyOf(ctx);
    } catch (error) {
      if (error instanceof BodyTooLarge) return answerTooLarge(ctx, error);
      if (!(error instanceof RestError)) throw error;
      ctx.status = error.status;
      ctx.body = { error: { code: error.status, message: error.message } };
      return;
    }
    // yoga gets the body whole, as read here (a view of the same bytes): how it was framed is not its concern, and a
    // GET's or HEAD's body, read under the default limit, is ignored.
    const headers = new Headers();
    for (const [name, value] of Object.entries(ctx.req.headers)) {
      if (FRAMING.has(name)) continue;
      for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
    }
    const bytes = ctx.method === 'GET' || ctx.method === 'HEAD' ? undefined : body;
    const init = {
      method: ctx.method,
      headers,
      body: bytes && new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength),
    };
    const response = await (await yoga()).fetch(new URL(ctx.url, 'http://localhost'), init, { koa: ctx });
    ctx.status = response.status;
    for (const [key, value] of response.headers) ctx.append(key, value);
    ctx.body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  };
}
