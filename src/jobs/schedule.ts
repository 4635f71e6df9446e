// Scheduled work: at start-up, then every PURGE_INTERVAL_MINUTES (default 60), each service process enqueues the
// purge of deleted spaces, and a worker runs it. The purge is idempotent: when several instances enqueue it at
// once, the first purges and the others find nothing left. It also forgets finished background jobs after a week,
// and the checks of URLs nothing links to. Each tick also has week-old link checks done again (src/links/checking.ts),
// and OpenAPI specs fetched from URLs processed again when last processed over an hour ago (src/openapi/processing.ts).
// Each tick also has the proofs of hostname and proxy claims checked when due (src/sites/proof.ts).
// At start-up, while spaces written before the search index existed are not indexed yet, it enqueues their indexing,
// and while page versions written before links were stored by id are not resolved yet, their resolution.
import { Prisma } from '../generated/prisma/client.js';
import type { Services } from '../kernel/context.js';
import { linkBackfillTask } from '../links/backfill.js';
import { forgetUnlinkedChecks, linkCheckTask, scheduleLinkChecks } from '../links/checking.js';
import { refreshOpenAPISpecs } from '../openapi/processing.js';
import { searchBackfillTask } from '../search/index.js';
import { hostnameCheckTask, scheduleHostnameChecks } from '../sites/proof.js';
import { purgeDeletedSpaces } from '../spaces/purge.js';
import { defineTask, enqueue, type TaskDefinition } from './queue.js';

const FINISHED_JOBS_KEPT_DAYS = 7;

export const purgeTask = defineTask<Record<string, never>>({
  name: 'purge-deleted-spaces',
  maxAttempts: 3,
  run: async (_payload, { services }) => {
    const now = services.clock.now();
    const removed = await purgeDeletedSpaces(services.prisma, now);
    await forgetUnlinkedChecks(services);
    const forgotten = await services.prisma.$executeRaw(Prisma.sql`
      DELETE FROM "BackgroundJob" WHERE "finishedAt" < ${new Date(now.getTime() - FINISHED_JOBS_KEPT_DAYS * 86_400_000)}`);
    if (removed || forgotten) services.logger.info({ job: 'purge-deleted-spaces', removed, forgotten }, 'job done');
  },
});

/** Enqueues a backfill once, at start-up, while the list its migration made (`table`) is not empty. */
function backfillWhileListed(services: Services, table: 'SearchBacklog' | 'LinkBacklog', task: TaskDefinition<Record<string, never>>) {
  void services.prisma
    .$queryRaw<{ waiting: boolean }[]>(Prisma.sql`SELECT EXISTS (SELECT 1 FROM ${Prisma.raw(`"${table}"`)}) AS waiting`)
    .then(([{ waiting }]) => (waiting ? enqueue(services.prisma, task, {}) : undefined))
    .catch((error) => services.logger.error({ job: task.name, err: error }, 'enqueue failed'));
}

export function startScheduledJobs(services: Services) {
  const tick = () => {
    enqueue(services.prisma, purgeTask, {}).catch((error) => services.logger.error({ job: purgeTask.name, err: error }, 'enqueue failed'));
    scheduleLinkChecks(services).catch((error) => services.logger.error({ job: linkCheckTask.name, err: error }, 'enqueue failed'));
    refreshOpenAPISpecs(services).catch((error) => services.logger.error({ job: 'openapi-process', err: error }, 'enqueue failed'));
    scheduleHostnameChecks(services).catch((error) => services.logger.error({ job: hostnameCheckTask.name, err: error }, 'enqueue failed'));
  };
  void tick();
  backfillWhileListed(services, 'SearchBacklog', searchBackfillTask);
  backfillWhileListed(services, 'LinkBacklog', linkBackfillTask);
  const timer = setInterval(tick, services.config.purgeIntervalMinutes * 60_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
