// The changes of sites that record events (src/kernel/events.ts), with their labels.
import type { Site } from '../generated/prisma/client.js';
import type { ChangeEvent } from '../kernel/events.js';
import type { publishingAuthActions } from '../publishing-auth/events.js';

export const sitesActions = {
  site_created: 'Site created',
  site_updated: 'Site updated',
  site_visibility_updated: 'Site visibility updated',
  site_hostname_set: 'Site hostname set',
  site_hostname_removed: 'Site hostname removed',
  site_adaptive_schema_updated: 'Site adaptive schema updated',
  site_published: 'Site published',
  site_unpublished: 'Site unpublished',
  site_deleted: 'Site deleted',
} as const;

/** An event about the site: its own, and its visitor authentication's. */
export const siteEvent = (
  action: keyof typeof sitesActions | keyof typeof publishingAuthActions,
  site: Pick<Site, 'id' | 'organizationId' | 'title'>,
  payload?: Record<string, unknown>,
): ChangeEvent => ({
  action,
  organizationId: site.organizationId,
  target: { type: 'site', id: site.id, label: site.title },
  ...(payload && { payload }),
});
