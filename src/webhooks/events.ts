// The actions the webhooks domain records, with their labels (collected into the audit log's list of actions).
export const webhooksActions = {
  webhook_created: 'Webhook created',
  webhook_updated: 'Webhook updated',
  webhook_deleted: 'Webhook deleted',
  webhook_secret_rotated: 'Webhook secret rotated',
  webhook_disabled: 'Webhook disabled',
} as const;
