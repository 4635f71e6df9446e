// Links as GitBook's spec 0.181 shapes them: ContentReferenceUsage (a target, its status, the pages linking there),
// ContentLocation (a page, a file or a URL) and ContentReferencesStats; and the fields that list them:
// `Space.links` (the current content), `ChangeRequest.pageLinks` and `ChangeRequest.fileBacklinks`.

import { ChangeRequest } from '../change-requests/types.js';
import type { FileVersion, Revision as RevisionRow, Space as SpaceRow } from '../generated/prisma/client.js';
import { builder, restEnum } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { listArgs, NextPage } from '../kernel/list-fields.js';
import { batchedRowById } from '../kernel/rows.js';
import { Organization } from '../organizations/types.js';
import { fileOf, type PageTree } from '../revisions/read.js';
import { type RevisionContent, RevisionFile, RevisionPage } from '../revisions/types.js';
import { Space } from '../spaces/types.js';
import { fileBacklinks, type LinkStatus, type LinkUsage, type LinkUsagePage, linkUsages, type UrlCheck } from './service.js';

/** Where a location sits: the space and revision it is read in. */
interface Place {
  space: SpaceRow;
  content: RevisionContent;
  tree: PageTree;
}

type Location =
  | { kind: 'url'; url: string }
  | { kind: 'page'; place: Place; pageId: string }
  | { kind: 'file'; place: Place; file: FileVersion };

const LinkStatusEnum = restEnum(
  'ContentReferenceStatus',
  { ok: 'ok', broken: 'broken', inApp: 'in-app' },
  'ok: an external URL not found broken (yet); broken: the page or file is not in the revision, or the URL’s check failed; in-app: it is.',
);
const toEnum = { ok: 'ok', broken: 'broken', 'in-app': 'inApp' } as const;
const fromEnum = { ok: 'ok', broken: 'broken', inApp: 'in-app' } as const satisfies Record<string, LinkStatus>;

const LinkCheckStatusEnum = builder.enumType('LinkCheckStatus', {
  description: 'ok: it answered (2xx, or 401/403/429); broken: another status, or no answer; skipped: not a public address.',
  values: ['ok', 'broken', 'skipped'] as const,
});

const LinkCheck = builder.objectRef<UrlCheck>('LinkCheck').implement({
  description: 'The last check of an external URL, by a background job (HEAD, then GET; redirects followed).',
  fields: (t) => ({
    status: t.expose('status', { type: LinkCheckStatusEnum, nullable: true, description: 'Null until the first check.' }),
    httpStatus: t.exposeInt('httpStatus', { nullable: true, description: 'The final status, after redirects.' }),
    error: t.exposeString('error', { nullable: true, description: 'Why no answer came (TIMEOUT, NETWORK, PRIVATE_ADDRESS, ...).' }),
    checkedAt: t.expose('checkedAt', { type: 'DateTime', nullable: true }),
  }),
});

const RelationEnum = builder.enumType('ContentReferenceRelation', {
  description: 'reference: the content links to the target (the only relation links make).',
  values: ['reference', 'dependsOn'] as const,
});

const organizationOf = (place: Place, ctx: Context) => batchedRowById(ctx, 'Organization', place.space.organizationId);

const LocationUrl = builder.objectRef<Extract<Location, { kind: 'url' }>>('ContentLocationURL').implement({
  fields: (t) => ({ kind: t.exposeString('kind'), url: t.exposeString('url') }),
});

const LocationPage = builder.objectRef<Extract<Location, { kind: 'page' }>>('ContentLocationPage').implement({
  description: 'A page of a revision of a space.',
  fields: (t) => ({
    kind: t.exposeString('kind'),
    organization: t.field({ type: Organization, resolve: ({ place }, _args, ctx) => organizationOf(place, ctx) as never }),
    space: t.field({ type: Space, resolve: ({ place }) => place.space }),
    page: t.field({
      type: RevisionPage,
      resolve: ({ place, pageId }) => ({ content: place.content, node: place.tree.byId.get(pageId)!, format: null }),
    }),
  }),
});

