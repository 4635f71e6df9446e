// The sweep: bytes that no row names are removed, in both backends, once older than FILES_SWEEP_GRACE_MINUTES. A key
// is named (named.ts) by any version of any file of any space (history and change requests included, deleted spaces until
// purged), an integration's assets, an exported PDF until its link expires, or a live intent (storage.ts). So purging
// a space, and a batch that failed after storing its files, both end with the bytes gone; bytes shared by content
// addressing stay while anything names them.
//
// Each batch of keys is checked and removed under the sweep lock, taken exclusively and without waiting: writers'
// intents wait for the batch (they take the lock shared), and a running backup (which holds it shared for its whole
// run) pauses the sweep until the next tick.
import { Prisma } from '../generated/prisma/client.js';
import { defineTask, enqueueing, noJobQueued } from '../jobs/queue.js';
import type { Services } from '../kernel/context.js';
import { namedKeysSql } from './named.js';
import { STORAGE_KEY, SWEEP_LOCK } from './storage.js';

/** Leftovers of a local write that never finished: `<key>.<random>.partial`. */
const PARTIAL = /^[0-9a-f]{64}\.[0-9a-f]{16}\.partial$/;
/** Keys checked and removed per transaction: S3's DeleteObjects takes 1000. */
const BATCH = 1000;

export interface SweepOutcome {
  /** Keys old enough to be removed if unnamed. */
  checked: number;
  removed: number;
  /** A backup (or another sweep) held the lock: nothing was removed from then on. */
  paused: boolean;
}

type SweepServices = Pick<Services, 'prisma' | 'files' | 'clock' | 'config'>;

/** The keys among `keys` that nothing names at `now`. */
const unnamedSql = (keys: string[], now: Date) => Prisma.sql`
  SELECT k.key FROM unnest(${keys}::text[]) AS k(key)
   WHERE NOT EXISTS (SELECT 1 FROM (${namedKeysSql(now)!}) named WHERE named.key = k.key)`;

/** Removes the unnamed among `keys` under the sweep lock; null when the lock is held elsewhere. */
async function sweepBatch(services: SweepServices, keys: string[], now: Date): Promise<number | null> {
  return services.prisma.$transaction(
    async (tx) => {
      const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}::bigint) AS locked`;
      if (!locked) return null;
      const unnamed = (await tx.$queryRaw<{ key: string }[]>(unnamedSql(keys, now))).map((row) => row.key);
      await services.files.remove(unnamed);
      return unnamed.length;
    },
    // Removing a thousand objects from a remote store may take a while; writers of intents wait for it.
    { timeout: 5 * 60_000, maxWait: 60_000 },
  );
}

export async function sweepFiles(services: SweepServices): Promise<SweepOutcome> {
  const now = services.clock.now();
  await services.prisma.$executeRaw`DELETE FROM "FileIntent" WHERE "expiresAt" <= ${now}`;
  await services.prisma.$executeRaw`DELETE FROM "FileExport" WHERE "expiresAt" <= ${now}`;
  const storedBefore = now.getTime() - services.config.filesSweepGraceMinutes * 60_000;
  const outcome: SweepOutcome = { checked: 0, removed: 0, paused: false };
  let batch: string[] = [];
  const flush = async () => {
    const removed = batch.length ? await sweepBatch(services, batch, now) : 0;
    outcome.checked += batch.length;
    batch = [];
    if (removed === null) outcome.paused = true;
    else outcome.removed += removed;
  };
  for await (const object of services.files.list()) {
    // Objects under the prefix that are not ours (no content address, no leftover of ours) are left alone.
    if (object.storedAt.getTime() > storedBefore || !(STORAGE_KEY.test(object.key) || PARTIAL.test(object.key))) continue;
    batch.push(object.key);
    if (batch.length === BATCH) await flush();
    if (outcome.paused) return outcome;
  }
  await flush();
  return outcome;
}

export const filesSweepTask = defineTask<Record<string, never>>({
  name: 'files-sweep',
  maxAttempts: 1,
  run: async (_payload, { services }) => {
    const outcome = await sweepFiles(services);
    if (outcome.removed || outcome.paused) services.logger.info({ job: 'files-sweep', ...outcome }, 'job done');
  },
});

/** The sweep's tick: a sweep job, unless one is already waiting. */
export async function scheduleFilesSweep(services: Pick<Services, 'prisma'>): Promise<void> {
  await services.prisma.$queryRaw(Prisma.sql`
    WITH ${enqueueing(filesSweepTask, {}, { queue: filesSweepTask.name }, noJobQueued(filesSweepTask))}`);
}
