// Backup and restore (src/admin/backup.ts) on the shared test server: real data in every table, real files, no mocks.
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip, gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type BackupSummary,
  backupDatabase,
  RESTORED_DELIVERY_ERROR,
  RESTORED_WEBHOOK_REASON,
  restoreDatabase,
} from '../../src/admin/backup.js';
import { connectDatabase, type Database } from '../../src/db/client.js';
import { applyMigrations, readMigrations } from '../../src/db/migrations.js';
import { LocalFileStore } from '../../src/files/local-store.js';
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { newId } from '../../src/kernel/ids.js';
import { adminError } from '../support/admin.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { buildCollection, buildSpace, buildUser } from '../support/factories.js';
import { databaseUrl, withAdminClient } from '../support/global-setup.js';
import { buildWorld } from '../support/world.js';

/** A new database with nothing in it, not even the migration history (CREATE DATABASE copies template1). */
async function createEmptyDatabase(): Promise<TestDatabase> {
  const serverUrl = inject('templateDatabaseUrl');
  const name = `restore_${process.pid}_${randomBytes(5).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
  return {
    url: databaseUrl(serverUrl, name),
    drop: async () => {
      await withAdminClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`));
    },
  };
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const tableNames = (client: pg.Client) =>
  client
    .query<{ name: string }>(
      `SELECT relname AS name FROM pg_class
        WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND relname <> '_prisma_migrations' ORDER BY relname`,
    )
    .then((result) => result.rows.map((row) => row.name));

/**
 * Every row of every table but the migration history, as PostgreSQL's text of the row (exact, bigints and floats
 * included), in a stable order: what a restore must reproduce.
 */
function tableContents(url: string): Promise<Record<string, string[]>> {
  return withClient(url, async (client) => {
    const contents: Record<string, string[]> = {};
    for (const name of await tableNames(client)) {
      const table = client.escapeIdentifier(name);
      const { rows } = await client.query(`SELECT coalesce(array_agg(t::text ORDER BY t::text), '{}') AS rows FROM public.${table} t`);
      contents[name] = rows[0].rows;
    }
    return contents;
  });
}

const tablesWithRows = async (url: string) =>
  Object.entries(await tableContents(url))
    .filter(([, rows]) => rows.length > 0)
    .map(([name]) => name);

const rowCount = (contents: Record<string, string[]>) => Object.values(contents).reduce((sum, rows) => sum + rows.length, 0);

/** Names of the applied migrations; null when the database has no migration history at all. */
const appliedMigrations = (url: string) =>
  withClient(url, async (client) => {
    const { rows } = await client.query(`SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS exists`);
    if (!rows[0].exists) return null;
    return (await client.query('SELECT migration_name FROM _prisma_migrations ORDER BY migration_name')).rows.map((r) => r.migration_name);
  });

/** Until someone waits for a lock on the table: the backup, once it has taken its snapshot. */
async function waitForLockWaiter(client: pg.Client, table: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const { rows } = await client.query('SELECT EXISTS (SELECT FROM pg_locks WHERE NOT granted AND relation = $1::regclass) AS waiting', [
      `public."${table}"`,
    ]);
    if (rows[0].waiting) return;
    await sleep(20);
  }
  throw new Error(`Nobody waited for a lock on ${table}`);
}

// Text that COPY's text format must escape: tabs (the delimiter), newlines, carriage returns, backslashes, a line that
// is exactly the end-of-data marker "\.", the null marker "\N" as text, and characters beyond ASCII.
const AWKWARD = 'tab\there\nnew line\r\nCRLF, back\\slash \\N \\t \\\\ literally\n\\.\n"quotes" \'single\' ünïcødé 文档 🚀 עברית';
const END_OF_DATA_ALONE = '\\.';

