// What a space's Git sync looks like from outside (GitBook's GitSyncState): its configuration and its latest
// operation, read as one JSON value per space by an SQL expression, so that the statement that reads a page of
// spaces' summaries (src/spaces/summary.ts) reads their Git sync too, and a list of spaces pays nothing more for it.
// Credentials are never part of it.
import { Prisma } from '../generated/prisma/client.js';
import type { GitProvider, GitSyncDirection, GitSyncState as OperationState } from '../generated/prisma/enums.js';

/** Error messages of failed authentication start with this: the installation is then `unauthenticated`. */
export const AUTHENTICATION_FAILED = 'Authentication failed';

export interface GitSyncOperationState {
  id: string;
  direction: GitSyncDirection;
  state: OperationState;
  ref: string;
  skipped: boolean;
  commitId: string | null;
  revisionId: string | null;
  error: string | null;
  startedAt: Date;
  endedAt: Date | null;
}

export interface GitSyncSummary {
  spaceId: string;
  installationId: string | null;
  provider: GitProvider | null;
  repoName: string | null;
  integration: string | null;
  url: string;
  ref: string;
  updatedAt: Date;
  /** The latest operation asked for, if any. */
  operation: GitSyncOperationState | null;
}

/** The columns of an operation that its state shows, as a JSON object (`o` is the operation). */
export const operationJson = Prisma.sql`json_build_object(
  'id', o.id, 'direction', o.direction, 'state', o.state, 'ref', o.ref, 'skipped', o.skipped, 'commitId', o."commitId",
  'revisionId', o."revisionId", 'error', o.error, 'startedAt', o."startedAt", 'endedAt', o."endedAt")`;

/** The Git sync of the space whose id `spaceId` is, as JSON (null when it has none); one index lookup each. */
export const gitSyncSql = (spaceId: Prisma.Sql) => Prisma.sql`(
  SELECT json_build_object(
    'spaceId', g."spaceId", 'installationId', g."installationId", 'provider', g.provider, 'repoName', g."repoName",
    'integration', g.integration, 'url', g.url, 'ref', g.ref, 'updatedAt', g."updatedAt",
    'operation', (SELECT ${operationJson} FROM "GitSyncOperation" o WHERE o."spaceId" = g."spaceId"
                   ORDER BY o."startedAt" DESC, o.id DESC LIMIT 1))
    FROM "GitSync" g WHERE g."spaceId" = ${spaceId})`;

type Json<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

/** An operation read as JSON, with its dates. */
export function operationOf(json: Json<GitSyncOperationState>): GitSyncOperationState {
  return { ...json, startedAt: new Date(json.startedAt), endedAt: json.endedAt === null ? null : new Date(json.endedAt) };
}

/** The value of gitSyncSql, with its dates. */
export function summaryOf(json: unknown): GitSyncSummary | null {
  if (!json) return null;
  const read = json as Json<Omit<GitSyncSummary, 'operation'>> & { operation: Json<GitSyncOperationState> | null };
  return { ...read, updatedAt: new Date(read.updatedAt), operation: read.operation && operationOf(read.operation) };
}
