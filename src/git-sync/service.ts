// Asking for a Git sync operation (GitBook's importGitRepository and exportToGitRepository): the space's Git sync
// configuration is recorded (the URL without its credentials, which are sealed with the instance secret), and the
// operation is written and queued, in one statement. The work runs in the background (task.ts), one operation at a time
// per space, in the order they were asked for. A standalone operation leaves the configuration as it is.
import { assertPrimaryContentWritable } from '../change-request-reviews/merge-rules.js';
import type { GitSyncOperation } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import type { GitProvider, GitSyncDirection } from '../generated/prisma/enums.js';
import { enqueueing } from '../jobs/queue.js';
import { authorize, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { conflict } from '../kernel/errors.js';
import { recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { seal } from '../kernel/sealed.js';
import { gitSyncEvent } from './events.js';
import { type GitSyncPayload, gitCredentialsSealedFor, gitSyncTask } from './task.js';

export interface GitOperationInput {
  url: string;
  ref: string;
  commitMessage?: string | null;
  repoProjectDirectory?: string | null;
  timestamp?: Date | null;
  force?: boolean | null;
  standalone?: boolean | null;
  gitInfo?: { provider?: 'github' | 'gitlab' | null; url?: string | null } | null;
}

/** The URL without its credentials (nor a trailing slash, which Git's paths would double), and the credentials. */
export function splitCredentials(text: string): { url: string; credentials: { username: string; password: string } | null } {
  const url = new URL(text);
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const credentials = url.username || url.password ? { username: decode(url.username), password: decode(url.password) } : null;
  url.username = '';
  url.password = '';
  url.pathname = url.pathname.replace(/\/+$/, '');
  return { url: url.toString(), credentials };
}

/** The provider a request names, else the one its host tells (GitHub's, GitLab's); null for any other server. */
function providerOf(url: URL, given: GitOperationInput['gitInfo']): GitProvider | null {
  if (given?.provider) return given.provider;
  const host = url.hostname.toLowerCase();
  if (host === 'github.com' || host.endsWith('.github.com')) return 'github';
  return host.includes('gitlab') ? 'gitlab' : null;
}

/** `owner/name` of a repository URL: its path, without `.git`. */
const repoNameOf = (url: URL) => url.pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '') || url.host;

/** The operation's queue: one at a time per space, in order. */
export const queueOf = (spaceId: string) => `${gitSyncTask.name}:${spaceId}`;

/**
 * Records and queues an import or an export of the space, asked for by the viewer: needs `triggerGitSync`. An import
 * into the primary content of a locked space, or of one whose merge rules require reviews, is refused (409). Answers the operation, `running` until it is done.
 */
export async function requestOperation(
  ctx: Context,
  spaceId: string,
  direction: GitSyncDirection,
  input: GitOperationInput,
): Promise<GitSyncOperation> {
  const { row: space } = await authorize(ctx, spaces, spaceId, 'triggerGitSync');
  const standalone = input.standalone ?? false;
  if (direction === 'import' && !standalone && space.editMode === 'locked') {
    throw conflict('The space is locked: set its editMode to live to import into it.');
  }
  if (direction === 'import' && !standalone) await assertPrimaryContentWritable(ctx.sql, spaceId);
  const { url, credentials } = splitCredentials(input.url);
  const sealed = credentials ? seal(ctx.secret, gitCredentialsSealedFor(spaceId), JSON.stringify(credentials)) : null;
  const parsed = new URL(url);
  const now = new Date();
  const operation: GitSyncOperation = {
    id: newId(),
    spaceId,
    direction,
    state: 'running',
    ref: input.ref,
    commitMessage: direction === 'export' ? (input.commitMessage ?? null) : null,
    timestamp: input.timestamp ?? null,
    force: input.force ?? false,
    standalone,
    skipped: false,
    commitId: null,
    revisionId: null,
    error: null,
    startedAt: now,
    endedAt: null,
  };
  const payload: GitSyncPayload = {
    operationId: operation.id,
    url,
    credentials: sealed,
    projectDirectory: input.repoProjectDirectory ?? '',
    userId: ctx.viewer.userId,
  };
  // The configuration, the operation and its job: one statement, so that none exists without the others; a new
  // configuration records its event (the URL without credentials) in the same transaction.
  const provider = providerOf(parsed, input.gitInfo);
  const configure = Prisma.sql`
    WITH configured AS (
      INSERT INTO "GitSync" ("spaceId", provider, "repoName", url, "credentialsCiphertext", ref, "projectDirectory",
                             "installationId", "updatedAt")
      SELECT ${spaceId}, ${provider}::"GitProvider", ${repoNameOf(parsed)}, ${url}, ${sealed},
             ${input.ref}, ${input.repoProjectDirectory ?? null}, ${newId()}, ${now}
       WHERE NOT ${standalone}::boolean
      ON CONFLICT ("spaceId") DO UPDATE SET provider = excluded.provider, "repoName" = excluded."repoName", url = excluded.url,
         "credentialsCiphertext" = excluded."credentialsCiphertext", ref = excluded.ref,
         "projectDirectory" = excluded."projectDirectory", "updatedAt" = excluded."updatedAt"
      RETURNING 1
    ), operation AS (
      INSERT INTO "GitSyncOperation" (id, "spaceId", direction, state, ref, "commitMessage", timestamp, force, standalone, "startedAt")
      VALUES (${operation.id}, ${spaceId}, ${direction}::"GitSyncDirection", 'running', ${operation.ref}, ${operation.commitMessage},
              ${operation.timestamp}, ${operation.force}, ${standalone}, ${now})
      RETURNING 1
    ), ${enqueueing(gitSyncTask, payload, {
      organizationId: space.organizationId,
      createdById: ctx.viewer.userId,
      queue: queueOf(spaceId),
    })}`;
  if (standalone) {
    await ctx.sql(configure);
    return operation;
  }
  await ctx.prisma.$transaction(async (tx) => {
    await tx.$executeRaw(configure);
    const configuration = { url, ref: input.ref, projectDirectory: input.repoProjectDirectory ?? null, provider };
    await recordEvents(tx, ctx, [gitSyncEvent('space_gitsync_configured', space, configuration)]);
  });
  return operation;
}