const LocationFile = builder.objectRef<Extract<Location, { kind: 'file' }>>('ContentLocationFile').implement({
  description: 'A file of a revision of a space.',
  fields: (t) => ({
    kind: t.exposeString('kind'),
    organization: t.field({ type: Organization, resolve: ({ place }, _args, ctx) => organizationOf(place, ctx) as never }),
    space: t.field({ type: Space, resolve: ({ place }) => place.space }),
    file: t.field({ type: RevisionFile, resolve: ({ place, file }) => ({ content: place.content, file }) }),
  }),
});

const ContentLocation = builder.unionType('ContentLocation', {
  description: 'Where content is, by `kind`: a page, a file, a URL.',
  types: [LocationPage, LocationFile, LocationUrl],
  resolveType: (location) => ({ page: LocationPage, file: LocationFile, url: LocationUrl })[location.kind],
});

/** The pages of the revision among these ids (a page of a parent cycle, in no tree, is left out). */
const pagesAt = (place: Place, pageIds: readonly string[]): Location[] =>
  pageIds.filter((pageId) => place.tree.byId.has(pageId)).map((pageId) => ({ kind: 'page', place, pageId }));

interface ResolvedUsage {
  place: Place;
  usage: LinkUsage;
  /** The file an in-app file link targets. */
  file?: FileVersion;
}

const ContentReferenceUsage = builder.objectRef<ResolvedUsage>('ContentReferenceUsage').implement({
  description: 'A link target and the pages of the revision that link to it.',
  fields: (t) => ({
    status: t.field({ type: LinkStatusEnum, resolve: ({ usage }) => toEnum[usage.status] }),
    relation: t.field({ type: RelationEnum, resolve: () => 'reference' as const }),
    targetReference: t.field({
      type: ContentLocation,
      description: 'The page or file linked to; the address as written when it is broken or a URL.',
      resolve: ({ place, usage, file }): Location => {
        if (usage.status === 'broken') return { kind: 'url', url: usage.href };
        if (usage.kind === 'page') return { kind: 'page', place, pageId: usage.key };
        if (file) return { kind: 'file', place, file };
        return { kind: 'url', url: usage.key };
      },
    }),
    check: t.field({
      type: LinkCheck,
      nullable: true,
      description: 'An external URL’s last check; null for pages and files, and for URLs too long to check (over 2,048 characters).',
      resolve: ({ usage }) => usage.check,
    }),
    locationReferences: t.field({
      type: [ContentLocation],
      description: 'The pages where a link to the target is.',
      resolve: ({ place, usage }) => pagesAt(place, usage.sources),
    }),
  }),
});

const BrokenStats = builder.objectRef<{ total: number }>('ContentReferencesBrokenStats').implement({
  fields: (t) => ({ total: t.exposeInt('total', { description: 'Targets whose links are broken.' }) }),
});

const ContentReferencesStats = builder.objectRef<{ total: number; broken: { total: number } }>('ContentReferencesStats').implement({
  description: 'Totals over all the targets listed, whatever the status filter.',
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'Link targets.' }),
    broken: t.field({ type: BrokenStats, resolve: (stats) => stats.broken }),
  }),
});

interface UsageList {
  items: ResolvedUsage[];
  next?: { page: string };
  count: number;
  stats: { total: number; broken: { total: number } };
}

/**
 * The list with the files its in-app file links target, read in one batch before any location resolves: every
 * location then resolves at once, so the fields below them batch together whatever order the reads finish in.
 */
async function usageList(ctx: Context, place: Place, found: LinkUsagePage): Promise<UsageList> {
  const items = await Promise.all(
    found.items.map(async (usage): Promise<ResolvedUsage> => {
      if (usage.kind !== 'file' || usage.status === 'broken') return { place, usage };
      const file = await fileOf(ctx, { revision: place.content.revision, fileId: usage.key });
      return { place, usage, file: file ?? undefined };
    }),
  );
  return { items, next: found.next, count: found.count, stats: found.stats };
}

