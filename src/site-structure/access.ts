// How a request reaches what a site holds: its sections through the site (policies.siteStructure); its site spaces
// through the site and their space too, so a site never shows a member a space they may not see.
import type { Site, SiteSection as SiteSectionRow, SiteSpace as SiteSpaceRow, Space as SpaceRow } from '../generated/prisma/client.js';
import {
  childResource,
  contentLevelAnnotation,
  inheritedLevel,
  type Resource,
  rowOf,
  rowsOfTable,
  spaces,
  visible,
} from '../kernel/authorize.js';
import { policies } from '../kernel/permissions.js';
import { sites } from '../sites/access.js';

export const siteSpaces: Resource<SiteSpaceRow, typeof policies.siteStructure> = {
  kind: 'Site space',
  policy: policies.siteStructure,
  loadMany: rowsOfTable('SiteSpace'),
  level: inheritedLevel(
    'site space level',
    sites,
    (row) => row.siteId,
    async (ctx, rows, levels) => {
      const found = await Promise.all(rows.map((row) => rowOf(ctx, spaces, row.spaceId)));
      await contentLevelAnnotation.annotate(
        ctx,
        found.filter((space): space is SpaceRow => space !== null),
      );
      return Promise.all(
        found.map(async (space, i) => (space && visible(spaces, await contentLevelAnnotation.of(ctx, space)) ? levels[i] : null)),
      );
    },
  ),
  parentKey: 'siteId',
};

export const siteSections = childResource<SiteSectionRow, typeof policies.siteStructure, Site>(sites, {
  kind: 'Site section',
  policy: policies.siteStructure,
  table: 'SiteSection',
  parentKey: 'siteId',
});
