// API tokens: the creation's input (with its validation) and the mutations.
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { rules } from '../kernel/validation.js';
import * as service from './service.js';
import { ApiToken } from './types.js';

export const CreateApiTokenInput = builder.inputType('CreateApiTokenInput', {
  fields: (t) => ({
    label: t.string({ required: true, description: '1 to 100 characters.', validate: rules.title(1, 100) }),
    expiresAt: t.field({
      type: 'DateTime',
      description: 'When it stops working: in the future, and no later than the calling token’s own expiry (its default).',
    }),
    organizations: t.stringList({
      description: 'The organizations it acts in (at most 50, each one of yours); default: those of the calling token’s scope, else all.',
      validate: z.array(rules.id).max(50),
    }),
    spaces: t.stringList({
      description:
        'The spaces it sees (at most 100, each one you see); in their organizations it stands as a guest. Default: the calling token’s.',
      validate: z.array(rules.id).max(100),
    }),
    access: t.string({
      description: '`read` refuses every mutation; `write` (the default) allows what its user may do.',
      validate: z.enum(['read', 'write']),
    }),
  }),
});

builder.mutationFields((t) => ({
  createApiToken: t.field({
    type: ApiToken,
    description: 'Mints a token for the viewer, within the calling token’s scopes; the answer holds its secret, not shown again.',
    args: { input: t.arg({ type: CreateApiTokenInput, required: true }) },
    resolve: (_root, args, ctx) => service.createApiToken(ctx, args.input as service.CreateTokenInput),
  }),
  revokeApiToken: t.boolean({
    description: 'Revokes one of the viewer’s tokens; false when it was revoked already.',
    args: { tokenId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => service.revokeOwnApiToken(ctx, args.tokenId),
  }),
  revokeOrganizationApiToken: t.boolean({
    description: 'An admin revokes a token that acts in the organization (it stops working everywhere); false when revoked already.',
    args: { organizationId: t.arg.id({ required: true }), tokenId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => service.revokeOrganizationApiToken(ctx, args.organizationId, args.tokenId),
  }),
}));
