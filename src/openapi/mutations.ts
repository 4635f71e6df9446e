// OpenAPI specifications: inputs (with their validation) and mutations.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { bodyLimit, bytesText } from '../../rest/body.js';
import { builder } from '../kernel/builder.js';
import { rules } from '../kernel/validation.js';
import * as service from './service.js';
import type { Source } from './source.js';
import { OpenAPISpec } from './types.js';

/** The longest text source, in characters. */
export const MAX_SOURCE_TEXT = 1_000_000;
/**
 * The request body of a write that may carry a text source: JSON writes a character in at most 6 bytes (`\u001f`),
 * so every text of MAX_SOURCE_TEXT characters fits, with room for the rest of the request.
 */
const SOURCE_BODY_BYTES = 6 * 1024 * 1024;

export const slugRule = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters and digits, with single hyphens between them');

const SourceInput = builder.inputType('OpenAPISpecSourceInput', {
  description: 'Where the specification comes from: exactly one of `url` and `text`.',
  validate: z.any().superRefine((source: { url?: string | null; text?: string | null }, check) => {
    if ((source.url == null) === (source.text == null))
      check.addIssue({ code: 'custom', message: 'must have exactly one of "url" and "text"' });
  }),
  fields: (t) => ({
    url: t.string({
      description: 'An http or https URL (at most 2048 characters, without credentials) it is fetched from, now and every hour or so.',
      // Credentials in it would be shown to every member, who all read `sourceURL`.
      validate: rules.httpUrl(2048).refine((url) => !new URL(url).username && !new URL(url).password, 'must not contain credentials'),
    }),
    text: t.string({
      description: `The specification itself, JSON or YAML (1 to ${MAX_SOURCE_TEXT} characters).`,
      validate: z.string().min(1).max(MAX_SOURCE_TEXT),
    }),
  }),
});

const CreateOpenAPISpecInput = builder.inputType('CreateOpenAPISpecInput', {
  fields: (t) => ({
    slug: t.string({
      required: true,
      description: 'Unique in the organization: 1 to 100 lowercase letters and digits, with single hyphens between them.',
      validate: slugRule,
    }),
    source: t.field({ type: SourceInput, required: true }),
  }),
});

const PutOpenAPISpecInput = builder.inputType('PutOpenAPISpecInput', {
  fields: (t) => ({ source: t.field({ type: SourceInput, required: true }) }),
});

const sourceOf = (input: { url?: string | null; text?: string | null }): Source =>
  input.url != null ? { url: input.url } : { text: input.text! };

interface PutResult {
  created: boolean;
  spec: typeof OpenAPISpec.$inferType;
}

const PutOpenAPISpecPayload = builder.objectRef<PutResult>('PutOpenAPISpecPayload').implement({
  fields: (t) => ({
    created: t.exposeBoolean('created', { description: 'True when there was no spec with this slug: it was created.' }),
    spec: t.field({ type: OpenAPISpec, resolve: (result) => result.spec }),
  }),
});

const specKey = builder.args((t) => ({
  organizationId: t.id({ required: true }),
  slug: t.string({ required: true, validate: slugRule }),
}));

builder.mutationFields((t) => ({
  createOpenAPISpec: t.prismaField({
    type: OpenAPISpec,
    description: `Creates a specification and queues its processing (\`processingState\` pending). The request body may be up to ${bytesText(SOURCE_BODY_BYTES)}.`,
    ...bodyLimit(SOURCE_BODY_BYTES),
    args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateOpenAPISpecInput, required: true }) },
    resolve: (query, _root, args, ctx) =>
      service.createOpenAPISpec(ctx, args.organizationId, args.input.slug, sourceOf(args.input.source), (tx, id) =>
        tx.openAPISpec.findUniqueOrThrow({ ...query, where: { id } }),
      ),
  }),
  putOpenAPISpec: t.field({
    type: PutOpenAPISpecPayload,
    description:
      'Gives the specification with this slug this source, creating it when there is none, and queues its processing. ' +
      `The request body may be up to ${bytesText(SOURCE_BODY_BYTES)}.`,
    ...bodyLimit(SOURCE_BODY_BYTES),
    args: { ...specKey, input: t.arg({ type: PutOpenAPISpecInput, required: true }) },
    resolve: (_root, args, ctx, info) => {
      // The spec's selection, read in the write's transaction, as a list reads its items.
      const query = queryFromInfo({ context: ctx, info, path: ['spec'] });
      return service.putOpenAPISpec(ctx, args.organizationId, args.slug, sourceOf(args.input.source), (tx, id) =>
        tx.openAPISpec.findUniqueOrThrow({ ...query, where: { id } }),
      );
    },
  }),
  deleteOpenAPISpec: t.boolean({
    description: 'Deletes the specification with this slug and its versions; false when there was none.',
    args: { organizationId: t.arg.id({ required: true }), slug: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => service.deleteOpenAPISpec(ctx, args.organizationId, args.slug),
  }),
}));
