// Editing a change request's content (GitBook's updateChangeRequestContent): a batch of up to 50 changes, applied in
// order (src/revisions/edits.ts) and written as one new revision of the change request's line, or not at all. Files
// are stored first, outside the transaction (fetching a URL takes time), under one intent for them all that also
// checks the storage quota (src/files/storage.ts): a batch that fails after it leaves only unnamed bytes, which nothing
// shows and the sweep removes.
import { z } from 'zod';
import { type FileToStore, type StoredFile, storeFiles } from '../files/storage.js';
import type { ChangeRequest, Revision } from '../generated/prisma/client.js';
import { authorize, rowOf, spaces } from '../kernel/authorize.js';
import type { Context, Services } from '../kernel/context.js';
import { badRequest, conflict } from '../kernel/errors.js';
import { assertIfMatch, type Preconditions } from '../kernel/etags.js';
import { recordEvents } from '../kernel/events.js';
import { FetchError } from '../kernel/fetcher.js';
import { rules } from '../kernel/validation.js';
import { revisionPages } from '../revisions/edits/draft.js';
import { type AffectedPage, applyChanges, type ContentChange, type FileInput } from '../revisions/edits.js';
import { type FileContent, filesAt, MAIN, pageAt, writeRevision } from '../revisions/store.js';
import { changeRequests } from './access.js';
import { changeRequestEvent } from './events.js';
import { lockedChangeRequest, sqlOf } from './workflow.js';

/** GitBook's limit on inline bytes; a URL's bytes are capped by the fetcher's default instead. */
export const MAX_BASE64_BYTES = 1024 * 1024;
const MAX_URL_BYTES = 10 * 1024 * 1024;
/** What the files of one request may fetch from URLs together: the fetches' memory and time are the service's. */
export const MAX_URL_BYTES_PER_REQUEST = 50 * 1024 * 1024;
/**
 * The limit of a whole batch: its request body (REST's, or the GraphQL request's variables) is at most this many
 * bytes, files in base64 and pages' markdown included; within it, any number of files up to MAX_BASE64_BYTES each.
 */
export const CONTENT_BATCH_BYTES = 16 * 1024 * 1024;

const metadata = {
  title: z.string().min(1).max(256).optional(),
  slug: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9][a-z0-9-_]*$/, 'lowercase letters, digits, - and _')
    .optional(),
  emoji: z.string().max(50).optional(),
  icon: z.string().max(100).optional(),
  description: z.string().max(1000).optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
};
const pageReference = z.string().min(1).max(100);
const documentInput = z.union([
  z.object({ markdown: z.string().max(1_000_000) }).strict(),
  z.object({ document: z.record(z.string(), z.unknown()) }).strict(),
  z.object({}).strict(),
]);
const file = z
  .object({
    ref: z.string().min(1).max(256).optional(),
    name: z.string().min(1).max(256),
    contentType: z.string().max(255).optional(),
    url: rules.uri(2048).optional(),
    base64: z.string().optional(),
  })
  .strict()
  .refine((f) => (f.url === undefined) !== (f.base64 === undefined), 'set exactly one of url and base64')
  .refine((f) => f.base64 === undefined || f.contentType !== undefined, 'base64 needs contentType');

/** The body's `changes`: 1 to 50 operations, each checked before anything is applied. */
export const contentChanges = z
  .array(
    z.discriminatedUnion('operation', [
      z
        .object({
          operation: z.literal('insert_page'),
          ...metadata,
          document: documentInput,
          into: pageReference.optional(),
          at: z.number().int().min(0).optional(),
          ref: z.string().min(1).max(256).optional(),
        })
        .strict(),
      z
        .object({
          operation: z.literal('update_page'),
          ...metadata,
          page: pageReference,
          document: documentInput.optional(),
          into: pageReference.nullable().optional(),
          at: z.number().int().min(0).optional(),
        })
        .strict(),
      z.object({ operation: z.literal('delete_page'), page: pageReference }).strict(),
      z
        .object({
          operation: z.literal('revert_page'),
          page: pageReference,
          revision: rules.id.optional(),
          block: z.array(z.string()).optional(),
        })
        .strict(),
      z.object({ operation: z.literal('insert_files'), files: z.array(file).min(1).max(20) }).strict(),
    ]),
  )
  .min(1)
  .max(50);

/** The bytes of a file to insert: decoded, or fetched through the guarded fetcher. */
async function bytesOf(
  ctx: Pick<Services, 'fetcher'>,
  input: FileInput,
  field: string,
  urlBytesLeft: number,
): Promise<{ bytes: Buffer; contentType?: string | null }> {
  if (input.base64 != null) {
    const bytes = Buffer.from(input.base64, 'base64');
    if (bytes.toString('base64').replace(/=+$/, '') !== input.base64.replace(/\s/g, '').replace(/=+$/, '')) {
      throw badRequest(`Invalid "${field}.base64": not base64.`);
    }
    if (bytes.byteLength > MAX_BASE64_BYTES) throw badRequest(`Invalid "${field}.base64": more than ${MAX_BASE64_BYTES} bytes.`);
    return { bytes, contentType: input.contentType };
  }
  try {
    const fetched = await ctx.fetcher.get(input.url!, { maxBytes: Math.min(MAX_URL_BYTES, urlBytesLeft) });
    return { bytes: fetched.body, contentType: input.contentType ?? fetched.contentType };
  } catch (error) {
    if (error instanceof FetchError && error.code === 'TOO_LARGE' && urlBytesLeft < MAX_URL_BYTES) {
      throw badRequest(`Invalid "${field}.url": the files of one request may fetch at most ${MAX_URL_BYTES_PER_REQUEST} bytes from URLs.`);
    }
    if (error instanceof FetchError) throw badRequest(`Invalid "${field}.url": ${error.message}`);
    throw error;
  }
}

