// Import runs (GitBook's startImportRun and cancelImportRun): a website imported into a change request by a background
// job (task.ts). A run always writes into a change request: the one its target names, or a new one created for it with
// the run, so that imported pages reach the space's content only through a merge, under its merge rules. Starting a
// run records it and enqueues its job in one transaction (with the change request created for it, if any); cancelling
// one sets it cancelled while it is pending or in progress, which its job sees before it writes anything.
import { changeRequests } from '../change-requests/access.js';
import { createChangeRequest } from '../change-requests/service.js';
import { sqlOf } from '../change-requests/workflow.js';
import type { SqlRunner } from '../db/client.js';
import { type ImportRun, Prisma } from '../generated/prisma/client.js';
import { authorize, authorizeReference, organizations, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, conflict, notFound } from '../kernel/errors.js';
import { recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { sites } from '../sites/access.js';
import { importRuns } from './access.js';
import { importRunEvent } from './events.js';
import { placeIn } from './service.js';
import { enqueueingRun } from './task.js';

export interface StartImportRun {
  /** Validated: a website and its URL (file imports are refused by the input). */
  source: { url?: string | null };
  target: { space: string; changeRequest?: string | null; page?: string | null };
  site?: string | null;
}

const SUBJECT_LENGTH = 100;

/** The subject of the change request created for a run: what it imports. */
const subjectFor = (url: string) => `Import of ${url}`.slice(0, SUBJECT_LENGTH);

/** 400 naming `target.page` unless the change request's content has that page. */
async function checkPage(sql: SqlRunner, changeRequestId: string, pageId: string | null | undefined): Promise<void> {
  if (pageId && !(await placeIn(sql, changeRequestId, pageId))) {
    throw badRequest('Invalid "target.page": no such page in the content it imports into.');
  }
}

/**
 * Starts a run: needs `edit` on the target space, which must be the organization's (404 otherwise, as a space the
 * viewer cannot see). A target change request must be of that space and still open to changes (409 when merged or
 * archived); `site` must be a site of the organization the viewer can see (400 naming it). Without `site`, the run is
 * listed under the one site that publishes the space, if only one does.
 */
export async function startImportRun(ctx: Context, organizationId: string, input: StartImportRun): Promise<ImportRun> {
  await authorize(ctx, organizations, organizationId, 'view');
  const { row: space } = await authorize(ctx, spaces, input.target.space, 'edit');
  if (space.organizationId !== organizationId) throw notFound(spaces.kind);
  if (input.site) await authorizeReference(ctx, sites, { id: input.site, field: 'site', organizationId }, 'view');
  const url = input.source.url!;
  const now = ctx.clock.now();
  const record = async (db: Pick<Context['prisma'], '$queryRaw' | '$executeRaw'>, changeRequestId: string) => {
    const run = { id: newId(), organizationId, changeRequestId, createdById: ctx.viewer.userId };
    const [row] = await db.$queryRaw<ImportRun[]>(Prisma.sql`
      WITH run AS (
        INSERT INTO "ImportRun" (id, "organizationId", "spaceId", "changeRequestId", "pageId", "siteId", "sourceURL",
                                 "createdById", "createdAt", "updatedAt")
        VALUES (${run.id}, ${organizationId}, ${space.id}, ${changeRequestId}, ${input.target.page ?? null},
                coalesce(${input.site ?? null}::text, (SELECT min(ss."siteId") FROM "SiteSpace" ss WHERE ss."spaceId" = ${space.id}
                                                  HAVING count(DISTINCT ss."siteId") = 1)),
                ${url}, ${run.createdById}, ${now}, ${now})
        RETURNING *
      ),
      ${enqueueingRun(run)}
      SELECT run.* FROM run, queued`);
    await recordEvents(db, ctx, [importRunEvent('import_run_started', row, { source: 'website' })]);
    return row;
  };

  if (input.target.changeRequest) {
    const { row: changeRequest } = await authorize(ctx, changeRequests, { id: input.target.changeRequest, parent: space.id }, 'edit');
    if (changeRequest.status === 'merged' || changeRequest.status === 'archived') {
      throw conflict(`The change request is ${changeRequest.status}: it can no longer change.`);
    }
    await checkPage(ctx.sql, changeRequest.id, input.target.page);
    return ctx.prisma.$transaction((tx) => record(tx, changeRequest.id));
  }
  let started: ImportRun | undefined;
  await createChangeRequest(ctx, space.id, { subject: subjectFor(url) }, async (tx, created) => {
    await checkPage(sqlOf(tx), created.id, input.target.page);
    started = await record(tx, created.id);
  });
  return started!;
}

/** Cancels a pending or in-progress run: needs `cancel` (edit on its space); 400 naming the status of one that ended. */
export async function cancelImportRun(ctx: Context, organizationId: string, id: string): Promise<ImportRun> {
  const { row: run } = await authorize(ctx, importRuns, { id, parent: organizationId }, 'cancel');
  const cancelled = await ctx.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<ImportRun[]>(Prisma.sql`
      UPDATE "ImportRun" SET status = 'cancelled', "updatedAt" = ${ctx.clock.now()}
       WHERE id = ${run.id} AND status IN ('pending', 'in_progress') RETURNING *`);
    if (row) await recordEvents(tx, ctx, [importRunEvent('import_run_cancelled', row)]);
    return row;
  });
  if (cancelled) return cancelled;
  const [ended] = await ctx.sql<Pick<ImportRun, 'status'>>(Prisma.sql`SELECT status FROM "ImportRun" WHERE id = ${run.id}`);
  throw badRequest(`The import run is ${ended.status}: only a pending or in-progress run can be cancelled.`);
}
