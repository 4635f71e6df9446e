// Where sections and site spaces sit below a site's published root, and how their paths are made. A section is at
// `<section path>` unless it is the site's default section (then at the root); a site space is at `<site space path>`
// below its section unless it is its section's (or, without sections, the site's) default. So the default site space
// of the default section is the site's root, and `guides/v2` is the v2 site space of the guides section.
import slugify from '@sindresorhus/slugify';
import type { Site, SiteSection, SiteSpace } from '../generated/prisma/client.js';

export const MAX_PATH = 100;

/** One URL path segment: what a path of a section or site space may hold (no slash, query or fragment). */
export const PATH_PATTERN = /^[A-Za-z0-9._~-]+$/;

/** The relative URL path of a section below the site's root ('' for the default section). */
export function sectionUrlPath(site: Pick<Site, 'defaultSiteSectionId'>, section: Pick<SiteSection, 'id' | 'path'>): string {
  return site.defaultSiteSectionId === section.id ? '' : section.path;
}

/** Whether the site space is the default of its section, or of the site when it is in none. */
export function isDefaultSiteSpace(
  site: Pick<Site, 'defaultSiteSpaceId'>,
  section: Pick<SiteSection, 'defaultSiteSpaceId'> | null,
  siteSpace: Pick<SiteSpace, 'id'>,
): boolean {
  return (section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId) === siteSpace.id;
}

/** The relative URL path of a site space below the site's root ('' for the site's default). */
export function siteSpaceUrlPath(
  site: Pick<Site, 'defaultSiteSectionId' | 'defaultSiteSpaceId'>,
  section: Pick<SiteSection, 'id' | 'path' | 'defaultSiteSpaceId'> | null,
  siteSpace: Pick<SiteSpace, 'id' | 'path'>,
): string {
  const own = isDefaultSiteSpace(site, section, siteSpace) ? '' : siteSpace.path;
  return [section ? sectionUrlPath(site, section) : '', own].filter(Boolean).join('/');
}

/**
 * A path made from a title, unique among `taken`: its slug (or `fallback` when the title has no sluggable character),
 * else the slug suffixed with -2, -3, ... within MAX_PATH characters.
 */
export function uniquePath(title: string, fallback: string, taken: ReadonlySet<string>): string {
  const base = slugify(title).slice(0, MAX_PATH) || fallback;
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX_PATH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
