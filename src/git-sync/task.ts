// The background job of a Git sync operation, run one at a time per space (its queue) in the order asked for. An
// operation whose timestamp is older than that of the last operation applied to the space is skipped, and says so;
// otherwise it imports or exports (importing.ts, exporting.ts) in a repository of its own, removed afterwards. A failed
// operation changes nothing (an import writes its revision in its last transaction) and records why, in words that
// never hold the credentials: they are unsealed only for the transfer, and scrubbed from anything recorded or logged.
import { spaceContentUpdatedEvent } from '../change-requests/events.js';
import type { GitSyncOperation } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { defineTask } from '../jobs/queue.js';
import type { Services } from '../kernel/context.js';
import { ApiError } from '../kernel/errors.js';
import { type ChangeEvent, recordEvents, recorderFor, systemActor } from '../kernel/events.js';
import { type SealedFor, unseal } from '../kernel/sealed.js';
import { gitSyncEvent, operationPayload } from './events.js';
import { LayoutError } from './layout.js';
import type { Credentials } from './remote.js';

export interface GitSyncPayload {
  operationId: string;
  /** Without credentials. */
  url: string;
  /** Sealed with the instance secret (src/kernel/sealed.ts) for the space, as JSON of Credentials. */
  credentials: string | null;
  projectDirectory: string;
  /** Who asked: the author of an export's commit. */
  userId: string;
}

/**
 * What a space's sealed Git credentials are bound to: the space, the key of its GitSync row, whose value its
 * operations' jobs carry too.
 */
export const gitCredentialsSealedFor = (spaceId: string): SealedFor => ({ purpose: 'git-sync-credentials', rowId: spaceId });

/** The message with every spelling of the credentials' secret part replaced. */
export function scrubbed(message: string, credentials: Credentials | null): string {
  const secrets = [credentials?.password, credentials && !credentials.password ? credentials.username : undefined].filter(
    (secret): secret is string => !!secret,
  );
  let out = message;
  for (const secret of secrets) {
    for (const spelling of new Set([secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')])) {
      out = out.split(spelling).join('***');
    }
  }
  return out;
}

/** The last applied operation's timestamp is newer than this one's: it is skipped. */
async function outOfOrder(services: Services, operation: GitSyncOperation): Promise<boolean> {
  if (!operation.timestamp) return false;
  const [{ newer }] = await services.sql<{ newer: boolean }>(Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM "GitSyncOperation"
                    WHERE "spaceId" = ${operation.spaceId} AND id <> ${operation.id} AND state = 'success' AND NOT skipped
                      AND NOT standalone AND timestamp > ${operation.timestamp}) AS newer`);
  return newer;
}

/** The operations and Git itself (isomorphic-git, pako): loaded by the first Git sync, not at start-up. */
async function gitOperations() {
  const [remote, importing, exporting] = await Promise.all([import('./remote.js'), import('./importing.js'), import('./exporting.js')]);
  return { ...remote, importContent: importing.importContent, exportContent: exporting.exportContent };
}

async function authorOf(services: Services, userId: string) {
  const [user] = await services.sql<{ displayName: string; email: string }>(
    Prisma.sql`SELECT "displayName", email FROM "User" WHERE id = ${userId}`,
  );
  return { name: user?.displayName || 'Docs platform', email: user?.email ?? 'git-sync@docs-platform.invalid' };
}

export const gitSyncTask = defineTask<GitSyncPayload>({
  name: 'git-sync',
  // Pushing twice is not harmless: a failed operation is recorded, and asked for again by its caller.
  maxAttempts: 1,
  run: async (payload, { services }) => {
    const [found] = await services.sql<GitSyncOperation & { organizationId: string; title: string }>(Prisma.sql`
      SELECT o.*, s."organizationId", s.title FROM "GitSyncOperation" o JOIN "Space" s ON s.id = o."spaceId"
       WHERE o.id = ${payload.operationId}`);
    if (found?.state !== 'running') return;
    const { organizationId, title, ...operation } = found;
    const space = { id: operation.spaceId, organizationId, title };
    const recorder = recorderFor(services, systemActor('workflow'));
    /** The operation's end, recorded in the transaction that writes it (GitBook's state: success or failure). */
    const completed = (outcome: Record<string, unknown>): ChangeEvent =>
      gitSyncEvent('space_gitsync_completed', space, { ...operationPayload(operation), ...outcome });
    if (await outOfOrder(services, operation)) {
      await services.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`
          UPDATE "GitSyncOperation" SET state = 'success', skipped = true, "endedAt" = ${new Date()} WHERE id = ${operation.id}`;
        await recordEvents(tx, recorder, [completed({ state: 'success', skipped: true })]);
      });
      return;
    }
    // The start changes nothing but is an event of its own (GitBook's): one statement.
    await recordEvents(services.prisma, recorder, [gitSyncEvent('space_gitsync_started', space, operationPayload(operation))]);
    const { GitFailure, withRepository, gitLimits, importContent, exportContent } = await gitOperations();
    let credentials: Credentials | null = null;
    try {
      credentials = payload.credentials
        ? (JSON.parse(unseal(services.secret, gitCredentialsSealedFor(operation.spaceId), payload.credentials)) as Credentials)
        : null;
      await withRepository({ url: payload.url, credentials }, services.fetcher, gitLimits(services.config), async (repository) => {
        if (operation.direction === 'import') {
          await importContent(services, repository, operation, payload.projectDirectory, payload.userId, async (tx, outcome) => {
            const events = [completed({ state: 'success', ...outcome })];
            // Into the space's content (not a standalone revision): GitBook's content event, by whoever asked.
            if (!operation.standalone) events.push(spaceContentUpdatedEvent(space, outcome.revisionId, payload.userId));
            await recordEvents(tx, recorder, events);
          });
          return;
        }
        const commit = await exportContent(
          services,
          repository,
          operation,
          payload.projectDirectory,
          await authorOf(services, payload.userId),
        );
        await services.prisma.$transaction(async (tx) => {
          await tx.$executeRaw`
            UPDATE "GitSyncOperation" SET state = 'success', "commitId" = ${commit}, "endedAt" = ${new Date()} WHERE id = ${operation.id}`;
          await recordEvents(tx, recorder, [completed({ state: 'success', commitId: commit })]);
        });
      });
    } catch (error) {
      const failure =
        error instanceof GitFailure
          ? error
          : // The layout's faults, and the API's refusals (the storage quota), are the user's to read.
            error instanceof LayoutError || error instanceof ApiError
            ? new GitFailure(error.message)
            : new GitFailure('The operation failed.');
      const message = scrubbed(failure.message, credentials);
      if (!(error instanceof GitFailure || error instanceof LayoutError || error instanceof ApiError)) {
        services.logger.error(
          { job: 'git-sync', operation: operation.id, error: scrubbed(String((error as Error)?.stack ?? error), credentials) },
          'git sync failed',
        );
      }
      await services.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`
          UPDATE "GitSyncOperation" SET state = ${failure.state}::"GitSyncState", error = ${message}, "endedAt" = ${new Date()}
           WHERE id = ${operation.id}`;
        await recordEvents(tx, recorder, [completed({ state: 'failure', error: message })]);
      });
      throw new Error(message);
    }
  },
});
