// `npm run worker`: a process that runs background jobs only (no HTTP), JOB_CONCURRENCY at a time (at least 1), on
// the database of the configuration, for scale-out beside service processes started with JOB_CONCURRENCY=0. Stops
// on SIGTERM/SIGINT after the jobs it is running finish.
import { createApp } from './app.js';
import { loadConfigOrExit } from './config.js';
import { openDatabase } from './db/open.js';
import { startWorker } from './jobs/queue.js';
import { loadInstanceSecret } from './kernel/secrets.js';
import { createLogger } from './logger.js';
// Every domain's tasks register when their modules load, as they do in the service.
import './schema.js';
import './jobs/schedule.js';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel);
const database = await openDatabase(config);
const app = createApp({ config, databaseUrl: database.url, secret: loadInstanceSecret(config.dataDir, config.secretKey), logger });
const worker = await startWorker(app.services, database.url, Math.max(1, config.jobConcurrency));
logger.info({ concurrency: Math.max(1, config.jobConcurrency) }, 'worker running');

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) process.exit(130);
  stopping = true;
  logger.info({ signal }, 'worker stopping: finishing running jobs');
  await worker.stop();
  await app.close();
  await database.stop();
  await new Promise<void>((resolve) => logger.flush(() => resolve()));
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
