// The content of a revision as the API shows it: the Revision (its page tree, files and history), its pages (with
// their paths and subpages, and a body in either format when asked for one page) and its files (with signed download
// URLs); a space's current content, `Space.content`, which `ChangeRequest.content` (src/change-requests) mirrors, any
// revision of the space, `Space.revision(id)`, and any document of the space, `Space.document(id)`.
import { downloadUrl } from '../files/download.js';
import type { Revision as RevisionRow } from '../generated/prisma/client.js';
import { PageType, RevisionType } from '../generated/prisma/enums.js';
import { builder, prismaEnum } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { etagField } from '../kernel/etags.js';
import { listArgs, listOf } from '../kernel/list-fields.js';
import { batchedRowById } from '../kernel/rows.js';
import { appUrl } from '../kernel/urls.js';
import { Space } from '../spaces/types.js';
import { ContentLayout } from './addresses.js';
import { documentToMarkdown, markdownToDocument, storedAddressOf } from './document.js';
import { FILE_ID_PREFIX, PAGE_ID_PREFIX } from './markdown.js';
import { bodyOf, documentOf, fileList, fileOf, filesOf, type PageBody, type PageNode, treeOf } from './read.js';
import { type FileContent, MAIN } from './store.js';

/** A revision as the API shows it; `metadata: false` (GitBook's query parameter) leaves git metadata out. */
export interface RevisionContent {
  revision: RevisionRow;
  metadata: boolean;
  /**
   * Whether its pages have the addresses of the space's current content in the app, not addresses under the revision's;
   * by default, a revision of the primary line's do (a past one's only when read as `Space.revision`).
   */
  live?: boolean;
}

type PageFormat = 'document' | 'markdown';

/** A page of a revision; `format` is set on the page that was asked for by id or path, whose body is then shown. */
interface PageView {
  content: RevisionContent;
  node: PageNode;
  format: PageFormat | null;
}

/** A file of a revision: a version of it, or a file a batch just inserted. */
interface FileView {
  content: RevisionContent;
  file: FileContent;
}

const RevisionTypeEnum = prismaEnum('RevisionType', RevisionType, 'How the revision came about.');
const PageTypeEnum = prismaEnum('RevisionPageType', PageType, 'document: a page of content; group: a heading of pages; link; computed.');
const PageFormatEnum = builder.enumType('RevisionPageFormat', {
  description: 'The format of a page’s body: GitBook’s JSON document, or markdown.',
  values: ['document', 'markdown'] as const,
});

const GitBlob = builder.objectRef<{ oid: string; path: string }>('RevisionGitBlob').implement({
  description: 'Where Git Sync keeps a page or a file.',
  fields: (t) => ({ oid: t.exposeString('oid'), path: t.exposeString('path') }),
});
const gitBlobOf = (metadata: boolean, row: { gitOid: string | null; gitPath: string | null }) =>
  metadata && row.gitOid && row.gitPath ? { oid: row.gitOid, path: row.gitPath } : null;

const AppUrls = builder.objectRef<{ app: string }>('RevisionAppUrls').implement({
  fields: (t) => ({ app: t.exposeString('app') }),
});

/** The app's address of a revision, and of a page in it (the current content's pages have their own). */
const revisionAppUrl = (ctx: Context, revision: RevisionRow) => appUrl(ctx, `s/${revision.spaceId}/~/revisions/${revision.id}`);
const pageAppUrl = (ctx: Context, { revision, live }: RevisionContent, path: string) =>
  (live ?? revision.line === MAIN) ? appUrl(ctx, `s/${revision.spaceId}/${path}`) : `${revisionAppUrl(ctx, revision)}/${path}`;

interface Layout {
  width: string;
  cover: boolean;
  coverSize: string;
  coverMask: string;
  title: boolean;
  description: boolean;
  tableOfContents: boolean;
  outline: boolean;
  pagination: boolean;
  metadata: boolean;
  tags: boolean;
  actions: boolean;
  anchors: boolean;
}

/** GitBook's defaults: a page shows everything, at the default width, with a hero cover. */
const DEFAULT_LAYOUT: Layout = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
};
const LAYOUT_VALUES: Partial<Record<keyof Layout, readonly string[]>> = {
  width: ['default', 'wide'],
  coverSize: ['hero', 'full', 'background'],
  coverMask: ['none', 'radial'],
};

