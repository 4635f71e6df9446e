// Creating, changing and deleting a site's share links: its admins' business, since a link opens the site.
import type { ShareLink as ShareLinkRow } from '../generated/prisma/client.js';
import { authorize } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { sites } from '../sites/access.js';
import { newShareKey } from './keys.js';

export async function createShareLink(ctx: Context, organizationId: string, siteId: string, name: string): Promise<ShareLinkRow> {
  await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'admin');
  const id = newId();
  const { keyHash, keyCiphertext } = newShareKey(ctx, id);
  const link = await ctx.prisma.shareLink.create({
    data: { id, siteId, name, active: true, keyHash, keyCiphertext, createdAt: ctx.clock.now() },
  });
  return link;
}

export async function updateShareLink(
  ctx: Context,
  organizationId: string,
  siteId: string,
  shareLinkId: string,
  input: { name?: string | null; active?: boolean | null },
): Promise<ShareLinkRow> {
  await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'admin');
  const data = { ...(input.name != null && { name: input.name }), ...(input.active != null && { active: input.active }) };
  const [link] = await ctx.prisma.shareLink.updateManyAndReturn({ where: { id: shareLinkId, siteId }, data });
  if (!link) throw notFound('Share link');
  return link;
}

export async function deleteShareLink(ctx: Context, organizationId: string, siteId: string, shareLinkId: string): Promise<void> {
  await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'admin');
  const { count } = await ctx.prisma.shareLink.deleteMany({ where: { id: shareLinkId, siteId } });
  if (count === 0) throw notFound('Share link');
}
