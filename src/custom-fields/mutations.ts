// Custom fields: inputs (with their validation) and mutations.
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import * as service from './service.js';
import { CustomField, CustomFieldTypeEnum } from './types.js';

const name = z
  .string()
  .min(1)
  .max(50)
  .regex(/^[a-z0-9_-]+$/, 'must be lowercase letters, digits, "_" or "-"');
const options = z
  .array(z.string().min(1).max(40))
  .min(1)
  .max(50)
  .refine((values) => new Set(values).size === values.length, 'must not repeat an option');

const definitionFields = (t: PothosSchemaTypes.InputFieldBuilder<typeof builder.$inferSchemaTypes, 'InputObject'>) => ({
  title: t.string({ description: 'At most 100 characters.', validate: z.string().max(100) }),
  description: t.string({ description: 'At most 200 characters.', validate: z.string().max(200) }),
  placeholder: t.string({ description: 'At most 100 characters.', validate: z.string().max(100) }),
  options: t.stringList({ description: 'Select fields only: 1 to 50 distinct options of 1 to 40 characters.', validate: options }),
});

export const CreateCustomFieldInput = builder.inputType('CreateCustomFieldInput', {
  fields: (t) => ({
    name: t.string({
      required: true,
      description: '1 to 50 lowercase letters, digits, "_" or "-"; unique in the organization.',
      validate: name,
    }),
    type: t.field({ type: CustomFieldTypeEnum, required: true }),
    ...definitionFields(t),
  }),
});

// REST drops the body fields an input does not declare: `name` and `type` are declared so that sending them is refused.
const unchangeable = z.undefined({ error: 'cannot be changed' });

export const UpdateCustomFieldInput = builder.inputType('UpdateCustomFieldInput', {
  fields: (t) => ({
    name: t.string({ description: 'Cannot be changed: refused when sent.', validate: unchangeable }),
    type: t.string({ description: 'Cannot be changed: refused when sent.', validate: unchangeable }),
    ...definitionFields(t),
  }),
});

export const UpdateSpaceCustomFieldsInput = builder.inputType('UpdateSpaceCustomFieldsInput', {
  fields: (t) => ({
    values: t.field({
      type: 'JSON',
      required: true,
      description:
        'By field name, {"value": ...}: a string, number, boolean or string array as the field’s type takes; null removes it. At most 100 fields.',
      validate: z
        .record(z.string().max(50), z.object({ value: z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]) }))
        .refine((values) => Object.keys(values).length <= 100, 'must name at most 100 fields'),
    }),
  }),
});

const fieldKey = builder.args((t) => ({ organizationId: t.id({ required: true }), name: t.string({ required: true }) }));

builder.mutationFields((t) => ({
  createCustomField: t.field({
    type: CustomField,
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateCustomFieldInput, required: true }) },
    resolve: (_root, args, ctx) => service.createCustomField(ctx, args.organizationId, args.input),
  }),
  updateCustomField: t.field({
    type: CustomField,
    args: { ...fieldKey, input: t.arg({ type: UpdateCustomFieldInput, required: true }) },
    resolve: (_root, args, ctx) => service.updateCustomField(ctx, args.organizationId, args.name, args.input),
  }),
  deleteCustomField: t.boolean({
    args: fieldKey,
    resolve: async (_root, args, ctx) => {
      await service.deleteCustomField(ctx, args.organizationId, args.name);
      return true;
    },
  }),
  updateSpaceCustomFields: t.boolean({
    args: { spaceId: t.arg.id({ required: true }), input: t.arg({ type: UpdateSpaceCustomFieldsInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      await service.updateSpaceCustomFields(ctx, args.spaceId, args.input.values as Record<string, { value: unknown }>);
      return true;
    },
  }),
}));
