// The GraphQL of what visitors of a site get (published.ts): a site's published view (`Site.publishedContent`) and
// the resolution of a visitor's URL (`publishedContentByUrl`).
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { rules } from '../kernel/validation.js';
import { shareKeyArgument } from '../share-links/keys.js';
import { Site } from '../sites/types.js';
import {
  type PublishedContentRedirect as ContentRedirect,
  type PublishedView,
  publishedView,
  resolvePublishedUrl,
  type PublishedSiteContent as SiteContent,
} from './published.js';
import { SiteStructure } from './types.js';

const PublishedCustomizations = builder.objectRef<PublishedView['customizations']>('PublishedCustomizations').implement({
  fields: (t) => ({
    site: t.field({ type: 'JSON', description: 'The site’s customization settings, defaults filled in.', resolve: (c) => c.site }),
    siteSpaces: t.field({ type: 'JSON', description: 'Overrides per site space id (none are stored).', resolve: (c) => c.siteSpaces }),
  }),
});

const PublishedContentSite = builder.objectRef<PublishedView>('PublishedContentSite').implement({
  description: 'What a site shows its visitors: the site, its live structure and its customizations.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'published-content-site' }),
    site: t.field({ type: Site, resolve: (view) => view.site }),
    structure: t.field({ type: SiteStructure, resolve: (view) => view.structure }),
    customizations: t.field({ type: PublishedCustomizations, resolve: (view) => view.customizations }),
    scripts: t.field({ type: ['JSON'], description: 'Integration scripts: none on this server.', resolve: () => [] }),
  }),
});

builder.prismaObjectFields('Site', (t) => ({
  publishedContent: t.field({
    type: PublishedContentSite,
    description:
      'The published view: live (not draft) sections and site spaces. Published URLs appear for a published site, and for a ' +
      'share-link site only with an active `shareKey` of it (a wrong or inactive key answers the same view without them).',
    args: { shareKey: t.arg.string(shareKeyArgument) },
    resolve: (site, args, ctx) => publishedView(ctx, site, args.shareKey),
  }),
}));

const PublishedSiteContent = builder.objectRef<SiteContent>('PublishedSiteContent').implement({
  description: 'Where a URL leads in a published site. No short-lived content token is issued (GitBook’s `apiToken`).',
  fields: (t) => ({
    site: t.exposeString('site'),
    siteSection: t.exposeString('siteSection', { nullable: true }),
    siteSpace: t.exposeString('siteSpace'),
    space: t.exposeString('space'),
    pathname: t.exposeString('pathname', { description: 'The page path after the site space’s, without leading slash.' }),
    basePath: t.exposeString('basePath', { description: 'Path prefix of the site space in the URL.' }),
    siteBasePath: t.exposeString('siteBasePath', { description: 'Path prefix of the site in the URL.' }),
    organization: t.exposeString('organization'),
    complete: t.exposeBoolean('complete', { description: 'Whether the URL named every level of the structure it could.' }),
    canonicalUrl: t.exposeString('canonicalUrl'),
    shareKey: t.exposeString('shareKey', { nullable: true, description: 'The share key the URL carried, for a share-link site.' }),
  }),
});

const PublishedContentRedirect = builder.objectRef<ContentRedirect>('PublishedContentRedirect').implement({
  description: 'A visitor to send elsewhere: to the site’s authentication fallback URL.',
  fields: (t) => ({ target: t.exposeString('target'), site: t.exposeString('site'), redirect: t.exposeString('redirect') }),
});

const PublishedContentLookup = builder.unionType('PublishedContentLookup', {
  types: [PublishedSiteContent, PublishedContentRedirect],
  resolveType: (value) => ('redirect' in value ? PublishedContentRedirect : PublishedSiteContent),
});

builder.queryFields((t) => ({
  publishedContentByUrl: t.field({
    type: PublishedContentLookup,
    description:
      'The published site, section and site space a visitor’s URL leads to, for any authenticated caller (no membership ' +
      'needed): 404 when no published site is there, or a share-link site without an active `?share=` key; 401 for a ' +
      'visitor-auth site without a valid visitorAuthToken (with redirectOnError and a fallback URL: a redirect to it).',
    args: {
      url: t.arg.string({ required: true, validate: rules.httpUrl(2048) }),
      visitorAuthToken: t.arg.string({ validate: z.string().max(8192) }),
      redirectOnError: t.arg.boolean(),
    },
    resolve: (_root, args, ctx) => resolvePublishedUrl(ctx, args),
  }),
}));
