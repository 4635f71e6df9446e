// The changes of site redirects that record events (src/kernel/events.ts), with their labels.
import type { Site, SiteRedirect } from '../generated/prisma/client.js';
import type { ChangeEvent } from '../kernel/events.js';

export const siteRedirectsActions = {
  site_redirect_created: 'Site redirect created',
  site_redirect_updated: 'Site redirect updated',
  site_redirect_deleted: 'Site redirect deleted',
} as const;

/** An event about a redirect of the site, labelled with its source. */
export const siteRedirectEvent = (
  action: keyof typeof siteRedirectsActions,
  site: Pick<Site, 'id' | 'organizationId'>,
  redirect: Pick<SiteRedirect, 'id' | 'source'>,
  payload: Record<string, unknown> = {},
): ChangeEvent => ({
  action,
  organizationId: site.organizationId,
  target: { type: 'site-redirect', id: redirect.id, label: redirect.source },
  payload: { site: site.id, ...payload },
});
