// Changing a member's role (PATCH /v1/orgs/{organizationId}/members/{userId}), making them an SSO member, removing them;
// a member's ping (their last visit).

import { authorize, organizations } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import { members } from './access.js';
import { removeMember, setMemberSSO, updateMember } from './service.js';
import { Member } from './types.js';

export const UpdateMemberInput = builder.inputType('UpdateMemberInput', {
  fields: (t) => ({
    role: t.field({ type: MemberRoleEnum, description: 'The new role; null makes the member a guest.' }),
  }),
});

const memberKey = builder.args((t) => ({ organizationId: t.id({ required: true }), userId: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  updateMember: t.field({
    type: Member,
    description: 'Changes a member’s role. Admins only; the last admin keeps their role.',
    args: { ...memberKey, input: t.arg({ type: UpdateMemberInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      await updateMember(ctx, args.organizationId, args.userId, args.input.role);
      return (await authorize(ctx, members, { id: args.userId, parent: args.organizationId }, 'view')).row;
    },
  }),
  setMemberSSO: t.field({
    type: Member,
    description: 'Makes a member an SSO member: one who signs in through the organization’s SAML providers. Admins only.',
    args: memberKey,
    resolve: async (_root, args, ctx) => {
      await setMemberSSO(ctx, args.organizationId, args.userId);
      return (await authorize(ctx, members, { id: args.userId, parent: args.organizationId }, 'view')).row;
    },
  }),
  updateMemberLastSeenAt: t.boolean({
    description:
      'Records that the viewer is using the organization now (their `lastSeenAt`, at most once a minute), as reading the organization or changing anything in it does. Any member.',
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      // The membership read that authorizes it writes the visit (src/kernel/context.ts viewerMembershipsSeenSql).
      await authorize(ctx, organizations, args.organizationId, 'view');
      return true;
    },
  }),
  removeMember: t.boolean({
    description: 'Removes a member, with their team memberships and grants in the organization. Admins, or the member themselves.',
    args: memberKey,
    resolve: async (_root, args, ctx) => {
      await removeMember(ctx, args.organizationId, args.userId);
      return true;
    },
  }),
}));
