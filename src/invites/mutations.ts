// Invites: inputs (with their validation) and mutations.
import { z } from 'zod';
import { MemberRole } from '../generated/prisma/enums.js';
import { builder } from '../kernel/builder.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import { rules } from '../kernel/validation.js';
import { type Invitee, inviteUsers, MAX_INVITEES } from './email-invites.js';
import * as service from './service.js';
import { InviteJoin, InviteUsersResult, OrganizationInviteLink } from './types.js';

const roles = Object.values(MemberRole);
const isRole = (value: unknown): value is MemberRole => roles.includes(value as MemberRole);
const mustBeRole = `must be one of ${roles.map((role) => JSON.stringify(role)).join(', ')}, or null`;

/** The longest address SMTP carries (RFC 5321: 64 + @ + 255). */
const MAX_ADDRESS = 320;
const address = z.email();

/** An item of `emails`: an address, or {email, role}; the address trimmed and lowercased, as users are stored. */
const invitee = z.unknown().transform((value, check): Invitee => {
  const item = typeof value === 'string' ? { email: value } : value;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    check.addIssue({ code: 'custom', message: 'must be an e-mail address or {"email", "role"}' });
    return z.NEVER;
  }
  const { email, role } = item as { email?: unknown; role?: unknown };
  const normalized = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (normalized.length > MAX_ADDRESS || !address.safeParse(normalized).success) {
    check.addIssue({
      code: 'custom',
      path: typeof value === 'string' ? [] : ['email'],
      message: `${JSON.stringify(email ?? null)} is not an e-mail address`,
    });
    return z.NEVER;
  }
  if (role !== undefined && role !== null && !isRole(role)) {
    check.addIssue({ code: 'custom', path: ['role'], message: mustBeRole });
    return z.NEVER;
  }
  return role === undefined ? { email: normalized } : { email: normalized, role };
});

export const InviteUsersInput = builder.inputType('InviteUsersInput', {
  fields: (t) => ({
    emails: t.field({
      type: ['JSON'],
      required: true,
      description: `1 to ${MAX_INVITEES} e-mail addresses, or {email, role} objects (role: a role, or null for a guest).`,
      validate: z.array(invitee).min(1).max(MAX_INVITEES),
    }),
    role: t.field({
      type: MemberRoleEnum,
      description: 'Role of the addresses given without one; absent: the organization’s defaultRole.',
    }),
    sso: t.boolean({ description: 'Invite as SSO users, who join by signing in with the organization’s SAML provider (default false).' }),
  }),
});

/** An extension of GitBook's invite links, which never expire there. */
const LINK_EXPIRY = `When the link stops working: in the future, at most ${service.MAX_LINK_DAYS} days ahead; null: never (the default).`;

/** GitBook's CreateOrganizationInvite: {role} to the organization, {space, level} or {collection, level} to content. */
const createVariant = z.any().superRefine((input: Record<string, unknown>, check) => {
  const problem = (field: string, message: string) => check.addIssue({ code: 'custom', path: [field], message });
  if (input.space != null && input.collection != null) return problem('collection', 'give "space" or "collection", not both');
  if (input.space != null || input.collection != null) {
    if (input.role !== undefined) return problem('role', 'an invite to a space or collection gives a "level", not a "role"');
    if (input.level == null) return problem('level', 'required: the role the invite gives on the space or collection');
  } else {
    if (input.role === undefined) return problem('role', 'required: a role, or null to invite guests (or give "space" or "collection")');
    if (input.level !== undefined) return problem('level', 'goes with "space" or "collection"');
  }
});

export const CreateLinkInviteInput = builder.inputType('CreateLinkInviteInput', {
  validate: createVariant,
  fields: (t) => ({
    role: t.field({ type: MemberRoleEnum, description: 'An invite to the organization: the role it gives; null: guest.' }),
    space: t.id({ description: 'An invite to this space (with `level`).', validate: rules.id }),
    collection: t.id({ description: 'An invite to this collection (with `level`).', validate: rules.id }),
    level: t.field({ type: MemberRoleEnum, description: 'With `space` or `collection`: the role given there, at most the inviter’s own.' }),
    expiresAt: t.field({ type: 'DateTime', description: LINK_EXPIRY }),
  }),
});

export const UpdateLinkInviteInput = builder.inputType('UpdateLinkInviteInput', {
  validate: z.any().superRefine((input: Record<string, unknown>, check) => {
    const changesLevel = input.role !== undefined || input.level !== undefined;
    if (input.role !== undefined && input.level !== undefined) {
      check.addIssue({ code: 'custom', path: [], message: 'give "role" (an invite to the organization) or "level" (one to content)' });
    } else if (!changesLevel && input.expiresAt === undefined) {
      check.addIssue({
        code: 'custom',
        path: [],
        message: 'give "role" (an invite to the organization) or "level" (one to content), or "expiresAt"',
      });
    } else if (input.level === null) {
      check.addIssue({ code: 'custom', path: ['level'], message: 'must be a role' });
    }
  }),
  fields: (t) => ({
    role: t.field({ type: MemberRoleEnum, description: 'For an invite to the organization; null: guest.' }),
    level: t.field({ type: MemberRoleEnum, description: 'For an invite to a space or collection.' }),
    expiresAt: t.field({ type: 'DateTime', description: `${LINK_EXPIRY} Absent: unchanged.` }),
  }),
});

const inviteKey = builder.args((t) => ({ organizationId: t.id({ required: true }), inviteId: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  inviteUsersToOrganization: t.field({
    type: InviteUsersResult,
    description:
      'Invites people by e-mail: each gets a single-use join link (SSO users: a pointer to the SSO sign-in). An organization ' +
      'sends at most INVITE_MAILS_PER_DAY such mails in any 24 hours: a request that would go over it sends none (TOO_MANY_REQUESTS).',
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: InviteUsersInput, required: true }) },
    resolve: (_root, args, ctx) =>
      inviteUsers(ctx, args.organizationId, { ...args.input, emails: args.input.emails as unknown as Invitee[] }),
  }),
  createLinkInvite: t.field({
    type: OrganizationInviteLink,
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateLinkInviteInput, required: true }) },
    resolve: (_root, args, ctx) => service.createLinkInvite(ctx, args.organizationId, args.input),
  }),
  updateLinkInvite: t.field({
    type: OrganizationInviteLink,
    args: { ...inviteKey, input: t.arg({ type: UpdateLinkInviteInput, required: true }) },
    resolve: (_root, args, ctx) => service.updateLinkInvite(ctx, args.organizationId, args.inviteId, args.input),
  }),
  deleteLinkInvite: t.boolean({
    args: inviteKey,
    resolve: async (_root, args, ctx) => {
      await service.deleteLinkInvite(ctx, args.organizationId, args.inviteId);
      return true;
    },
  }),
  joinOrganizationWithInvite: t.field({
    type: InviteJoin,
    description: 'Joins the organization (and the invite’s space or collection) with an invite link.',
    args: inviteKey,
    resolve: (_root, args, ctx) => service.joinWithLinkInvite(ctx, args.organizationId, args.inviteId),
  }),
}));
