// SAML providers: inputs (with their validation) and mutations.
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { MemberRoleEnum } from '../kernel/enums.js';
import { notNull, rules } from '../kernel/validation.js';
import { certificatePem } from './saml.js';
import * as service from './service.js';
import { SamlProvider, UNSET_SSO_URL } from './types.js';

const MAX_CERTIFICATE = 10_000;

// The identity provider's fields: empty text clears them, like null.
const label = rules.title(1, 30);
const entityID = z
  .string()
  .trim()
  .max(1024)
  .transform((id) => id || null);
// The service redirects browsers there: only web URLs. What a pending provider answers (UNSET_SSO_URL) clears it too,
// so that a provider read and sent back unchanged stays as it was.
const ssoURL = z.union([z.literal(['', UNSET_SSO_URL]).transform(() => null), rules.httpUrl(2048)]);
const certificate = z
  .string()
  .max(MAX_CERTIFICATE)
  .transform((text, check) => {
    if (!text.trim()) return null;
    const pem = certificatePem(text);
    if (!pem) check.addIssue({ code: 'custom', message: 'must be one X.509 certificate, in PEM or base64' });
    // Stored and returned in PEM, which must fit the same limit.
    else if (pem.length > MAX_CERTIFICATE) check.addIssue({ code: 'custom', message: `must be at most ${MAX_CERTIFICATE} characters` });
    return pem ?? z.NEVER;
  });

const fields = {
  entityID: { description: 'The identity provider’s entity id, at most 1024 characters; null or empty clears it.', validate: entityID },
  certificate: {
    description: 'The identity provider’s X.509 signing certificate, in PEM or base64, at most 10000 characters; null or empty clears it.',
    validate: certificate,
  },
  ssoURL: {
    description: `The identity provider’s sign-in URL (http or https), at most 2048 characters; null, empty or \`${UNSET_SSO_URL}\` clears it.`,
    validate: ssoURL,
  },
  defaultTeam: { description: 'A team of the organization that people join when they first sign in; null: none.', validate: rules.id },
};

export const CreateSamlProviderInput = builder.inputType('CreateSamlProviderInput', {
  fields: (t) => ({
    label: t.string({ required: true, description: '1 to 30 characters.', validate: label }),
    entityID: t.string(fields.entityID),
    certificate: t.string(fields.certificate),
    ssoURL: t.string(fields.ssoURL),
    defaultTeam: t.id(fields.defaultTeam),
    defaultRole: t.field({ type: MemberRoleEnum, description: 'The role people get when they first sign in (default read); null: guest.' }),
  }),
});

export const UpdateSamlProviderInput = builder.inputType('UpdateSamlProviderInput', {
  validate: notNull('label'),
  fields: (t) => ({
    label: t.string({ description: '1 to 30 characters.', validate: label }),
    entityID: t.string(fields.entityID),
    certificate: t.string(fields.certificate),
    ssoURL: t.string(fields.ssoURL),
    defaultTeam: t.id(fields.defaultTeam),
    defaultRole: t.field({ type: MemberRoleEnum, description: 'The role people get when they first sign in; null: guest.' }),
  }),
});

const providerKey = builder.args((t) => ({ organizationId: t.id({ required: true }), samlProviderId: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  createSamlProvider: t.field({
    type: SamlProvider,
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateSamlProviderInput, required: true }) },
    resolve: (_root, args, ctx) => service.createProvider(ctx, args.organizationId, args.input),
  }),
  updateSamlProvider: t.field({
    type: SamlProvider,
    args: { ...providerKey, input: t.arg({ type: UpdateSamlProviderInput, required: true }) },
    resolve: (_root, args, ctx) => service.updateProvider(ctx, args.organizationId, args.samlProviderId, args.input),
  }),
  deleteSamlProvider: t.boolean({
    args: providerKey,
    resolve: async (_root, args, ctx) => {
      await service.deleteProvider(ctx, args.organizationId, args.samlProviderId);
      return true;
    },
  }),
}));
