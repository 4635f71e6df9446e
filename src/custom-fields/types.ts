// Custom fields: the organization's definitions of metadata on its spaces (name, type, options), listed and read by
// its members, and a space's values of them. A space's values are one statement for any number of fields, and for any
// number of spaces in one request.
import type { CustomField as CustomFieldRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import type { CustomFieldType } from '../generated/prisma/enums.js';
import { authorize } from '../kernel/authorize.js';
import { builder, permissionsFor, permissionsType, restEnum } from '../kernel/builder.js';
import { loaderFor } from '../kernel/context.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import type { ListSource } from '../kernel/lists.js';
import { policies } from '../kernel/permissions.js';
import { apiUrl } from '../kernel/urls.js';
import { Organization } from '../organizations/types.js';
import { Space } from '../spaces/types.js';
import { customFields } from './access.js';

export const CustomFieldTypeEnum = restEnum(
  'CustomFieldType',
  {
    text: 'text',
    number: 'number',
    boolean: 'boolean',
    tags: 'tags',
    select_multi: 'select:multi',
    select_single: 'select:single',
  } satisfies Record<CustomFieldType, string>,
  'What a custom field holds: text, a number, a boolean, free tags, or options chosen from the field’s (select:multi, select:single).',
);

// Who may do what with a field definition: policies.customField (access.ts).
const CustomFieldPermissions = permissionsType('CustomFieldPermissions', policies.customField);

const CustomFieldUrls = builder.objectRef<{ location: string }>('CustomFieldUrls').implement({
  fields: (t) => ({ location: t.exposeString('location') }),
});

export const CustomField = builder.objectRef<CustomFieldRow>('CustomField').implement({
  access: customFields,
  description: 'A field of metadata that an organization defines for its spaces.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'custom-field' }),
    id: t.exposeID('id'),
    etag: t.string(etagField(tagOf)),
    name: t.exposeString('name', { description: 'Unique in the organization: 1 to 50 lowercase letters, digits, "_" or "-".' }),
    // GitBook's spec requires these three as strings: an unset one is empty.
    title: t.string({ description: 'At most 100 characters; empty when unset.', resolve: (field) => field.title ?? '' }),
    description: t.string({ description: 'At most 200 characters; empty when unset.', resolve: (field) => field.description ?? '' }),
    placeholder: t.string({ description: 'At most 100 characters; empty when unset.', resolve: (field) => field.placeholder ?? '' }),
    type: t.field({ type: CustomFieldTypeEnum, resolve: (field) => field.type }),
    options: t.stringList({
      nullable: true,
      description: 'The choices of a select field; null for the other types (the published spec allows no empty list).',
      resolve: (field) => (field.options.length ? field.options : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    urls: t.field({
      type: CustomFieldUrls,
      resolve: (field, _args, ctx) => ({ location: apiUrl(ctx, `orgs/${field.organizationId}/custom-fields/${field.name}`) }),
    }),
    permissions: t.field({
      type: CustomFieldPermissions,
      resolve: (field, _args, ctx) => permissionsFor(ctx, policies.customField, customFields.level.of(ctx, field)),
    }),
  }),
});
export const CustomFieldList = listOf('CustomField', CustomField);

const organizationFields: ListSource<CustomFieldRow> = {
  table: 'CustomField',
  parentColumn: 'organizationId',
  orderBy: [{ column: 'name', type: 'text' }],
  where: () => Prisma.sql`TRUE`,
  scope: (organizationId) => `custom-fields:${organizationId}`,
};

// `organization(id:)` has checked that the viewer is a member, which is all that reading definitions takes.
builder.objectFields(Organization, (t) => ({
  customFields: t.field({
    type: CustomFieldList,
    description: 'The custom fields the organization defines for its spaces, by name.',
    args: listArgs,
    resolve: (org, args, ctx, info) => listPage(organizationFields, ctx, info, org.id, args),
  }),
  customField: t.field({
    type: CustomField,
    args: { name: t.arg.string({ required: true }) },
    resolve: async (org, args, ctx) => (await authorize(ctx, customFields, { id: args.name, parent: org.id }, 'view')).row,
  }),
}));

interface SpaceCustomFieldValueRow {
  field: CustomFieldRow;
  /** Absent when the space has no value for the field. */
  value?: unknown;
}

const SpaceCustomFieldValue = builder.objectRef<SpaceCustomFieldValueRow>('SpaceCustomFieldValue').implement({
  description: 'A custom field of the space’s organization, with the space’s value of it.',
  fields: (t) => ({
    customField: t.field({ type: CustomField, resolve: (row) => row.field }),
    value: t.field({
      type: 'JSON',
      nullable: true,
      description: 'A string (text), number, boolean, or string array (tags and select fields); null when the space has none.',
      resolve: (row) => row.value,
    }),
  }),
});

const valuesLoader = Symbol('custom field values by space');

builder.objectField(Space, 'customFields', (t) =>
  t.field({
    type: [SpaceCustomFieldValue],
    description: 'Every custom field of the organization, by name, with the space’s value where it has one.',
    // The space's resolver has checked that the viewer can see it. Every space of the request in one statement.
    resolve: (space, _args, ctx) =>
      loaderFor<string, SpaceCustomFieldValueRow[]>(ctx, valuesLoader, async (spaceIds) => {
        const rows = await ctx.sql<CustomFieldRow & { spaceId: string; __value: unknown; __set: boolean }>(Prisma.sql`
          SELECT f.*, s.id AS "spaceId", v.value AS "__value", v."spaceId" IS NOT NULL AS "__set"
            FROM "Space" s JOIN "CustomField" f ON f."organizationId" = s."organizationId"
            LEFT JOIN "CustomFieldValue" v ON v."spaceId" = s.id AND v."customFieldId" = f.id
           WHERE s.id = ANY(${[...spaceIds]}::text[])
           ORDER BY f.name`);
        const bySpace = new Map<string, SpaceCustomFieldValueRow[]>(spaceIds.map((id) => [id, []]));
        for (const { spaceId, __value, __set, ...field } of rows) {
          bySpace.get(spaceId)!.push(__set ? { field, value: __value } : { field });
        }
        return spaceIds.map((id) => bySpace.get(id)!);
      }).load(space.id),
  }),
);