/** The stored layout options over the defaults; a value of the wrong type or out of its enumeration is the default. */
function layoutOf(stored: unknown): Layout {
  const given = stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  const layout = { ...DEFAULT_LAYOUT };
  for (const key of Object.keys(DEFAULT_LAYOUT) as (keyof Layout)[]) {
    const value = given[key];
    const allowed = LAYOUT_VALUES[key];
    if (typeof value === typeof DEFAULT_LAYOUT[key] && (!allowed || allowed.includes(value as string))) {
      (layout as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return layout;
}

const PageLayout = builder.objectRef<Layout>('RevisionPageLayout').implement({
  description: 'What a document page shows.',
  fields: (t) => ({
    width: t.exposeString('width', { description: 'default or wide.' }),
    cover: t.exposeBoolean('cover'),
    coverSize: t.exposeString('coverSize', { description: 'hero, full or background.' }),
    coverMask: t.exposeString('coverMask', { description: 'none or radial.' }),
    title: t.exposeBoolean('title'),
    description: t.exposeBoolean('description'),
    tableOfContents: t.exposeBoolean('tableOfContents'),
    outline: t.exposeBoolean('outline'),
    pagination: t.exposeBoolean('pagination'),
    metadata: t.exposeBoolean('metadata'),
    tags: t.exposeBoolean('tags'),
    actions: t.exposeBoolean('actions'),
    anchors: t.exposeBoolean('anchors'),
  }),
});

/** A page's body as GitBook's JSON document: the stored one, else its markdown converted. */
const asDocument = (body: PageBody | null, title: string) => body?.document ?? markdownToDocument(body?.markdown ?? '', title);

/**
 * A page's body in a format: what is stored in it, else converted from what is stored in the other. In markdown, its
 * references to pages and files are addresses relative to its file in the tree it was found in (addresses.ts); the
 * files are read only when it refers to one.
 */
async function bodyIn(ctx: Context, view: PageView, format: PageFormat) {
  const { page } = view.node;
  if (view.format !== format || page.type !== 'document') return null;
  const { revision } = view.content;
  const body = await bodyOf(ctx, { revision, pageId: page.pageId });
  if (format === 'document') return asDocument(body, page.title);
  const markdown = body?.markdown ?? (body?.document ? documentToMarkdown(body.document, storedAddressOf) : '');
  if (!markdown.includes(PAGE_ID_PREFIX) && !markdown.includes(FILE_ID_PREFIX)) return markdown;
  const tree = await treeOf(ctx, revision);
  const files = markdown.includes(FILE_ID_PREFIX) ? await filesOf(ctx, revision) : null;
  return new ContentLayout(tree, files).relativeLinks(markdown, page.pageId);
}

/** Fields GitBook gives pages of some types only; the others leave them out. */
const ofTypes =
  <T>(types: readonly string[], value: (view: PageView, ctx: Context) => T) =>
  (view: PageView, _args: unknown, ctx: Context): T | null =>
    types.includes(view.node.page.type) ? value(view, ctx) : null;
const DOCUMENT = ['document'];
const WITH_ADDRESS = ['document', 'group', 'computed'];
const WITH_SUBPAGES = ['document', 'group'];

const KIND: Record<string, string> = { document: 'sheet', group: 'group', link: 'link' };

const NO_META_LINKS = { canonical: null, alternates: [] } as const;

const PageMetaLinks = builder.objectRef<{ canonical: null; alternates: readonly never[] }>('RevisionPageMetaLinks').implement({
  description:
    'The links a page’s <head> declares: GitBook’s page metadata. This server stores none for a page (neither its ' +
    'editor nor front matter sets them), so a site shows the page’s own address as canonical and no alternates.',
  fields: (t) => ({
    canonical: t.field({
      type: 'JSON',
      nullable: true,
      description: 'A content reference to a page or a URL.',
      resolve: (links) => links.canonical,
    }),
    alternates: t.field({ type: ['JSON'], description: 'Content references to pages or URLs.', resolve: (links) => links.alternates }),
  }),
});

export const RevisionPage = builder.objectRef<PageView>('RevisionPage');
RevisionPage.implement({
  description: 'A page of a revision, with its subpages. Fields a type of page does not have are null.',
  fields: (t) => ({
    id: t.id({ resolve: (view) => view.node.page.pageId }),
    title: t.string({ resolve: (view) => view.node.page.title }),
    emoji: t.string({ nullable: true, resolve: (view) => view.node.page.emoji }),
    icon: t.string({ nullable: true, resolve: (view) => view.node.page.icon }),
    createdAt: t.field({ type: 'DateTime', resolve: (view) => view.node.page.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (view) => view.node.page.updatedAt }),
    kind: t.string({
      nullable: true,
      description: 'GitBook’s former name of the type (sheet, group, link), which its spec still requires.',
      resolve: (view) => KIND[view.node.page.type] ?? null,
    }),
    type: t.field({ type: PageTypeEnum, resolve: (view) => view.node.page.type }),
    urls: t.field({
      type: AppUrls,
      nullable: true,
      resolve: ofTypes(WITH_ADDRESS, (view, ctx) => ({ app: pageAppUrl(ctx, view.content, view.node.path!) })),
    }),
    slug: t.string({
      nullable: true,
      description: 'The page’s slug in its parent.',
      resolve: ofTypes(WITH_ADDRESS, (view) => view.node.page.slug),
    }),
    path: t.string({
      nullable: true,
      description: 'The slugs of the page and its ancestors: `parent/child`.',
      resolve: ofTypes(WITH_ADDRESS, (view) => view.node.path),
    }),
    description: t.string({ nullable: true, resolve: ofTypes(DOCUMENT, (view) => view.node.page.description) }),
    documentId: t.string({
      nullable: true,
      description:
        'Names the page’s document as this revision holds it (`Space.document`): the same in every revision where the page is unchanged.',
      resolve: ofTypes(DOCUMENT, async (view, ctx) => (await treeOf(ctx, view.content.revision)).documentIds.get(view.node.page.pageId)),
    }),
    pages: t.field({
      type: [RevisionPage],
      nullable: true,
      description: 'Subpages, in order.',
      resolve: ofTypes(WITH_SUBPAGES, (view) => view.node.children.map((node) => ({ content: view.content, node, format: null }))),
    }),
    git: t.field({
      type: GitBlob,
      nullable: true,
      resolve: ofTypes(DOCUMENT, (view) => gitBlobOf(view.content.metadata, view.node.page)),
    }),
    layout: t.field({ type: PageLayout, nullable: true, resolve: ofTypes(DOCUMENT, (view) => layoutOf(view.node.page.layout)) }),
    cover: t.field({ type: 'JSON', nullable: true, resolve: ofTypes(DOCUMENT, (view) => view.node.page.cover) }),
    hidden: t.boolean({ nullable: true, resolve: ofTypes(['document', 'group', 'link'], (view) => view.node.page.hidden) }),
    noIndex: t.boolean({ nullable: true, resolve: ofTypes(WITH_SUBPAGES, (view) => view.node.page.noIndex) }),
    noRobotsIndex: t.boolean({ nullable: true, resolve: ofTypes(WITH_SUBPAGES, (view) => view.node.page.noRobotsIndex) }),
    tags: t.field({ type: ['JSON'], nullable: true, description: 'Page tags: none on this server.', resolve: ofTypes(DOCUMENT, () => []) }),
    target: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Where a link page leads: a content reference.',
      resolve: ofTypes(['link'], (view) => view.node.page.target ?? { kind: 'url', url: '' }),
    }),
    href: t.string({
      nullable: true,
      description: 'The address of a link page that leads to a URL.',
      resolve: ofTypes(['link'], (view) => {
        const target = view.node.page.target as { kind?: string; url?: string } | null;
        return target?.kind === 'url' && target.url ? target.url : null;
      }),
    }),
    computed: t.field({ type: 'JSON', nullable: true, resolve: ofTypes(['document', 'computed'], (view) => view.node.page.computed) }),
    metaLinks: t.field({ type: PageMetaLinks, description: 'The page’s canonical and alternate links.', resolve: () => NO_META_LINKS }),
    markdown: t.string({
      nullable: true,
      description: 'The body as markdown, on a document page asked for with format markdown.',
      resolve: (view, _args, ctx) => bodyIn(ctx, view, 'markdown') as Promise<string | null>,
    }),
    document: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The body as GitBook’s JSON document, on a document page asked for with format document (the default).',
      resolve: (view, _args, ctx) => bodyIn(ctx, view, 'document'),
    }),
  }),
});

