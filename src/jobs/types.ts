// The BackgroundJob type and the `job` query: how a caller follows long work it started (an import, a link check, a
// Git sync). A job is seen by whoever asked for it and by the admins of the organization it works for; to anyone else
// it does not exist.
import type { BackgroundJob as JobRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { BackgroundJobState } from '../generated/prisma/enums.js';
import { builder, prismaEnum } from '../kernel/builder.js';
import { viewerMembershipSql } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';

const BackgroundJobStateEnum = prismaEnum(
  'BackgroundJobState',
  BackgroundJobState,
  'queued (waiting for a worker, or for its next attempt), running, succeeded, or failed (after its last attempt).',
);

const JobProgress = builder.objectRef<{ done: number; total: number }>('BackgroundJobProgress').implement({
  fields: (t) => ({
    done: t.exposeInt('done'),
    total: t.exposeInt('total'),
  }),
});

export const BackgroundJob = builder.objectRef<JobRow>('BackgroundJob').implement({
  description: 'Work the service does in the background, with its progress and its outcome.',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind', { description: 'What the job does (link-check, import, ...).' }),
    state: t.expose('state', { type: BackgroundJobStateEnum }),
    progress: t.field({
      type: JobProgress,
      nullable: true,
      description: 'How far a running job has come, when it can tell.',
      resolve: (job) => (job.progressTotal === null ? null : { done: job.progressDone ?? 0, total: job.progressTotal }),
    }),
    attempts: t.exposeInt('attempts', { description: 'Attempts so far: a failed attempt is retried with a growing delay.' }),
    maxAttempts: t.exposeInt('maxAttempts'),
    lastError: t.exposeString('lastError', { nullable: true, description: 'Why the last attempt failed.' }),
    organizationId: t.exposeID('organizationId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryFields((t) => ({
  job: t.field({
    type: BackgroundJob,
    description: 'A background job the viewer started, or one of an organization the viewer administers.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const [job] = await ctx.sql<JobRow>(Prisma.sql`
        SELECT j.* FROM "BackgroundJob" j
         WHERE j.id = ${args.id}
           AND (j."createdById" = ${ctx.viewer.userId}
                OR EXISTS (SELECT 1 FROM "Member" m WHERE m."organizationId" = j."organizationId"
                             AND ${viewerMembershipSql(ctx.viewer, 'm')} AND m.role = 'admin'))`);
      if (!job) throw notFound('Job');
      return job;
    },
  }),
}));
