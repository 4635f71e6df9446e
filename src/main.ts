// `npm start`: open the database (embedded unless DATABASE_URL is set), migrate, bootstrap an empty instance,
// serve, run the scheduled jobs, and shut down cleanly on SIGTERM/SIGINT. A failure on the way stops whatever this
// process started (the embedded PostgreSQL above all) and says in one line what went wrong and what to do.
import { bootstrap } from './admin/commands.js';
import { type App, createApp } from './app.js';
import { type Config, ConfigError, loadConfig, loadEnvFile } from './config.js';
import { type OpenedDatabase, openDatabase } from './db/open.js';
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

let database: OpenedDatabase | undefined;
let app: App | undefined;
try {
  database = await openDatabase(config);
  logger.info({ embedded: database.embedded }, 'database ready');
  app = createApp({ config, databaseUrl: database.url, secret: loadInstanceSecret(config.dataDir, config.secretKey), logger });
  const first = await bootstrap(app.db.prisma, config.bootstrap);
  const url = await app.listen();
  if (first) {
    // Printed once, on the first start of an empty database; only the token's hash is stored.
    process.stdout.write(
      `\nFirst start: created organization ${first.organizationId} owned by ${first.email}.\n` +
        `API token (shown once, keep it safe): ${first.token}\n` +
        `Its id, to revoke it: npm run -s admin -- token revoke --id ${first.tokenId}\n` +
        `Try: curl -H "Authorization: Bearer ${first.token}" ${url}/v1/orgs\n\n`,
    );
  }
  if (!first) {
    logger.info({ command: 'npm run -s admin -- token create --email <your e-mail>' }, 'token lost? create another with this command');
  }
  // After the token: whoever waits for this line (a supervisor, the end-to-end test) has the token too.
  logger.info({ url, graphql: `${url}/graphql` }, 'listening');
} catch (error) {
  if (config.logLevel === 'debug' || config.logLevel === 'trace') logger.debug({ err: error }, 'start-up failed');
  await app?.close().catch(() => {});
  await database?.stop().catch(() => {});
  await new Promise<void>((resolve) => logger.flush(() => resolve()));
  process.stderr.write(`${explain(error)}\n`);
  process.exit(1);
}
const running = { app, database };
const jobs = startScheduledJobs(running.app.services, logger);

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
  await running.app.close();
  await running.database.stop();
  logger.info('stopped');
  // On a terminal the lines go through a worker (pino-pretty): let them out before exiting.
  await new Promise<void>((resolve) => logger.flush(() => resolve()));
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
