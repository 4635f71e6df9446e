// Integrations: the publish and installation inputs (with their validation) and the mutations.
import { z } from 'zod';
import { bodyLimit, bytesText } from '../../rest/body.js';
import { builder } from '../kernel/builder.js';
import { notNull, rules } from '../kernel/validation.js';
import { InstallationSelectionEnum, IntegrationInstallation, IntegrationSpaceInstallation } from './installation-types.js';
import * as installations from './installations.js';
import {
  type Block,
  blocksRule,
  type Configurations,
  type ContentSource,
  configurationsRule,
  contentSecurityPolicyRule,
  contentSourcesRule,
  descriptionRule,
  type ExternalLink,
  externalLinksRule,
  imageRule,
  MAX_IMAGE_BYTES,
  MAX_SCRIPT_BYTES,
  nameRule,
  PUBLISH_BODY_BYTES,
  previewImagesRule,
  scriptRule,
  secretsRule,
  summaryRule,
  titleRule,
} from './manifest.js';
import * as service from './service.js';
import { Integration, IntegrationCategoryEnum, IntegrationScopeEnum, IntegrationTargetEnum, IntegrationVisibilityEnum } from './types.js';

const image = `Base64 content of a PNG, JPEG, GIF, WebP or SVG image, at most ${MAX_IMAGE_BYTES / 1024} KiB once decoded.`;

export const PublishIntegrationInput = builder.inputType('PublishIntegrationInput', {
  description: 'The whole manifest: what a publish leaves out takes its default (no secrets, no blocks, `private`, target `all`).',
  fields: (t) => ({
    organization: t.string({
      required: true,
      description: 'The owner organization: its id or subdomain (you administer it).',
      validate: z.string().min(1).max(100),
    }),
    title: t.string({ required: true, description: '2 to 30 characters.', validate: titleRule }),
    description: t.string({ required: true, description: 'At most 100 characters.', validate: descriptionRule }),
    script: t.string({
      required: true,
      description: `The integration’s script, at most ${MAX_SCRIPT_BYTES / 1024} KiB; served with its assets.`,
      validate: scriptRule,
    }),
    icon: t.string({ description: image, validate: imageRule }),
    summary: t.string({ description: 'Long-form Markdown, at most 2048 characters.', validate: summaryRule }),
    previewImages: t.stringList({ description: `At most 3. ${image}`, validate: previewImagesRule }),
    visibility: t.field({ type: IntegrationVisibilityEnum, description: 'Default private.' }),
    target: t.field({ type: IntegrationTargetEnum, description: 'Default all.' }),
    scopes: t.field({ type: [IntegrationScopeEnum] }),
    categories: t.field({ type: [IntegrationCategoryEnum] }),
    blocks: t.field({
      type: 'JSON',
      description:
        'At most 50 of {id, title (2 to 40), description (at most 150), icon, urlUnfurl (URL patterns), markdown {codeblock, body}}.',
      validate: blocksRule,
    }),
    contentSources: t.field({
      type: 'JSON',
      description: 'At most 50 of {id, title (2 to 40), description, icon, configuration {componentId}}.',
      validate: contentSourcesRule,
    }),
    externalLinks: t.field({ type: 'JSON', description: 'At most 5 of {url, label}.', validate: externalLinksRule }),
    configurations: t.field({
      type: 'JSON',
      description:
        '{account, space, site}, each {properties: {name: {type (string, number, boolean, button), title, description, default, ' +
        'enum, completion_url, callback_url, button_text}}, required: [names]} or {componentId}.',
      validate: configurationsRule,
    }),
    secrets: t.field({
      type: 'JSON',
      description: 'At most 20 names to string values: stored encrypted, never returned.',
      validate: secretsRule,
    }),
    contentSecurityPolicy: t.field({
      type: 'JSON',
      description: 'A policy string, or an object of CSP directives to values; sent with the script as its Content-Security-Policy.',
      validate: contentSecurityPolicyRule,
    }),
  }),
});

export const InstallIntegrationInput = builder.inputType('InstallIntegrationInput', {
  fields: (t) => ({
    organization: t.id({ required: true, description: 'The organization to install it in (you administer it).', validate: rules.id }),
  }),
});

