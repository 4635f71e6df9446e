// Share links: inputs (with their validation) and mutations.
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { notNull } from '../kernel/validation.js';
import * as service from './service.js';
import { ShareLink } from './types.js';

// The published spec's ShareLinkName: at most 50 characters, empty allowed.
const name = z.string().max(50);

export const CreateShareLinkInput = builder.inputType('CreateShareLinkInput', {
  fields: (t) => ({ name: t.string({ required: true, description: 'At most 50 characters.', validate: name }) }),
});
export const UpdateShareLinkInput = builder.inputType('UpdateShareLinkInput', {
  // The published spec's minProperties: 1.
  validate: notNull('name', 'active').refine(
    (input) => input.name !== undefined || input.active !== undefined,
    'must set "name" or "active"',
  ),
  fields: (t) => ({
    name: t.string({ description: 'At most 50 characters.', validate: name }),
    active: t.boolean({ description: 'false deactivates the link (it opens nothing from the next request on); true reactivates it.' }),
  }),
});

const siteKey = builder.args((t) => ({ organizationId: t.id({ required: true }), siteId: t.id({ required: true }) }));
const linkKey = builder.args((t) => ({ ...siteKey, shareLinkId: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  createSiteShareLink: t.field({
    type: ShareLink,
    args: { ...siteKey, input: t.arg({ type: CreateShareLinkInput, required: true }) },
    resolve: (_root, args, ctx) => service.createShareLink(ctx, args.organizationId, args.siteId, args.input.name),
  }),
  updateSiteShareLink: t.field({
    type: ShareLink,
    args: { ...linkKey, input: t.arg({ type: UpdateShareLinkInput, required: true }) },
    resolve: (_root, args, ctx) => service.updateShareLink(ctx, args.organizationId, args.siteId, args.shareLinkId, args.input),
  }),
  deleteSiteShareLink: t.boolean({
    args: linkKey,
    resolve: async (_root, args, ctx) => {
      await service.deleteShareLink(ctx, args.organizationId, args.siteId, args.shareLinkId);
      return true;
    },
  }),
}));
