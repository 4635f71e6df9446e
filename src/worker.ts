// `npm run worker`: a process that runs background jobs only (no HTTP), JOB_CONCURRENCY at a time (at least 1), on
// the database of the configuration, for scale-out beside service processes started with JOB_CONCURRENCY=0. Stops
// on SIGTERM/SIGINT after the jobs it is running finish.
import { resealSecrets } from './admin/reseal.js';
import { createApp } from './app.js';
import { loadConfigOrExit } from './config.js';
import { openDatabase } from './db/open.js';
import { startWorker } from './jobs/queue.js';
import { loadInstanceSecret } from './kernel/secrets.js';
import { Lifecycle } from './lifecycle.js';
import { createLogger } from './logger.js';
import { tasks } from './tasks.js';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel);
const lifecycle = new Lifecycle(logger, { stopping: 'worker stopping: finishing running jobs', stopped: 'worker stopped' });
try {
  const database = lifecycle.started(await openDatabase(config, { logger }), (opened) => opened.stop());
  const secret = loadInstanceSecret(config.dataDir, config.secretKey);
  await resealSecrets(database.url, secret, logger);
  const app = lifecycle.started(createApp({ config, databaseUrl: database.url, secret, logger }), (created) => created.close());
  const concurrency = Math.max(1, config.jobConcurrency);
  lifecycle.started(await startWorker(app.services, database.url, concurrency, tasks), (worker) => worker.stop());
  logger.info({ concurrency }, 'worker running');
  lifecycle.running();
} catch (error) {
  await lifecycle.failed(`Worker start-up failed: ${String((error as Error)?.message ?? error)}`, error);
}
