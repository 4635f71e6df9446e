// The changes of Git sync that are recorded (src/kernel/events.ts), with their labels, under GitBook's webhook event
// names: the configuration written by whoever asked for an operation, and each operation started and completed by its
// job (the system). An import into the space's content also records GitBook's `space_content_updated`.
import type { GitSyncOperation, Space } from '../generated/prisma/client.js';
import type { ChangeEvent } from '../kernel/events.js';

export const gitSyncActions = {
  space_gitsync_configured: 'Git sync configured',
  space_gitsync_started: 'Git sync started',
  space_gitsync_completed: 'Git sync completed',
} as const;

type SpaceOf = Pick<Space, 'id' | 'organizationId' | 'title'>;

/** An event about the space's Git sync, with GitBook's `spaceId`. */
export const gitSyncEvent = (action: keyof typeof gitSyncActions, space: SpaceOf, payload: Record<string, unknown>): ChangeEvent => ({
  action,
  organizationId: space.organizationId,
  target: { type: 'space', id: space.id, label: space.title },
  spaceId: space.id,
  payload: { spaceId: space.id, ...payload },
});

/** What an operation's events say of it: never its credentials (it holds none). */
export const operationPayload = (operation: GitSyncOperation) => ({
  operationId: operation.id,
  direction: operation.direction,
  ref: operation.ref,
  standalone: operation.standalone,
});
