// The ShareLink type and a site's share links (site `edit` lists them). A link's URL holds its key, so it is shown
// only to the site's admins, who manage the links: to them `urls.published` is the site's root with `?share=<key>`.
import { z } from 'zod';
import type { ShareLink as ShareLinkRow, Site as SiteRow } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { authorizeRow, can, childResource, rowOf } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { etagField, tagOf } from '../kernel/etags.js';
import { hashToken } from '../kernel/ids.js';
import { listArgs, listOf, listPage } from '../kernel/list-fields.js';
import { containsPattern, type ListSource } from '../kernel/lists.js';
import { policies } from '../kernel/permissions.js';
import { unseal } from '../kernel/sealed.js';
import { apiUrl } from '../kernel/urls.js';
import { sites } from '../sites/access.js';
import { Site } from '../sites/types.js';
import { publishedUrl, siteBaseUrl } from '../sites/urls.js';
import { shareKeySealedFor } from './keys.js';

export const shareLinks = childResource<ShareLinkRow, typeof policies.shareLink, SiteRow>(sites, {
  kind: 'Share link',
  policy: policies.shareLink,
  table: 'ShareLink',
  parentKey: 'siteId',
});

interface ShareLinkUrlsValue {
  location: string;
  published: string | null;
}

const ShareLinkUrls = builder.objectRef<ShareLinkUrlsValue>('ShareLinkUrls').implement({
  fields: (t) => ({
    location: t.exposeString('location', { description: 'The share link in the API.' }),
    published: t.exposeString('published', {
      nullable: true,
      description: 'The site’s root with the link’s key (`?share=<key>`): shown to the site’s admins only.',
    }),
  }),
});

async function urlsOf(ctx: Context, link: ShareLinkRow): Promise<ShareLinkUrlsValue> {
  const [site, admin] = await Promise.all([rowOf(ctx, sites, link.siteId), can(ctx, shareLinks, link, 'admin')]);
  if (!site) throw notFound('Site');
  return {
    location: apiUrl(ctx, `orgs/${site.organizationId}/sites/${site.id}/share-links/${link.id}`),
    published: admin ? publishedUrl(siteBaseUrl(ctx, site), '', unseal(ctx.secret, shareKeySealedFor(link.id), link.keyCiphertext)) : null,
  };
}

export const ShareLink = builder.objectRef<ShareLinkRow>('ShareLink').implement({
  access: shareLinks,
  description: 'A link that opens a share-link site to whoever holds it, without signing in.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'share-link' }),
    id: t.exposeID('id'),
    etag: t.string(etagField(tagOf)),
    name: t.exposeString('name', { description: 'At most 50 characters.' }),
    active: t.exposeBoolean('active', { description: 'A deactivated link opens nothing, from the next request on.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    urls: t.field({ type: ShareLinkUrls, resolve: (link, _args, ctx) => urlsOf(ctx, link) }),
  }),
});
export const ShareLinkList = listOf('ShareLink', ShareLink);

interface ShareLinkListArgs {
  search?: string | null;
}

const siteShareLinks: ListSource<ShareLinkRow, ShareLinkListArgs> = {
  table: 'ShareLink',
  parentColumn: 'siteId',
  orderBy: [
    { column: 'createdAt', type: 'timestamptz' },
    { column: 'id', type: 'text' },
  ],
  // By name, or by the very key (found through its hash, as the spec's "by name or key" asks).
  where: (_ctx, args) =>
    args.search ? Prisma.sql`(t.name ILIKE ${containsPattern(args.search)} OR t."keyHash" = ${hashToken(args.search)})` : Prisma.sql`TRUE`,
  scope: (siteId, args) => `share-links:${siteId}:${args.search ?? ''}`,
};

builder.objectFields(Site, (t) => ({
  shareLinks: t.field({
    type: ShareLinkList,
    description: 'The site’s share links, oldest first. Needs site `edit`; their URLs are for its admins.',
    args: {
      ...listArgs,
      search: t.arg.string({
        description: 'Only links whose name contains this text (case-insensitively), or whose key it is; at most 50 characters.',
        validate: z.string().max(50),
      }),
    },
    resolve: async (site, args, ctx, info) => {
      await authorizeRow(ctx, sites, site, 'edit');
      return listPage(siteShareLinks, ctx, info, site.id, args);
    },
  }),
}));
