// Grants on spaces and collections: inputs and mutations, the same for both kinds of content.
import { z } from 'zod';
import type { MemberRole } from '../generated/prisma/enums.js';
import { builder } from '../kernel/builder.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import { rules } from '../kernel/validation.js';
import { type ContentKind, contentKinds } from './access.js';
import * as service from './service.js';

const grantees = z.array(rules.id).min(1).max(100);

const InviteToContentInput = builder.inputType('InviteToContentInput', {
  description: 'Users and teams to give a role on a space or collection; `role` is required (null removes access).',
  fields: (t) => ({
    role: t.field({ type: MemberRoleEnum, description: 'The role to give; null removes the access granted to them.' }),
    users: t.idList({ description: 'User ids of members of the organization (1 to 100).', validate: grantees }),
    teams: t.idList({ description: 'Team ids of the organization (1 to 100).', validate: grantees }),
  }),
});
const ContentPermissionInput = builder.inputType('ContentPermissionInput', {
  description: '`role` is required (null removes the access granted).',
  fields: (t) => ({
    role: t.field({ type: MemberRoleEnum, description: 'The role to give; null removes the access granted.' }),
  }),
});

for (const kind of Object.keys(contentKinds) as ContentKind[]) {
  const content = kind.toLowerCase();
  for (const grantee of ['user', 'team'] as const) {
    const Grantee = grantee === 'user' ? 'User' : 'Team';
    const granteeArg = `${grantee}Id`;
    builder.mutationFields((t) => ({
      [`update${kind}${Grantee}Permission`]: t.boolean({
        description: `Sets the role granted to a ${grantee} on the ${content}; null removes it.`,
        args: {
          id: t.arg.id({ required: true }),
          [granteeArg]: t.arg.id({ required: true }),
          input: t.arg({ type: ContentPermissionInput, required: true }),
        },
        resolve: async (_root, args, ctx) => {
          // The grantee's argument has a computed name, which widens every argument's type: name them again.
          const { id, input } = args as unknown as { id: string; input: { role?: MemberRole | null } };
          await service.setGrant(ctx, kind, id, grantee, (args as Record<string, unknown>)[granteeArg] as string, input);
          return true;
        },
      }),
      [`remove${kind}${Grantee}Permission`]: t.boolean({
        description: `Removes the role granted to a ${grantee} on the ${content}, if any.`,
        args: { id: t.arg.id({ required: true }), [granteeArg]: t.arg.id({ required: true }) },
        resolve: async (_root, args, ctx) => {
          await service.removeGrant(ctx, kind, args.id, grantee, args[granteeArg] as string);
          return true;
        },
      }),
    }));
  }
  builder.mutationField(`inviteTo${kind}`, (t) =>
    t.boolean({
      description: `Gives users and teams of the organization a role on the ${content} (or with null, removes it).`,
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: InviteToContentInput, required: true }) },
      resolve: async (_root, args, ctx) => {
        await service.grantContent(ctx, kind, args.id, args.input);
        return true;
      },
    }),
  );
}