export const UpdateIntegrationInstallationInput = builder.inputType('UpdateIntegrationInstallationInput', {
  validate: notNull('externalIds', 'configuration', 'space_selection', 'site_selection'),
  fields: (t) => ({
    externalIds: t.stringList({
      description: 'At most 5, each at most 100 characters.',
      validate: z.array(z.string().min(1).max(100)).max(5),
    }),
    configuration: t.field({
      type: 'JSON',
      description: 'Replaces the configuration: property names to strings, numbers or booleans, as the integration declares them.',
      validate: z.record(z.string().max(64), z.union([z.string().max(4096), z.number(), z.boolean()])),
    }),
    space_selection: t.field({ type: InstallationSelectionEnum }),
    site_selection: t.field({ type: InstallationSelectionEnum }),
  }),
});

export const InstallIntegrationOnSpaceInput = builder.inputType('InstallIntegrationOnSpaceInput', {
  fields: (t) => ({ space: t.id({ required: true, description: 'A space of the installation’s organization.', validate: rules.id }) }),
});

const nameArg = builder.args((t) => ({ integrationName: t.string({ required: true }) }));
const installationKey = builder.args((t) => ({ integrationName: t.string({ required: true }), installationId: t.id({ required: true }) }));

builder.mutationFields((t) => ({
  publishIntegration: t.field({
    type: Integration,
    description: `Publishes an integration, or republishes it (version + 1) for its owner organization. The request body may be up to ${bytesText(PUBLISH_BODY_BYTES)}.`,
    ...bodyLimit(PUBLISH_BODY_BYTES),
    args: {
      integrationName: t.arg.string({ required: true, validate: nameRule }),
      input: t.arg({ type: PublishIntegrationInput, required: true }),
    },
    resolve: (_root, { integrationName, input }, ctx) =>
      service.publishIntegration(ctx, integrationName, {
        ...input,
        blocks: input.blocks as Block[] | null | undefined,
        contentSources: input.contentSources as ContentSource[] | null | undefined,
        externalLinks: input.externalLinks as ExternalLink[] | null | undefined,
        configurations: input.configurations as Configurations | null | undefined,
        secrets: input.secrets as Record<string, string> | null | undefined,
        contentSecurityPolicy: input.contentSecurityPolicy as string | null | undefined,
      }),
  }),
  unpublishIntegration: t.boolean({
    description: 'Unpublishes an integration (its owner organization’s admins), uninstalling it everywhere.',
    args: nameArg,
    resolve: async (_root, args, ctx) => {
      await service.unpublishIntegration(ctx, args.integrationName);
      return true;
    },
  }),
  installIntegration: t.field({
    type: IntegrationInstallation,
    args: { ...nameArg, input: t.arg({ type: InstallIntegrationInput, required: true }) },
    resolve: (_root, args, ctx) => installations.installIntegration(ctx, args.integrationName, args.input.organization),
  }),
  updateIntegrationInstallation: t.field({
    type: IntegrationInstallation,
    args: { ...installationKey, input: t.arg({ type: UpdateIntegrationInstallationInput, required: true }) },
    resolve: (_root, args, ctx) =>
      installations.updateInstallation(ctx, args.integrationName, args.installationId, {
        ...args.input,
        configuration: args.input.configuration as Record<string, unknown> | null | undefined,
      }),
  }),
  uninstallIntegration: t.boolean({
    args: installationKey,
    resolve: async (_root, args, ctx) => {
      await installations.uninstallIntegration(ctx, args.integrationName, args.installationId);
      return true;
    },
  }),
  installIntegrationOnSpace: t.field({
    type: IntegrationSpaceInstallation,
    args: { ...installationKey, input: t.arg({ type: InstallIntegrationOnSpaceInput, required: true }) },
    resolve: (_root, args, ctx) => installations.installOnSpace(ctx, args.integrationName, args.installationId, args.input.space),
  }),
  uninstallIntegrationFromSpace: t.boolean({
    args: { ...installationKey, spaceId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await installations.uninstallFromSpace(ctx, args.integrationName, args.installationId, args.spaceId);
      return true;
    },
  }),
}));
