// Scheduled work: at start-up, then every PURGE_INTERVAL_MINUTES (default 60) or its own interval, each service process runs the ticks it
// is given (src/tasks.ts lists them: mostly enqueueing a job when there is work, which a worker then runs). Several
// instances tick at once: what a tick enqueues is idempotent, or waits for a job of its kind already queued. At
// start-up it also enqueues each backfill while the backlog its migration filled is not empty. This file knows no
// domain: the ticks and backfills come from the composition root.
import type { Config } from '../config.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Services } from '../kernel/context.js';
import { enqueue, type TaskDefinition } from './queue.js';

/** Work of every tick, named (after the job it enqueues) for the log line of its failure. */
export interface Tick {
  name: string;
  run(services: Services): Promise<unknown>;
  /** How often it runs, when not every PURGE_INTERVAL_MINUTES. */
  everyMinutes?(config: Config): number;
}

/** A task enqueued once, at start-up, while `table` (the backlog a migration filled, which the task empties) has rows. */
export interface Backfill {
  table: string;
  task: TaskDefinition<Record<string, never>>;
}

export interface Schedule {
  ticks: readonly Tick[];
  backfills: readonly Backfill[];
}

function enqueueBackfill(services: Services, { table, task }: Backfill) {
  void services.prisma
    .$queryRaw<{ waiting: boolean }[]>(Prisma.sql`SELECT EXISTS (SELECT 1 FROM ${Prisma.raw(`"${table}"`)}) AS waiting`)
    .then(([{ waiting }]) => (waiting ? enqueue(services.prisma, task, {}) : undefined))
    .catch((error) => services.logger.error({ job: task.name, err: error }, 'enqueue failed'));
}

export function startScheduledJobs(services: Services, schedule: Schedule) {
  const run = (ticks: readonly Tick[]) => {
    for (const { name, run } of ticks) {
      Promise.resolve()
        .then(() => run(services))
        .catch((error) => services.logger.error({ job: name, err: error }, 'enqueue failed'));
    }
  };
  run(schedule.ticks);
  for (const backfill of schedule.backfills) enqueueBackfill(services, backfill);
  const byInterval = new Map<number, Tick[]>();
  for (const tick of schedule.ticks) {
    const minutes = tick.everyMinutes?.(services.config) ?? services.config.purgeIntervalMinutes;
    byInterval.set(minutes, [...(byInterval.get(minutes) ?? []), tick]);
  }
  const timers = [...byInterval].map(([minutes, ticks]) => {
    const timer = setInterval(() => run(ticks), minutes * 60_000);
    timer.unref();
    return timer;
  });
  return { stop: () => timers.forEach(clearInterval) };
}
