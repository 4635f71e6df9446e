// An export: the space's current revision written in GitBook's layout (layout.ts) over the branch's tree, committed
// with the operation's message and pushed to its ref. The commit builds on the last commit the space was in sync with
// (the last applied import or export), when the branch's history holds it, else on the branch's head: a branch that
// moved on since then is not a fast-forward, and is only overwritten with `force`. Files of the repository outside
// the content (code beside the docs, `.gitbook.yaml`) stay as they are; the content's previous pages and files are
// replaced. An export that changes nothing pushes nothing.
import { openStoredFile } from '../files/storage.js';
import type { FileVersion, GitSyncOperation, PageVersion, Revision } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Services } from '../kernel/context.js';
import { ASSETS, ContentLayout, joinPath, pagePaths } from '../revisions/addresses.js';
import { documentToMarkdown, storedAddressOf } from '../revisions/document.js';
import { buildTree } from '../revisions/read.js';
import { filesAt, pagesAt } from '../revisions/store.js';
import { CONTENT_LIMITS } from './importing.js';
import {
  CONFIG_FILE,
  type GitBookConfig,
  LayoutError,
  type PageMatter,
  readConfig,
  readSummary,
  type TreeEntry,
  treeFromFiles,
  writePageFile,
  writeSummary,
} from './layout.js';
import { type FileEntry, GitFailure, type Repository } from './remote.js';

/** The front matter of a page: the fields GitBook's Git Sync writes there. */
const matterOf = (page: PageVersion): PageMatter => ({
  description: page.description,
  icon: page.icon,
  emoji: page.emoji,
  hidden: page.hidden,
  noIndex: page.noIndex,
  noRobotsIndex: page.noRobotsIndex,
  layout:
    page.layout && typeof page.layout === 'object' && !Array.isArray(page.layout)
      ? (page.layout as Record<string, string | boolean>)
      : null,
});

async function bytesOf(services: Services, file: FileVersion): Promise<Buffer> {
  const stored = await openStoredFile(services, file.storageKey);
  if (!stored) throw new LayoutError(`The bytes of the file ${JSON.stringify(file.name)} are missing from the storage.`);
  const chunks: Buffer[] = [];
  for await (const chunk of stored.stream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The files of a revision's content in the layout, by path from the root. */
export async function renderContent(
  services: Services,
  pages: readonly PageVersion[],
  files: readonly FileVersion[],
  config: GitBookConfig,
): Promise<Map<string, Uint8Array>> {
  const tree = buildTree(pages);
  const layout = new ContentLayout(tree, files, config.readme);
  const out = new Map<string, Uint8Array>();
  for (const page of pages) {
    const at = layout.fileOfPage(page.pageId);
    if (!at) continue;
    // References to pages and files (of a JSON document too) become addresses of their files, from this page's.
    const body = page.markdown ?? (page.document ? documentToMarkdown(page.document, storedAddressOf) : '');
    out.set(at, Buffer.from(writePageFile(matterOf(page), layout.relativeLinks(body, page.pageId))));
  }
  out.set(config.summary, Buffer.from(writeSummary(tree.roots, pagePaths(tree.roots, config.readme), config.summary)));
  for (const file of files) out.set(layout.fileOfFile(file.fileId)!, await bytesOf(services, file));
  return out;
}

const pagePathsOf = (entries: readonly TreeEntry[]): string[] =>
  entries.flatMap((entry) => [...(entry.kind === 'page' ? [entry.path] : []), ...('children' in entry ? pagePathsOf(entry.children) : [])]);

/** The files of the content a tree holds now (its summary's pages, or its markdown files), by path from the root. */
async function previousContent(repository: Repository, content: ReadonlyMap<string, FileEntry>, config: GitBookConfig): Promise<string[]> {
  const summary = content.get(config.summary);
  const markdown = [...content.keys()].filter((file) => /\.md$/i.test(file));
  const pages = summary
    ? pagePathsOf(readSummary(Buffer.from(await repository.readBlob(summary.oid)).toString('utf8'), config.summary))
    : pagePathsOf(treeFromFiles(markdown, config));
  return [...pages, config.summary, config.readme, ...[...content.keys()].filter((file) => file.startsWith(`${ASSETS}/`))];
}

/** The commit the space was last in sync with: that of the last applied, linked operation. */
async function lastSynced(services: Services, operation: GitSyncOperation): Promise<string | null> {
  const [last] = await services.sql<{ commitId: string }>(Prisma.sql`
    SELECT "commitId" FROM "GitSyncOperation"
     WHERE "spaceId" = ${operation.spaceId} AND id <> ${operation.id} AND state = 'success' AND NOT skipped AND NOT standalone
       AND "commitId" IS NOT NULL
     ORDER BY "endedAt" DESC NULLS LAST LIMIT 1`);
  return last?.commitId ?? null;
}

/** Exports the space's current content to the operation's ref; returns the commit the ref now holds. */
export async function exportContent(
  services: Services,
  repository: Repository,
  operation: GitSyncOperation,
  projectDirectory: string,
  author: { name: string; email: string },
): Promise<string> {
  const head = await repository.fetch(operation.ref);
  const synced = await lastSynced(services, operation);
  const parent = synced && synced !== head && (await repository.hasCommit(synced)) ? synced : head;
  const before = parent ? await repository.files(parent, CONTENT_LIMITS.entries) : new Map<string, FileEntry>();
  const configFile = before.get(joinPath(projectDirectory, CONFIG_FILE));
  const config = readConfig(configFile ? Buffer.from(await repository.readBlob(configFile.oid)).toString('utf8') : null);
  const root = joinPath(projectDirectory, config.root);
  const prefix = root ? `${root}/` : '';

  const [space] = await services.sql<{ revisionId: string; deletedAt: Date | null }>(
    Prisma.sql`SELECT "revisionId", "deletedAt" FROM "Space" WHERE id = ${operation.spaceId}`,
  );
  if (!space || space.deletedAt) throw new GitFailure('The space is deleted.');
  const [revision] = await services.sql<Revision>(Prisma.sql`SELECT * FROM "Revision" WHERE id = ${space.revisionId}`);
  const rendered = await renderContent(services, await pagesAt(services.sql, revision), await filesAt(services.sql, revision), config);

  const content = new Map(
    [...before].filter(([file]) => file.startsWith(prefix)).map(([file, entry]) => [file.slice(prefix.length), entry]),
  );
  const next = new Map(before);
  for (const file of await previousContent(repository, content, config)) next.delete(joinPath(root, file));
  for (const [file, bytes] of rendered) next.set(joinPath(root, file), { oid: await repository.writeBlob(bytes), mode: '100644' });
  const tree = await repository.writeTree(next);
  if (head && parent === head && tree === (await repository.readCommit(head)).tree) return head;
  const commit = await repository.commit(tree, parent, operation.commitMessage ?? '', author, new Date());
  await repository.push(commit, operation.ref, operation.force);
  return commit;
}
