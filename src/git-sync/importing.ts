// An import: the tree at the ref (fetched one commit deep) read as GitBook's layout (layout.ts), its files stored, then
// ONE new revision that makes the content what the repository holds, written in one transaction with the operation's
// outcome. A page keeps its id (and an unchanged page its row) when it is at the same place: the same file (its Git
// path, or for a page that has none, where an export writes it), the same group, the same link. A standalone import
// writes its revision on a line of its own, over the primary content, which it leaves as it is. A page's title is its
// summary link's text, else its front matter's title, else its leading heading, else its file's name; its slug comes
// from its file's name (a README's from its folder); its markdown is the file's body, the heading kept, with its
// relative links to the content's pages and files stored as references to them (src/revisions/addresses.ts).

import slugify from '@sindresorhus/slugify';
import { assertPrimaryContentWritable } from '../change-request-reviews/merge-rules.js';
import { sqlOf } from '../change-requests/workflow.js';
import type { SqlRunner } from '../db/client.js';
import { type FileToStore, type StoredFile, storeFiles } from '../files/storage.js';
import type { FileVersion, GitSyncOperation, PageVersion, Prisma, Revision } from '../generated/prisma/client.js';
import type { Services } from '../kernel/context.js';
import { ApiError } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { ASSETS, ContentLayout, filePaths, joinPath, pagePaths, resolveAddress } from '../revisions/addresses.js';
import { buildTree, PAGE_TREE_LEVELS, type PageNode } from '../revisions/read.js';
import {
  type FileContent,
  fileColumns,
  filesAt,
  MAIN,
  type PageContent,
  pageColumns,
  pageContent,
  pagesAt,
  type RevisionChanges,
  sameColumns,
  writeRevision,
} from '../revisions/store.js';
import {
  addressesOf,
  CONFIG_FILE,
  type GitBookConfig,
  LayoutError,
  type PageFile,
  type PageMatter,
  readConfig,
  readPageFile,
  readSummary,
  slugFromPath,
  type TreeEntry,
  titleFromPath,
  treeFromFiles,
} from './layout.js';
import { type FileEntry, GitFailure, type Repository } from './remote.js';

/** How long an import's stored bytes are kept before its revision names them: longer than any import takes. */
const IMPORT_INTENT_MINUTES = 24 * 60;

export const CONTENT_LIMITS = {
  /** Files of the whole repository's tree. */
  entries: 50_000,
  pages: 5_000,
  files: 2_000,
  /** A page's markdown file, as a page's markdown is capped. */
  markdownBytes: 1_000_000,
  fileBytes: 100 * 1024 * 1024,
};

export interface ImportedPage {
  key: string;
  parentKey: string | null;
  type: 'document' | 'group' | 'link';
  title: string;
  slug: string;
  markdown: string | null;
  target: { kind: 'url'; url: string } | null;
  matter: PageMatter;
  gitOid: string | null;
  /** From the content's root. */
  gitPath: string | null;
}

export interface ImportedContent {
  config: GitBookConfig;
  /** Parents before their subpages, siblings in order. */
  pages: ImportedPage[];
  /** Files the pages name, and those under `.gitbook/assets`: paths from the root. */
  assets: { path: string; oid: string }[];
}

/** What a group or a link page, which have no file, hold. */
const WITHOUT_FILE = { markdown: null, matter: {}, gitOid: null, gitPath: null };

const isMarkdown = (file: string) => /\.md$/i.test(file);
/** Symbolic links and submodules are no content. */
const isRegular = (entry: FileEntry) => entry.mode === '100644' || entry.mode === '100755';

