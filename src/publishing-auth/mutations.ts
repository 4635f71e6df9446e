// Publishing auth: the update input (with its validation) and mutations.
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { rules } from '../kernel/validation.js';
import * as service from './service.js';
import { PublishingAuth, VisitorAuthBackendEnum } from './types.js';

const httpUrl = rules.httpUrl(2048);

export const UpdatePublishingAuthInput = builder.inputType('UpdatePublishingAuthInput', {
  fields: (t) => ({
    backend: t.field({ type: VisitorAuthBackendEnum, required: true }),
    fallbackURL: t.string({
      description: 'An http(s) URL of at most 2048 characters; null unsets it, absent keeps it.',
      validate: httpUrl,
    }),
    logoutURL: t.string({ description: 'An http(s) URL of at most 2048 characters; null unsets it, absent keeps it.', validate: httpUrl }),
    integration: t.string({
      description: 'With the integration backend: the name of an integration installed on the site.',
      validate: z
        .string()
        .max(100)
        .regex(/^[A-Za-z0-9._-]+$/, 'must be an integration name: letters, digits, ".", "_" or "-"'),
    }),
  }),
});

const siteKey = builder.args((t) => ({ organizationId: t.id({ required: true }), siteId: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  updateSitePublishingAuth: t.field({
    type: PublishingAuth,
    args: { ...siteKey, input: t.arg({ type: UpdatePublishingAuthInput, required: true }) },
    resolve: (_root, args, ctx) => service.updatePublishingAuth(ctx, args.organizationId, args.siteId, args.input),
  }),
  regenerateSitePublishingAuth: t.field({
    type: PublishingAuth,
    description: 'A new private key: tokens signed with the previous one are refused at once.',
    args: siteKey,
    resolve: (_root, args, ctx) => service.regeneratePublishingAuth(ctx, args.organizationId, args.siteId),
  }),
}));
