// Content for the tests of content reads: pages and files as a revision holds them, written with the store and made
// a space's current content the way a merge does it (Space.revisionId pointed at the new revision).
import { pageVersionHooks } from '../../src/composition.js';
import type { FileVersion, PageVersion, PrismaClient } from '../../src/generated/prisma/client.js';
import { type FileContent, MAIN, type PageContent, pageContent, type RevisionChanges, writeRevision } from '../../src/revisions/store.js';
import { expectMatchesDocument } from '../support/openapi.js';

const CREATED = new Date('2026-01-01T00:00:00.000Z');

/** A document page at the top level, unless placed. */
export function page(pageId: string, title: string, overrides: Partial<PageContent> = {}): PageContent {
  return pageContent({
    pageId,
    title,
    slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    markdown: `# ${title}\n\nAbout ${title}.\n`,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  });
}

export function file(fileId: string, name: string, overrides: Partial<FileContent> = {}): FileContent {
  return {
    fileId,
    name,
    contentType: 'application/octet-stream',
    size: 0,
    width: null,
    height: null,
    storageKey: '0'.repeat(64),
    gitOid: null,
    gitPath: null,
    createdAt: CREATED,
    ...overrides,
  };
}

/** Writes a revision after the space's current one and makes it current; returns it. */
export async function publish(prisma: PrismaClient, spaceId: string, changes: RevisionChanges) {
  const { revisionId } = await prisma.space.findUniqueOrThrow({ where: { id: spaceId }, select: { revisionId: true } });
  const parent = await prisma.revision.findUniqueOrThrow({ where: { id: revisionId! } });
  return prisma.$transaction(async (tx) => {
    const revision = await writeRevision(tx, pageVersionHooks, { spaceId, line: MAIN, parent, type: 'edits', createdById: null }, changes);
    await tx.space.update({ where: { id: spaceId }, data: { revisionId: revision.id } });
    return revision;
  });
}

type JsonObject = Record<string, unknown>;

/**
 * Asserts that a body holding pages matches GitBook's spec 0202 and our own document. GitBook's page schema cannot
 * validate a document page without a body (the reference's note on that defect), though GitBook lists pages without
 * one: for its spec, each such page gets an empty document first.
 */
export function expectPagesMatchSpec(path: string, body: unknown): void {
  expectMatchesDocument('0202', 'get', path, 200, withEmptyBodies(body));
  expectMatchesDocument('ours', 'get', path, 200, body);
}

function withEmptyBodies<T>(body: T): T {
  const fill = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(fill);
    if (!value || typeof value !== 'object') return value;
    const object = Object.fromEntries(Object.entries(value as JsonObject).map(([key, inner]) => [key, fill(inner)]));
    if (object.type === 'document' && object.kind === 'sheet' && !('markdown' in object) && !('document' in object)) {
      object.document = { object: 'document', data: {}, nodes: [] };
    }
    return object;
  };
  return fill(body) as T;
}

/** A page as a row of the store holds it (a version of the primary line, current since its first revision). */
export function pageVersion(pageId: string, title: string, overrides: Partial<PageVersion> = {}): PageVersion {
  return {
    id: `version-${pageId}`,
    spaceId: 'space',
    line: MAIN,
    validFrom: 1,
    validTo: null,
    deleted: false,
    ...page(pageId, title),
    ...overrides,
  };
}

/** A file as a row of the store holds it. */
export function fileVersion(fileId: string, name: string, overrides: Partial<FileVersion> = {}): FileVersion {
  return {
    id: `version-${fileId}`,
    spaceId: 'space',
    line: MAIN,
    validFrom: 1,
    validTo: null,
    deleted: false,
    ...file(fileId, name),
    ...overrides,
  };
}
