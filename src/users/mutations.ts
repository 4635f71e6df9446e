// A user's own profile: the input (with its validation) and the mutation.
import { builder } from '../kernel/builder.js';
import { notNull, rules } from '../kernel/validation.js';
import { updateUser } from './service.js';

export const UpdateUserInput = builder.inputType('UpdateUserInput', {
  validate: notNull('displayName'),
  fields: (t) => ({
    displayName: t.string({ description: '1 to 64 characters.', validate: rules.title(1, 64) }),
    photoURL: t.string({ description: 'A URI of at most 2048 characters, or null to remove it.', validate: rules.uri(2048) }),
  }),
});

builder.mutationFields((t) => ({
  updateUser: t.prismaField({
    type: 'User',
    description: 'Changes the viewer’s own display name or photo (GitBook’s updateUserById).',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateUserInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await updateUser(ctx, args.id, args.input);
      return ctx.prisma.user.findUniqueOrThrow({ ...query, where: { id: args.id } });
    },
  }),
}));
