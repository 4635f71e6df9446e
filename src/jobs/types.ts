// The BackgroundJob type and the `job` query: how a caller follows long work it started (an import, a link check, a
// Git sync). A job is seen by whoever asked for it and by the admins of the organization it works for (policies.job);
// to anyone else, and to a token of another organization, it does not exist.
import type { BackgroundJob as JobRow } from '../generated/prisma/client.js';
import { BackgroundJobState } from '../generated/prisma/enums.js';
import { rowAnnotation } from '../kernel/annotations.js';
import { authorize, type Resource, rowsOfTable } from '../kernel/authorize.js';
import { builder, prismaEnum } from '../kernel/builder.js';
import { type Level, organizationLevel, policies } from '../kernel/permissions.js';

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

/**
 * The viewer's standing in the organization a job works for; a job of no organization is its creator's alone, out of
 * reach of a token that acts in one organization.
 */
const jobs: Resource<JobRow, typeof policies.job> = {
  kind: 'Job',
  policy: policies.job,
  loadMany: rowsOfTable('BackgroundJob'),
  level: rowAnnotation('job level', async (ctx, rows) => {
    const scoped = ctx.viewer.organizations !== null || ctx.viewer.spaces !== null;
    const members = await ctx.membership.loadMany(rows.flatMap((row) => row.organizationId ?? []));
    const byOrganization = new Map(rows.flatMap((row) => row.organizationId ?? []).map((id, i) => [id, members[i]]));
    return rows.map((row): Level => {
      if (!row.organizationId) return scoped ? null : 'guest';
      const member = byOrganization.get(row.organizationId);
      return organizationLevel(member instanceof Error ? undefined : member);
    });
  }),
  ownerOf: (job) => job.createdById ?? '',
};

export const BackgroundJob = builder.objectRef<JobRow>('BackgroundJob').implement({
  access: jobs,
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
    resolve: async (_root, args, ctx) => (await authorize(ctx, jobs, args.id, 'view')).row,
  }),
}));
