// How a request reaches a SAML provider: through the admin role in its organization (policies.samlProvider). A
// provider is the organization's way in, so nobody else learns it exists.
import type { SamlProvider } from '../generated/prisma/client.js';
import { childResource, organizations } from '../kernel/authorize.js';
import { policies } from '../kernel/permissions.js';

export const samlProviders = childResource<SamlProvider, typeof policies.samlProvider, { id: string }>(organizations, {
  kind: 'SAML provider',
  policy: policies.samlProvider,
  table: 'SamlProvider',
  parentKey: 'organizationId',
});
