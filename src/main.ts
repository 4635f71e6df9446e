// `npm start`: open the database (embedded unless DATABASE_URL is set), migrate, bootstrap an empty instance,
// serve, run the scheduled jobs, and shut down cleanly on SIGTERM/SIGINT.
import { bootstrap } from './admin/commands.js';
import { createApp } from './app.js';
import { type Config, ConfigError, loadConfig, loadEnvFile } from './config.js';
import { openDatabase } from './db/open.js';
import { startScheduledJobs } from './jobs.js';
import { loadInstanceSecret } from './kernel/secrets.js';
import { createLogger } from './logger.js';

loadEnvFile();
let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
const logger = createLogger(config.logLevel);

const database = await openDatabase(config);
logger.info({ embedded: database.embedded }, 'database ready');

const app = createApp({ config, databaseUrl: database.url, secret: loadInstanceSecret(config.dataDir, config.secretKey), logger });
const first = await bootstrap(app.db.prisma, config.bootstrap);
const url = await app.listen();
if (first) {
  // Printed once, on the first start of an empty database; only the token's hash is stored.
  process.stdout.write(
    `\nFirst start: created organization ${first.organizationId} owned by ${first.email}.\n` +
      `API token (shown once, keep it safe): ${first.token}\n` +
      `Try: curl -H "Authorization: Bearer ${first.token}" ${url}/v1/orgs\n\n`,
  );
}
// After the token: whoever waits for this line (a supervisor, the end-to-end test) has the token too.
logger.info({ url, graphql: `${url}/graphql` }, 'listening');
const jobs = startScheduledJobs(app.services, logger);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) {
    // A second Ctrl-C (or SIGTERM) does not wait for in-flight requests.
    logger.warn({ signal }, 'forced exit');
    process.exit(130);
  }
  stopping = true;
  logger.info({ signal }, 'shutting down: finishing in-flight requests');
  jobs.stop();
  await app.close();
  await database.stop();
  logger.info('stopped');
  // On a terminal the lines go through a worker (pino-pretty): let them out before exiting.
  await new Promise<void>((resolve) => logger.flush(() => resolve()));
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
