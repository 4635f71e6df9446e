// The background job queue. graphile-worker keeps the schedule in the database (its own schema, graphile_worker):
// jobs survive restarts, failures retry with exponential backoff, a named queue runs its jobs one at a time, and a
// worker wakes on LISTEN/NOTIFY. The product's side of a job is a BackgroundJob row (kind, state, progress, attempts,
// last error), written in the same transaction that enqueues it, which is what callers read (GraphQL `job`).
// Workers run inside the service (JOB_CONCURRENCY) or as separate processes (`npm run worker`), on the same database.
// A worker runs the tasks it is given: the product's are listed once, in src/tasks.ts, and this file knows no domain.
import { type Runner, run, runMigrations, type TaskList, Logger as WorkerLogger } from 'graphile-worker';
import pg from 'pg';
import { type BackgroundJob, Prisma } from '../generated/prisma/client.js';
import type { Services } from '../kernel/context.js';
import { newId } from '../kernel/ids.js';
import type { Logger } from '../logger.js';

/** What a task is given besides its payload. */
export interface TaskHelpers {
  services: Services;
  job: BackgroundJob;
  /** Records how far the job has come (shown to callers while it runs). */
  progress(done: number, total: number): Promise<void>;
}

export interface TaskDefinition<Payload> {
  /** The job kind, stable across releases: queued jobs name it. */
  name: string;
  run(payload: Payload, helpers: TaskHelpers): Promise<void>;
  /** Attempts before the job is failed for good (default 5). */
  maxAttempts?: number;
  /**
   * Runs in a runner of its own, this many at a time, apart from the other jobs (which then never wait behind it): the
   * worker's concurrency does not count it.
   */
  concurrency?: (config: Services['config']) => number;
}

/** Any task, whatever its payload: what a worker is given (each task reads its own payload). */
export type AnyTask = TaskDefinition<never>;

/** A task, typed by its payload; it runs where it is listed (src/tasks.ts), which the layers test checks for each one. */
export function defineTask<Payload>(definition: TaskDefinition<Payload>): TaskDefinition<Payload> {
  return definition;
}

export interface EnqueueOptions {
  /** The organization the job works for: its admins may read it. */
  organizationId?: string | null;
  /** Who asked for it; they may read it too. */
  createdById?: string | null;
  /** Jobs of one queue run one at a time, in order (one queue per space for Git sync, say). */
  queue?: string;
  runAt?: Date;
}

type Tx = Pick<Services['prisma'], '$queryRaw' | '$executeRaw'>;

/** A condition that no job of `task` waits in the queue: for a tick or a write that enqueues one only then. */
export const noJobQueued = (task: AnyTask) =>
  Prisma.sql`NOT EXISTS (SELECT 1 FROM "BackgroundJob" WHERE kind = ${task.name} AND state = 'queued')`;

/**
 * Common table expressions `job` and `queued` that enqueue a job when `when` holds (it may read the statement's
 * earlier ones), for a statement that answers something else: its final SELECT must read `queued` whole (PostgreSQL
 * runs a reading CTE only as far as it is read). It writes the BackgroundJob row and graphile-worker's job together.
 */
export function enqueueingAside<Payload>(
  task: TaskDefinition<Payload>,
  payload: Payload,
  options: EnqueueOptions = {},
  when: Prisma.Sql = Prisma.sql`TRUE`,
): Prisma.Sql {
  const maxAttempts = task.maxAttempts ?? 5;
  return Prisma.sql`
    job AS (
      INSERT INTO "BackgroundJob" (id, kind, "organizationId", "createdById", payload, "maxAttempts", "createdAt")
      SELECT ${newId()}, ${task.name}, ${options.organizationId ?? null}, ${options.createdById ?? null},
             ${JSON.stringify(payload)}::jsonb, ${maxAttempts}, now()
       WHERE ${when}
      RETURNING *
    ),
    queued AS (
      SELECT job.id FROM job, LATERAL (
        SELECT graphile_worker.add_job(${task.name}, json_build_object('jobId', job.id),
          queue_name => ${options.queue ?? null}::text, run_at => ${options.runAt ?? null}::timestamptz,
          max_attempts => ${maxAttempts}::int)
      ) added
    )`;
}

/**
 * A data-modifying common table expression `name` that enqueues one job per row of `rows` (a table expression with the
 * columns `payload` jsonb, `"organizationId"`, `queue` and `"runAt"`): for a statement that fans work out, whatever it
 * answers (a data-modifying expression runs whether or not it is read).
 */
export function enqueueingEach<Payload>(task: TaskDefinition<Payload>, name: string, rows: Prisma.Sql): Prisma.Sql {
  const maxAttempts = task.maxAttempts ?? 5;
  return Prisma.sql`
    ${Prisma.raw(name)} AS (
      INSERT INTO "BackgroundJob" (id, kind, "organizationId", payload, "maxAttempts", "createdAt")
      SELECT each.id, ${task.name}, each."organizationId", each.payload, ${maxAttempts}, now()
        FROM (SELECT replace(gen_random_uuid()::text, '-', '') AS id, source.* FROM (${rows}) source) each
        CROSS JOIN LATERAL graphile_worker.add_job(${task.name}, json_build_object('jobId', each.id),
          queue_name => each.queue, run_at => each."runAt", max_attempts => ${maxAttempts}::int) added
      RETURNING id
    )`;
}

/**
 * The end of a statement that enqueues a job when `when` holds: `job AS (...), queued AS (...) SELECT <the job's
 * row>`, to follow the statement's `WITH` (and its own common table expressions), so that a write can ask for work in
 * its own statement.
 */