const FileDimensions = builder.objectRef<{ width: number; height: number }>('RevisionFileDimensions').implement({
  fields: (t) => ({ width: t.exposeInt('width'), height: t.exposeInt('height') }),
});

export const RevisionFile = builder.objectRef<FileView>('RevisionFile').implement({
  description: 'A file of a revision (an image, an attachment).',
  fields: (t) => ({
    id: t.id({ resolve: ({ file }) => file.fileId }),
    name: t.string({ resolve: ({ file }) => file.name }),
    contentType: t.string({ resolve: ({ file }) => file.contentType }),
    downloadURL: t.string({
      description: 'A signed address of the bytes, valid for DOWNLOAD_LINK_MINUTES (15 by default), and while its space is not deleted.',
      resolve: ({ content, file }, _args, ctx) => downloadUrl(ctx, file, content.revision.spaceId),
    }),
    size: t.int({ description: 'In bytes.', resolve: ({ file }) => file.size }),
    dimensions: t.field({
      type: FileDimensions,
      nullable: true,
      description: 'Of an image, in pixels.',
      resolve: ({ file }) => (file.width !== null && file.height !== null ? { width: file.width, height: file.height } : null),
    }),
    git: t.field({ type: GitBlob, nullable: true, resolve: ({ content, file }) => gitBlobOf(content.metadata, file) }),
  }),
});
const RevisionFileList = listOf('RevisionFile', RevisionFile);

