// Moving content to another organization. What belongs to the source organization (its sites, grants to its
// members and teams, invite links, custom-field values, integration installations) is detached; the content itself,
// its revisions, change requests and comments travel with it.
import type { Prisma } from '../generated/prisma/client.js';
import { authorize, organizations } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { ApiError, conflict } from '../kernel/errors.js';
import { atLeast, policies, refreshEffectiveLevels } from '../kernel/permissions.js';

/**
 * Whether the viewer may move content from one organization to another, once it may administer the content itself.
 * Content leaves an organization only by the hand of its admins (403), whatever a member's level on the content: a
 * grant or a creator's role on a space does not hand it over. The target is an organization the viewer may create
 * content in: 404 when not a member, 403 without the role, 409 when it is the source.
 */
export async function authorizeTransfer(ctx: Context, from: string, to: string): Promise<void> {
  const { level } = await authorize(ctx, organizations, from, 'view');
  if (!atLeast(level, policies.organization.admin)) {
    throw new ApiError(403, 'Only the admins of its organization may move content to another organization.');
  }
  await authorize(ctx, organizations, to, 'view');
  if (to === from) throw conflict('The content already belongs to this organization.');
  await authorize(ctx, organizations, to, 'createContent');
}

export interface Transfer {
  from: string;
  to: string;
  collectionIds: string[];
  spaceIds: string[];
}

export async function transferContent(tx: Prisma.TransactionClient, transfer: Transfer): Promise<void> {
  const { collectionIds, spaceIds } = transfer;
  const content = { OR: [{ collectionId: { in: collectionIds } }, { spaceId: { in: spaceIds } }] };
  await tx.contentGrant.deleteMany({ where: content });
  await tx.linkInvite.deleteMany({ where: content });
  // Statements about no rows are skipped rather than sent (a space alone, or a collection without spaces).
  if (spaceIds.length) {
    await tx.siteSpace.deleteMany({ where: { spaceId: { in: spaceIds } } });
    await tx.customFieldValue.deleteMany({ where: { spaceId: { in: spaceIds } } });
    await tx.installationSpace.deleteMany({ where: { spaceId: { in: spaceIds } } });
    await tx.space.updateMany({ where: { id: { in: spaceIds } }, data: { organizationId: transfer.to } });
  }
  if (collectionIds.length) await tx.collection.updateMany({ where: { id: { in: collectionIds } }, data: { organizationId: transfer.to } });
  await refreshEffectiveLevels(tx, transfer.from);
  await refreshEffectiveLevels(tx, transfer.to);
}
