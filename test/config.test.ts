// Configuration: every variable validated, one message naming what is wrong; a .env file read without overriding
// the environment.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadEnvFile } from '../src/config.js';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      poolSize: 10,
      purgeIntervalMinutes: 60,
      auditRetentionDays: 365,
      idempotencyKeyHours: 24,
      linkCheckTimeoutSeconds: 10,
      inviteMailsPerDay: 500,
      visitorTokenMaxHours: 24,
      hostnameRecheckMinutes: 1440,
      bootstrap: {},
    });
    expect(config.dnsServers).toBeUndefined();
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.git).toEqual({
      downloadBytes: 200 * 2 ** 20,
      objectBytes: 100 * 2 ** 20,
      inflatedBytes: 500 * 2 ** 20,
      objects: 200_000,
    });
  });

  it('reads the Git limits in MB', () => {
    const config = loadConfig({ GIT_MAX_DOWNLOAD_MB: '10', GIT_MAX_OBJECT_MB: '1', GIT_MAX_IMPORT_MB: '2', GIT_MAX_OBJECTS: '50' });
    expect(config.git).toEqual({ downloadBytes: 10 * 2 ** 20, objectBytes: 2 ** 20, inflatedBytes: 2 * 2 ** 20, objects: 50 });
  });

  it('has the GraphQL limits', () => {
    expect(loadConfig({}).graphql).toEqual({ maxTokens: 5000, maxDepth: 15, maxAliases: 50, maxDirectives: 50, maxCost: 1_000_000 });
  });

  it('takes the GraphQL limits', () => {
    const env = { GRAPHQL_MAX_TOKENS: '800', GRAPHQL_MAX_DIRECTIVES: '0', GRAPHQL_MAX_COST: '1000' };
    expect(loadConfig(env).graphql).toMatchObject({ maxTokens: 800, maxDirectives: 0, maxCost: 1000 });
  });

  it.each([
    ['PURGE_INTERVAL_MINUTES', 'abc'],
    ['PURGE_INTERVAL_MINUTES', '0'],
    ['PURGE_INTERVAL_MINUTES', '1.5'],
    ['AUDIT_RETENTION_DAYS', '0'],
    ['AUDIT_RETENTION_DAYS', '1.5'],
    ['IDEMPOTENCY_KEY_HOURS', '0'],
    ['IDEMPOTENCY_KEY_HOURS', '169'],
    ['PORT', '70000'],
    ['LINK_CHECK_TIMEOUT_SECONDS', '0'],
    ['FETCH_IDLE_TIMEOUT_SECONDS', '0'],
    ['FETCH_IDLE_TIMEOUT_SECONDS', '301'],
    ['DB_POOL_SIZE', '0'],
    ['DATABASE_URL', 'mysql://root@localhost/docs'],
    ['DATABASE_URL', 'not a url'],
    ['SECRET_KEY', 'short'],
    ['BOOTSTRAP_EMAIL', 'admin@'],
    ['BOOTSTRAP_ORGANIZATION', 'x'],
    ['LOG_LEVEL', 'loud'],
    ['RATE_LIMIT_FAILED_AUTH_PER_MINUTE', '-1'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '0'],
    ['TRUST_PROXY', '11'],
    ['INVITE_MAILS_PER_DAY', '-1'],
    ['VISITOR_TOKEN_MAX_HOURS', '0'],
    ['VISITOR_TOKEN_MAX_HOURS', '8761'],
    ['GIT_MAX_OBJECT_MB', '2048'],
    ['GIT_MAX_IMPORT_MB', '0'],
    ['GIT_MAX_DOWNLOAD_MB', '1.5'],
    ['GIT_MAX_OBJECTS', '-1'],
    ['DNS_SERVERS', 'dns.example.com'],
    ['DNS_SERVERS', '127.0.0.1:0'],
    ['DNS_SERVERS', '1.1.1.1,localhost:53'],
    ['DNS_SERVERS', '127.0.0.1:99999'],
    ['DNS_SERVERS', ','],
    ['HOSTNAME_RECHECK_MINUTES', '0'],
    ['HOSTNAME_RECHECK_MINUTES', '43201'],
    ['GRAPHQL_MAX_TOKENS', '0'],
    ['GRAPHQL_MAX_DIRECTIVES', '-1'],
    ['GRAPHQL_MAX_COST', '1e12'],
    ['WEBHOOK_CONCURRENCY', '0'],
    ['WEBHOOK_RETRY_SCHEDULE', '5s,,1m'],
    ['WEBHOOK_RETRY_SCHEDULE', '5 seconds'],
    ['WEBHOOK_RETRY_SCHEDULE', '0s'],
    ['WEBHOOK_RETRY_SCHEDULE', '25h'],
    ['WEBHOOK_RETRY_SCHEDULE', '24h,24h,1s'],
    ['WEBHOOK_TIMEOUT_SECONDS', '61'],
    ['WEBHOOK_FAILURES_TO_DISABLE', '0'],
  ])('refuses %s=%s with one line that names it', (name, value) => {
    const attempt = () => loadConfig({ [name]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      new RegExp(`^Invalid configuration: ${name} .*\\(got ${JSON.stringify(JSON.stringify(value)).slice(1, -1)}\\)\\.$`),
    );
  });

  it('has the webhook settings: a retry schedule of growing waits over about 19 hours by default', () => {
    const { webhooks } = loadConfig({});
    expect(webhooks).toEqual({
      concurrency: 4,
      retryScheduleMs: [5, 15, 60, 600, 3600, 6 * 3600, 12 * 3600].map((seconds) => seconds * 1000),
      timeoutSeconds: 10,
      failuresToDisable: 20,
    });
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: ' 1s, 2m ,3h' }).webhooks.retryScheduleMs).toEqual([1000, 120_000, 3 * 3_600_000]);
  });

  it('keeps files locally by default, and takes an S3-compatible store with its settings', () => {
    expect(loadConfig({})).toMatchObject({
      fileStore: { kind: 'local' },
      filesSweepMinutes: 60,
      filesSweepGraceMinutes: 60,
      storageQuotaBytes: 0,
    });
    const env = {
      FILES_STORE: 's3',
      S3_BUCKET: 'docs',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_REGION: 'eu-west-3',
    };
    expect(loadConfig(env).fileStore).toEqual({
      kind: 's3',
      endpoint: 'http://minio:9000',
      region: 'eu-west-3',
      bucket: 'docs',
      prefix: '',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: true,
      checksums: 'when_required',
      presignedDownloads: false,
    });
    expect(loadConfig({ FILES_SWEEP_MINUTES: '1', FILES_SWEEP_GRACE_MINUTES: '1', STORAGE_QUOTA_MB: '5' })).toMatchObject({
      filesSweepMinutes: 1,
      filesSweepGraceMinutes: 1,
      storageQuotaBytes: 5 * 2 ** 20,
    });
  });

  it.each([
    [{ FILES_STORE: 's3' }, 'S3_BUCKET is required when FILES_STORE is s3'],
    [{ FILES_STORE: 's3', S3_BUCKET: 'docs', S3_ACCESS_KEY_ID: 'key' }, 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together'],
    [{ FILES_STORE: 'disk' }, 'FILES_STORE must be local or s3'],
    [{ S3_CHECKSUMS: 'always' }, 'S3_CHECKSUMS must be when_required or when_supported'],
    [{ FILES_SWEEP_GRACE_MINUTES: '0' }, 'FILES_SWEEP_GRACE_MINUTES must be a whole number from 1'],
  ])('refuses the files settings %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('takes TRUST_PROXY as false, true (one proxy) or a number of proxies', () => {
    expect(loadConfig({}).trustedProxies).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustedProxies).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustedProxies).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustedProxies).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10' }).trustedProxies).toBe(10);
  });

  it('has three rate limits, failed authentications 20 a minute by default', () => {
    expect(loadConfig({}).rateLimits).toEqual({
      perToken: 1000,
      anonymousPerAddress: 60,
      failedAuthenticationsPerAddress: 20,
      store: 'memory',
    });
  });

  it('takes DNS servers as IPv4 and IPv6 addresses, with or without a port', () => {
    expect(loadConfig({ DNS_SERVERS: ' 127.0.0.1:5353, 1.1.1.1,::1,[2606:4700::1111]:53' }).dnsServers).toEqual([
      '127.0.0.1:5353',
      '1.1.1.1',
      '::1',
      '[2606:4700::1111]:53',
    ]);
    expect(() => loadConfig({ DNS_SERVERS: '[127.0.0.1]:53' })).toThrow(ConfigError);
  });

  it('takes a PostgreSQL URL in either spelling', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/docs' }).databaseUrl).toBe('postgres://u:p@db:5432/docs');
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/docs' }).databaseUrl).toBe('postgresql://db/docs');
  });
});

describe('loadEnvFile', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'env-file-'));
  afterEach(() => {
    delete process.env.DPA_TEST_FROM_FILE;
    delete process.env.DPA_TEST_BOTH;
  });

  it('reads .env, and the environment wins over it', () => {
    writeFileSync(path.join(directory, '.env'), 'DPA_TEST_FROM_FILE=file\nDPA_TEST_BOTH=file\n');
    process.env.DPA_TEST_BOTH = 'environment';
    loadEnvFile(directory);
    expect(process.env.DPA_TEST_FROM_FILE).toBe('file');
    expect(process.env.DPA_TEST_BOTH).toBe('environment');
    rmSync(directory, { recursive: true, force: true });
  });

  it('does nothing without a .env file', () => {
    expect(() => loadEnvFile(path.join(directory, 'missing'))).not.toThrow();
  });
});
