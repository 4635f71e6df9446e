// The sweep (src/files/sweep.ts), on both backends: bytes no row names go once older than the grace period; bytes any
// row, export or live intent names stay; a failed batch and a purged space end with their bytes gone; a running
// backup pauses it.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SWEEP_LOCK } from '../../src/files/storage.js';
import { scheduleFilesSweep, sweepFiles } from '../../src/files/sweep.js';
import { purgeDeletedSpaces } from '../../src/spaces/purge.js';
import { page, publish } from '../revisions/content.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildOrganization, buildSpace } from '../support/factories.js';
import { type S3Server, startS3Server } from '../support/s3-server.js';
import { until } from '../support/until.js';
import { png } from './images.js';

const GRACE_MINUTES = 5;
const keyOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server('sweep/');
});
afterAll(() => s3.close());

describe.each(['local', 's3'])('the sweep on the %s store', (kind) => {
  let t: TestApp;
  let token: string;
  let organizationId: string;
  beforeAll(async () => {
    t = await startTestApp({ jobs: 1, env: { FILES_SWEEP_GRACE_MINUTES: String(GRACE_MINUTES), ...(kind === 's3' ? s3.env : {}) } });
    const { organization, owner } = await buildOrganization(t.prisma);
    [organizationId, token] = [organization.id, owner.token];
  });
  // Stored bytes carry the time of the machine (or of the object store): each test starts the service's clock there.
  beforeEach(() => t.clock.advanceMs(Date.now() - t.clock.now().getTime()));
  afterAll(() => t.close());

  const stored = async (key: string) => (await t.app.services.files.open(key)) !== null;
  const pastGrace = () => t.clock.advanceMs((GRACE_MINUTES + 1) * 60_000);

  async function upload(spaceId: string, bytes: Buffer, name: string, extra: object[] = []) {
    const cr = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token, body: { subject: 'Files' } });
    expect(cr.status, cr.text).toBe(201);
    return t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      token,
      body: {
        changes: [{ operation: 'insert_files', files: [{ name, contentType: 'image/png', base64: bytes.toString('base64') }] }, ...extra],
      },
    });
  }

  it('removes unnamed bytes once past the grace period, and keeps named and recent ones', async () => {
    const space = await buildSpace(t.prisma, { organizationId });
    const named = png(7, 7, 1);
    expect((await upload(space.id, named, 'named.png')).status).toBe(200);
    const orphan = Buffer.from(`orphan ${kind}`);
    await t.app.services.files.put(keyOf(orphan), orphan);
    pastGrace();
    const outcome = await sweepFiles(t.app.services);
    expect(outcome.paused).toBe(false);
    expect(await stored(keyOf(orphan))).toBe(false);
    expect(await stored(keyOf(named))).toBe(true);
    t.clock.advanceMs(Date.now() - t.clock.now().getTime());
    const young = Buffer.from(`young ${kind}`);
    await t.app.services.files.put(keyOf(young), young);
    expect((await sweepFiles(t.app.services)).removed).toBe(0);
    expect(await stored(keyOf(young))).toBe(true);
  });

  it('keeps the bytes of a batch that failed while its intent lives, and removes them after', async () => {
    const space = await buildSpace(t.prisma, { organizationId });
    const bytes = png(9, 4, 2);
    const failed = await upload(space.id, bytes, 'failed.png', [{ operation: 'update_page', page: 'no-such-page', title: 'x' }]);
    expect(failed.status, failed.text).toBe(400);
    expect(await stored(keyOf(bytes))).toBe(true);
    expect(await t.prisma.fileVersion.count({ where: { storageKey: keyOf(bytes) } })).toBe(0);
    // Old enough to go if unnamed, but its intent still lives.
    await sweepFiles({ ...t.app.services, config: { ...t.app.services.config, filesSweepGraceMinutes: 0 } });
    expect(await stored(keyOf(bytes))).toBe(true);
    pastGrace();
    await sweepFiles(t.app.services);
    expect(await stored(keyOf(bytes))).toBe(false);
  });

  it('removes the bytes of a purged space, but not bytes another space still names', async () => {
    const [doomed, kept] = [await buildSpace(t.prisma, { organizationId }), await buildSpace(t.prisma, { organizationId })];
    const own = png(5, 3, 3);
    const shared = png(3, 5, 4);
    expect((await upload(doomed.id, own, 'own.png')).status).toBe(200);
    expect((await upload(doomed.id, shared, 'shared.png')).status).toBe(200);
    expect((await upload(kept.id, shared, 'shared copy.png')).status).toBe(200);
    expect((await t.request('DELETE', `/v1/spaces/${doomed.id}`, { token })).status).toBe(205);
    pastGrace();
    await sweepFiles(t.app.services);
    expect(await stored(keyOf(own))).toBe(true);
    t.clock.advanceDays(31);
    expect(await purgeDeletedSpaces(t.app.services)).toBeGreaterThanOrEqual(1);
    const outcome = await sweepFiles(t.app.services);
    expect(outcome.removed).toBeGreaterThanOrEqual(1);
    expect(await stored(keyOf(own))).toBe(false);
    expect(await stored(keyOf(shared))).toBe(true);
  });

  it('runs on the job queue: a tick enqueues a sweep, and a worker runs it', async () => {
    const orphan = Buffer.from(`queued ${kind}`);
    await t.app.services.files.put(keyOf(orphan), orphan);
    pastGrace();
    await scheduleFilesSweep(t.app.services);
    const jobs = await until(
      () => t.prisma.backgroundJob.findMany({ where: { kind: 'files-sweep' } }),
      (found) => found.length > 0 && found.every((job) => job.state === 'succeeded'),
    );
    expect(jobs.map((job) => job.state)).toEqual(['succeeded']);
    expect(await stored(keyOf(orphan))).toBe(false);
    await t.prisma.backgroundJob.deleteMany({ where: { kind: 'files-sweep' } });
  });

  it('keeps an exported PDF while its link works, and removes it and its row after', async () => {
    const space = await buildSpace(t.prisma, { organizationId });
    await publish(t.prisma, space.id, { pages: [page('intro', 'Introduction', { markdown: `Printed from ${kind}.` })] });
    const exported = await t.request('GET', `/v1/spaces/${space.id}/pdf`, { token });
    expect(exported.status, exported.text).toBe(200);
    const link = new URL(exported.body.url);
    const key = link.pathname.split('/').pop()!;
    const [row] = await t.prisma.fileExport.findMany({ where: { storageKey: key } });
    expect(row).toMatchObject({ spaceId: space.id, organizationId });
    expect(row.expiresAt.getTime()).toBe(Number(link.searchParams.get('expires')) * 1000);
    pastGrace();
    await sweepFiles(t.app.services);
    expect(await stored(key)).toBe(true);
    t.clock.advanceMs(row.expiresAt.getTime() - t.clock.now().getTime() + 1000);
    await sweepFiles(t.app.services);
    expect(await stored(key)).toBe(false);
    expect(await t.prisma.fileExport.count({ where: { storageKey: key } })).toBe(0);
  });

  it('pauses while a backup holds the sweep lock', async () => {
    const orphan = Buffer.from(`paused ${kind}`);
    await t.app.services.files.put(keyOf(orphan), orphan);
    pastGrace();
    const backup = new pg.Client({ connectionString: t.databaseUrl });
    await backup.connect();
    try {
      await backup.query('SELECT pg_advisory_lock_shared($1)', [SWEEP_LOCK]);
      expect(await sweepFiles(t.app.services)).toMatchObject({ paused: true, removed: 0 });
      expect(await stored(keyOf(orphan))).toBe(true);
    } finally {
      await backup.end();
    }
    expect((await sweepFiles(t.app.services)).paused).toBe(false);
    expect(await stored(keyOf(orphan))).toBe(false);
  });
});
