// The changes of a site's visitor authentication settings that record events (src/kernel/events.ts), with their
// labels. The private key is a secret: no event carries it.
export const publishingAuthActions = {
  publishing_auth_updated: 'Visitor authentication updated',
  publishing_auth_key_regenerated: 'Visitor authentication key regenerated',
} as const;
