// The changes of share links that record events (src/kernel/events.ts), with their labels. A link's key is a secret:
// no event carries it.
import type { ShareLink, Site } from '../generated/prisma/client.js';
import type { ChangeEvent } from '../kernel/events.js';

export const shareLinksActions = {
  share_link_created: 'Share link created',
  share_link_updated: 'Share link updated',
  share_link_deleted: 'Share link deleted',
} as const;

/** An event about a share link of the site. */
export const shareLinkEvent = (
  action: keyof typeof shareLinksActions,
  site: Pick<Site, 'id' | 'organizationId'>,
  link: Pick<ShareLink, 'id' | 'name'>,
  payload: Record<string, unknown> = {},
): ChangeEvent => ({
  action,
  organizationId: site.organizationId,
  target: { type: 'share-link', id: link.id, label: link.name },
  payload: { site: site.id, ...payload },
});
