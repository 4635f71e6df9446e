// The GraphQL types of content imports: GitBook's source enum (all its values, though only some are supported) and
// what an import answers; import runs, and an organization's runs (paged, by id).
import type { ImportRun as ImportRunRow } from '../generated/prisma/client.js';
import { authorize, can, rowOf } from '../kernel/authorize.js';
import { builder, restEnum } from '../kernel/builder.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import { apiUrl } from '../kernel/urls.js';
import { rules } from '../kernel/validation.js';
import { Organization } from '../organizations/types.js';
import { sites } from '../sites/access.js';
import { importRuns, organizationImportRuns } from './access.js';
import type { ContentImportOutcome } from './service.js';
import type { ImportedPage } from './task.js';

export const ImportContentSourceEnum = restEnum(
  'ImportContentSource',
  {
    website: 'website',
    docx: 'docx',
    markdown: 'markdown',
    html: 'html',
    zip: 'zip',
    confluence: 'confluence',
    github_wiki: 'github-wiki',
    notion: 'notion',
    google_docs: 'google-docs',
  },
  'Where imported content comes from, as GitBook names it; website, html and markdown are supported.',
);

export const ContentImport = builder.objectRef<ContentImportOutcome>('ContentImport').implement({
  description: 'What an import wrote: one new revision of the change request, and how many pages it read.',
  fields: (t) => ({
    revision: t.exposeID('revision', { description: 'The new revision of the change request.' }),
    importedResources: t.exposeInt('importedResources', { description: 'Pages imported.' }),
    totalResources: t.exposeInt('totalResources', {
      description: 'Pages tried: those imported and those skipped (an HTTP error, not HTML, too large, too slow).',
    }),
  }),
});

export const ImportRunStatusEnum = restEnum(
  'ImportRunStatus',
  { pending: 'pending', in_progress: 'in-progress', completed: 'completed', failed: 'failed', cancelled: 'cancelled' },
  'pending (waiting for a worker), in-progress (reading the website), completed (its pages written), failed (see ' +
    '`reason`) or cancelled.',
);
const ImportRunStatusFilterEnum = restEnum(
  'ImportRunStatusFilter',
  { active: 'active', pending: 'pending', in_progress: 'in-progress', completed: 'completed', failed: 'failed', cancelled: 'cancelled' },
  'A status of import runs, or `active` for both pending and in-progress.',
);
export const ImportRunSourceTypeEnum = builder.enumType('ImportRunSourceType', {
  description: 'website (a site read from its URL) or file (uploaded files, which this service does not take).',
  values: ['website', 'file'] as const,
});
const ImportRunPageTypeEnum = builder.enumType('ImportRunPageType', { values: ['page', 'folder'] as const });
const ImportRunPageStatusEnum = builder.enumType('ImportRunPageStatus', { values: ['complete', 'pending'] as const });

const ImportRunSource = builder.objectRef<Pick<ImportRunRow, 'sourceURL'>>('ImportRunSource').implement({
  description: 'Where a run imports from: always a website here.',
  fields: (t) => ({
    type: t.field({ type: ImportRunSourceTypeEnum, resolve: () => 'website' as const }),
    url: t.exposeString('sourceURL', { description: 'The page the website is read from.' }),
  }),
});

const ImportRunTarget = builder.objectRef<ImportRunRow>('ImportRunTarget').implement({
  description: 'Where a run writes the pages it reads.',
  fields: (t) => ({
    spaceId: t.exposeID('spaceId'),
    changeRequestId: t.exposeID('changeRequestId', {
      description: 'The change request the pages are written into: the one the run was started with, or one created for it.',
    }),
    pageId: t.exposeID('pageId', { nullable: true, description: 'The page they go under; absent: the top level.' }),
  }),
});

const ImportRunPage = builder.objectRef<ImportedPage>('ImportRunPage').implement({
  description: 'A page a run wrote, with the URL it was read from. A run writes its pages at its end, all at once: all are complete.',
  fields: (t) => ({
    pageId: t.exposeID('pageId'),
    sourceURL: t.exposeString('sourceURL'),
    type: t.expose('type', { type: ImportRunPageTypeEnum }),
    status: t.expose('status', { type: ImportRunPageStatusEnum }),
  }),
});

const ImportRunUrls = builder.objectRef<{ location: string }>('ImportRunUrls').implement({
  fields: (t) => ({ location: t.exposeString('location', { description: 'URL of the run in the API.' }) }),
});

export const ImportRun = builder.objectRef<ImportRunRow>('ImportRun').implement({
  access: importRuns,
  description:
    'An import of a website into a change request, run in the background: the site is read as a synchronous import ' +
    'reads it, and its pages written in one revision of the change request when the run completes.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'import-run' }),
    id: t.exposeID('id'),
    status: t.expose('status', { type: ImportRunStatusEnum }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why it failed, when it did.' }),
    source: t.field({ type: ImportRunSource, resolve: (run) => run }),
    target: t.field({ type: ImportRunTarget, resolve: (run) => run }),
    siteId: t.id({
      nullable: true,
      description:
        'The site it is listed under (the one it was started for, or the one site that published its space then), ' +
        'when the viewer can see it.',
      resolve: async (run, _args, ctx) => {
        const site = run.siteId ? await rowOf(ctx, sites, run.siteId) : null;
        return site && (await can(ctx, sites, site, 'view')) ? site.id : null;
      },
    }),
    createdById: t.exposeID('createdById', { description: 'The user who started it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'Moves after each page read while it runs.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true, description: 'When a worker first started it.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When it completed.' }),
    urls: t.field({
      type: ImportRunUrls,
      resolve: (run, _args, ctx) => ({ location: apiUrl(ctx, `org/${run.organizationId}/imports/${run.id}`) }),
    }),
    pages: t.field({
      type: [ImportRunPage],
      description: 'The pages it wrote, in the order they were read; empty until it completes.',
      resolve: (run) => run.pages as unknown as ImportedPage[],
    }),
  }),
});
export const ImportRunList = listOf('ImportRun', ImportRun);

builder.objectFields(Organization, (t) => ({
  importRuns: t.field({
    type: ImportRunList,
    description: 'The organization’s import runs into spaces the viewer can see, newest first.',
    args: {
      ...listArgs,
      space: t.arg.id({ description: 'Only runs into this space.', validate: rules.id }),
      changeRequest: t.arg.id({ description: 'Only runs into this change request.', validate: rules.id }),
      site: t.arg.id({ description: 'Only runs listed under this site, or into a space it publishes.', validate: rules.id }),
      status: t.arg({ type: ImportRunStatusFilterEnum, description: 'Only runs in this status.' }),
    },
    resolve: (org, args, ctx, info) => listPage(organizationImportRuns, ctx, info, org.id, args),
  }),
  importRun: t.field({
    type: ImportRun,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (org, args, ctx) => (await authorize(ctx, importRuns, { id: args.id, parent: org.id }, 'view')).row,
  }),
}));