const ContentReferenceUsageList = builder.objectRef<UsageList>('ContentReferenceUsageList').implement({
  fields: (t) => ({
    items: t.field({ type: [ContentReferenceUsage], resolve: (list) => list.items }),
    next: t.expose('next', { type: NextPage, nullable: true }),
    count: t.exposeInt('count', { description: 'Targets matching the filter, across all pages.' }),
    stats: t.field({ type: ContentReferencesStats, resolve: (list) => list.stats }),
  }),
});

const ContentLocationList = builder
  .objectRef<{ items: Location[]; next?: { page: string }; count: number }>('ContentLocationList')
  .implement({
    fields: (t) => ({
      items: t.field({ type: [ContentLocation], resolve: (list) => list.items }),
      next: t.expose('next', { type: NextPage, nullable: true }),
      count: t.exposeInt('count', { description: 'Total number of items in the list, across all pages.' }),
    }),
  });

const linkArgs = builder.args((t) => ({ ...listArgs, status: t.field({ type: LinkStatusEnum, required: false }) }));

async function placeOf(
  ctx: Context,
  space: SpaceRow,
  revisionId: string,
  tree?: PageTree,
): Promise<Omit<Place, 'tree'> & { tree?: PageTree }> {
  const revision = await batchedRowById<RevisionRow>(ctx, 'Revision', revisionId);
  return { space, content: { revision, metadata: true }, tree };
}

builder.objectField(Space, 'links', (t) =>
  t.field({
    type: ContentReferenceUsageList,
    description: 'The link targets of the current content, with their status and the pages that link to each.',
    args: linkArgs,
    resolve: async (space, args, ctx) => {
      const { content } = await placeOf(ctx, space, space.revisionId!);
      const found = await linkUsages(ctx, content.revision, { ...args, status: args.status ? fromEnum[args.status] : null });
      return usageList(ctx, { space, content, tree: found.tree }, found);
    },
  }),
);

builder.objectField(ChangeRequest, 'pageLinks', (t) =>
  t.field({
    type: ContentReferenceUsageList,
    description: 'The link targets of one page of the change request’s content.',
    args: { ...linkArgs, pageId: t.arg.string({ required: true }) },
    resolve: async (changeRequest, args, ctx) => {
      const space = await batchedRowById<SpaceRow>(ctx, 'Space', changeRequest.spaceId);
      const { content } = await placeOf(ctx, space, changeRequest.revisionId);
      const found = await linkUsages(ctx, content.revision, {
        ...args,
        pageId: String(args.pageId),
        status: args.status ? fromEnum[args.status] : null,
      });
      if (!found.tree.byId.has(String(args.pageId))) throw notFound(`No page ${args.pageId} in the change request.`);
      return usageList(ctx, { space, content, tree: found.tree }, found);
    },
  }),
);

builder.objectField(ChangeRequest, 'fileBacklinks', (t) =>
  t.field({
    type: ContentLocationList,
    description: 'The pages of the change request’s content that link to the file or show it.',
    args: { ...listArgs, fileId: t.arg.string({ required: true }) },
    resolve: async (changeRequest, args, ctx) => {
      const space = await batchedRowById<SpaceRow>(ctx, 'Space', changeRequest.spaceId);
      const { content } = await placeOf(ctx, space, changeRequest.revisionId);
      const file = await fileOf(ctx, { revision: content.revision, fileId: String(args.fileId) });
      if (!file) throw notFound(`No file ${args.fileId} in the change request.`);
      const found = await fileBacklinks(ctx, content.revision, file, args);
      const place = { space, content, tree: found.tree };
      return { items: pagesAt(place, found.items), next: found.next, count: found.count };
    },
  }),
);
