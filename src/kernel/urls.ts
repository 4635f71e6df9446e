// Links returned in `urls`: API locations under PUBLIC_URL, application links under APP_URL, published sites under
// SITES_URL (when they have no hostname or proxy of their own).
import type { Context } from './context.js';

export const apiUrl = (ctx: Pick<Context, 'config'>, path: string) => `${ctx.config.publicUrl}/v1/${path}`;
export const appUrl = (ctx: Pick<Context, 'config'>, path: string) => `${ctx.config.appUrl}/${path}`;
