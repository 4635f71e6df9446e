// Creating, updating, deleting, moving and transferring collections: inputs (with their validation) and mutations.
import { z } from 'zod';
import { MoveContentInput } from '../content/types.js';
import { builder } from '../kernel/builder.js';
import { ContentLevelEnum } from '../kernel/enums.js';
import { notNull, rules } from '../kernel/validation.js';
import * as service from './service.js';

export const CreateCollectionInput = builder.inputType('CreateCollectionInput', {
  fields: (t) => ({
    title: t.string({ description: 'At most 50 characters.', validate: z.string().max(50) }),
    parent: t.id({ description: 'Parent collection.', validate: rules.id }),
  }),
});
export const UpdateCollectionInput = builder.inputType('UpdateCollectionInput', {
  validate: notNull('title'),
  fields: (t) => ({
    title: t.string({ description: 'At most 50 characters.', validate: z.string().max(50) }),
    description: t.string({ description: 'At most 100 characters.', validate: z.string().max(100) }),
    defaultLevel: t.field({ type: ContentLevelEnum, description: 'A role, inherit, or null for no default access.' }),
  }),
});
export const MoveCollectionInput = MoveContentInput;
export const TransferCollectionInput = builder.inputType('TransferCollectionInput', {
  fields: (t) => ({ organization: t.id({ required: true, description: 'Target organization.', validate: rules.id }) }),
});

const byId = builder.args((t) => ({ id: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  createCollection: t.prismaField({
    type: 'Collection',
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateCollectionInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await service.createCollection(ctx, args.organizationId, args.input);
      return ctx.prisma.collection.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateCollection: t.prismaField({
    type: 'Collection',
    args: { ...byId, input: t.arg({ type: UpdateCollectionInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await service.updateCollection(ctx, args.id, args.input);
      return ctx.prisma.collection.findUniqueOrThrow({ ...query, where: { id: args.id } });
    },
  }),
  deleteCollection: t.boolean({
    description:
      'Deletes a collection and the collections below it; their spaces are soft-deleted (restorable for 7 days). The caller must administer each of them.',
    args: byId,
    resolve: async (_root, args, ctx) => {
      await service.deleteCollection(ctx, args.id);
      return true;
    },
  }),
  moveCollection: t.prismaField({
    type: 'Collection',
    args: { ...byId, input: t.arg({ type: MoveCollectionInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await service.moveCollection(ctx, args.id, args.input);
      return ctx.prisma.collection.findUniqueOrThrow({ ...query, where: { id: args.id } });
    },
  }),
  transferCollection: t.prismaField({
    type: 'Collection',
    description:
      'Moves a collection, with everything below it, to the top level of another organization. Needs the admin role in its organization and `create` in the target.',
    args: { ...byId, input: t.arg({ type: TransferCollectionInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await service.transferCollection(ctx, args.id, args.input);
      return ctx.prisma.collection.findUniqueOrThrow({ ...query, where: { id: args.id } });
    },
  }),
}));
