// How a request reaches a SAML provider: through the admin role in its organization (policies.samlProvider). A
// provider is the organization's way in, so nobody else learns it exists.
import type { SamlProvider } from '../generated/prisma/client.js';
import { organizationChildLevel, type Resource, rowsOfTable } from '../kernel/authorize.js';
import { policies } from '../kernel/permissions.js';

export const samlProviders: Resource<SamlProvider, typeof policies.samlProvider> = {
  kind: 'SAML provider',
  policy: policies.samlProvider,
  loadMany: rowsOfTable('SamlProvider'),
  level: organizationChildLevel('saml provider level'),
  parentKey: 'organizationId',
};
