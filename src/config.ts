// Runtime configuration, read once from the environment (and a .env file). Every variable is documented in
// README.md, and every one is validated: a bad value stops the start with a line that names it.
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/** Loads `.env` from the working directory when there is one; variables already in the environment win. */
export function loadEnvFile(directory = process.cwd()): void {
  const file = path.join(directory, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
}

const MB = 1024 * 1024;

const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** A whole number from `min` to `max`, given as text, with one message for whatever is wrong with it. */
const wholeNumber = (min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

/** A DNS server as node:dns's setServers takes it: an IP address, with a port after it (`[v6]:port` for IPv6). */
function isDnsServer(server: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server);
  const v4WithPort = /^([\d.]+):(\d{1,5})$/.exec(server);
  const [address, port] = bracketed ? [bracketed[1], bracketed[2]] : v4WithPort ? [v4WithPort[1], v4WithPort[2]] : [server, undefined];
  const family = isIP(address);
  if (!family || (bracketed && family !== 6) || (v4WithPort && family !== 4)) return false;
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

const DURATION_SECONDS = { s: 1, m: 60, h: 3600 } as const;
/** The longest wait between two attempts of a webhook delivery, and the longest all its waits may add up to. */
const WEBHOOK_MAX_WAIT_SECONDS = 24 * 3600;
const WEBHOOK_MAX_SCHEDULE_SECONDS = 2 * 24 * 3600;

/** `5s,15s,1m`: the waits before each retry, 1 to 20 of them, each from 1s to 24h, together at most 48h. */
const retrySchedule = z.string().transform((text, check) => {
  const waits = text.split(',').map((part) => {
    const match = /^\s*(\d+)\s*([smh])\s*$/.exec(part);
    return match ? Number(match[1]) * DURATION_SECONDS[match[2] as keyof typeof DURATION_SECONDS] : Number.NaN;
  });
  const valid = waits.length >= 1 && waits.length <= 20 && waits.every((wait) => wait >= 1 && wait <= WEBHOOK_MAX_WAIT_SECONDS);
  if (!valid || waits.reduce((sum, wait) => sum + wait, 0) > WEBHOOK_MAX_SCHEDULE_SECONDS) {
    check.addIssue({ code: 'custom', message: 'must be 1 to 20 comma-separated waits (5s, 1m, 6h), each 1s to 24h, together at most 48h' });
    return z.NEVER;
  }
  return waits.map((wait) => wait * 1000);
});

const Env = z.object({
  PORT: wholeNumber(0, 65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  FILES_DIR: z.string().min(1).optional(),
  FILES_STORE: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  S3_REGION: z.string().min(1).optional(),
  AWS_REGION: z.string().min(1).optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_PREFIX: z.string().default(''),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  S3_CHECKSUMS: z.enum(['when_required', 'when_supported'], { error: 'must be when_required or when_supported' }).default('when_required'),
  S3_PRESIGNED_DOWNLOADS: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  FILES_SWEEP_MINUTES: wholeNumber(1, 7 * 24 * 60).default(60),
  FILES_SWEEP_GRACE_MINUTES: wholeNumber(1, 7 * 24 * 60).default(60),
  STORAGE_QUOTA_MB: wholeNumber(0, 1_000_000_000).default(0),
  SHUTDOWN_DRAIN_SECONDS: wholeNumber(0, 300).default(0),
  PUBLIC_URL: z.string().url().optional(),
  APP_URL: z.string().url().optional(),
  SITES_URL: z.string().url().optional(),
  LOG_LEVEL: LogLevel.default('info'),
  DB_POOL_SIZE: wholeNumber(1, 200).default(10),
  DATABASE_WAIT_SECONDS: wholeNumber(0, 600).default(30),
  GRAPHQL_MAX_DEPTH: wholeNumber(1, 100).default(15),
  GRAPHQL_MAX_COST: wholeNumber(1, 1_000_000_000).default(1_000_000),
  GRAPHQL_MAX_ALIASES: wholeNumber(0, 10_000).default(50),
  GRAPHQL_MAX_TOKENS: wholeNumber(1, 1_000_000).default(5000),
  GRAPHQL_MAX_DIRECTIVES: wholeNumber(0, 10_000).default(50),
  PURGE_INTERVAL_MINUTES: wholeNumber(1, 7 * 24 * 60).default(60),
  AUDIT_RETENTION_DAYS: wholeNumber(1, 100 * 365).default(365),
  IDEMPOTENCY_KEY_HOURS: wholeNumber(1, 7 * 24).default(24),
  JOB_CONCURRENCY: wholeNumber(0, 50).default(2),
  WEBHOOK_CONCURRENCY: wholeNumber(1, 50).default(4),
  WEBHOOK_RETRY_SCHEDULE: retrySchedule.prefault('5s,15s,1m,10m,1h,6h,12h'),
  WEBHOOK_TIMEOUT_SECONDS: wholeNumber(1, 60).default(10),
  WEBHOOK_FAILURES_TO_DISABLE: wholeNumber(1, 1000).default(20),
  LINK_CHECK_TIMEOUT_SECONDS: wholeNumber(1, 120).default(10),
  GIT_MAX_DOWNLOAD_MB: wholeNumber(1, 10_240).default(200),
  // Below 2 GiB: isomorphic-git reads an object's size in 32-bit arithmetic.
  GIT_MAX_OBJECT_MB: wholeNumber(1, 1024).default(100),
  GIT_MAX_IMPORT_MB: wholeNumber(1, 65_536).default(500),
  GIT_MAX_OBJECTS: wholeNumber(1, 10_000_000).default(200_000),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  BOOTSTRAP_EMAIL: z.email().optional(),
  BOOTSTRAP_ORGANIZATION: z.string().trim().min(2).max(255).optional(),
  CORS_ORIGINS: z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.union([
          z.literal('*'),
          z.url().refine((url) => new URL(url).origin === url, 'each origin must be scheme://host[:port], no path'),
        ]),
      ),
    )
    .optional(),
  RATE_LIMIT_PER_MINUTE: wholeNumber(0, 1_000_000).default(1000),
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: wholeNumber(0, 1_000_000).default(60),
  RATE_LIMIT_FAILED_AUTH_PER_MINUTE: wholeNumber(0, 1_000_000).default(20),
  RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('memory'),
  TRUST_PROXY: z
    .string()
    .regex(/^(false|true|[1-9]|10)$/, { error: 'must be false, true or a number of proxies from 1 to 10' })
    .transform((text) => (text === 'false' ? 0 : text === 'true' ? 1 : Number(text)))
    .default(0),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().trim().min(3).max(320).default('Docs platform <no-reply@localhost>'),
  SSO_SESSION_MINUTES: wholeNumber(1, 7 * 24 * 60).default(60),
  INVITE_MAILS_PER_DAY: wholeNumber(0, 1_000_000).default(500),
  VISITOR_TOKEN_MAX_HOURS: wholeNumber(1, 365 * 24).default(24),
  ALLOW_PRIVATE_NETWORK: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  FETCH_IDLE_TIMEOUT_SECONDS: wholeNumber(1, 300).default(10),
  BUILD_DATE: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  DNS_SERVERS: z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((server) => server.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.string())
        .min(1)
        .refine((servers) => servers.every(isDnsServer), 'must be comma-separated IP addresses, each with an optional :port ([v6]:port)'),
    )
    .optional(),
  HOSTNAME_RECHECK_MINUTES: wholeNumber(1, 30 * 24 * 60).default(24 * 60),
  DOWNLOAD_LINK_MINUTES: wholeNumber(1, 24 * 60).default(15),
  ORGANIZATION_CREATION: z.enum(['admins', 'users'], { error: 'must be admins or users' }).default('admins'),
  INSTANCE_ADMINS: z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email({ error: 'must be comma-separated e-mail addresses' })))
    .default([]),
});