/** Rows in every table of the schema, with the values a backup is most likely to get wrong. */
async function buildAwkwardData(prisma: PrismaClient): Promise<void> {
  const world = await buildWorld(prisma);
  const { organizationId } = world;
  await prisma.user.update({ where: { id: world.admin.userId }, data: { displayName: AWKWARD, photoURL: '\\N' } });
  await prisma.user.update({ where: { id: world.reader.userId }, data: { displayName: END_OF_DATA_ALONE } });
  await prisma.apiToken.update({
    where: { id: world.admin.tokenId },
    data: { label: '', lastUsedAt: new Date('1970-01-01T00:00:00.001Z'), expiresAt: new Date('9999-12-31T23:59:59.999Z') },
  });
  await prisma.apiToken.update({
    where: { id: world.editor.tokenId },
    data: { label: AWKWARD, revokedAt: new Date('2024-02-29T12:34:56.789Z') },
  });
  await buildUser(prisma, { email: 'ünïcødé@exämple.com', displayName: '', createdAt: new Date('1900-01-01T00:00:00.000Z') });
  await prisma.organization.update({
    where: { id: organizationId },
    data: {
      hostname: 'acme',
      useCase: 'docsSite',
      communityType: 'openSource',
      emailDomains: ['example.com', 'with space', 'quote"d', 'back\\slash', 'comma,here', '{brace}', 'NULL', '', AWKWARD],
      defaultContent: { type: 'site', site: AWKWARD, nested: { list: [1, 2.5, -0, 1e-300, null, true, END_OF_DATA_ALONE] } },
      mergeRules: { type: 'rules', rules: [{ from: 'a\tb', to: 'c\\d' }] },
    },
  });

  const team = await prisma.team.create({ data: { id: newId(), organizationId, title: AWKWARD } });
  await prisma.teamMember.create({ data: { teamId: team.id, organizationId, userId: world.editor.userId, role: 'owner' } });
  await prisma.emailInvite.create({
    data: {
      id: newId(),
      organizationId,
      email: world.reader.email,
      userId: world.reader.userId,
      role: null,
      tokenHash: 'a'.repeat(64),
      expiresAt: new Date('2031-01-01T00:00:00.123Z'),
    },
  });
  await prisma.inviteMailing.create({ data: { id: newId(), organizationId, mails: 100, sentAt: new Date('2030-12-25T00:00:00.456Z') } });
  const provider = await prisma.samlProvider.create({
    data: {
      id: newId(),
      organizationId,
      label: 'SSO',
      certificate: '-----BEGIN CERTIFICATE-----\nMIIB\\x\n-----END-----\n',
      defaultTeamId: team.id,
    },
  });
  await prisma.samlRequest.create({ data: { id: `_${AWKWARD.length}`, providerId: provider.id, expiresAt: new Date() } });
  await prisma.samlAssertion.create({ data: { providerId: provider.id, assertionId: AWKWARD, expiresAt: new Date() } });

  const top = await buildCollection(prisma, { organizationId, title: 'Top', description: AWKWARD, position: 0.1 + 0.2 });
  const middle = await buildCollection(prisma, { parentId: top.id, defaultLevel: null });
  const bottom = await buildCollection(prisma, { parentId: middle.id, defaultLevel: 'edit' });
  const space = await buildSpace(prisma, { parentId: bottom.id, title: AWKWARD, emoji: '🚀', position: 1e-300 });
  const topSpace = await buildSpace(prisma, { organizationId, language: null, mergeRules: { type: 'none' } });
  await prisma.linkInvite.create({
    data: { id: newId(), organizationId, collectionId: middle.id, level: 'read', expiresAt: new Date('2031-06-30T23:59:59.999Z') },
  });
  await prisma.contentGrant.create({
    data: { id: newId(), organizationId, collectionId: top.id, userId: world.reader.userId, role: 'edit' },
  });
  await prisma.contentGrant.create({ data: { id: newId(), organizationId, spaceId: space.id, teamId: team.id, role: 'comment' } });

  const revisionId = space.revisionId!;
  await prisma.revision.create({
    data: { id: newId(), spaceId: space.id, seq: 2, type: 'merge', parents: [revisionId], gitMessage: AWKWARD },
  });
  const pageVersion = await prisma.pageVersion.create({
    data: {
      id: newId(),
      spaceId: space.id,
      line: 'main',
      pageId: 'page1',
      validFrom: 1,
      validTo: 2,
      title: AWKWARD,
      slug: 'page-1',
      document: { object: 'document', nodes: [{ text: AWKWARD }, { text: END_OF_DATA_ALONE }] },
      markdown: `# Title\n\n${AWKWARD}\n${END_OF_DATA_ALONE}\n`,
      position: -1.5,
    },
  });
  // The search index: tsvectors with weights and positions (their columns have no Prisma type), and the backfill's list.
  await prisma.$executeRaw`
    INSERT INTO "PageSearch" ("pageVersionId", "spaceId", search)
    VALUES (${pageVersion.id}, ${space.id}, setweight(to_tsvector('simple', ${AWKWARD}), 'A') || to_tsvector('english', ${END_OF_DATA_ALONE}))`;
  await prisma.$executeRaw`
    INSERT INTO "PageSection" ("pageVersionId", position, anchor, heading, body, search)
    VALUES (${pageVersion.id}, 0, NULL, ${AWKWARD}, ${END_OF_DATA_ALONE}, setweight(to_tsvector('simple', ${AWKWARD}), 'B'))`;
  await prisma.searchBacklog.create({ data: { spaceId: topSpace.id } });
  await prisma.linkBacklog.create({ data: { pageVersionId: pageVersion.id } });
  await prisma.pageLink.create({
    data: {
      pageVersionId: pageVersion.id,
      position: 0,
      kind: 'url',
      target: `https://example.com/${encodeURIComponent(AWKWARD)}`,
      href: AWKWARD,
      anchor: END_OF_DATA_ALONE,
    },
  });
  await prisma.linkCheck.create({
    data: {
      url: `https://example.com/${encodeURIComponent(AWKWARD)}`,
      status: 'broken',
      httpStatus: 404,
      error: AWKWARD,
      checkedAt: new Date('2026-01-02T03:04:05.678Z'),
    },
  });
  await prisma.fileVersion.create({
    data: {
      id: newId(),
      spaceId: space.id,
      line: 'main',
      fileId: 'file1',
      validFrom: 1,
      name: 'a\tb.png',
      contentType: 'image/png',
      size: 2147483647,
      storageKey: 'sha256/ab',
    },
  });
  await prisma.fileExport.create({
    data: { id: newId(), storageKey: 'sha256/export', spaceId: space.id, organizationId, size: 0, expiresAt: new Date('2999-01-01') },
  });
  // A write in progress: its intent names bytes not stored yet, which a backup may not find (and need not).
  await prisma.fileIntent.create({
    data: { id: newId(), storageKey: 'f'.repeat(64), organizationId, size: 1, expiresAt: new Date('2999-01-01T00:00:00.001Z') },
  });
  const changeRequest = await prisma.changeRequest.create({
    data: { id: newId(), spaceId: space.id, number: 1, createdById: world.editor.userId, revisionId, revisionInitialId: revisionId },
  });
  const comment = await prisma.comment.create({
    data: {
      id: newId(),
      spaceId: space.id,
      changeRequestId: changeRequest.id,
      postedById: world.commenter.userId,
      body: { markdown: AWKWARD },
      tableCell: { record: AWKWARD, definition: 'column' },
    },
  });
  const reply = await prisma.commentReply.create({
    data: { id: newId(), commentId: comment.id, postedById: world.admin.userId, body: { markdown: END_OF_DATA_ALONE } },
  });
  const review = await prisma.changeRequestReview.create({
    data: {
      id: newId(),
      changeRequestId: changeRequest.id,
      reviewerId: world.reviewer.userId,
      revisionId,
      requestedById: world.editor.userId,
      status: 'changes_requested',
      createdAt: new Date('2026-03-04T05:06:07.089Z'),
      updatedAt: new Date('2026-03-04T05:06:07.089Z'),
    },
  });
  await prisma.comment.update({ where: { id: comment.id }, data: { reviewId: review.id } });
  await prisma.changeRequestRequestedReviewer.create({
    data: {
      id: newId(),
      changeRequestId: changeRequest.id,
      teamId: team.id,
      revisionId,
      requestedById: world.editor.userId,
      createdAt: new Date(),
    },
  });
  await prisma.importRun.create({
    data: {
      id: newId(),
      organizationId,
      spaceId: space.id,
      changeRequestId: changeRequest.id,
      sourceURL: `https://example.com/${encodeURIComponent(AWKWARD)}`,
      status: 'failed',
      reason: AWKWARD,
      pages: [{ id: 'page1', sourceURL: 'https://example.com/\\.', type: 'page', status: 'complete' }],
      createdById: world.editor.userId,
    },
  });
  await prisma.auditEvent.create({
    data: {
      id: randomUUID(),
      organizationId,
      action: 'space_updated',
      actorType: 'user',
      actorId: world.admin.userId,
      actorLabel: AWKWARD,
      source: 'api',
      targetType: 'space',
      targetId: space.id,
      targetLabel: END_OF_DATA_ALONE,
      spaceId: space.id,
      payload: { changed: { title: { from: AWKWARD, to: null } }, clientAddress: '::1' },
      occurredAt: new Date('2026-03-04T05:06:07.089Z'),
    },
  });
  await prisma.commentReaction.create({ data: { commentId: comment.id, userId: world.reader.userId, emoji: '👍' } });
  await prisma.replyReaction.create({ data: { replyId: reply.id, userId: world.reader.userId, emoji: '🎉' } });
  await prisma.backgroundJob.create({
    data: {
      id: newId(),
      kind: 'purge-deleted-spaces',
      organizationId,
      payload: { note: AWKWARD },
      maxAttempts: 3,
      lastError: END_OF_DATA_ALONE,
    },
  });
  await prisma.commentMention.createMany({
    data: [
      { id: newId(), commentId: comment.id, userId: world.editor.userId, mentionedAt: new Date() },
      { id: newId(), commentId: comment.id, replyId: reply.id, userId: world.reader.userId, mentionedAt: new Date() },
    ],
  });

  const site = await prisma.site.create({ data: { id: newId(), organizationId, title: 'Docs', customizations: { title: AWKWARD } } });
  const section = await prisma.siteSection.create({ data: { id: newId(), siteId: site.id, title: 'Section', path: 'section' } });
  await prisma.siteSpace.create({ data: { id: newId(), siteId: site.id, sectionId: section.id, spaceId: topSpace.id, path: 'docs' } });
  await prisma.siteRedirect.create({
    data: { id: newId(), siteId: site.id, source: '/old', destination: { kind: 'url', url: 'https://x/\\.' } },
  });
  await prisma.shareLink.create({ data: { id: newId(), siteId: site.id, name: 'Share', keyHash: 'hash', keyCiphertext: 'cipher\n' } });
  await prisma.publishingAuth.create({ data: { siteId: site.id, privateKeyCiphertext: 'key' } });
  await prisma.hostClaim.create({
    data: {
      host: 'docs.acme.example',
      kind: 'hostname',
      organizationId,
      siteId: site.id,
      token: 'token',
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
      lastError: AWKWARD,
    },
  });

  const field = await prisma.customField.create({
    data: { id: newId(), organizationId, name: 'tags', type: 'tags', options: ['a', 'b\\c', 'd\te'] },
  });
  await prisma.customFieldValue.create({ data: { spaceId: space.id, customFieldId: field.id, value: ['a', 'b\\c'] } });

  // The other foreign-key cycle of the schema: a spec and its last version point at each other.
  const spec = await prisma.openAPISpec.create({ data: { id: newId(), organizationId, slug: 'petstore', sourceText: AWKWARD } });
  const version = await prisma.openAPISpecVersion.create({
    data: { id: newId(), specId: spec.id, url: 'https://example.com/spec.yaml', filesystem: { 'spec.yaml': AWKWARD } },
  });
  await prisma.openAPISpec.update({ where: { id: spec.id }, data: { lastVersionId: version.id } });

  const integration = await prisma.integration.create({
    data: {
      id: newId(),
      name: 'my.integration',
      ownerOrganizationId: organizationId,
      title: 'Integration',
      description: AWKWARD,
      script: 'x',
    },
  });
  const installation = await prisma.integrationInstallation.create({
    data: { id: newId(), integrationId: integration.id, organizationId, externalIds: ['e1'] },
  });
  await prisma.installationSpace.create({ data: { installationId: installation.id, spaceId: space.id, configuration: { a: AWKWARD } } });
  await prisma.installationSite.create({ data: { installationId: installation.id, siteId: site.id } });
  await prisma.gitSync.create({ data: { spaceId: space.id, url: 'https://github.com/a/b', ref: 'main' } });
  await prisma.rateLimit.create({ data: { key: `token:${AWKWARD}`, points: 7, expire: 9007199254740993n } });
  await prisma.idempotencyKey.create({
    data: {
      tokenId: world.admin.tokenId,
      key: AWKWARD,
      claim: newId(),
      request: 'hmac',
      status: 201,
      answer: 'v2.sealed',
      claimedAt: new Date('2026-11-27T00:00:00.001Z'),
      expiresAt: new Date('2026-11-28T00:00:00.001Z'),
    },
  });
  await prisma.gitSyncOperation.create({ data: { id: newId(), spaceId: space.id, direction: 'import', ref: 'main', error: AWKWARD } });
  // Inactive already, and its delivery sent: a restore pauses the active ones and fails pending deliveries (its own
  // test), which would make this copy differ.
  const webhook = await prisma.webhook.create({
    data: {
      id: newId(),
      organizationId,
      createdById: world.admin.userId,
      url: 'https://receiver.example/hook',
      events: ['*', AWKWARD],
      spaces: [space.id],
      secret: 'v2.sealed',
      active: false,
      disabledReason: AWKWARD,
    },
  });
  await prisma.webhookDelivery.create({
    data: {
      id: newId(),
      webhookId: webhook.id,
      type: 'ping',
      body: { data: AWKWARD },
      status: 'success',
      attempts: 1,
      createdAt: new Date('2026-01-01T00:00:00.001Z'),
    },
  });
}

