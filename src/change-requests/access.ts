// How a request reaches a change request: by its id or its number in the space, through the viewer's level on the
// space (policies.changeRequest); on a deleted space, only to read it.
import { type ChangeRequest, Prisma, type Space } from '../generated/prisma/client.js';
import { childResource, rowOf, spaces } from '../kernel/authorize.js';
import { policies } from '../kernel/permissions.js';

export const changeRequests = childResource<ChangeRequest, typeof policies.changeRequest, Space>(spaces, {
  kind: 'Change request',
  policy: policies.changeRequest,
  table: 'ChangeRequest',
  parentKey: 'spaceId',
  deleted: async (row, ctx) => (await rowOf(ctx, spaces, row.spaceId))?.deletedAt != null,
  async findInParent(ctx, spaceId, idOrNumber) {
    // Digits may be a number; an id of digits only stays findable too.
    const number = /^\d{1,9}$/.test(idOrNumber) ? Number(idOrNumber) : null;
    const [row] = await ctx.sql<ChangeRequest>(Prisma.sql`
      SELECT * FROM "ChangeRequest" WHERE "spaceId" = ${spaceId} AND (id = ${idOrNumber} OR number = ${number}::int4)`);
    return row ?? null;
  },
});
