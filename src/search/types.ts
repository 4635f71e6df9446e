// Search results as GitBook's published spec shapes them (SearchSpaceResult, SearchPageResult, SearchSectionResult), and
// the search fields: `Organization.search` (results grouped by space) and `Space.search` (the pages of one space).
// Both page through the ranked pages: a page of results holds `limit` pages, and each keeps its rank in the whole.
import { z } from 'zod';
import { authorize, organizations } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { listArgs, listOf } from '../kernel/list-fields.js';
import type { ListPage } from '../kernel/lists.js';
import { appUrl } from '../kernel/urls.js';
import { Organization } from '../organizations/types.js';
import { Space } from '../spaces/types.js';
import { type PageHit, type SearchPage, type SectionHit, search } from './service.js';

const ResultTypeEnum = builder.enumType('SearchResultType', {
  description: 'page: matched on the page’s own fields (title, description); section: on the heading or text of a section.',
  values: ['page', 'section'] as const,
});

const SearchUrls = builder.objectRef<{ app: string }>('SearchResultUrls').implement({
  fields: (t) => ({ app: t.exposeString('app', { description: 'Where the result is in the application.' }) }),
});

const pageUrl = (ctx: Context, hit: PageHit) => appUrl(ctx, `s/${hit.spaceId}/${hit.path}`);

const SearchSectionResult = builder.objectRef<{ hit: PageHit; section: SectionHit }>('SearchSectionResult').implement({
  description: 'A section of a page that matched: a heading and the text up to the next heading, or the page’s intro.',
  fields: (t) => ({
    id: t.id({
      description: 'The anchor of its heading; the page’s id for the intro.',
      resolve: ({ hit, section }) => section.anchor ?? hit.pageId,
    }),
    title: t.string({
      description: 'Its heading; the page’s title for the intro.',
      resolve: ({ hit, section }) => section.heading || hit.title,
    }),
    path: t.string({
      description: 'The page’s path, with the heading’s anchor: `guide/install#linux`.',
      resolve: ({ hit, section }) => (section.anchor ? `${hit.path}#${section.anchor}` : hit.path),
    }),
    score: t.float({ resolve: ({ section }) => section.score }),
    resultType: t.field({ type: ResultTypeEnum, resolve: () => 'section' as const }),
    body: t.string({ description: 'An excerpt of its text around what matched.', resolve: ({ section }) => section.excerpt }),
    urls: t.field({
      type: SearchUrls,
      resolve: ({ hit, section }, _args, ctx) => ({ app: section.anchor ? `${pageUrl(ctx, hit)}#${section.anchor}` : pageUrl(ctx, hit) }),
    }),
  }),
});

const SearchAncestor = builder.objectRef<{ title: string }>('SearchPageAncestor').implement({
  fields: (t) => ({ title: t.exposeString('title') }),
});

export const SearchPageResult = builder.objectRef<PageHit>('SearchPageResult').implement({
  description: 'A page that matched, with its best matching sections.',
  fields: (t) => ({
    id: t.id({ resolve: (hit) => hit.pageId }),
    title: t.exposeString('title'),
    description: t.string({ resolve: (hit) => hit.description ?? '' }),
    path: t.exposeString('path', { description: 'The slugs of the page and its ancestors: `parent/child`.' }),
    score: t.exposeFloat('score', { description: 'Relevance: higher is better, unbounded.' }),
    rank: t.exposeInt('rank', { description: 'One-based position in the whole ranked result, whatever the page of results.' }),
    resultType: t.field({ type: ResultTypeEnum, resolve: (hit) => (hit.pageMatch ? 'page' : 'section') }),
    sections: t.field({
      type: [SearchSectionResult],
      description: 'Sections whose heading or text matched, best first (at most 5).',
      resolve: (hit) => hit.sections.map((section) => ({ hit, section })),
    }),
    ancestors: t.field({ type: [SearchAncestor], description: 'From the top-level page to the parent.', resolve: (hit) => hit.ancestors }),
    urls: t.field({ type: SearchUrls, resolve: (hit, _args, ctx) => ({ app: pageUrl(ctx, hit) }) }),
  }),
});
const SearchPageResultList = listOf('SearchPageResult', SearchPageResult);

interface SpaceGroup {
  id: string;
  title: string;
  score: number;
  pages: PageHit[];
}

const SearchSpaceResult = builder.objectRef<SpaceGroup>('SearchSpaceResult').implement({
  description: 'The pages of one space in a page of results.',
  fields: (t) => ({
    type: t.string({ resolve: () => 'space' }),
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    score: t.exposeFloat('score', { description: 'The best score of its pages here.' }),
    pages: t.field({ type: [SearchPageResult], resolve: (group) => group.pages }),
  }),
});
const SearchSpaceResultList = listOf('SearchSpaceResult', SearchSpaceResult);

/** GitBook's limit on a query; an empty one finds nothing, so it is refused too. */
const searchArgs = builder.args((t) => ({
  ...listArgs,
  query: t.string({
    required: true,
    description: 'What to find: words, "a phrase", or, -word. 1 to 512 characters.',
    validate: z.string().min(1).max(512),
  }),
}));

/** A page of results as the list envelope; `count` is the number of pages that match. */
const envelope = <T>(results: SearchPage, items: T[]): ListPage<T> => ({ items, next: results.next, count: results.total });

/** The hits of a page of results grouped by space, spaces in the order of their best hit. */
function bySpace(hits: readonly PageHit[]): SpaceGroup[] {
  const groups = new Map<string, SpaceGroup>();
  for (const hit of hits) {
    const group = groups.get(hit.spaceId);
    if (group) {
      group.pages.push(hit);
      group.score = Math.max(group.score, hit.score);
    } else groups.set(hit.spaceId, { id: hit.spaceId, title: hit.spaceTitle, score: hit.score, pages: [hit] });
  }
  return [...groups.values()];
}

builder.objectField(Organization, 'search', (t) =>
  t.field({
    type: SearchSpaceResultList,
    description:
      'The current content of the organization’s spaces that the viewer can see, ranked: pages of results hold `limit` matching pages, grouped by space.',
    args: searchArgs,
    resolve: async (org, args, ctx, info) => {
      await authorize(ctx, organizations, org.id, 'view');
      const results = await search(ctx, info, 'organization', org.id, args);
      return envelope(results, bySpace(results.hits));
    },
  }),
);

builder.objectField(Space, 'search', (t) =>
  t.field({
    type: SearchPageResultList,
    description: 'The pages of the space’s current content that match, ranked.',
    args: searchArgs,
    resolve: async (space, args, ctx, info) => {
      const results = await search(ctx, info, 'space', space.id, args);
      return envelope(results, results.hits);
    },
  }),
);
