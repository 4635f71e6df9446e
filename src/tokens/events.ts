// What the admin command line's changes record (src/kernel/events.ts) beyond the domains' own actions, with their labels
// for the audit log's list of actions. API tokens are made and revoked here only (and by SSO sign-in, for a session).
export const adminActions = {
  api_token_created: 'API token created',
  api_token_revoked: 'API token revoked',
} as const;