/** What a batch made: the change request at its new revision, the pages the batch affected, and the files it added. */
export interface ContentUpdate {
  changeRequest: ChangeRequest;
  revision: Revision;
  affected: AffectedPage[];
  insertedFiles: FileContent[];
}

type Tx = Parameters<Parameters<Services['prisma']['$transaction']>[0]>[0];

/** Applies the changes to the change request's content as one revision, recorded with it. Needs `edit`. */
export async function updateChangeRequestContent(
  ctx: Context,
  spaceId: string,
  idOrNumber: string,
  changes: ContentChange[],
): Promise<ContentUpdate> {
  const { row: found } = await authorize(ctx, changeRequests, { id: idOrNumber, parent: spaceId }, 'edit');
  const space = (await rowOf(ctx, spaces, spaceId))!;
  return writeChangeRequestContent(ctx, { spaceId, changeRequestId: found.id, authorId: ctx.viewer.userId }, changes, (tx, update) =>
    recordEvents(tx, ctx, [
      changeRequestEvent('change_request_content_updated', space, update.changeRequest, {
        revisionId: update.revision.id,
        pages: update.affected.length,
        files: update.insertedFiles.length,
      }),
    ]),
  );
}

/**
 * Applies the changes to the change request's content as one revision by `authorId`, whose right to was checked by
 * the caller (a request, or the background job of an import run). `within` runs the caller's own statements in the
 * transaction, after the write: what it throws undoes the write. A request's If-Match names the revision it read: the
 * change request's current one, or the write is refused (412).
 */
export async function writeChangeRequestContent(
  ctx: Services & Preconditions,
  { spaceId, changeRequestId, authorId }: { spaceId: string; changeRequestId: string; authorId: string },
  changes: ContentChange[],
  within?: (tx: Tx, update: ContentUpdate) => Promise<void>,
): Promise<ContentUpdate> {
  const inputs: FileInput[] = [];
  const files: FileToStore[] = [];
  let urlBytesLeft = MAX_URL_BYTES_PER_REQUEST;
  for (const [index, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    for (const [i, input] of change.files.entries()) {
      const { bytes, contentType } = await bytesOf(ctx, input, `changes.${index}.files.${i}`, urlBytesLeft);
      if (input.url != null) urlBytesLeft -= bytes.byteLength;
      inputs.push(input);
      files.push({ bytes, name: input.name, declaredType: contentType });
    }
  }
  const described = await storeFiles(ctx, files, { spaceId });
  const stored = new Map<FileInput, StoredFile>(inputs.map((input, i) => [input, described[i]]));
  return ctx.prisma.$transaction(async (tx) => {
    const [space] = await tx.$queryRaw<{ editMode: string | null }[]>`SELECT "editMode" FROM "Space" WHERE id = ${spaceId}`;
    if (space.editMode === 'locked') throw conflict('The space is locked: set its editMode to live to change its content.');
    const changeRequest = await lockedChangeRequest(tx, changeRequestId);
    assertIfMatch(ctx, 'Change request', changeRequest.revisionId);
    const sql = sqlOf(tx);
    const [current] = await tx.$queryRaw<Revision[]>`SELECT * FROM "Revision" WHERE id = ${changeRequest.revisionId}`;
    const now = ctx.clock.now();
    const result = await applyChanges(
      {
        pages: revisionPages(sql, current),
        pageIn: async (pageId, revisionId) => {
          if (!revisionId) return pageAt(sql, { spaceId, line: MAIN, seq: current.baseSeq ?? 0, baseSeq: null }, pageId);
          const [target] = await tx.$queryRaw<Revision[]>`SELECT * FROM "Revision" WHERE id = ${revisionId} AND "spaceId" = ${spaceId}`;
          if (!target) throw badRequest(`Invalid "revision": no revision ${JSON.stringify(revisionId)} in this space.`);
          return pageAt(sql, target, pageId);
        },
        storeFile: async (input) => ({ ...stored.get(input)!, gitOid: null, gitPath: null, createdAt: now }),
        files: () => filesAt(sql, current),
        now,
      },
      changes,
    );
    const revision = await writeRevision(
      tx,
      ctx.pageVersionHooks,
      { spaceId, line: changeRequest.id, parent: current, type: 'edits', createdById: authorId },
      result.changes,
    );
    const [updated] = await tx.$queryRaw<ChangeRequest[]>`
      UPDATE "ChangeRequest" SET "revisionId" = ${revision.id}, "updatedAt" = ${now} WHERE id = ${changeRequest.id} RETURNING *`;
    const update = { changeRequest: updated, revision, affected: result.affected, insertedFiles: result.insertedFiles };
    await within?.(tx, update);
    return update;
  });
}
