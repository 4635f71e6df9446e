// Runtime configuration, read once from the environment. Every variable is documented in README.md.
import path from 'node:path';
import { z } from 'zod';

const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z.string().url().optional(),
  APP_URL: z.string().url().optional(),
  LOG_LEVEL: LogLevel.default('info'),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
});

export interface Config {
  port: number;
  host: string;
  /** Unset: run an embedded PostgreSQL under `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** Base of every `urls.location` (the API) and, through appUrl, `urls.app`. No trailing slash. */
  publicUrl: string;
  appUrl: string;
  logLevel: z.infer<typeof LogLevel>;
  poolSize: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    publicUrl,
    appUrl: (e.APP_URL ?? `${publicUrl}/app`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    poolSize: e.DB_POOL_SIZE,
  };
}
