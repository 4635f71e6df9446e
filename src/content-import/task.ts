// The background job of an import run (`import-run`; one queue per change request, so that runs into one take turns).
// A job claims the run (pending, or in progress after an interrupted attempt, which it starts over: an attempt writes
// nothing until its last transaction), reads the website (crawl.ts), and writes the pages into the change request in
// ONE transaction that also marks the run completed, only while the run is still its own and in progress. A cancel
// that came first makes it write nothing; one that comes after finds the run completed. Between pages it records a
// heartbeat, which also tells it that the run was cancelled (it stops there).
// A run ends failed, with a reason, when the website cannot be read, the change request cannot change (merged,
// archived, its space locked or deleted), the page it imports under is gone, or its job's last attempt fails.
// A job whose process died leaves its run in progress with a heartbeat that no longer moves: the scheduler's tick
// (resumeImportRuns) gives such a run a new job once its heartbeat is STALE_AFTER_MS old; after MAX_ATTEMPTS claims, the
// run fails instead of starting over again.
import { type ContentUpdate, writeChangeRequestContent } from '../change-requests/content.js';
import { type BackgroundJob, type ImportRun, Prisma } from '../generated/prisma/client.js';
import { defineTask, enqueueingAside } from '../jobs/queue.js';
import type { Services } from '../kernel/context.js';
import { ApiError } from '../kernel/errors.js';
import { recordEvents, recorderFor, systemActor } from '../kernel/events.js';
import { crawl, UnreadableSite, WEBSITE_LIMITS } from './crawl.js';
import { importRunEvent } from './events.js';
import { insertions, placeIn } from './service.js';

/** Far longer than a crawl may take (WEBSITE_LIMITS.timeMs) with the write after it. */
export const STALE_AFTER_MS = 10 * 60_000;
export const MAX_ATTEMPTS = 5;
/** Stale runs the scheduler resumes per tick, the longest silent first. */
const RESUME_BATCH = 100;

interface Payload {
  runId: string;
}

/** What a page of a completed run records. */
export interface ImportedPage {
  pageId: string;
  sourceURL: string;
  type: 'page' | 'folder';
  status: 'complete' | 'pending';
}

const queueOf = (changeRequestId: string) => `import-run:${changeRequestId}`;

/** The run is no longer this job's to record: it was cancelled, or a newer job claimed it. */
class RunLost extends Error {}

/** Why the run fails, in words for whoever started it. */
class RunFailure extends Error {}

/** The reason a run fails with for this error; undefined for an unexpected one (a retry may do better). */
function reasonOf(error: unknown): string | undefined {
  if (error instanceof UnreadableSite) return `The website cannot be read: ${error.message}`;
  if (error instanceof RunFailure || error instanceof ApiError) return error.message;
  return undefined;
}

/** The condition on the run's row that it is still `job`'s, in progress. */
const ownedBy = (run: ImportRun, job: BackgroundJob) => Prisma.sql`id = ${run.id} AND "jobId" = ${job.id} AND status = 'in_progress'`;

/** A heartbeat of the run; RunLost when it is no longer the job's (cancelled, say). */
async function heartbeat(services: Services, run: ImportRun, job: BackgroundJob): Promise<void> {
  const [mine] = await services.sql(
    Prisma.sql`UPDATE "ImportRun" SET "updatedAt" = ${services.clock.now()} WHERE ${ownedBy(run, job)} RETURNING id`,
  );
  if (!mine) throw new RunLost();
}

/** The pages a write created, in the order they were read (their insertions' refs are `import-<index>`). */
function importedPages(update: ContentUpdate, urls: readonly string[]): ImportedPage[] {
  const created = update.affected.flatMap((page) =>
    page.outcome === 'created' && page.ref?.startsWith('import-') ? [{ index: Number(page.ref.slice(7)), pageId: page.pageId }] : [],
  );
  return created
    .sort((a, b) => a.index - b.index)
    .map(({ index, pageId }) => ({ pageId, sourceURL: urls[index], type: 'page', status: 'complete' }));
}

