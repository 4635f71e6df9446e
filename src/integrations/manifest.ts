// What a publish describes (GitBook's PublishIntegration, spec 0.202, with 0.130's scopes and category still taken):
// the enumerations (their GraphQL types: types.ts), and the rules of each part of the manifest, declared once and used
// by the GraphQL input.
// Images arrive as base64 and must decode to a PNG, JPEG, GIF, WebP or SVG image (by their bytes, not a declared
// type). Each asset has its cap (script 512 KiB, image 256 KiB decoded); PUBLISH_BODY_BYTES bounds a whole publish,
// answered 413 beyond it, and admits every publish within those caps.
import { z } from 'zod';
import { rules } from '../kernel/validation.js';

export const SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'conversations:ingest',
  'openapi:read',
  'openapi:write',
  // Spec 0.130 and earlier only.
  'space:views:read',
  'space:script:inject',
  'space:script:cookies',
  'space:visitor:auth',
] as const;
export const CATEGORIES = ['analytics', 'collaboration', 'content', 'marketing', 'visitor-auth', 'other', 'gitsync'] as const;
export const TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const VISIBILITIES = ['public', 'private', 'unlisted'] as const;

export type Scope = (typeof SCOPES)[number];
export type Category = (typeof CATEGORIES)[number];
export type Target = (typeof TARGETS)[number];
export type Visibility = (typeof VISIBILITIES)[number];

/** The scopes that let an integration inject its script into published content, and set cookies there. */
export const SCRIPT_SCOPES: readonly Scope[] = ['site:script:inject', 'space:script:inject'];
export const COOKIE_SCOPES: readonly Scope[] = ['site:script:cookies', 'space:script:cookies'];
/** Targets whose integrations are enabled in spaces. */
export const SPACE_TARGETS: readonly Target[] = ['all', 'space'];

/** Letters, digits, `-`, `_` and `.`, at most 100, not dots alone (a URL path segment of its own). */
export const nameRule = z
  .string()
  .max(100)
  .regex(/^(?!\.+$)[A-Za-z0-9_.-]+$/, 'must be 1 to 100 letters, digits, "-", "_" or ".", not only dots');

export const MAX_SCRIPT_BYTES = 512 * 1024;
export const MAX_IMAGE_BYTES = 256 * 1024;
export const MAX_PREVIEW_IMAGES = 3;
/**
 * The request body of a publish: the script at its cap written as JSON (at most 6 bytes a byte, `\u001f`), the
 * icon and preview images in base64, the JSON fields at 64 KiB each, with room for the rest.
 */
export const PUBLISH_BODY_BYTES = 5 * 1024 * 1024;

export const scriptRule = z
  .string()
  .min(1)
  .refine((script) => Buffer.byteLength(script) <= MAX_SCRIPT_BYTES, `must be at most ${MAX_SCRIPT_BYTES} bytes`);

export type ImageExtension = 'png' | 'jpg' | 'gif' | 'webp' | 'svg';
const IMAGE_TYPES: Record<string, ImageExtension> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** What image the bytes are, by their signature (SVG, which has none, by its markup); null when none of ours. */
export async function imageExtensionOf(bytes: Uint8Array): Promise<ImageExtension | null> {
  // Loaded by the first image, not at start-up.
  const [{ fileTypeFromBuffer }, { imageSize }] = await Promise.all([import('file-type'), import('image-size')]);
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed) return IMAGE_TYPES[sniffed.mime] ?? null;
  try {
    return imageSize(bytes).type === 'svg' ? 'svg' : null;
  } catch {
    return null;
  }
}

/** Base64 content of a PNG, JPEG, GIF, WebP or SVG image of at most MAX_IMAGE_BYTES. */
export const imageRule = z
  .base64('must be base64 content')
  .refine((content) => content.length <= Math.ceil(MAX_IMAGE_BYTES / 3) * 4, `must be at most ${MAX_IMAGE_BYTES} bytes once decoded`)
  .superRefine(async (content, check) => {
    if (!(await imageExtensionOf(Buffer.from(content, 'base64'))))
      check.addIssue({ code: 'custom', message: 'must be a PNG, JPEG, GIF, WebP or SVG image' });
  });

const text = (min: number, max: number) => z.string().min(min).max(max);
const httpUrl = rules.httpUrl(2048);
const unique =
  <T>(key: (item: T) => string, what: string) =>
  (items: T[], check: z.RefinementCtx) => {
    const seen = new Set<string>();
    for (const [i, item] of items.entries()) {
      if (seen.has(key(item))) check.addIssue({ code: 'custom', path: [i], message: `repeats the ${what} "${key(item)}"` });
      seen.add(key(item));
    }
  };

const blockRule = z.object({
  id: text(1, 100),
  title: text(2, 40),
  description: text(0, 150).optional(),
  icon: text(1, 2048).optional(),
  urlUnfurl: z
    .array(
      z
        .string()
        .max(2048)
        .regex(/^https?:\/\/[^/\s]+/, 'must be a URL pattern starting with http:// or https:// and a host'),
    )
    .max(50)
    .optional(),
  markdown: z.object({ codeblock: text(1, 100), body: text(1, 100) }).optional(),
});
export type Block = z.infer<typeof blockRule>;
export const blocksRule = z
  .array(blockRule)
  .max(50)
  .superRefine(unique((block) => block.id, 'block id'));

