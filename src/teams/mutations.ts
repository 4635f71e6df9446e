// Teams and their members: inputs (with their validation) and mutations.
import { z } from 'zod';
import { TeamRole } from '../generated/prisma/enums.js';
import { authorize } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import { rules } from '../kernel/validation.js';
import { teams } from './access.js';
import * as service from './service.js';
import { Team, TeamRoleEnum } from './types.js';

const title = z.string().trim().min(1).max(64);
const userReferences = z.array(z.string().min(1).max(320)).max(1000);

export const CreateTeamInput = builder.inputType('CreateTeamInput', {
  fields: (t) => ({
    title: t.string({ required: true, description: '1 to 64 characters.', validate: title }),
    members: t.stringList({ description: 'User ids of members of the organization.', validate: z.array(rules.id).max(1000) }),
  }),
});
export const UpdateTeamInput = builder.inputType('UpdateTeamInput', {
  fields: (t) => ({ title: t.string({ required: true, description: '1 to 64 characters.', validate: title }) }),
});
export const UpdateTeamMembersInput = builder.inputType('UpdateTeamMembersInput', {
  fields: (t) => ({
    add: t.stringList({ description: 'Users to add: user ids or e-mail addresses of members.', validate: userReferences }),
    remove: t.stringList({ description: 'Users to remove (ids or e-mail addresses); wins over `add`.', validate: userReferences }),
    memberships: t.field({
      type: 'JSON',
      description: 'Roles to set, by user id: {"<userId>": {"role": "owner"}}.',
      validate: z.record(rules.id, z.object({ role: z.enum(Object.values(TeamRole)) }).strict()),
    }),
  }),
});
export const SetTeamMemberInput = builder.inputType('SetTeamMemberInput', {
  fields: (t) => ({ role: t.field({ type: TeamRoleEnum, description: 'owner or member (default, for a new member).' }) }),
});

const teamKey = builder.args((t) => ({ organizationId: t.id({ required: true }), teamId: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  createTeam: t.field({
    type: Team,
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateTeamInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      const id = await service.createTeam(ctx, args.organizationId, args.input);
      return (await authorize(ctx, teams, { id, parent: args.organizationId }, 'view')).row;
    },
  }),
  updateTeam: t.field({
    type: Team,
    args: { ...teamKey, input: t.arg({ type: UpdateTeamInput, required: true }) },
    resolve: (_root, args, ctx) => service.renameTeam(ctx, args.organizationId, args.teamId, args.input.title),
  }),
  deleteTeam: t.boolean({
    args: teamKey,
    resolve: async (_root, args, ctx) => {
      await service.deleteTeam(ctx, args.organizationId, args.teamId);
      return true;
    },
  }),
  updateTeamMembers: t.boolean({
    args: { ...teamKey, input: t.arg({ type: UpdateTeamMembersInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      await service.changeTeamMembers(ctx, args.organizationId, args.teamId, args.input as service.TeamMembersChange);
      return true;
    },
  }),
  setTeamMember: t.boolean({
    args: { ...teamKey, userId: t.arg.id({ required: true }), input: t.arg({ type: SetTeamMemberInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      await service.setTeamMember(ctx, args.organizationId, args.teamId, args.userId, args.input.role);
      return true;
    },
  }),
  removeTeamMember: t.boolean({
    args: { ...teamKey, userId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await service.removeTeamMember(ctx, args.organizationId, args.teamId, args.userId);
      return true;
    },
  }),
}));
