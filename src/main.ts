// `npm start`: open the database (embedded unless DATABASE_URL is set), migrate, bootstrap an empty instance,
// serve, run the scheduled and background jobs (JOB_CONCURRENCY at a time), and shut down cleanly on SIGTERM/SIGINT. A failure on the way stops whatever this
// process started (the embedded PostgreSQL above all) and says in one line what went wrong and what to do.
import { bootstrap } from './admin/commands.js';
import { resealSecrets } from './admin/reseal.js';
import { createApp } from './app.js';
import { loadConfigOrExit } from './config.js';
import { openDatabase } from './db/open.js';
import { startWorker } from './jobs/queue.js';
import { startScheduledJobs } from './jobs/schedule.js';
import { loadInstanceSecret } from './kernel/secrets.js';
import { Lifecycle } from './lifecycle.js';
import { createLogger } from './logger.js';
import { schedule, tasks } from './tasks.js';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel);

/** One line for a start-up failure: what went wrong, and the setting that fixes it where there is one. */
function explain(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  switch (code) {
    case 'EADDRINUSE':
      return `Port ${config.port} is in use on ${config.host}; set PORT to a free port.`;
    case 'EACCES':
      return `Port ${config.port} needs privileges this process does not have; set PORT to 1024 or above.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `HOST ${config.host} is not an address of this machine; set HOST (127.0.0.1, 0.0.0.0, or one of its addresses).`;
    default:
      return `Start-up failed: ${String(message ?? error)
        .replace(/\s+/g, ' ')
        .trim()}`;
  }
}

const lifecycle = new Lifecycle(logger, { stopping: 'shutting down: finishing in-flight requests', stopped: 'stopped' });
try {
  const database = lifecycle.started(await openDatabase(config, { logger }), (opened) => opened.stop());
  logger.info({ embedded: database.embedded }, 'database ready');
  const secret = loadInstanceSecret(config.dataDir, config.secretKey);
  await resealSecrets(database.url, secret, logger);
  const app = lifecycle.started(createApp({ config, databaseUrl: database.url, secret, logger }), (created) => created.close());
  const first = await bootstrap(app.db.prisma, config.bootstrap);
  const url = await app.listen();
  lifecycle.started(startScheduledJobs(app.services, schedule), (jobs) => jobs.stop());
  if (config.jobConcurrency > 0) {
    lifecycle.started(await startWorker(app.services, database.url, config.jobConcurrency, tasks), (worker) => worker.stop());
  }
  if (first) {
    // Printed once, on the first start of an empty database; only the token's hash is stored.
    process.stdout.write(
      `\nFirst start: created organization ${first.organizationId} owned by ${first.email}.\n` +
        `API token (shown once, keep it safe): ${first.token}\n` +
        `Its id, to revoke it: npm run -s admin -- token revoke --id ${first.tokenId}\n` +
        `Try: curl -H "Authorization: Bearer ${first.token}" ${url}/v1/orgs\n\n`,
    );
  } else {
    logger.info({ command: 'npm run -s admin -- token create --email <your e-mail>' }, 'token lost? create another with this command');
  }
  // Last, after the token and the workers: whoever waits for this line (a supervisor, the end-to-end test) finds
  // the service whole.
  logger.info({ url, graphql: `${url}/graphql` }, 'listening');
  lifecycle.running();
} catch (error) {
  await lifecycle.failed(explain(error), error);
}
