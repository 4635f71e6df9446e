// Every background task and every scheduled tick of the product, listed once: the twin of the route table
// (src/schema.ts). A worker runs exactly these tasks and the scheduler exactly these ticks (main.ts and worker.ts hand
// them over), so a task runs because it is listed here, not because its module happened to be loaded; the layers test
// (test/kernel/layers.test.ts) fails when a task defined anywhere in src/ is missing from `tasks`.
import { forgetExpiredAuditEvents } from './audit/retention.js';
import { importRunTask, resumeImportRuns } from './content-import/task.js';
import { filesSweepTask, scheduleFilesSweep } from './files/sweep.js';
import { gitSyncTask } from './git-sync/task.js';
import { type AnyTask, defineTask, enqueue, forgetFinishedJobs } from './jobs/queue.js';
import type { Schedule } from './jobs/schedule.js';
import { forgetExpiredIdempotencyKeys } from './kernel/idempotency.js';
import { linkBackfillTask } from './links/backfill.js';
import { forgetUnlinkedChecks, linkCheckTask, scheduleLinkChecks } from './links/checking.js';
import { openAPIProcessTask, refreshOpenAPISpecs } from './openapi/processing.js';
import { searchBackfillTask } from './search/backfill.js';
import { hostnameCheckTask, scheduleHostnameChecks } from './sites/proof.js';
import { purgeDeletedSpaces } from './spaces/purge.js';
import { webhookDeliveryTask } from './webhooks/delivery.js';

const FINISHED_JOBS_KEPT_DAYS = 7;

/**
 * The housekeeping of every tick, across domains (so it is composed here): spaces deleted more than the retention
 * ago are removed, with their content; then the checks of URLs nothing links to any more, the jobs finished more
 * than a week ago, the audit events older than AUDIT_RETENTION_DAYS and the expired Idempotency-Keys (with the answers
 * they kept) are forgotten. Idempotent: when several instances enqueue it at once, the first does the work.
 */
export const purgeTask = defineTask<Record<string, never>>({
  name: 'purge-deleted-spaces',
  maxAttempts: 3,
  run: async (_payload, { services }) => {
    const now = services.clock.now();
    const removed = await purgeDeletedSpaces(services);
    await forgetUnlinkedChecks(services);
    const forgotten = await forgetFinishedJobs(services.prisma, new Date(now.getTime() - FINISHED_JOBS_KEPT_DAYS * 86_400_000));
    const expiredEvents = await forgetExpiredAuditEvents(services);
    const expiredKeys = await forgetExpiredIdempotencyKeys(services);
    if (removed || forgotten || expiredEvents || expiredKeys) {
      services.logger.info({ job: 'purge-deleted-spaces', removed, forgotten, expiredEvents, expiredKeys }, 'job done');
    }
  },
});

export const tasks: readonly AnyTask[] = [
  purgeTask,
  gitSyncTask,
  linkCheckTask,
  linkBackfillTask,
  searchBackfillTask,
  openAPIProcessTask,
  hostnameCheckTask,
  importRunTask,
  webhookDeliveryTask,
  filesSweepTask,
];

export const schedule: Schedule = {
  ticks: [
    { name: purgeTask.name, run: (services) => enqueue(services.prisma, purgeTask, {}) },
    // Link checks older than a week become due again (src/links/checking.ts).
    { name: linkCheckTask.name, run: scheduleLinkChecks },
    // OpenAPI specs fetched from URLs are processed again when last processed over an hour ago (src/openapi/processing.ts).
    { name: openAPIProcessTask.name, run: refreshOpenAPISpecs },
    // Proofs of hostname and proxy claims are checked when due (src/sites/proof.ts).
    { name: hostnameCheckTask.name, run: scheduleHostnameChecks },
    // Import runs whose job went silent (its process died) get a new one (src/content-import/task.ts).
    { name: importRunTask.name, run: resumeImportRuns },
    // Bytes no row names are removed, every FILES_SWEEP_MINUTES (src/files/sweep.ts).
    { name: filesSweepTask.name, run: scheduleFilesSweep, everyMinutes: (config) => config.filesSweepMinutes },
  ],
  // Spaces written before the search index existed, and page versions written before links were stored by id.
  backfills: [
    { table: 'SearchBacklog', task: searchBackfillTask },
    { table: 'LinkBacklog', task: linkBackfillTask },
  ],
};
