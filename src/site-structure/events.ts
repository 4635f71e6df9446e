// The changes of a site's structure (its site spaces and sections) that record events (src/kernel/events.ts), with
// their labels.
import type { Site, SiteSection, SiteSpace } from '../generated/prisma/client.js';
import type { ChangeEvent } from '../kernel/events.js';

export const siteStructureActions = {
  site_space_added: 'Space added to site',
  site_space_updated: 'Site space updated',
  site_space_moved: 'Site space moved',
  site_space_removed: 'Space removed from site',
  site_section_added: 'Site section added',
  site_section_updated: 'Site section updated',
  site_section_moved: 'Site section moved',
  site_section_removed: 'Site section removed',
} as const;

type Action = keyof typeof siteStructureActions;

/** An event about a site space, labelled with its path: about its space too (what webhooks limited to spaces read). */
export const siteSpaceEvent = (
  action: Action,
  site: Pick<Site, 'id' | 'organizationId'>,
  siteSpace: Pick<SiteSpace, 'id' | 'path' | 'spaceId'>,
  payload: Record<string, unknown> = {},
): ChangeEvent => ({
  action,
  organizationId: site.organizationId,
  target: { type: 'site-space', id: siteSpace.id, label: siteSpace.path },
  spaceId: siteSpace.spaceId,
  payload: { site: site.id, space: siteSpace.spaceId, ...payload },
});

/** An event about a site section, labelled with its title. */
export const siteSectionEvent = (
  action: Action,
  site: Pick<Site, 'id' | 'organizationId'>,
  section: Pick<SiteSection, 'id' | 'title'>,
  payload: Record<string, unknown> = {},
): ChangeEvent => ({
  action,
  organizationId: site.organizationId,
  target: { type: 'site-section', id: section.id, label: section.title },
  payload: { site: site.id, ...payload },
});
