// The changes of custom fields that are recorded (src/kernel/events.ts), with their labels: the organization's
// definitions, and a space's values.
import type { CustomField } from '../generated/prisma/client.js';
import type { ChangeEvent } from '../kernel/events.js';

export const customFieldsActions = {
  custom_field_created: 'Custom field created',
  custom_field_updated: 'Custom field updated',
  custom_field_deleted: 'Custom field deleted',
  space_custom_fields_updated: 'Space custom fields updated',
} as const;

/** An event about the field's definition, in its organization. */
export const customFieldEvent = (
  action: keyof typeof customFieldsActions,
  field: Pick<CustomField, 'id' | 'organizationId' | 'name'>,
  payload?: Record<string, unknown>,
): ChangeEvent => ({
  action,
  organizationId: field.organizationId,
  target: { type: 'custom-field', id: field.id, label: field.name },
  ...(payload && { payload }),
});
