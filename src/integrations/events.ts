// The changes of integrations and their installations that record events (src/kernel/events.ts), with their labels.
// An integration's secrets, and an installation's configuration values (which may hold an account's credentials), are
// never in an event: a configuration change names the properties that changed.
import type { IntegrationInstallation } from '../generated/prisma/client.js';
import type { ChangeEvent } from '../kernel/events.js';
import type { IntegrationRow } from './service.js';

export const integrationsActions = {
  integration_published: 'Integration published',
  integration_unpublished: 'Integration unpublished',
  integration_installed: 'Integration installed',
  integration_installation_updated: 'Integration installation updated',
  integration_uninstalled: 'Integration uninstalled',
  integration_installed_on_space: 'Integration installed on a space',
  integration_uninstalled_from_space: 'Integration uninstalled from a space',
} as const;

type Action = keyof typeof integrationsActions;

/** An event about the integration, in its owner organization. */
export const integrationEvent = (
  action: Action,
  integration: Pick<IntegrationRow, 'id' | 'name' | 'title' | 'ownerOrganizationId'>,
  payload: Record<string, unknown> = {},
): ChangeEvent => ({
  action,
  organizationId: integration.ownerOrganizationId,
  target: { type: 'integration', id: integration.id, label: integration.title },
  payload: { integration: integration.name, ...payload },
});

/** An event about an installation, in the installing organization; about a space when `spaceId` is given. */
export const installationEvent = (
  action: Action,
  integration: Pick<IntegrationRow, 'name' | 'title'>,
  installation: Pick<IntegrationInstallation, 'id' | 'organizationId'>,
  payload: Record<string, unknown> = {},
  spaceId?: string,
): ChangeEvent => ({
  action,
  organizationId: installation.organizationId,
  target: { type: 'integration-installation', id: installation.id, label: integration.title },
  ...(spaceId && { spaceId }),
  payload: { integration: integration.name, ...(spaceId && { space: spaceId }), ...payload },
});