async function runImport(services: Services, runId: string, job: BackgroundJob): Promise<void> {
  const now = services.clock.now();
  const [run] = await services.sql<ImportRun & { spaceDeleted: boolean }>(Prisma.sql`
    UPDATE "ImportRun" r SET status = 'in_progress', "jobId" = ${job.id}, attempts = r.attempts + 1,
           "startedAt" = coalesce(r."startedAt", ${now}), "updatedAt" = ${now}
     WHERE r.id = ${runId} AND r.status IN ('pending', 'in_progress')
    RETURNING r.*, (SELECT s."deletedAt" IS NOT NULL FROM "Space" s WHERE s.id = r."spaceId") AS "spaceDeleted"`);
  // Cancelled or ended before this job came to it: nothing to do.
  if (!run) return;
  const recorder = recorderFor(services, systemActor('workflow'));
  try {
    if (run.attempts > MAX_ATTEMPTS) throw new RunFailure(`The import was interrupted ${MAX_ATTEMPTS} times; start it again.`);
    if (run.spaceDeleted) throw new RunFailure('The space is deleted.');
    const read = await crawl(services.fetcher, run.sourceURL, WEBSITE_LIMITS, () => heartbeat(services, run, job));
    const place = await placeIn(services.sql, run.changeRequestId, run.pageId);
    if (!place) throw new RunFailure(`The page ${run.pageId} is no longer in the change request.`);
    const target = { spaceId: run.spaceId, changeRequestId: run.changeRequestId, authorId: run.createdById };
    await writeChangeRequestContent(services, target, insertions(read.pages, place), async (tx, update) => {
      const pages = importedPages(
        update,
        read.pages.map((page) => page.url),
      );
      const finished = services.clock.now();
      const [done] = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
        UPDATE "ImportRun" SET status = 'completed', pages = ${JSON.stringify(pages)}::jsonb, "completedAt" = ${finished},
               "updatedAt" = ${finished}
         WHERE ${ownedBy(run, job)} RETURNING id`);
      if (!done) throw new RunLost();
      await recordEvents(tx, recorder, [
        importRunEvent('import_run_completed', run, { importedPages: pages.length, revisionId: update.revision.id }),
      ]);
    });
  } catch (error) {
    if (error instanceof RunLost) return;
    const reason = reasonOf(error);
    const final = job.attempts >= job.maxAttempts;
    // An unexpected error (the database, say) leaves the run in progress for the job's next attempt.
    if (reason === undefined && !final) throw error;
    const why = reason ?? 'The import failed on an unexpected error; start it again.';
    await services.prisma.$transaction(async (tx) => {
      const [failed] = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
        UPDATE "ImportRun" SET status = 'failed', reason = ${why}, "updatedAt" = ${services.clock.now()}
         WHERE ${ownedBy(run, job)} RETURNING id`);
      if (failed) await recordEvents(tx, recorder, [importRunEvent('import_run_failed', run, { reason: why })]);
    });
    if (reason === undefined) throw error;
  }
}

export const importRunTask = defineTask<Payload>({
  name: 'import-run',
  maxAttempts: 3,
  run: (payload, { services, job }) => runImport(services, payload.runId, job),
});

/**
 * Common table expressions `job` and `queued` that enqueue the run's job when `when` holds (see enqueueingAside): the
 * statement's end must read `queued`.
 */
export const enqueueingRun = (run: Pick<ImportRun, 'id' | 'organizationId' | 'changeRequestId' | 'createdById'>, when?: Prisma.Sql) =>
  enqueueingAside(
    importRunTask,
    { runId: run.id },
    { organizationId: run.organizationId, createdById: run.createdById, queue: queueOf(run.changeRequestId) },
    when,
  );

/**
 * The scheduler's part: each run in progress whose heartbeat is older than STALE_AFTER_MS (its job's process died) is
 * set pending again with a new job, in one statement that checks it is still stale (another instance may have taken
 * it meanwhile).
 */
export async function resumeImportRuns(services: Services): Promise<void> {
  const now = services.clock.now();
  const stale = Prisma.sql`status = 'in_progress' AND "updatedAt" < ${new Date(now.getTime() - STALE_AFTER_MS)}`;
  const runs = await services.sql<Pick<ImportRun, 'id' | 'organizationId' | 'changeRequestId' | 'createdById'>>(Prisma.sql`
    SELECT id, "organizationId", "changeRequestId", "createdById" FROM "ImportRun" WHERE ${stale}
     ORDER BY "updatedAt" LIMIT ${RESUME_BATCH}`);
  for (const run of runs) {
    await services.sql(Prisma.sql`
      WITH marked AS (
        UPDATE "ImportRun" SET status = 'pending', "jobId" = NULL, "updatedAt" = ${now} WHERE id = ${run.id} AND ${stale} RETURNING id
      ),
      ${enqueueingRun(run, Prisma.sql`EXISTS (SELECT 1 FROM marked)`)}
      SELECT count(*)::int AS queued FROM queued`);
  }
}
