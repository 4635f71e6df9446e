// The GraphQL types of Git sync: a space's Git sync state (GitBook's GitSyncState: its configuration and its latest
// operation), on the Space as `gitSync` (null without one) and `gitInfo` (404 without one), and an operation, followed
// by id. Credentials are in none of them.
import { Prisma } from '../generated/prisma/client.js';
import { GitSyncDirection, GitSyncState as OperationStates } from '../generated/prisma/enums.js';
import { builder, prismaEnum, restEnum } from '../kernel/builder.js';
import { notFound } from '../kernel/errors.js';
import { contentOf, Revision } from '../revisions/types.js';
import { spaceSummaryAnnotation } from '../spaces/summary.js';
import { Space } from '../spaces/types.js';
import { AUTHENTICATION_FAILED, type GitSyncOperationState, type GitSyncSummary, operationJson, operationOf } from './state.js';

const OperationStateEnum = prismaEnum(
  'GitSyncOperationState',
  OperationStates,
  'running (also while it waits for its turn), success (skipped ones too), failure, or timeout.',
);
const DirectionEnum = prismaEnum('GitSyncOperationDirection', GitSyncDirection, 'import (from Git) or export (to Git).');
const InstallationStatusEnum = builder.enumType('GitSyncInstallationStatus', {
  description: 'unauthenticated when the latest operation failed for its credentials; active otherwise (pending is never used here).',
  values: ['unauthenticated', 'active', 'pending'] as const,
});
const ProviderEnum = restEnum('GitSyncProvider', { github: 'github', gitlab: 'gitlab', github_legacy: 'github-legacy' });

export const GitSyncOperation = builder.objectRef<GitSyncOperationState>('GitSyncOperation').implement({
  description: 'An import from or an export to a Git repository, run in the background.',
  fields: (t) => ({
    id: t.exposeID('id'),
    direction: t.expose('direction', { type: DirectionEnum }),
    state: t.expose('state', { type: OperationStateEnum }),
    ref: t.exposeString('ref', { description: 'The branch, `refs/heads/<name>`.' }),
    skipped: t.exposeBoolean('skipped', {
      description: 'Not applied: its timestamp is older than that of the last operation applied to the space.',
    }),
    commit: t.exposeString('commitId', { nullable: true, description: 'The commit imported, or that the branch holds after an export.' }),
    error: t.exposeString('error', { nullable: true, description: 'Why the operation failed, when it did.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', description: 'When it was asked for.' }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true }),
    revision: t.field({
      type: Revision,
      nullable: true,
      description: 'The revision an import wrote (for a standalone import, one that is not the space’s content).',
      resolve: (operation, _args, ctx) => (operation.revisionId ? contentOf(ctx, operation.revisionId, {}) : null),
    }),
  }),
});

export const GitSyncState = builder.objectRef<GitSyncSummary>('GitSyncState').implement({
  description: 'The Git sync of a space: the repository it syncs with, and its latest operation.',
  fields: (t) => ({
    repoName: t.exposeString('repoName', { nullable: true, description: 'The repository’s path on its server, `owner/name`.' }),
    installationStatus: t.field({
      type: InstallationStatusEnum,
      resolve: ({ operation }) =>
        operation?.state === 'failure' && operation.error?.startsWith(AUTHENTICATION_FAILED) ? 'unauthenticated' : 'active',
    }),
    installationProvider: t.field({
      type: ProviderEnum,
      description:
        'As the request’s gitInfo said, or as the host tells (GitHub’s, a GitLab); github for any other server (GitBook’s spec knows no other).',
      resolve: (sync) => sync.provider ?? 'github',
    }),
    integration: t.exposeString('integration', { nullable: true }),
    installationId: t.string({
      description: 'The id of the space’s Git sync configuration.',
      resolve: (sync) => sync.installationId ?? sync.spaceId,
    }),
    url: t.exposeString('url', { description: 'The repository’s URL, without credentials.' }),
    ref: t.exposeString('ref', { description: 'The branch of the latest operation asked for.' }),
    operation: t.expose('operation', { type: GitSyncOperation, nullable: true, description: 'The latest operation asked for.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the configuration last changed.' }),
  }),
});

builder.objectFields(Space, (t) => ({
  gitSync: t.field({
    type: GitSyncState,
    nullable: true,
    description: 'The space’s Git sync, null when it has none.',
    resolve: async (space, _args, ctx) => (await spaceSummaryAnnotation.of(ctx, space)).gitSync,
  }),
  gitInfo: t.field({
    type: GitSyncState,
    description: 'The space’s Git sync; not found when it has none.',
    resolve: async (space, _args, ctx) => {
      const { gitSync } = await spaceSummaryAnnotation.of(ctx, space);
      if (!gitSync) throw notFound('Git sync');
      return gitSync;
    },
  }),
  gitSyncOperation: t.field({
    type: GitSyncOperation,
    description: 'An operation on the space, by id (as its request answered it).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (space, args, ctx) => {
      const [row] = await ctx.sql<{ operation: Parameters<typeof operationOf>[0] }>(
        Prisma.sql`SELECT ${operationJson} AS operation FROM "GitSyncOperation" o WHERE o.id = ${args.id} AND o."spaceId" = ${space.id}`,
      );
      if (!row) throw notFound('Git sync operation');
      return operationOf(row.operation);
    },
  }),
}));
