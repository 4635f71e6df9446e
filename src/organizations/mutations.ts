// Updating an organization (PATCH /v1/orgs/{organizationId}).
import { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { memberOf } from '../kernel/access.js';
import { builder } from '../kernel/builder.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import { badRequest, conflict, forbidden, isUniqueViolation } from '../kernel/errors.js';
import { can } from '../kernel/permissions.js';
import { parseInput, rules } from '../kernel/validation.js';

const hostname = z.string().min(3).max(32).regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'lowercase letters, digits and hyphens, starting and ending with a letter or digit');
const emailDomain = z.string().max(253).regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'not a domain name');

const UpdateOrganization = z.object({
  title: rules.title(2, 255).optional(),
  emailDomains: z.array(emailDomain.transform((d) => d.toLowerCase())).max(100).optional(),
  hostname: hostname.nullable().optional(),
  defaultRole: z.enum(['admin', 'create', 'review', 'edit', 'comment', 'read']).nullable().optional(),
  defaultContent: z.object({ type: z.literal('site'), site: z.string().min(1) }).strict().nullable().optional(),
  logo: rules.uri(2048).nullable().optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
  mergeRules: z.discriminatedUnion('type', [z.object({ type: z.literal('none') }), z.object({ type: z.literal('rules'), rules: z.array(z.json()) })]).optional(),
});

const UpdateOrganizationInput = builder.inputType('UpdateOrganizationInput', {
  fields: (t) => ({
    title: t.string({ description: '2 to 255 characters.' }),
    emailDomains: t.stringList(),
    hostname: t.string({ description: '3 to 32 lowercase letters, digits and hyphens; null removes it.' }),
    defaultRole: t.field({ type: MemberRoleEnum, description: 'null: new members join as guests.' }),
    defaultContent: t.field({ type: 'JSON', description: '{type: "site", site} or null.' }),
    logo: t.string({ description: 'URI, at most 2048 characters, or null.' }),
    sso: t.boolean(),
    ai: t.boolean(),
    inviteLinks: t.boolean(),
    mergeRules: t.field({ type: 'JSON' }),
  }),
});

builder.mutationFields((t) => ({
  updateOrganization: t.prismaField({
    type: 'Organization',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateOrganizationInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = String(args.id);
      const member = await memberOf(ctx, id, 'Organization');
      if (!can.administerOrganization(member)) throw forbidden('Only organization admins can update the organization.');
      const input = parseInput(UpdateOrganization, args.input);
      if (input.defaultContent) {
        const site = await ctx.prisma.site.findFirst({ where: { id: input.defaultContent.site, organizationId: id }, select: { id: true } });
        if (!site) throw badRequest('Invalid "defaultContent.site": no such site in this organization.');
      }
      const { logo, defaultContent, mergeRules, ...fields } = input;
      try {
        return await ctx.prisma.organization.update({
          ...query,
          where: { id },
          data: {
            ...fields,
            ...(logo !== undefined && { logoURL: logo }),
            ...(defaultContent !== undefined && { defaultContent: defaultContent ?? Prisma.DbNull }),
            ...(mergeRules !== undefined && { mergeRules }),
          },
        });
      } catch (error) {
        throw isUniqueViolation(error) ? conflict('Another organization already uses this hostname.') : error;
      }
    },
  }),
}));