const RevisionGit = builder.objectRef<RevisionRow>('RevisionGit').implement({
  description: 'The Git commit a revision came from or went to (Git Sync).',
  fields: (t) => ({
    oid: t.string({ resolve: (revision) => revision.gitOid! }),
    message: t.string({ resolve: (revision) => revision.gitMessage ?? '' }),
    createdByGitBook: t.exposeBoolean('gitCreatedByGitBook'),
    ref: t.exposeString('gitRef', { nullable: true }),
  }),
});

const formatArg = builder.args((t) => ({
  format: t.field({ type: PageFormatEnum, defaultValue: 'document', description: 'The format of the page’s body.' }),
}));

export const Revision = builder.objectRef<RevisionContent>('Revision').implement({
  description: 'A state of a space’s content: its page tree and files.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'revision' }),
    id: t.id({ resolve: ({ revision }) => revision.id }),
    // A revision never changes: its id is its tag, the one a content write's If-Match names (README, "No lost updates").
    etag: t.string(etagField(({ revision }: RevisionContent) => revision.id)),
    parents: t.stringList({ description: 'Ids of the revisions it follows.', resolve: ({ revision }) => revision.parents }),
    type: t.field({ type: RevisionTypeEnum, resolve: ({ revision }) => revision.type }),
    createdAt: t.field({ type: 'DateTime', resolve: ({ revision }) => revision.createdAt }),
    pages: t.field({
      type: [RevisionPage],
      description: 'Top-level pages, each with its subpages.',
      resolve: async (content, _args, ctx) => (await treeOf(ctx, content.revision)).roots.map((node) => ({ content, node, format: null })),
    }),
    allFiles: t.field({
      type: [RevisionFile],
      description: 'Every file, by name.',
      resolve: async (content, _args, ctx) => (await filesOf(ctx, content.revision)).map((file) => ({ content, file })),
    }),
    files: t.field({
      type: RevisionFileList,
      description: 'The files by name, a page at a time.',
      args: listArgs,
      resolve: async (content, args, ctx) => {
        const list = await fileList(ctx, content.revision, args);
        return { ...list, items: list.items.map((file) => ({ content, file })) };
      },
    }),
    file: t.field({
      type: RevisionFile,
      args: { id: t.arg.id({ required: true }) },
      resolve: async (content, args, ctx) => {
        const file = await fileOf(ctx, { revision: content.revision, fileId: args.id });
        if (!file) throw notFound('File');
        return { content, file };
      },
    }),
    page: t.field({
      type: RevisionPage,
      description: 'A page by id, with its body.',
      args: { id: t.arg.id({ required: true }), ...formatArg },
      resolve: async (content, args, ctx) => {
        const node = (await treeOf(ctx, content.revision)).byId.get(args.id);
        if (!node) throw notFound('Page');
        return { content, node, format: args.format ?? 'document' };
      },
    }),
    pageDocument: t.field({
      type: 'JSON',
      description: 'A document page’s body as GitBook’s JSON document.',
      args: { id: t.arg.id({ required: true }) },
      resolve: async (content, args, ctx) => {
        const node = (await treeOf(ctx, content.revision)).byId.get(args.id);
        if (!node) throw notFound('Page');
        // Groups, links and computed pages have no body.
        if (node.page.type !== 'document') throw notFound('Document');
        return asDocument(await bodyOf(ctx, { revision: content.revision, pageId: args.id }), node.page.title);
      },
    }),
    pageByPath: t.field({
      type: RevisionPage,
      description: 'A document or group page by path (`parent/child`), with its body.',
      args: { path: t.arg.string({ required: true }), ...formatArg },
      resolve: async (content, args, ctx) => {
        const path = args.path.replace(/^\/+|\/+$/g, '');
        const node = (await treeOf(ctx, content.revision)).byPath.get(path);
        if (!node) throw notFound('Page');
        return { content, node, format: args.format ?? 'document' };
      },
    }),
    reusableContents: t.field({ type: ['JSON'], description: 'Reusable contents: none on this server.', resolve: () => [] }),
    tags: t.field({ type: ['JSON'], description: 'Tags available to pages: none on this server.', resolve: () => [] }),
    git: t.field({
      type: RevisionGit,
      nullable: true,
      resolve: ({ revision, metadata }) => (metadata && revision.gitOid ? revision : null),
    }),
    urls: t.field({ type: AppUrls, resolve: ({ revision }, _args, ctx) => ({ app: revisionAppUrl(ctx, revision) }) }),
  }),
});

