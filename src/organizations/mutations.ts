// Creating an organization (POST /v1/orgs) and updating one (PATCH /v1/orgs/{organizationId}).
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import { badRequest } from '../kernel/errors.js';
import { mergeRules, notNull, rules } from '../kernel/validation.js';
import { createOrganizationForViewer, updateOrganization } from './service.js';

const hostname = z
  .string()
  .min(3)
  .max(32)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'lowercase letters, digits and hyphens, starting and ending with a letter or digit');
const emailDomain = z
  .string()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'not a domain name');

export const CreateOrganizationInput = builder.inputType('CreateOrganizationInput', {
  fields: (t) => ({
    title: t.string({ required: true, description: '2 to 255 characters.', validate: rules.title(2, 255) }),
    emailDomains: t.stringList({ validate: z.array(emailDomain.transform((d) => d.toLowerCase())).max(100) }),
  }),
});

export const UpdateOrganizationInput = builder.inputType('UpdateOrganizationInput', {
  validate: notNull('title', 'emailDomains', 'sso', 'ai', 'inviteLinks', 'mergeRules'),
  fields: (t) => ({
    title: t.string({ description: '2 to 255 characters.', validate: rules.title(2, 255) }),
    emailDomains: t.stringList({ validate: z.array(emailDomain.transform((d) => d.toLowerCase())).max(100) }),
    hostname: t.string({ description: '3 to 32 lowercase letters, digits and hyphens; null removes it.', validate: hostname }),
    defaultRole: t.field({ type: MemberRoleEnum, description: 'null: new members join as guests.' }),
    defaultContent: t.field({
      type: 'JSON',
      description: '{type: "site", site} or null.',
      validate: z.object({ type: z.literal('site'), site: rules.id }).strict(),
    }),
    logo: t.string({ description: 'URI, at most 2048 characters, or null.', validate: rules.uri(2048) }),
    sso: t.boolean(),
    ai: t.boolean(),
    inviteLinks: t.boolean(),
    mergeRules: t.field({ type: 'JSON', description: '{type: "none"} or {type: "rules", rules}.', validate: mergeRules.standalone }),
  }),
});

builder.mutationFields((t) => ({
  createOrganization: t.prismaField({
    type: 'Organization',
    description: 'Creates an organization, its creator its admin (who may: ORGANIZATION_CREATION).',
    args: {
      input: t.arg({ type: CreateOrganizationInput, required: true }),
      withDefaultSite: t.arg.boolean({ description: 'GitBook’s default site is not made here: true is refused.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      if (args.withDefaultSite)
        throw badRequest('Invalid "withDefaultSite": this service makes no default site; create one with POST .../sites.');
      const id = await createOrganizationForViewer(ctx, args.input);
      return ctx.prisma.organization.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateOrganization: t.prismaField({
    type: 'Organization',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateOrganizationInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await updateOrganization(ctx, args.id, args.input);
      return ctx.prisma.organization.findUniqueOrThrow({ ...query, where: { id: args.id } });
    },
  }),
}));
