// What the SAML providers' changes record (src/kernel/events.ts), with their labels for the audit log's list of actions.
export const ssoActions = {
  saml_provider_created: 'SAML provider created',
  saml_provider_updated: 'SAML provider updated',
  saml_provider_deleted: 'SAML provider deleted',
} as const;
