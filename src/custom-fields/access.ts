// How a request reaches a custom field definition: by its name within the organization, through the viewer's
// standing there (policies.customField): every member reads them (guests too: they read them anyway in the values of
// the spaces granted to them); its admins change them.
import { type CustomField, Prisma } from '../generated/prisma/client.js';
import { childResource, organizations } from '../kernel/authorize.js';
import { policies } from '../kernel/permissions.js';

export const customFields = childResource<CustomField, typeof policies.customField, { id: string }>(organizations, {
  kind: 'Custom field',
  policy: policies.customField,
  table: 'CustomField',
  parentKey: 'organizationId',
  async findInParent(ctx, organizationId, name) {
    const [field] = await ctx.sql<CustomField>(
      Prisma.sql`SELECT * FROM "CustomField" WHERE "organizationId" = ${organizationId} AND name = ${name}`,
    );
    return field ?? null;
  },
});