const componentRule = z.object({ componentId: text(1, 100) });

export const contentSourcesRule = z
  .array(
    z.object({
      id: text(1, 100),
      title: text(2, 40),
      description: text(0, 150).optional(),
      icon: text(1, 2048).optional(),
      configuration: componentRule,
    }),
  )
  .max(50)
  .superRefine(unique((source) => source.id, 'content source id'));

export type ContentSource = z.infer<typeof contentSourcesRule>[number];

export const externalLinksRule = z.array(z.object({ url: httpUrl, label: text(1, 100) })).max(5);
export type ExternalLink = z.infer<typeof externalLinksRule>[number];

const propertyBase = { title: text(2, 50).optional(), description: text(0, 100).optional() };
const propertyRule = z.discriminatedUnion('type', [
  z.object({
    ...propertyBase,
    type: z.literal('string'),
    default: text(0, 1000).optional(),
    completion_url: text(1, 2048).optional(),
    enum: z.array(text(0, 200)).max(100).optional(),
  }),
  z.object({ ...propertyBase, type: z.literal('number'), default: z.number().optional() }),
  z.object({ ...propertyBase, type: z.literal('boolean'), default: z.boolean().optional() }),
  z.object({ ...propertyBase, type: z.literal('button'), callback_url: text(1, 2048), button_text: text(1, 100) }),
]);
export type ConfigurationProperty = z.infer<typeof propertyRule>;

const schemaRule = z
  .object({
    properties: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, "_" or "-"'), propertyRule),
    required: z.array(z.string()).max(100).optional(),
  })
  .superRefine((schema, check) => {
    const names = Object.keys(schema.properties);
    if (names.length > 100) check.addIssue({ code: 'custom', path: ['properties'], message: 'must have at most 100 properties' });
    for (const [i, name] of (schema.required ?? []).entries()) {
      if (!names.includes(name)) check.addIssue({ code: 'custom', path: ['required', i], message: `names no property ("${name}")` });
      if (schema.required!.indexOf(name) !== i) check.addIssue({ code: 'custom', path: ['required', i], message: `repeats "${name}"` });
    }
  });
export type ConfigurationSchema = z.infer<typeof schemaRule>;

const strictComponentRule = componentRule.strict();
type Configuration = z.infer<typeof strictComponentRule> | ConfigurationSchema;

/**
 * A configuration is a ContentKit component `{componentId}` or a JSON-Schema-like `{properties, required}`: told apart
 * by `componentId`, so that a problem is told of the form meant rather than of a union.
 */
const configurationRule = z.unknown().transform((value, check): Configuration => {
  const rule = value !== null && typeof value === 'object' && 'componentId' in value ? strictComponentRule : schemaRule;
  const result = rule.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) check.addIssue({ ...issue });
  return z.NEVER;
});
export const configurationsRule = z
  .object({ account: configurationRule.optional(), space: configurationRule.optional(), site: configurationRule.optional() })
  .strict();
export type Configurations = z.infer<typeof configurationsRule>;

export const secretsRule = z
  .record(text(1, 100), z.string().max(4096))
  .refine((secrets) => Object.keys(secrets).length <= 20, 'must have at most 20 secrets');

const DIRECTIVES = [
  'base-uri',
  'block-all-mixed-content',
  'child-src',
  'connect-src',
  'default-src',
  'font-src',
  'form-action',
  'frame-ancestors',
  'frame-src',
  'img-src',
  'manifest-src',
  'media-src',
  'navigate-to',
  'object-src',
  'plugin-types',
  'prefetch-src',
  'referrer',
  'report-to',
  'report-uri',
  'require-sri-for',
  'require-trusted-types-for',
  'sandbox',
  'script-src',
  'script-src-attr',
  'script-src-elem',
  'style-src',
  'style-src-attr',
  'style-src-elem',
  'trusted-types',
  'upgrade-insecure-requests',
  'worker-src',
] as const;
// A header value: printable ASCII, so that it can be sent as is (no line break to split the header).
const headerText = /^[\x20-\x7e]*$/;

/**
 * A Content-Security-Policy, as a header value or as directives (joined into one); what validation hands on is the
 * header value, as stored and sent.
 */
export const contentSecurityPolicyRule = z
  .union(
    [
      z.string().max(4096).regex(headerText, 'must be printable ASCII'),
      z.partialRecord(
        z.enum(DIRECTIVES),
        z
          .string()
          .max(1024)
          .regex(/^[\x20-\x3a\x3c-\x7e]*$/, 'must be printable ASCII without ";"'),
      ),
    ],
    { error: 'must be a policy string, or an object of CSP directives to strings' },
  )
  .transform((policy) =>
    typeof policy === 'string'
      ? policy.trim()
      : Object.entries(policy)
          .map(([directive, value]) => `${directive} ${value}`.trim())
          .join('; '),
  );

export const titleRule = rules.title(2, 30);
export const descriptionRule = z.string().max(100);
export const summaryRule = z.string().max(2048);
export const previewImagesRule = z.array(imageRule).max(MAX_PREVIEW_IMAGES);