export function enqueueing<Payload>(
  task: TaskDefinition<Payload>,
  payload: Payload,
  options: EnqueueOptions = {},
  when: Prisma.Sql = Prisma.sql`TRUE`,
): Prisma.Sql {
  return Prisma.sql`${enqueueingAside(task, payload, options, when)} SELECT job.* FROM job JOIN queued USING (id)`;
}

/**
 * Enqueues a job: its BackgroundJob row and graphile-worker's job, in one statement, in the caller's transaction
 * when given one (the job then exists exactly if the work that asked for it commits).
 */
export async function enqueue<Payload>(
  db: Tx,
  task: TaskDefinition<Payload>,
  payload: Payload,
  options: EnqueueOptions = {},
): Promise<BackgroundJob> {
  const [job] = await db.$queryRaw<BackgroundJob[]>(Prisma.sql`WITH ${enqueueing(task, payload, options)}`);
  return job;
}

/** Installs or upgrades graphile-worker's schema (idempotent; run with the migrations, before any enqueue). */
export async function installJobQueue(databaseUrl: string): Promise<void> {
  await runMigrations({ connectionString: databaseUrl, logger: quietLogger });
}

const quietLogger = new WorkerLogger(() => () => {});

/** graphile-worker's log lines through the service's logger, at debug below warnings. */
function workerLogger(logger: Logger) {
  return new WorkerLogger((scope) => (level, message, meta) => {
    const line = { ...scope, ...meta, component: 'jobs' };
    if (level === 'error') logger.error(line, message);
    else if (level === 'warning') logger.warn(line, message);
    else logger.debug(line, message);
  });
}

/** Forgets the jobs that finished before `before`: what callers could still follow has been read by then. */
export const forgetFinishedJobs = (db: Tx, before: Date) =>
  db.$executeRaw(Prisma.sql`DELETE FROM "BackgroundJob" WHERE "finishedAt" < ${before}`);

/**
 * The task list graphile-worker runs: each job's row goes running (attempt counted), then succeeded, or back to
 * queued with its error while attempts remain (graphile-worker retries it with backoff), or failed for good.
 */
function taskList(services: Services, tasks: readonly AnyTask[]): TaskList {
  const list: TaskList = {};
  for (const task of tasks) {
    const name = task.name;
    if (list[name]) throw new Error(`Task ${name} is listed twice.`);
    list[name] = async (raw) => {
      const { jobId } = raw as { jobId: string };
      const [job] = await services.prisma.$queryRaw<BackgroundJob[]>`
        UPDATE "BackgroundJob" SET state = 'running', attempts = attempts + 1, "startedAt" = coalesce("startedAt", ${services.clock.now()}),
               "lastError" = NULL
         WHERE id = ${jobId} RETURNING *`;
      // A job whose row is gone (its organization deleted, say) has nothing left to do.
      if (!job) return;
      const helpers: TaskHelpers = {
        services,
        job,
        progress: async (done, total) => {
          await services.prisma
            .$executeRaw`UPDATE "BackgroundJob" SET "progressDone" = ${done}, "progressTotal" = ${total} WHERE id = ${jobId}`;
        },
      };
      try {
        await task.run(job.payload as never, helpers);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const final = job.attempts >= job.maxAttempts;
        await services.prisma.$executeRaw`
          UPDATE "BackgroundJob" SET state = ${final ? 'failed' : 'queued'}::"BackgroundJobState", "lastError" = ${message},
                 "finishedAt" = ${final ? services.clock.now() : null}
           WHERE id = ${jobId}`;
        services.logger.warn({ job: jobId, kind: name, attempt: job.attempts, final, err: error }, 'job failed');
        throw error;
      }
      await services.prisma.$executeRaw`
        UPDATE "BackgroundJob" SET state = 'succeeded', "finishedAt" = ${services.clock.now()} WHERE id = ${jobId}`;
    };
  }
  return list;
}

/** Connections of a worker's pool: graphile-worker's own default. */
const WORKER_POOL_SIZE = 10;

/** A running worker of these tasks: `concurrency` jobs at a time; stop() lets the running ones finish. */
export async function startWorker(
  services: Services,
  databaseUrl: string,
  concurrency: number,
  tasks: readonly AnyTask[],
): Promise<{ stop(): Promise<void> }> {
  // The worker's own pool, not one graphile-worker makes: it ends a pool of its own without waiting, and drops that
  // pool's error handlers first, so that a connection the server closes meanwhile (a restart, a database dropped
  // after the worker stopped) would throw in the process. This one keeps its handlers until it has ended.
  const ownConcurrency = tasks.reduce((sum, task) => sum + (task.concurrency?.(services.config) ?? 0), 0);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: WORKER_POOL_SIZE + ownConcurrency });
  const closedByServer = (error: Error) => services.logger.warn({ err: error }, 'job queue connection closed by the server');
  pool.on('error', closedByServer);
  pool.on('connect', (client) => client.on('error', closedByServer));
  const start = (runnerTasks: readonly AnyTask[], runnerConcurrency: number): Promise<Runner> =>
    run({
      pgPool: pool,
      concurrency: runnerConcurrency,
      noHandleSignals: true,
      pollInterval: 2000,
      taskList: taskList(services, runnerTasks),
      logger: workerLogger(services.logger),
    });
  // A runner fetches only the jobs of its own tasks: a task of its own concurrency never takes the others' turns.
  const shared = tasks.filter((task) => !task.concurrency);
  const runners: Runner[] = [await start(shared, concurrency)];
  for (const task of tasks) if (task.concurrency) runners.push(await start([task], task.concurrency(services.config)));
  return {
    async stop() {
      await Promise.all(runners.map((runner) => runner.stop()));
      await pool.end();
    },
  };
}