/** The arguments of a `content` field: GitBook's `metadata` and `computed` parameters of its content reads. */
export const contentArgs = builder.args((t) => ({
  metadata: t.boolean({ description: 'false leaves git metadata out.' }),
  computed: t.boolean({ description: 'Accepted for GitBook’s clients: this server has no computed content.' }),
}));

/** What a `content` field answers (the space's, a change request's): the revision `revisionId`, read with its peers. */
export const contentOf = async (
  ctx: Context,
  revisionId: string,
  args: { metadata?: boolean | null },
  live?: boolean,
): Promise<RevisionContent> => ({
  revision: await batchedRowById<RevisionRow>(ctx, 'Revision', revisionId),
  metadata: args.metadata ?? true,
  live,
});

// Whoever reads the space reads its content, its history and its documents.
builder.objectFields(Space, (t) => ({
  content: t.field({
    type: Revision,
    description: 'The space’s current content (its active revision).',
    args: contentArgs,
    resolve: (space, args, ctx) => contentOf(ctx, space.revisionId!, args),
  }),
  revision: t.field({
    type: Revision,
    description: 'Any revision of the space: of its primary content or of a change request, current or past.',
    args: { id: t.arg.id({ required: true }), ...contentArgs },
    resolve: async (space, args, ctx) => {
      const content = await contentOf(ctx, args.id, args, args.id === space.revisionId);
      // Another space's revision is not found, as an unknown id is: an id tells nothing of a space one may not see.
      if (content.revision.spaceId !== space.id) throw notFound('Revision');
      return content;
    },
  }),
  document: t.field({
    type: 'JSON',
    description: 'A document page’s body as GitBook’s JSON document, by its `documentId`, in any revision of the space.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (space, args, ctx) => {
      const document = await documentOf(ctx, { spaceId: space.id, documentId: args.id });
      if (!document) throw notFound('Document');
      return asDocument(document, document.title);
    },
  }),
}));
