// The join link of an e-mail invite, served outside /v1 and without a token (the link is the credential):
// - GET /join/<secret> tells what the link invites to: an HTML page with a form that POSTs to the same address, or
//   JSON for API clients. It only reads: mail scanners follow links, and must not use them up.
// - POST /join/<secret> redeems it (email-invites.ts): JSON {organizationId, userId, token?} for API clients, a page
//   showing the token (once) for the form. `token` is there only when the user held no live API token.
// Browsers get HTML (by their Accept header), everything else JSON. Refusals: 404 unknown or used, 410 expired,
// 403 an SSO invite or a disabled member.
import type Koa from 'koa';
import type { Services } from '../kernel/context.js';
import { InviteRefused, type PendingInvite, pendingInvite, type Redeemed, redeemInvite } from './email-invites.js';
import { roleName } from './mail.js';

/** The secrets this service issues are 43 characters of base64url; anything else cannot be one. */
const JOIN_PATH = /^\/join\/([A-Za-z0-9_-]{43})\/?$/;
const ROUTE = '/join/:secret';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A whole page; `body` is HTML whose every interpolated value is already escaped. */
const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; color: #1d1d1f; }
  button { font: inherit; padding: .5rem 1.25rem; border: 0; border-radius: .375rem; background: #2456d3; color: #fff; cursor: pointer; }
  code, pre { font: 14px/1.4 ui-monospace, monospace; background: #f2f2f4; border-radius: .25rem; }
  pre { padding: .75rem; overflow-wrap: anywhere; white-space: pre-wrap; }
  .small { color: #6e6e73; font-size: 14px; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;

function invitationPage(invite: PendingInvite): string {
  const organization = escapeHtml(invite.organization);
  return page(
    `Join ${invite.organization}`,
    `<p>${escapeHtml(invite.email)} is invited to join <strong>${organization}</strong> with ${escapeHtml(roleName(invite.role))}.</p>
<form method="post"><button type="submit">Join ${organization}</button></form>
<p class="small">The link works once, until ${escapeHtml(invite.expiresAt.toISOString())}.</p>`,
  );
}

function joinedPage(services: Services, joined: Redeemed): string {
  const api = escapeHtml(`${services.config.publicUrl}/v1`);
  const token = joined.token
    ? `<p>Your API token, shown only this once: keep it somewhere safe.</p>
<pre><code>${escapeHtml(joined.token)}</code></pre>
<p>Send it to the API at <code>${api}</code> as <code>Authorization: Bearer &lt;token&gt;</code>.</p>`
    : `<p>Use the API token you already have with the API at <code>${api}</code>.</p>`;
  return page(
    `Welcome to ${joined.organization}`,
    `<p>You are now a member of <strong>${escapeHtml(joined.organization)}</strong>.</p>\n${token}`,
  );
}

const TITLES: Record<number, string> = {
  403: 'This invite cannot be used here',
  404: 'Invite not found',
  405: 'Method not allowed',
  410: 'Invite expired',
};

function refuse(ctx: Koa.Context, html: boolean, status: number, message: string) {
  ctx.status = status;
  if (html) {
    ctx.type = 'text/html';
    ctx.body = page(TITLES[status], `<p>${escapeHtml(message)}</p>`);
  } else {
    ctx.body = { error: { code: status, message } };
  }
}

async function answer(services: Services, ctx: Koa.Context): Promise<void> {
  const html = ctx.accepts('json', 'html') === 'html';
  // The secret must not leak through a Referer header, a cache or a frame.
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  if (html) {
    ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
  }
  const reading = ctx.method === 'GET' || ctx.method === 'HEAD';
  if (!reading && ctx.method !== 'POST') {
    ctx.set('Allow', 'GET, HEAD, POST');
    return refuse(ctx, html, 405, `Method ${ctx.method} is not allowed here; use GET or POST.`);
  }
  const secret = JOIN_PATH.exec(ctx.path)?.[1];
  try {
    if (!secret) throw new InviteRefused(404, 'This invite link is unknown or was already used.');
    if (reading) {
      const invite = await pendingInvite(services, secret);
      if (html) {
        ctx.type = 'text/html';
        ctx.body = invitationPage(invite);
      } else {
        ctx.body = {
          organizationId: invite.organizationId,
          organizationTitle: invite.organization,
          email: invite.email,
          role: invite.role,
          expiresAt: invite.expiresAt.toISOString(),
        };
      }
      return;
    }
    const joined = await redeemInvite(services, secret, { requestId: ctx.state.requestId, address: ctx.ip });
    if (html) {
      ctx.type = 'text/html';
      ctx.body = joinedPage(services, joined);
    } else {
      ctx.body = { organizationId: joined.organizationId, userId: joined.userId, ...(joined.token && { token: joined.token }) };
    }
  } catch (error) {
    if (!(error instanceof InviteRefused)) throw error;
    refuse(ctx, html, error.status, error.message);
  }
}

export function invitesPages(services: Services): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/join' && !ctx.path.startsWith('/join/')) return next();
    ctx.state.route = ROUTE;
    try {
      await answer(services, ctx);
    } finally {
      // The request's log line names its path: never with the secret in it.
      ctx.path = ROUTE;
    }
  };
}
