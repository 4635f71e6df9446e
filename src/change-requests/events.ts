// The changes of change requests that are recorded (src/kernel/events.ts), with their labels; a merge also records
// GitBook's `space_content_updated` for the space it changed.
import type { ChangeRequest, Space } from '../generated/prisma/client.js';
import type { ChangeEvent } from '../kernel/events.js';

export const changeRequestsActions = {
  change_request_created: 'Change request created',
  change_request_updated: 'Change request updated',
  change_request_content_updated: 'Change request content updated',
  change_request_archived: 'Change request archived',
  change_request_reopened: 'Change request reopened',
  change_request_merged: 'Change request merged',
  space_content_updated: 'Space content updated',
} as const;

/** An event about the change request, in its space's organization (its reviews' events too). */
export const changeRequestEvent = (
  action: string,
  space: Pick<Space, 'id' | 'organizationId'>,
  changeRequest: Pick<ChangeRequest, 'id' | 'number' | 'subject'>,
  payload?: Record<string, unknown>,
): ChangeEvent => ({
  action,
  organizationId: space.organizationId,
  target: { type: 'change-request', id: changeRequest.id, label: changeRequest.subject || `#${changeRequest.number}` },
  spaceId: space.id,
  payload: { number: changeRequest.number, ...payload },
});

/** GitBook's event for a change of the space's content (a merge, a Git import): spaceId, revisionId, updatedBy. */
export const spaceContentUpdatedEvent = (
  space: Pick<Space, 'id' | 'organizationId' | 'title'>,
  revisionId: string,
  updatedBy: string,
  payload?: Record<string, unknown>,
): ChangeEvent => ({
  action: 'space_content_updated',
  organizationId: space.organizationId,
  target: { type: 'space', id: space.id, label: space.title },
  spaceId: space.id,
  payload: { spaceId: space.id, revisionId, updatedBy, ...payload },
});