let source: TestDatabase;
let sourceDatabase: Database;
let directory: string;
/** The rows built here name no stored bytes (their keys are no content addresses): backup-files.test.ts has files. */
let files: LocalFileStore;
const scratch: TestDatabase[] = [];

/** A scratch database dropped after the file's tests. */
async function emptyDatabase(): Promise<TestDatabase> {
  const database = await createEmptyDatabase();
  scratch.push(database);
  return database;
}

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'docs-api-backup-test-'));
  files = new LocalFileStore(path.join(directory, 'files'));
  source = await createTestDatabase();
  sourceDatabase = connectDatabase(source.url);
  await buildAwkwardData(sourceDatabase.prisma);
}, 60_000);

afterAll(async () => {
  await sourceDatabase?.close();
  await source?.drop();
  for (const database of scratch) await database.drop();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

const backupFile = (name: string) => path.join(directory, name);

describe('backup and restore', () => {
  it('restores into an empty, unmigrated database exactly what the source holds, in every table', async () => {
    const expected = await tableContents(source.url);
    // The data must reach every table, or the comparison below proves nothing about the tables left empty.
    expect(await tablesWithRows(source.url)).toEqual(Object.keys(expected));
    const file = backupFile('round-trip.backup.gz');

    const backup = await backupDatabase(source.url, files, file);
    expect(backup).toEqual({
      object: 'backup',
      file,
      tables: Object.keys(expected).length,
      rows: rowCount(expected),
      migrations: readMigrations().length,
      files: 0,
      fileBytes: 0,
      missingFiles: [],
      bytes: readFileSync(file).length,
    });

    const target = await emptyDatabase();
    const restore = await restoreDatabase(target.url, files, file);
    expect(restore).toEqual({
      object: 'restore',
      file,
      tables: Object.keys(expected).length,
      rows: rowCount(expected),
      files: 0,
      fileBytes: 0,
      missingFiles: [],
    });
    expect(await tableContents(target.url)).toEqual(expected);
    expect(await appliedMigrations(target.url)).toEqual(await appliedMigrations(source.url));
  });

  it('writes tables referenced ones first; only the two cycles of the schema point forward', async () => {
    const file = backupFile('order.backup.gz');
    await backupDatabase(source.url, files, file);
    const header = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8').split('\n')[0]);
    expect(header).toMatchObject({ format: 'docs-platform-backup', version: 2, migrations: readMigrations().map((m) => m.name) });
    const position = new Map<string, number>(header.tables.map((table: { name: string }, index: number) => [table.name, index]));
    const foreignKeys = await withClient(source.url, async (client) => {
      const { rows } = await client.query(`
        SELECT child.relname AS "table", parent.relname AS referenced FROM pg_constraint con
          JOIN pg_class child ON child.oid = con.conrelid JOIN pg_class parent ON parent.oid = con.confrelid
         WHERE con.contype = 'f' AND child.relnamespace = 'public'::regnamespace`);
      return rows as { table: string; referenced: string }[];
    });
    const forward = foreignKeys
      .filter((key) => position.get(key.referenced)! > position.get(key.table)!)
      .map((key) => [key.table, key.referenced].sort().join(' <-> '));
    expect(forward.sort()).toEqual(['OpenAPISpec <-> OpenAPISpecVersion', 'Revision <-> Space']);
  });

  it('backs up one snapshot: rows that others commit once the backup has started are not in it', async () => {
    const expected = await tableContents(source.url);
    const file = backupFile('during-writes.backup.gz');
    const writer = new pg.Client({ connectionString: source.url });
    await writer.connect();
    let backup!: Promise<BackupSummary>;
    try {
      await writer.query('BEGIN');
      // The backup takes its snapshot, then waits for this lock; what this transaction commits comes after the snapshot
      // but before the backup reads any table.
      await writer.query('LOCK TABLE "User" IN ACCESS EXCLUSIVE MODE');
      backup = backupDatabase(source.url, files, file);
      backup.catch(() => {}); // awaited below; a rejection meanwhile is not unhandled
      await waitForLockWaiter(writer, 'User');
      const userId = newId();
      await writer.query(`INSERT INTO "User" (id, email, "displayName") VALUES ($1, $2, 'Late')`, [userId, `late-${userId}@example.com`]);
      await writer.query(`INSERT INTO "ApiToken" (id, "userId", "tokenHash") VALUES ($1, $2, $1)`, [newId(), userId]);
      await writer.query(`INSERT INTO "Organization" (id, title, "updatedAt") VALUES ($1, 'Late', now())`, [newId()]);
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
    expect((await backup).rows).toBe(rowCount(expected));
    expect(rowCount(await tableContents(source.url))).toBe(rowCount(expected) + 3);

    const target = await emptyDatabase();
    await restoreDatabase(target.url, files, file);
    expect(await tableContents(target.url)).toEqual(expected);
  });
  it('backs up and restores a database whose tables are all empty', async () => {
    const empty = await createTestDatabase();
    scratch.push(empty);
    const file = backupFile('empty.backup.gz');
    expect(await backupDatabase(empty.url, files, file)).toMatchObject({ rows: 0, migrations: readMigrations().length });
    const target = await emptyDatabase();
    expect(await restoreDatabase(target.url, files, file)).toMatchObject({ rows: 0 });
    expect(await tableContents(target.url)).toEqual(await tableContents(empty.url));
  });

  it('writes a file only its owner reads, whatever the umask (it holds every row)', async () => {
    const file = backupFile('private.backup.gz');
    const umask = process.umask(0);
    try {
      await backupDatabase(source.url, files, file);
    } finally {
      process.umask(umask);
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('carries sequence positions over (the schema has none today; a later migration may add one)', async () => {
    const withSequence = await createTestDatabase();
    const target = await createTestDatabase();
    scratch.push(withSequence, target);
    await withClient(withSequence.url, async (client) => {
      await client.query('CREATE SEQUENCE public."Counter" START 40');
      await client.query(`SELECT nextval('public."Counter"') FROM generate_series(1, 3)`);
    });
    await withClient(target.url, (client) => client.query('CREATE SEQUENCE public."Counter"'));
    const file = backupFile('sequence.backup.gz');
    await backupDatabase(withSequence.url, files, file);
    await restoreDatabase(target.url, files, file);
    const next = await withClient(target.url, (client) => client.query(`SELECT nextval('public."Counter"')::int AS next`));
    expect(next.rows[0].next).toBe(43);
  });

  it('finds the end of a table wherever the decompressed chunks split it', async () => {
    const expected = await tableContents(source.url);
    const file = backupFile('split.backup.gz');
    await backupDatabase(source.url, files, file);
    const content = gunzipSync(readFileSync(file));
    const headerEnd = content.indexOf('\n');
    const endOfData = content.indexOf('\n\\.\n', headerEnd);
    // zlib's default chunkSize: gunzip hands the restore its output in pieces of this size.
    const CHUNK = 16 * 1024;
    // JSON allows spaces after the header: they move the first end-of-data line so that a piece ends `split` bytes into it.
    for (let split = 0; split <= 4; split++) {
      const padding = (CHUNK - ((endOfData + split) % CHUNK)) % CHUNK;
      const padded = backupFile(`split-${split}.backup.gz`);
      writeFileSync(
        padded,
        gzipSync(Buffer.concat([content.subarray(0, headerEnd), Buffer.alloc(padding, ' '), content.subarray(headerEnd)])),
      );
      const pieces: number[] = [];
      for await (const piece of createReadStream(padded).pipe(createGunzip())) pieces.push(piece.length);
      expect(pieces.slice(0, -1).every((length) => length === CHUNK)).toBe(true);
      expect(pieces.length).toBeGreaterThan(1);

      const target = await emptyDatabase();
      await restoreDatabase(target.url, files, padded);
      expect(await tableContents(target.url)).toEqual(expected);
    }
  });
});

describe('a restored copy', () => {
  it('starts with its webhooks paused, with the reason, and its pending deliveries failed, so that it never fires at the original receivers', async () => {
    const original = await createTestDatabase();
    scratch.push(original);
    const database = connectDatabase(original.url);
    try {
      const world = await buildWorld(database.prisma);
      const webhook = {
        organizationId: world.organizationId,
        createdById: world.admin.userId,
        url: 'https://receiver.example/hook',
        secret: 's',
      };
      await database.prisma.webhook.create({ data: { id: 'activeHook', ...webhook, events: ['*'] } });
      await database.prisma.webhook.create({
        data: { id: 'pausedHook', ...webhook, events: ['*'], active: false, disabledReason: 'Mine' },
      });
      const delivery = { webhookId: 'activeHook', type: 'space_created', body: {}, createdAt: new Date() };
      await database.prisma.webhookDelivery.create({ data: { id: 'pendingDelivery', ...delivery, nextAttemptAt: new Date() } });
      await database.prisma.webhookDelivery.create({ data: { id: 'sentDelivery', ...delivery, status: 'success', attempts: 1 } });
    } finally {
      await database.close();
    }
    const file = backupFile('webhooks.backup.gz');
    await backupDatabase(original.url, files, file);
    const target = await emptyDatabase();
    await restoreDatabase(target.url, files, file);
    const rows = await withClient(target.url, (client) =>
      client.query('SELECT id, active, "disabledReason" FROM "Webhook" ORDER BY id').then((result) => result.rows),
    );
    expect(rows).toEqual([
      { id: 'activeHook', active: false, disabledReason: RESTORED_WEBHOOK_REASON },
      { id: 'pausedHook', active: false, disabledReason: 'Mine' },
    ]);
    // What was pending is not sent by the copy: it fails with the reason, for an admin to redeliver.
    const deliveries = await withClient(target.url, (client) =>
      client.query('SELECT id, status, "lastError", "nextAttemptAt" FROM "WebhookDelivery" ORDER BY id').then((result) => result.rows),
    );
    expect(deliveries).toEqual([
      { id: 'pendingDelivery', status: 'failed', lastError: RESTORED_DELIVERY_ERROR, nextAttemptAt: null },
      { id: 'sentDelivery', status: 'success', lastError: null, nextAttemptAt: null },
    ]);
  });
});

describe('a backup of an older version', () => {
  it('is restored at its own version, and the newer migrations then apply to its data', async () => {
    const migrations = readMigrations();
    const older = await emptyDatabase();
    await applyMigrations(older.url, migrations.slice(0, -1));
    await withClient(older.url, (client) =>
      client.query(`INSERT INTO "User" (id, email, "displayName") VALUES ('olderUser0000000000A', 'older@example.com', 'Older')`),
    );
    const file = backupFile('older.backup.gz');
    expect((await backupDatabase(older.url, files, file)).migrations).toBe(migrations.length - 1);

    const target = await emptyDatabase();
    expect(await restoreDatabase(target.url, files, file)).toMatchObject({ rows: 1 });
    expect(await appliedMigrations(target.url)).toEqual(migrations.slice(0, -1).map((m) => m.name));
    await applyMigrations(target.url);
    expect(await appliedMigrations(target.url)).toEqual(migrations.map((m) => m.name));
    expect((await tableContents(target.url)).User).toEqual((await tableContents(older.url)).User);
  });
});

describe('backup refusals', () => {
  it('refuses to overwrite an existing file', async () => {
    const file = backupFile('existing.backup.gz');
    writeFileSync(file, 'precious');
    const before = readdirSync(directory).sort();
    expect((await adminError(backupDatabase(source.url, files, file))).message).toBe(
      `${file} already exists; a backup never overwrites a file`,
    );
    expect(readFileSync(file, 'utf8')).toBe('precious');
    expect(readdirSync(directory).sort()).toEqual(before);
  });

  it('refuses a file created under the name while it ran, and leaves no partial file behind', async () => {
    const file = backupFile('raced.backup.gz');
    const before = readdirSync(directory).sort();
    const writer = new pg.Client({ connectionString: source.url });
    await writer.connect();
    let backup!: Promise<BackupSummary>;
    try {
      await writer.query('BEGIN');
      await writer.query('LOCK TABLE "User" IN ACCESS EXCLUSIVE MODE');
      backup = backupDatabase(source.url, files, file);
      backup.catch(() => {});
      await waitForLockWaiter(writer, 'User');
      writeFileSync(file, 'written meanwhile');
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
    expect((await adminError(backup)).message).toMatch(/already exists/);
    expect(readFileSync(file, 'utf8')).toBe('written meanwhile');
    expect(readdirSync(directory).sort()).toEqual([...before, path.basename(file)].sort());
  });
});

describe('restore refusals', () => {
  let validBackup: Buffer;

  beforeAll(async () => {
    const file = backupFile('for-refusals.backup.gz');
    await backupDatabase(source.url, files, file);
    validBackup = readFileSync(file);
  });

  /** Restores `content` into a new empty database; returns the error and what the database holds afterwards. */
  async function restoreContent(content: Buffer) {
    const file = backupFile(`refused-${randomBytes(4).toString('hex')}.backup.gz`);
    writeFileSync(file, content);
    const target = await emptyDatabase();
    const error = await adminError(restoreDatabase(target.url, files, file));
    return { error, file, tablesWithRows: await tablesWithRows(target.url), migrations: await appliedMigrations(target.url) };
  }

  /** The backup's content with `edit` applied to its decompressed lines, compressed again. */
  function editedBackup(edit: (lines: string[]) => string[]): Buffer {
    return gzipSync(edit(gunzipSync(validBackup).toString('utf8').split('\n')).join('\n'));
  }

  /** Index of the line that starts the rows of the last table with rows (after every table loaded before it). */
  function lastTableWithRows(lines: string[]): number {
    const trailer = JSON.parse(lines.at(-2)!);
    const starts = lines.flatMap((line, index) => (line.startsWith('{"table":') ? [index] : []));
    return starts.findLast((index) => trailer.rows[JSON.parse(lines[index]).table] > 0)!;
  }

  it('refuses a database that has rows, naming the table, and changes nothing', async () => {
    const target = await createTestDatabase();
    scratch.push(target);
    await withClient(target.url, (client) =>
      client.query(`INSERT INTO "Organization" (id, title, "updatedAt") VALUES ('o1', 'Mine', now())`),
    );
    const before = await tableContents(target.url);
    const file = backupFile('for-refusals.backup.gz');
    expect((await adminError(restoreDatabase(target.url, files, file))).message).toBe(
      'The database is not empty: table "Organization" has rows. Restore only into an empty database.',
    );
    expect(await tableContents(target.url)).toEqual(before);
  });

  it('refuses a missing file', async () => {
    const target = await emptyDatabase();
    const file = backupFile('missing.backup.gz');
    expect((await adminError(restoreDatabase(target.url, files, file))).message).toBe(`No backup file at ${file}`);
  });

  it('refuses files that are no backup without touching the database', async () => {
    for (const content of [
      randomBytes(4096),
      Buffer.alloc(0),
      gzipSync('hello\n'),
      gzipSync('{"format":"something-else"}\n'),
      gzipSync('no newline'),
    ]) {
      const { error, file, migrations } = await restoreContent(content);
      expect(error.message).toContain(`${file} is not a valid backup: `);
      expect(migrations).toBeNull();
    }
  });

  it('refuses a backup of a newer format version', async () => {
    const { error } = await restoreContent(
      editedBackup(([header, ...rest]) => [JSON.stringify({ ...JSON.parse(header), version: 3 }), ...rest]),
    );
    expect(error.message).toMatch(/is a backup of format version 3; this service reads versions 1 to 2$/);
  });

  it('refuses a backup cut short, restoring nothing', async () => {
    const { error, file, tablesWithRows } = await restoreContent(validBackup.subarray(0, Math.floor(validBackup.length * 0.8)));
    expect(error.message).toBe(`${file} is truncated: the compressed data ends early`);
    expect(tablesWithRows).toEqual([]);
  });

  it('refuses a backup whose content stops in the rows of its last table, after the others were loaded', async () => {
    const { error, file, tablesWithRows } = await restoreContent(
      editedBackup((lines) => {
        const start = lastTableWithRows(lines);
        return [...lines.slice(0, start + 1), lines[start + 1].slice(0, 5)];
      }),
    );
    expect(error.message).toMatch(/ is truncated: it ends in the rows of table "\w+"$/);
    expect(error.message.startsWith(file)).toBe(true);
    expect(tablesWithRows).toEqual([]);
  });

  it('refuses a backup without its trailer', async () => {
    const { error, file, tablesWithRows } = await restoreContent(editedBackup((lines) => [...lines.slice(0, -2), '']));
    expect(error.message).toBe(`${file} is truncated: it ends before the end of the backup`);
    expect(tablesWithRows).toEqual([]);
  });

  it('refuses a backup that lost a row, by its row counts', async () => {
    const { error, tablesWithRows } = await restoreContent(
      editedBackup((lines) => {
        const start = lastTableWithRows(lines);
        return lines.filter((_, index) => index !== start + 1);
      }),
    );
    expect(error.message).toMatch(/is not a valid backup: table "\w+" has \d+ rows in the backup's trailer, \d+ in its data$/);
    expect(tablesWithRows).toEqual([]);
  });

  it('refuses a backup of a newer version of the service, before migrating anything', async () => {
    const { error, migrations } = await restoreContent(
      editedBackup(([header, ...rest]) => {
        const parsed = JSON.parse(header);
        return [JSON.stringify({ ...parsed, migrations: [...parsed.migrations, '29990101000000_from_the_future'] }), ...rest];
      }),
    );
    expect(error.message).toBe(
      'The backup is of another schema version (migrations of the backup that this version of the service lacks: 29990101000000_from_the_future)',
    );
    expect(migrations).toBeNull(); // not even the history table
  });

  it('refuses a backup of another schema version, naming the difference', async () => {
    const migrations = readMigrations();
    const newest = migrations.at(-1)!.name;
    const target = await emptyDatabase();
    await applyMigrations(target.url, migrations.slice(0, -1));
    const file = backupFile('for-refusals.backup.gz');
    expect((await adminError(restoreDatabase(target.url, files, file))).message).toBe(
      `The backup is of another schema version (migrations of the backup that the database lacks: ${newest})`,
    );
    expect(await appliedMigrations(target.url)).toEqual(migrations.slice(0, -1).map((m) => m.name));
    expect(await tablesWithRows(target.url)).toEqual([]);
  });
});