/** The UTF-8 text of a blob of the content, within the size of a page. */
async function textOf(repository: Repository, entry: FileEntry, file: string): Promise<string> {
  const bytes = await repository.readBlob(entry.oid);
  if (bytes.byteLength > CONTENT_LIMITS.markdownBytes) {
    throw new LayoutError(`${file} is larger than ${CONTENT_LIMITS.markdownBytes} bytes.`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new LayoutError(`${file} is not UTF-8 text.`);
  }
}

/** The content of a commit's tree, read as GitBook's layout under the project directory. */
export async function readContent(
  repository: Repository,
  files: ReadonlyMap<string, FileEntry>,
  projectDirectory: string,
): Promise<ImportedContent> {
  const configFile = files.get(joinPath(projectDirectory, CONFIG_FILE));
  const config = readConfig(configFile ? await textOf(repository, configFile, CONFIG_FILE) : null);
  const root = joinPath(projectDirectory, config.root);
  const prefix = root ? `${root}/` : '';
  const content = new Map<string, FileEntry>();
  for (const [file, entry] of files) if (file.startsWith(prefix) && isRegular(entry)) content.set(file.slice(prefix.length), entry);

  const summary = content.get(config.summary);
  let entries: TreeEntry[] = summary
    ? readSummary(await textOf(repository, summary, config.summary), config.summary)
    : treeFromFiles([...content.keys()].filter(isMarkdown), config);
  const listed = (list: TreeEntry[]): boolean =>
    list.some((entry) => (entry.kind === 'page' && entry.path === config.readme) || ('children' in entry && listed(entry.children)));
  if (summary && content.has(config.readme) && !listed(entries)) {
    entries = [{ kind: 'page', title: null, path: config.readme, children: [] }, ...entries];
  }

  const pages: ImportedPage[] = [];
  const used = new Set<string>();
  const assets = new Map<string, string>();
  const place = async (list: readonly TreeEntry[], parentKey: string | null, level: number) => {
    const slugs = new Set<string>();
    const unique = (base: string) => {
      let slug = base;
      for (let n = 2; slugs.has(slug); n++) slug = `${base.slice(0, 95)}-${n}`;
      slugs.add(slug);
      return slug;
    };
    const add = (page: ImportedPage) => {
      if (level > PAGE_TREE_LEVELS) throw new LayoutError(`Pages nest at most ${PAGE_TREE_LEVELS} levels deep; "${page.title}" is deeper.`);
      if (pages.length >= CONTENT_LIMITS.pages) throw new LayoutError(`The content has more than ${CONTENT_LIMITS.pages} pages.`);
      pages.push(page);
    };
    for (const entry of list) {
      if (entry.kind === 'group') {
        const slug = unique(slugify(entry.title).slice(0, 100) || 'group');
        const key = `group:${parentKey ?? ''}/${slug}`;
        add({ key, parentKey, type: 'group', title: entry.title.slice(0, 256), slug, target: null, ...WITHOUT_FILE });
        await place(entry.children, key, level + 1);
      } else if (entry.kind === 'link') {
        const slug = unique(slugify(entry.title).slice(0, 100) || 'link');
        const key = `link:${parentKey ?? ''}/${slug}`;
        const target = { kind: 'url' as const, url: entry.url };
        add({ key, parentKey, type: 'link', title: entry.title.slice(0, 256), slug, target, ...WITHOUT_FILE });
      } else if (used.has(entry.path)) {
        // A file is one page: a second mention of it is left out, its subpages kept.
        await place(entry.children, parentKey, level);
      } else {
        used.add(entry.path);
        const file = content.get(entry.path);
        // A summary's link to a missing file: an empty page, as GitBook makes it.
        const read: PageFile = file
          ? readPageFile(await textOf(repository, file, joinPath(root, entry.path)), entry.path)
          : { matter: {}, body: '' };
        const title = (entry.title || read.matter.title || read.heading || titleFromPath(entry.path)).slice(0, 256);
        const slug = unique(slugFromPath(entry.path) ?? (slugify(title).slice(0, 100) || 'page'));
        const key = `file:${entry.path}`;
        add({
          key,
          parentKey,
          type: 'document',
          title,
          slug,
          markdown: read.body,
          target: null,
          matter: read.matter,
          gitOid: file?.oid ?? null,
          gitPath: entry.path,
        });
        for (const address of addressesOf(read.body)) {
          const target = resolveAddress(address, entry.path);
          const found = target !== null && !isMarkdown(target) ? content.get(target) : undefined;
          if (found) assets.set(target!, found.oid);
        }
        await place(entry.children, key, level + 1);
      }
    }
  };
  await place(entries, null, 1);
  for (const [file, entry] of content) if (file.startsWith(`${ASSETS}/`)) assets.set(file, entry.oid);
  if (assets.size > CONTENT_LIMITS.files) throw new LayoutError(`The content names more than ${CONTENT_LIMITS.files} files.`);
  return { config, pages, assets: [...assets].map(([path, oid]) => ({ path, oid })) };
}

/** The key of each page of a revision: where an import finds it (see the header). */
function keysOf(pages: readonly PageVersion[], config: GitBookConfig): Map<string, PageVersion> {
  const tree = buildTree(pages);
  const paths = pagePaths(tree.roots, config.readme);
  const byId = new Map(pages.map((page) => [page.pageId, page]));
  const keys = new Map<string, PageVersion>();
  const walk = (nodes: readonly PageNode[], parentKey: string | null) => {
    for (const { page, children } of nodes) {
      const key = page.type === 'document' ? `file:${paths.get(page.pageId)}` : `${page.type}:${parentKey ?? ''}/${page.slug}`;
      if (!keys.has(key)) keys.set(key, byId.get(page.pageId)!);
      walk(children, key);
    }
  };
  walk(tree.roots, null);
  return keys;
}

/** What a revision writes of a page, when and where aside. */
const PAGE_CONTENT = pageColumns.filter((column) => column !== 'createdAt' && column !== 'updatedAt');
const FILE_CONTENT = fileColumns.filter((column) => column !== 'createdAt');

/**
 * The changes that make the revision's content the imported one. Relative links between the imported files become
 * references to their pages and files (resolved from each page's file, as a write resolves them), so that what an
 * export wrote reads back as it was.
 */
export function changesOf(
  current: { pages: readonly PageVersion[]; files: readonly FileVersion[] },
  imported: ImportedContent,
  stored: ReadonlyMap<string, StoredFile & { oid: string }>,
  now: Date,
): RevisionChanges {
  const paths = filePaths(current.files);
  const files = new Map(current.files.map((file) => [paths.get(file.fileId)!, file]));
  const importedFiles: FileContent[] = [];
  const writtenFiles: FileContent[] = [];
  const keptFiles = new Set<string>();
  for (const asset of imported.assets) {
    const before = files.get(asset.path);
    const bytes = stored.get(asset.path)!;
    const fileId = before && !keptFiles.has(before.fileId) ? before.fileId : newId();
    keptFiles.add(fileId);
    const { oid, ...storedFile } = bytes;
    const content: FileContent = { ...storedFile, fileId, gitOid: oid, gitPath: asset.path, createdAt: before?.createdAt ?? now };
    importedFiles.push(content);
    if (!before || !sameColumns(before, content, FILE_CONTENT)) writtenFiles.push(content);
  }

  const existing = keysOf(current.pages, imported.config);
  const ids = new Map<string, string>();
  const pages: { content: PageContent; before: PageVersion | undefined }[] = [];
  const positions = new Map<string | null, number>();
  for (const page of imported.pages) {
    const before = existing.get(page.key);
    existing.delete(page.key);
    const pageId = before?.pageId ?? newId();
    ids.set(page.key, pageId);
    const parentId = page.parentKey === null ? null : ids.get(page.parentKey)!;
    const position = positions.get(parentId) ?? 0;
    positions.set(parentId, position + 1);
    const content = pageContent({
      pageId,
      parentId,
      type: page.type,
      title: page.title,
      slug: page.slug,
      markdown: page.markdown,
      target: page.target,
      description: page.matter.description?.slice(0, 1000) || null,
      icon: page.matter.icon?.slice(0, 100) || null,
      emoji: page.matter.emoji?.slice(0, 50) || null,
      hidden: page.matter.hidden ?? false,
      noIndex: page.matter.noIndex ?? false,
      noRobotsIndex: page.matter.noRobotsIndex ?? false,
      layout: page.matter.layout ?? null,
      position,
      gitOid: page.gitOid,
      gitPath: page.gitPath,
      createdAt: before?.createdAt ?? now,
      updatedAt: now,
    });
    pages.push({ content, before });
  }
  const layout = new ContentLayout(buildTree(pages.map(({ content }) => content)), importedFiles, imported.config.readme);
  const written: PageContent[] = [];
  for (const { content, before } of pages) {
    if (content.markdown) content.markdown = layout.resolveLinks(content.markdown, content.pageId).markdown;
    if (!before || !sameColumns(before, content, PAGE_CONTENT)) written.push(content);
  }
  const kept = new Set(pages.map(({ content }) => content.pageId));
  return {
    pages: written,
    deletedPages: current.pages.filter((page) => !kept.has(page.pageId)).map((page) => page.pageId),
    files: writtenFiles,
    deletedFiles: current.files.filter((file) => !keptFiles.has(file.fileId)).map((file) => file.fileId),
  };
}

/** The merge rules' refusal of a write to the space's content, as the operation's failure. */
async function primaryContentWritable(sql: SqlRunner, spaceId: string): Promise<void> {
  try {
    await assertPrimaryContentWritable(sql, spaceId);
  } catch (error) {
    throw error instanceof ApiError ? new GitFailure(error.message) : error;
  }
}

/**
 * Imports the tree at the operation's ref: reads it, stores its files, and writes the revision and the outcome, then
 * runs `completed` (the job's events) in the same transaction.
 */
export async function importContent(
  services: Services,
  repository: Repository,
  operation: GitSyncOperation,
  projectDirectory: string,
  userId: string,
  completed: (tx: Prisma.TransactionClient, outcome: { commitId: string; revisionId: string }) => Promise<void>,
): Promise<void> {
  const commit = await repository.fetch(operation.ref, 1);
  if (!commit) throw new GitFailure(`The ref ${operation.ref} does not exist in the repository.`);
  const files = await repository.files(commit, CONTENT_LIMITS.entries);
  const imported = await readContent(repository, files, projectDirectory);
  const root = joinPath(projectDirectory, imported.config.root);
  // Stored before the transaction, under intents that live as long as an import may take: bytes of an import that
  // fails are unnamed copies, which nothing shows and the sweep removes once the intents expire.
  const assetFiles: FileToStore[] = [];
  for (const asset of imported.assets) {
    const bytes = await repository.readBlob(asset.oid);
    if (bytes.byteLength > CONTENT_LIMITS.fileBytes) {
      throw new LayoutError(`${joinPath(root, asset.path)} is larger than ${CONTENT_LIMITS.fileBytes} bytes.`);
    }
    assetFiles.push({ bytes, name: asset.path.slice(asset.path.lastIndexOf('/') + 1) });
  }
  const described = await storeFiles(services, assetFiles, { spaceId: operation.spaceId, intentMinutes: IMPORT_INTENT_MINUTES });
  const stored = new Map<string, StoredFile & { oid: string }>(
    imported.assets.map((asset, i) => [asset.path, { ...described[i], oid: asset.oid }]),
  );
  const { message } = await repository.readCommit(commit);
  const now = new Date();
  await services.prisma.$transaction(async (tx) => {
    const [space] = await tx.$queryRaw<{ revisionId: string; editMode: string | null; deletedAt: Date | null }[]>`
      SELECT "revisionId", "editMode", "deletedAt" FROM "Space" WHERE id = ${operation.spaceId} FOR UPDATE`;
    if (!space || space.deletedAt) throw new GitFailure('The space is deleted.');
    if (!operation.standalone && space.editMode === 'locked') throw new GitFailure('The space is locked: its content cannot change.');
    // The merge rules as committed now: they may have come to require reviews since the import was asked for.
    if (!operation.standalone) await primaryContentWritable(sqlOf(tx), operation.spaceId);
    const [current] = await tx.$queryRaw<Revision[]>`SELECT * FROM "Revision" WHERE id = ${space.revisionId}`;
    const [pages, currentFiles] = [await pagesAt(sqlOf(tx), current), await filesAt(sqlOf(tx), current)];
    const changes = changesOf({ pages, files: currentFiles }, imported, stored, now);
    const revision = await writeRevision(
      tx,
      services.pageVersionHooks,
      {
        spaceId: operation.spaceId,
        line: operation.standalone ? `git-import:${operation.id}` : MAIN,
        parent: current,
        type: 'edits',
        createdById: userId,
      },
      changes,
    );
    await tx.$executeRaw`
      UPDATE "Revision" SET "gitOid" = ${commit}, "gitMessage" = ${message}, "gitRef" = ${operation.ref},
             "gitCreatedByGitBook" = EXISTS (SELECT 1 FROM "GitSyncOperation" o
                                             WHERE o."spaceId" = ${operation.spaceId} AND o.direction = 'export' AND o."commitId" = ${commit})
       WHERE id = ${revision.id}`;
    if (!operation.standalone) {
      await tx.$executeRaw`UPDATE "Space" SET "revisionId" = ${revision.id}, "updatedAt" = ${now} WHERE id = ${operation.spaceId}`;
    }
    await tx.$executeRaw`
      UPDATE "GitSyncOperation" SET state = 'success', "commitId" = ${commit}, "revisionId" = ${revision.id}, "endedAt" = ${new Date()}
       WHERE id = ${operation.id}`;
    await completed(tx, { commitId: commit, revisionId: revision.id });
  });
}
