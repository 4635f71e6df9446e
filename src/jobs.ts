// Scheduled jobs, run inside the service process: at start-up, then every PURGE_INTERVAL_MINUTES (default 60).
// The only job so far, the purge of deleted spaces, is idempotent, so several instances may run it concurrently.
import type { Services } from './kernel/context.js';
import type { Logger } from './logger.js';
import { purgeDeletedSpaces } from './spaces/purge.js';

export function startScheduledJobs(services: Services, logger: Logger) {
  const intervalMinutes = services.config.purgeIntervalMinutes;
  const run = async () => {
    try {
      const removed = await purgeDeletedSpaces(services.prisma, services.clock.now());
      if (removed) logger.info({ job: 'purge-deleted-spaces', removed }, 'job done');
    } catch (error) {
      logger.error({ job: 'purge-deleted-spaces', err: error }, 'job failed');
    }
  };
  void run();
  const timer = setInterval(run, intervalMinutes * 60_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
