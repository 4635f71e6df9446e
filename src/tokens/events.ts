// The changes of API tokens that record events (src/kernel/events.ts), with their labels. A token's event is recorded
// in every organization the token acts in; its secret never is.
export const tokensActions = {
  api_token_created: 'API token created',
  api_token_revoked: 'API token revoked',
} as const;
