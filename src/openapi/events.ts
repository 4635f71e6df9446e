// The changes of OpenAPI specifications that are recorded (src/kernel/events.ts), with their labels: a spec created,
// given a new source, or deleted by a user; a new version written by its processing job (the system). Processing
// states alone are bookkeeping and record nothing.
import type { ChangeEvent } from '../kernel/events.js';

export const openAPIActions = {
  openapi_spec_created: 'OpenAPI specification created',
  openapi_spec_updated: 'OpenAPI specification updated',
  openapi_spec_deleted: 'OpenAPI specification deleted',
  openapi_spec_version_created: 'OpenAPI specification version created',
} as const;

/** An event about the spec, in its organization, labelled with its slug. */
export const openAPISpecEvent = (
  action: keyof typeof openAPIActions,
  spec: { id: string; organizationId: string; slug: string },
  payload?: Record<string, unknown>,
): ChangeEvent => ({
  action,
  organizationId: spec.organizationId,
  target: { type: 'openapi-spec', id: spec.id, label: spec.slug },
  ...(payload && { payload }),
});