export interface Config {
  port: number;
  host: string;
  /** Unset: run an embedded PostgreSQL under `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** Where the local backend keeps files' bytes (src/files/local-store.ts). */
  filesDir: string;
  /** Which backend keeps files' bytes (src/files/store.ts). */
  fileStore: { kind: 'local' } | S3Settings;
  /** How often the sweep removes bytes no row names (src/files/sweep.ts), and the age below which it keeps them. */
  filesSweepMinutes: number;
  filesSweepGraceMinutes: number;
  /** The bytes an organization's rows may name (src/files/usage.ts); 0: no quota. */
  storageQuotaBytes: number;
  /** How long a stopping service keeps serving, not ready, before it stops accepting connections (src/app.ts). */
  shutdownDrainSeconds: number;
  /** Base of every `urls.location` (the API) and, through appUrl, `urls.app`. No trailing slash. */
  publicUrl: string;
  appUrl: string;
  /** Base of the published URLs of sites without a hostname or proxy of their own. No trailing slash. */
  sitesUrl: string;
  logLevel: z.infer<typeof LogLevel>;
  poolSize: number;
  /** Limits of a query sent to POST /graphql (REST's operations are fixed, and not subject to them). */
  graphql: { maxDepth: number; maxCost: number; maxAliases: number; maxTokens: number; maxDirectives: number };
  /** How long a start waits for DATABASE_URL's server to accept connections. */
  databaseWaitSeconds: number;
  /** How often the purge of deleted spaces runs. */
  purgeIntervalMinutes: number;
  /** How long audit events (client addresses included) are kept; the purge deletes older ones. */
  auditRetentionDays: number;
  /** How long a REST request's Idempotency-Key keeps its answer for retries (src/kernel/idempotency.ts). */
  idempotencyKeyHours: number;
  /** Background jobs this process runs at once; 0: none (separate `npm run worker` processes run them). */
  jobConcurrency: number;
  /**
   * Webhook deliveries (src/webhooks/delivery.ts): how many a worker sends at once, apart from other jobs; the waits
   * before each retry (milliseconds); how long a receiver has to answer; and how many deliveries failed for good in a
   * row disable a webhook.
   */
  webhooks: { concurrency: number; retryScheduleMs: number[]; timeoutSeconds: number; failuresToDisable: number };
  /** How long a check of an external link may take, redirects included, before the link counts as broken. */
  linkCheckTimeoutSeconds: number;
  /**
   * Limits of one Git sync operation (src/git-sync/pack.ts): bytes downloaded (packs compressed), one object's size
   * inflated, the bytes of all the objects it fetches inflated, and how many objects it fetches.
   */
  git: { downloadBytes: number; objectBytes: number; inflatedBytes: number; objects: number };
  /** The instance secret; unset: generated into `dataDir` (src/kernel/secrets.ts). */
  secretKey?: string;
  /** Owner and title created on the first start of an empty database. */
  bootstrap: { email?: string; title?: string };
  /** Origins whose browser pages may call the API (CORS); `*` for any; unset: none. */
  corsOrigins?: string[];
  /**
   * Requests a minute per valid API token, per client address for requests without a token, and failed
   * authentications a minute per client address (each 0: unlimited), counted in this process or in PostgreSQL
   * (shared by every instance on the database).
   */
  rateLimits: { perToken: number; anonymousPerAddress: number; failedAuthenticationsPerAddress: number; store: 'memory' | 'postgres' };
  /**
   * Proxies in front of the service, each appending the address it was reached from to X-Forwarded-For: the client
   * address is the one the outermost appended, this many from the right. 0: the connection's peer is the client.
   */
  trustedProxies: number;
  /** Where e-mail goes (invites); unset: each message is written to the log instead. */
  mail: { smtpUrl?: string; from: string };
  /** Lifetime of the API token a SAML login answers with. */
  ssoSessionMinutes: number;
  /** Invitation e-mails an organization may send in any 24 hours (src/invites/email-invites.ts); 0: no quota. */
  inviteMailsPerDay: number;
  /** The longest life a visitor token of a visitor-auth site may have (src/publishing-auth/visitors.ts). */
  visitorTokenMaxHours: number;
  /** Whether outbound requests may reach loopback, private and link-local addresses (src/kernel/fetcher.ts). */
  allowPrivateNetwork: boolean;
  /** The longest an outbound request waits for a connection, for the answer's headers, or between pieces of its body. */
  fetchIdleTimeoutSeconds: number;
  /** The release date GET /v1/ reports, set by whoever packages the service. */
  buildDate?: string;
  /** The DNS servers that checks of hostname proofs ask (`ip` or `ip:port`); unset: the system's resolvers. */
  dnsServers?: string[];
  /** How often an active hostname or proxy claim has its proof checked again. */
  hostnameRecheckMinutes: number;
  /** How long a signed download link of a file works (src/files/download.ts). */
  downloadLinkMinutes: number;
  /** Who creates organizations over the API: the instance's admins only, or any user. */
  organizationCreation: 'admins' | 'users';
  /** The instance's admins, by e-mail: the users with these addresses when the service starts. */
  instanceAdmins: string[];
}

