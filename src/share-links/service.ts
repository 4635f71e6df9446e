// Creating, changing and deleting a site's share links: its admins' business, since a link opens the site.
import type { ShareLink as ShareLinkRow } from '../generated/prisma/client.js';
import { authorize } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { lockIfMatch } from '../kernel/etags.js';
import { changedFields, recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { sites } from '../sites/access.js';
import { shareLinkEvent } from './events.js';
import { newShareKey } from './keys.js';

export async function createShareLink(ctx: Context, organizationId: string, siteId: string, name: string): Promise<ShareLinkRow> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'admin');
  const id = newId();
  const { keyHash, keyCiphertext } = newShareKey(ctx, id);
  return ctx.prisma.$transaction(async (tx) => {
    const link = await tx.shareLink.create({
      data: { id, siteId, name, active: true, keyHash, keyCiphertext, createdAt: ctx.clock.now() },
    });
    await recordEvents(tx, ctx, [shareLinkEvent('share_link_created', site, link, { active: link.active })]);
    return link;
  });
}

export async function updateShareLink(
  ctx: Context,
  organizationId: string,
  siteId: string,
  shareLinkId: string,
  input: { name?: string | null; active?: boolean | null },
): Promise<ShareLinkRow> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'admin');
  const data = { ...(input.name != null && { name: input.name }), ...(input.active != null && { active: input.active }) };
  return ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'ShareLink', shareLinkId, 'Share link');
    const before = await tx.shareLink.findFirst({ where: { id: shareLinkId, siteId }, select: { name: true, active: true } });
    if (!before) throw notFound('Share link');
    const link = await tx.shareLink.update({ where: { id: shareLinkId }, data });
    const changed = changedFields(before, data);
    if (Object.keys(changed).length) await recordEvents(tx, ctx, [shareLinkEvent('share_link_updated', site, link, { changed })]);
    return link;
  });
}

export async function deleteShareLink(ctx: Context, organizationId: string, siteId: string, shareLinkId: string): Promise<void> {
  const { row: site } = await authorize(ctx, sites, { id: siteId, parent: organizationId }, 'admin');
  await ctx.prisma.$transaction(async (tx) => {
    await lockIfMatch(tx, ctx, 'ShareLink', shareLinkId, 'Share link');
    const [link] = await tx.$queryRaw<Pick<ShareLinkRow, 'id' | 'name'>[]>`
      DELETE FROM "ShareLink" WHERE id = ${shareLinkId} AND "siteId" = ${siteId} RETURNING id, name`;
    if (!link) throw notFound('Share link');
    await recordEvents(tx, ctx, [shareLinkEvent('share_link_deleted', site, link)]);
  });
}
