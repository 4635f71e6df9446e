// Defining custom fields (organization admins) and setting a space's values of them (its editors). A field's name and
// type never change, so a value once valid stays of the right type; a select field's removed option is removed from
// the values that held it.
import { z } from 'zod';
import type { CustomField as CustomFieldRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import type { CustomFieldType } from '../generated/prisma/enums.js';
import { authorize, forbidden, organizations, spaces } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { badRequest, conflict, isUniqueViolation, notFound } from '../kernel/errors.js';
import { assertIfMatch, lockIfMatch, tagOf } from '../kernel/etags.js';
import { changedFields, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { allows, policies } from '../kernel/permissions.js';
import { validationError } from '../kernel/validation.js';
import { customFields } from './access.js';
import { customFieldEvent } from './events.js';

/** Types whose values are chosen among the field's options (and only these types have options). */
const selectTypes: readonly CustomFieldType[] = ['select_multi', 'select_single'];

export interface CustomFieldDefinition {
  title?: string | null;
  description?: string | null;
  placeholder?: string | null;
  options?: string[] | null;
}

/** Options belong to select fields, which need at least one. */
function checkOptions(type: CustomFieldType, options: string[] | null | undefined, sent: boolean): void {
  const select = selectTypes.includes(type);
  if (select && sent && !options?.length) throw badRequest('Invalid "options": a select field needs 1 to 50 options.');
  if (!select && options?.length) throw badRequest(`Invalid "options": only select fields have options, not ${type} fields.`);
}

export async function createCustomField(
  ctx: Context,
  organizationId: string,
  input: CustomFieldDefinition & { name: string; type: CustomFieldType },
): Promise<CustomFieldRow> {
  await authorize(ctx, organizations, organizationId, 'admin');
  checkOptions(input.type, input.options, true);
  const now = ctx.clock.now();
  try {
    return await ctx.prisma.$transaction(async (tx) => {
      const created = await tx.customField.create({
        data: {
          id: newId(),
          organizationId,
          name: input.name,
          type: input.type,
          title: input.title ?? null,
          description: input.description ?? null,
          placeholder: input.placeholder ?? null,
          options: input.options ?? [],
          createdAt: now,
          updatedAt: now,
        },
      });
      await recordEvents(tx, ctx, [customFieldEvent('custom_field_created', created, { type: created.type })]);
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A custom field named "${input.name}" already exists in this organization.`);
    throw error;
  }
}

/** Changes what may change (not the name nor the type); returns the field as it now stands. */
export async function updateCustomField(
  ctx: Context,
  organizationId: string,
  name: string,
  input: CustomFieldDefinition,
): Promise<CustomFieldRow> {
  const { row: field } = await authorize(ctx, customFields, { id: name, parent: organizationId }, 'edit');
  checkOptions(field.type, input.options, input.options !== undefined);
  const options = selectTypes.includes(field.type) ? (input.options ?? undefined) : undefined;
  const data = {
    ...(input.title !== undefined && { title: input.title }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.placeholder !== undefined && { placeholder: input.placeholder }),
    ...(options && { options }),
    updatedAt: ctx.clock.now(),
  };
  const removed = options ? field.options.filter((option) => !options.includes(option)) : [];
  const changed = changedFields(field, {
    title: input.title,
    description: input.description,
    placeholder: input.placeholder,
    options,
  });
  const updated = await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'CustomField', field.id, customFields.kind);
    const row = await tx.customField.update({ where: { id: field.id }, data });
    // Keeps each value's remaining options in their order.
    if (removed.length) {
      await tx.$executeRaw(Prisma.sql`
        UPDATE "CustomFieldValue" v SET "updatedAt" = ${data.updatedAt}, value = COALESCE(
            (SELECT jsonb_agg(e.item ORDER BY e.n) FROM jsonb_array_elements(v.value) WITH ORDINALITY AS e(item, n)
              WHERE NOT (e.item #>> '{}') = ANY(${removed}::text[])), '[]'::jsonb)
         WHERE v."customFieldId" = ${field.id}
           AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(v.value) AS e(item) WHERE e.item = ANY(${removed}::text[]))`);
    }
    if (Object.keys(changed).length) await recordEvents(tx, ctx, [customFieldEvent('custom_field_updated', field, { changed })]);
    return row;
  });
  return updated as CustomFieldRow;
}

/** Deletes a field with every space's value of it (by cascade). */
export async function deleteCustomField(ctx: Context, organizationId: string, name: string): Promise<void> {
  // Judged on the organization, where every field is (policies.customField), so that the delete reads nothing first.
  const { level } = await authorize(ctx, organizations, organizationId, 'view');
  if (!allows(policies.customField.edit, level)) throw forbidden('edit', customFields.kind);
  await ctx.prisma.$transaction(async (tx) => {
    const [deleted] = await tx.$queryRaw<CustomFieldRow[]>`
      DELETE FROM "CustomField" WHERE "organizationId" = ${organizationId} AND name = ${name} RETURNING *`;
    if (!deleted) throw notFound(customFields.kind);
    // The DELETE holds the row: a stale If-Match undoes it.
    assertIfMatch(ctx, customFields.kind, tagOf(deleted));
    await recordEvents(tx, ctx, [customFieldEvent('custom_field_deleted', deleted)]);
  });
}

const MAX_TAGS = 50;

/** What a value of each type of field must be. */
function valueRule(field: CustomFieldRow): z.ZodType {
  const options = field.options as [string, ...string[]];
  const distinct = (values: string[]) => new Set(values).size === values.length;
  switch (field.type) {
    case 'text':
      return z.string().max(256);
    case 'number':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'tags':
      return z.array(z.string().min(1).max(256)).max(MAX_TAGS).refine(distinct, 'must not repeat a tag');
    case 'select_multi':
      return z.array(z.enum(options)).refine(distinct, 'must not repeat an option');
    case 'select_single':
      return z.array(z.enum(options)).max(1);
  }
}

/**
 * Sets and removes (null) a space's values, all or nothing: every name must be a field of the space's organization and
 * every value of its field's type, before anything is written, in one transaction.
 */
export async function updateSpaceCustomFields(ctx: Context, spaceId: string, values: Record<string, { value: unknown }>): Promise<void> {
  const { row: space } = await authorize(ctx, spaces, spaceId, 'edit');
  const names = Object.keys(values);
  if (!names.length) return;
  const fields = await ctx.sql<CustomFieldRow>(
    Prisma.sql`SELECT * FROM "CustomField" WHERE "organizationId" = ${space.organizationId} AND name = ANY(${names}::text[])`,
  );
  const byName = new Map(fields.map((field) => [field.name, field]));
  const set: { fieldId: string; value: string }[] = [];
  const removed: string[] = [];
  for (const name of names) {
    const field = byName.get(name);
    if (!field) throw badRequest(`Invalid "values.${name}": no custom field of this name in the organization.`);
    const { value } = values[name];
    if (value === null) {
      removed.push(field.id);
      continue;
    }
    const checked = valueRule(field).safeParse(value);
    if (!checked.success) {
      throw validationError({
        issues: checked.error.issues.map((issue) => ({ ...issue, path: ['values', name, 'value', ...issue.path] })),
      });
    }
    set.push({ fieldId: field.id, value: JSON.stringify(checked.data) });
  }
  const now = ctx.clock.now();
  // Joined to the fields, so that one deleted since they were read is skipped rather than failing the statement.
  await ctx.prisma.$transaction(async (tx) => {
    if (set.length) {
      await tx.$executeRaw(Prisma.sql`
        INSERT INTO "CustomFieldValue" ("spaceId", "customFieldId", value, "updatedAt")
        SELECT ${spaceId}, f.id, x.value::jsonb, ${now}
          FROM unnest(${set.map((s) => s.fieldId)}::text[], ${set.map((s) => s.value)}::text[]) AS x(field, value)
          JOIN "CustomField" f ON f.id = x.field
        ON CONFLICT ("spaceId", "customFieldId") DO UPDATE SET value = EXCLUDED.value, "updatedAt" = EXCLUDED."updatedAt"`);
    }
    if (removed.length) await tx.customFieldValue.deleteMany({ where: { spaceId, customFieldId: { in: removed } } });
    // The values as given: set ones with their value, removed ones null.
    const given = Object.fromEntries(names.map((name) => [name, values[name].value]));
    await recordEvents(tx, ctx, [
      {
        action: 'space_custom_fields_updated',
        organizationId: space.organizationId,
        target: { type: 'space', id: space.id, label: space.title },
        spaceId: space.id,
        payload: { values: given },
      },
    ]);
  });
}