/** The S3 backend's settings (src/files/s3-store.ts); credentials unset: the SDK's own chain (AWS_* variables, profiles). */
export interface S3Settings {
  kind: 's3';
  endpoint?: string;
  region: string;
  bucket: string;
  prefix: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  checksums: 'when_required' | 'when_supported';
  /** Downloads redirect to a presigned URL of the object instead of streaming through the API. */
  presignedDownloads: boolean;
}

/** An error of configuration: its message names the variable and what it takes, for a one-line report. */
export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `${i.path.join('.')} ${i.message.replace(/^Invalid input: /, '')} (got ${JSON.stringify(env[String(i.path[0])])})`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}.`);
  }
  const e = parsed.data;
  if (e.FILES_STORE === 's3' && !e.S3_BUCKET) throw new ConfigError('Invalid configuration: S3_BUCKET is required when FILES_STORE is s3.');
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
    throw new ConfigError('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all.');
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    filesDir: path.resolve(e.FILES_DIR ?? path.join(e.DATA_DIR, 'files')),
    fileStore:
      e.FILES_STORE === 's3'
        ? {
            kind: 's3',
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION ?? e.AWS_REGION ?? 'us-east-1',
            bucket: e.S3_BUCKET!,
            prefix: e.S3_PREFIX,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
            checksums: e.S3_CHECKSUMS,
            presignedDownloads: e.S3_PRESIGNED_DOWNLOADS === 'true',
          }
        : { kind: 'local' },
    filesSweepMinutes: e.FILES_SWEEP_MINUTES,
    filesSweepGraceMinutes: e.FILES_SWEEP_GRACE_MINUTES,
    storageQuotaBytes: e.STORAGE_QUOTA_MB * MB,
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
    publicUrl,
    appUrl: (e.APP_URL ?? `${publicUrl}/app`).replace(/\/+$/, ''),
    sitesUrl: (e.SITES_URL ?? `${publicUrl}/sites`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    poolSize: e.DB_POOL_SIZE,
    databaseWaitSeconds: e.DATABASE_WAIT_SECONDS,
    graphql: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxCost: e.GRAPHQL_MAX_COST,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
    },
    purgeIntervalMinutes: e.PURGE_INTERVAL_MINUTES,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    idempotencyKeyHours: e.IDEMPOTENCY_KEY_HOURS,
    jobConcurrency: e.JOB_CONCURRENCY,
    webhooks: {
      concurrency: e.WEBHOOK_CONCURRENCY,
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE,
      timeoutSeconds: e.WEBHOOK_TIMEOUT_SECONDS,
      failuresToDisable: e.WEBHOOK_FAILURES_TO_DISABLE,
    },
    linkCheckTimeoutSeconds: e.LINK_CHECK_TIMEOUT_SECONDS,
    git: {
      downloadBytes: e.GIT_MAX_DOWNLOAD_MB * MB,
      objectBytes: e.GIT_MAX_OBJECT_MB * MB,
      inflatedBytes: e.GIT_MAX_IMPORT_MB * MB,
      objects: e.GIT_MAX_OBJECTS,
    },
    secretKey: e.SECRET_KEY,
    bootstrap: { email: e.BOOTSTRAP_EMAIL, title: e.BOOTSTRAP_ORGANIZATION },
    buildDate: e.BUILD_DATE && new Date(e.BUILD_DATE).toISOString(),
    corsOrigins: e.CORS_ORIGINS,
    rateLimits: {
      perToken: e.RATE_LIMIT_PER_MINUTE,
      anonymousPerAddress: e.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
      failedAuthenticationsPerAddress: e.RATE_LIMIT_FAILED_AUTH_PER_MINUTE,
      store: e.RATE_LIMIT_STORE,
    },
    trustedProxies: e.TRUST_PROXY,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    ssoSessionMinutes: e.SSO_SESSION_MINUTES,
    inviteMailsPerDay: e.INVITE_MAILS_PER_DAY,
    visitorTokenMaxHours: e.VISITOR_TOKEN_MAX_HOURS,
    allowPrivateNetwork: e.ALLOW_PRIVATE_NETWORK === 'true',
    fetchIdleTimeoutSeconds: e.FETCH_IDLE_TIMEOUT_SECONDS,
    dnsServers: e.DNS_SERVERS,
    hostnameRecheckMinutes: e.HOSTNAME_RECHECK_MINUTES,
    downloadLinkMinutes: e.DOWNLOAD_LINK_MINUTES,
    organizationCreation: e.ORGANIZATION_CREATION,
    instanceAdmins: e.INSTANCE_ADMINS,
  };
}

/**
 * The configuration of a process started from the command line (`.env` read first): a bad setting ends it with that
 * one line on stderr and exit code 2.
 */
export function loadConfigOrExit(): Config {
  loadEnvFile();
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}
