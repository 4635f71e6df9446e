// The SAML pages, outside /v1 and without an API token (rate-limited per address like /v1):
//   GET  /sso/saml/{id}        the provider's service-provider metadata (its entity id), pending providers included;
//   GET  /sso/saml/{id}/start  302 to the identity provider with an AuthnRequest; `RelayState` is passed through;
//   POST /sso/saml/{id}/acs    the Assertion Consumer Service: a form with SAMLResponse (and RelayState). Answers
//                              200 {token, expiresAt, userId, organizationId} (with relayState when given), or an
//                              API error body: 400 malformed, 403 refused, 404 no such active provider.
// A form past 512 KiB is a 413 the client reads (rest/body.ts). Every refusal is logged with the check that failed,
// never with what the response said.
import type Koa from 'koa';
import { answerTooLarge, BodyTooLarge, readBody } from '../../rest/body.js';
import { statusOf } from '../../rest/errors.js';
import { Prisma, type SamlProvider as SamlProviderRow } from '../generated/prisma/client.js';
import type { Services } from '../kernel/context.js';
import { ApiError, badRequest, notFound } from '../kernel/errors.js';
import { ID_PATTERN, newId } from '../kernel/ids.js';
import { signIn } from './login.js';
import { type ActiveProvider, authorizeUrl, REQUEST_LIFETIME_MS, SamlRefusal, serviceMetadata, verifyResponse } from './saml.js';

const PAGE = /^\/sso\/saml\/([^/]+)(?:\/(start|acs))?\/?$/;
const MAX_FORM = 512 * 1024;
/** SAML's bindings ask for at most 80 bytes; identity providers take more, browsers' URLs not unboundedly more. */
const MAX_RELAY_STATE = 2048;
const BASE64 = /^[A-Za-z0-9+/=\s]+$/;

type Page = 'metadata' | 'start' | 'acs';

async function providerById(services: Services, id: string): Promise<SamlProviderRow | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  const [row] = await services.sql<SamlProviderRow>(Prisma.sql`SELECT * FROM "SamlProvider" WHERE id = ${id}`);
  return row;
}

/** Only an active provider signs anyone in; a pending one is not found, like one that does not exist. */
async function activeProvider(services: Services, id: string): Promise<SamlProviderRow & ActiveProvider> {
  const row = await providerById(services, id);
  if (row?.status !== 'active' || !row.entityID || !row.certificate || !row.ssoURL) {
    throw new SamlRefusal('provider', 'SAML provider not found', 404);
  }
  return row as SamlProviderRow & ActiveProvider;
}

/** Deletes the provider's expired requests and assertion records: what a sign-in reads stays small. */
async function pruneExpired(services: Services, providerId: string): Promise<void> {
  const now = services.clock.now();
  await services.sql(Prisma.sql`
    WITH requests AS (DELETE FROM "SamlRequest" WHERE "providerId" = ${providerId} AND "expiresAt" <= ${now})
    DELETE FROM "SamlAssertion" WHERE "providerId" = ${providerId} AND "expiresAt" <= ${now}`);
}

function relayStateOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > MAX_RELAY_STATE) {
    throw badRequest(`Invalid "RelayState": must be one text of at most ${MAX_RELAY_STATE} characters.`);
  }
  return value;
}

async function metadata(services: Services, ctx: Koa.Context, providerId: string): Promise<void> {
  if (!(await providerById(services, providerId))) throw notFound('SAML provider');
  ctx.type = 'application/samlmetadata+xml';
  ctx.body = await serviceMetadata(services.config, providerId);
}

async function start(services: Services, ctx: Koa.Context, providerId: string): Promise<void> {
  const provider = await activeProvider(services, providerId);
  const relayState = relayStateOf(ctx.query.RelayState);
  // An xsd:ID, which may not start with a digit.
  const requestId = `_${newId()}`;
  const now = services.clock.now();
  await services.sql(Prisma.sql`
    WITH expired AS (DELETE FROM "SamlRequest" WHERE "providerId" = ${provider.id} AND "expiresAt" <= ${now})
    INSERT INTO "SamlRequest" (id, "providerId", "expiresAt") VALUES (${requestId}, ${provider.id}, ${new Date(now.getTime() + REQUEST_LIFETIME_MS)})`);
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(await authorizeUrl(services.config, services.clock, provider, requestId, relayState));
}

async function formOf(ctx: Koa.Context): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) {
    throw new SamlRefusal('body', 'The SAML response must be posted as application/x-www-form-urlencoded.', 415);
  }
  try {
    return new URLSearchParams((await readBody(ctx, MAX_FORM)).toString('utf8'));
  } catch (error) {
    if (error instanceof BodyTooLarge) throw error;
    throw new SamlRefusal('body', 'The form could not be read.', 400);
  }
}

async function acs(services: Services, ctx: Koa.Context, providerId: string): Promise<void> {
  const provider = await activeProvider(services, providerId);
  const form = await formOf(ctx);
  const samlResponse = form.get('SAMLResponse');
  if (!samlResponse || !BASE64.test(samlResponse)) {
    throw new SamlRefusal('body', 'Invalid "SAMLResponse": must be a base64-encoded SAML response.', 400);
  }
  const relayState = relayStateOf(form.get('RelayState'));
  await pruneExpired(services, provider.id);
  const assertion = await verifyResponse(services.config, services.clock, provider, samlResponse);
  const { tokenId, provisioned, ...session } = await signIn(services, provider, assertion, {
    requestId: ctx.state.requestId,
    address: ctx.ip,
  });
  ctx.state.actor = { userId: session.userId, tokenId };
  ctx.state.log.info({ providerId: provider.id, userId: session.userId, provisioned }, 'SAML sign-in');
  // The body holds a credential: no cache may keep it.
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { ...session, ...(relayState !== undefined && { relayState }) };
}

// HEAD only where it writes nothing.
const pages: Record<Page, { methods: string[]; serve: typeof acs }> = {
  metadata: { methods: ['GET', 'HEAD'], serve: metadata },
  start: { methods: ['GET'], serve: start },
  acs: { methods: ['POST'], serve: acs },
};

export function ssoPages(services: Services): Koa.Middleware {
  return async (ctx, next) => {
    const match = PAGE.exec(ctx.path);
    if (!match) return next();
    const [, providerId, name = 'metadata'] = match;
    const page = pages[name as Page];
    ctx.state.route = `/sso/saml/:samlProviderId${name === 'metadata' ? '' : `/${name}`}`;
    try {
      if (!page.methods.includes(ctx.method)) {
        ctx.set('Allow', page.methods.join(', '));
        throw new ApiError(405, `Method ${ctx.method} is not allowed here; use ${page.methods.join(' or ')}.`);
      }
      await page.serve(services, ctx, providerId);
    } catch (error) {
      const status = statusOf(error);
      if (status === undefined || status >= 500) throw error;
      if (name === 'acs') {
        const reason = error instanceof SamlRefusal ? error.reason : 'malformed';
        ctx.state.log.warn({ providerId, reason, status }, 'SAML sign-in refused');
      }
      if (error instanceof BodyTooLarge) return answerTooLarge(ctx, error);
      ctx.status = status;
      ctx.body = { error: { code: status, message: (error as Error).message } };
    }
  };
}
