// The background job queue: a job queued by one service process survives its stop and runs when another starts
// with a worker, or when a separate worker process (`npm run worker`) runs; a failing job is retried with backoff and fails for good after its last attempt; callers follow a
// job through GraphQL `job`, and only they and the organization's admins see it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineTask, enqueue } from '../../src/jobs/queue.js';
import { purgeTask } from '../../src/tasks.js';
import { type Person, startTestApp, type TestApp } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { npmScript } from '../support/npm-script.js';
import { until } from '../support/until.js';
import { buildWorld } from '../support/world.js';

const opened: TestApp[] = [];
afterAll(async () => {
  for (const app of opened.reverse()) await app.close();
});

async function started(options: Parameters<typeof startTestApp>[0] = {}) {
  const app = await startTestApp(options);
  opened.push(app);
  return app;
}

/** The job as its reader sees it through GraphQL. */
async function jobAs(t: TestApp, person: Person, id: string) {
  const res = await t.request('POST', '/graphql', {
    token: person.token,
    body: {
      query: 'query($id: ID!) { job(id: $id) { id kind state attempts maxAttempts lastError progress { done total } finishedAt } }',
      variables: { id },
    },
  });
  return res.body;
}

describe('the job queue', () => {
  it('keeps a job queued while no worker runs, across a restart, and runs it when a worker starts', async () => {
    const first = await started();
    const world = await buildWorld(first.prisma);
    const doomed = await buildSpace(first.prisma, { organizationId: world.organizationId });
    await first.prisma.space.update({ where: { id: doomed.id }, data: { deletedAt: new Date('2000-01-01T00:00:00Z') } });
    const job = await enqueue(first.prisma, purgeTask, {}, { organizationId: world.organizationId, createdById: world.admin.userId });
    expect(job.state).toBe('queued');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await first.prisma.space.findUnique({ where: { id: doomed.id } })).not.toBeNull();
    await first.stop();

    const second = await started({ databaseUrl: first.databaseUrl, jobs: 1 });
    const done = await until(
      () => jobAs(second, world.admin, job.id),
      (body) => body.data?.job?.state === 'succeeded',
    );
    expect(done.data.job).toMatchObject({ id: job.id, kind: 'purge-deleted-spaces', state: 'succeeded', attempts: 1, lastError: null });
    expect(await second.prisma.space.findUnique({ where: { id: doomed.id } })).toBeNull();
    // Whoever did not start it and does not administer its organization: not found.
    for (const person of [world.reader, world.outsider]) {
      expect((await jobAs(second, person, job.id)).errors[0].extensions.code).toBe('NOT_FOUND');
    }
  }, 60_000);

  it('retries a failing job with backoff, records its error and progress, and fails it after its last attempt', async () => {
    let calls = 0;
    const flaky = defineTask<{ failures: number }>({
      name: 'test-flaky',
      maxAttempts: 2,
      run: async (payload, { progress }) => {
        calls++;
        await progress(calls, 3);
        if (calls <= payload.failures) throw new Error(`attempt ${calls} broke`);
      },
    });
    const t = await started({ jobs: 2, tasks: [flaky] });
    const world = await buildWorld(t.prisma);
    const failing = await enqueue(t.prisma, flaky, { failures: 5 }, { createdById: world.editor.userId });
    // graphile-worker waits exp(1) ≈ 2.7 s before the second attempt.
    const failed = await until(
      () => jobAs(t, world.editor, failing.id),
      (body) => body.data?.job?.state === 'failed',
      30_000,
    );
    expect(failed.data.job).toMatchObject({
      state: 'failed',
      attempts: 2,
      maxAttempts: 2,
      lastError: 'attempt 2 broke',
      progress: { done: 2, total: 3 },
    });
    expect(failed.data.job.finishedAt).not.toBeNull();
    expect(calls).toBe(2);
  }, 60_000);

  it('runs jobs in a separate worker process (npm run worker), which stops cleanly on SIGTERM', async () => {
    const t = await started();
    const world = await buildWorld(t.prisma);
    const doomed = await buildSpace(t.prisma, { organizationId: world.organizationId });
    await t.prisma.space.update({ where: { id: doomed.id }, data: { deletedAt: new Date('2000-01-01T00:00:00Z') } });
    const job = await enqueue(t.prisma, purgeTask, {});
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'worker-test-'));
    const { command, args, env: variables, root } = await npmScript('worker');
    const env = { ...process.env, ...variables, DATABASE_URL: t.databaseUrl, DATA_DIR: dataDir, JOB_CONCURRENCY: '1', LOG_LEVEL: 'info' };
    const worker = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    worker.stdout.on('data', (chunk) => (output += chunk));
    worker.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => worker.on('exit', (code) => resolve(code)));
    try {
      const row = await until(
        () => t.prisma.backgroundJob.findUniqueOrThrow({ where: { id: job.id } }),
        (found) => found.state === 'succeeded',
        45_000,
      );
      expect(row.state, output).toBe('succeeded');
      expect(await t.prisma.space.findUnique({ where: { id: doomed.id } })).toBeNull();
      expect(output).toContain('"msg":"worker running"');
    } finally {
      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
