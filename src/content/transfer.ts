// Moving content to another organization. What belongs to the source organization (its sites, grants to its
// members and teams, invite links, custom-field values, integration installations) is detached; the content itself,
// its revisions, change requests and comments travel with it.
import type { Prisma } from '../generated/prisma/client.js';
import { authorize, organizations } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { conflict } from '../kernel/errors.js';
import { refreshEffectiveLevels } from '../kernel/permissions.js';

/** The target organization of a transfer: 404 when the viewer is not a member, 403 when it may not create there. */
export async function transferTarget(ctx: Context, organizationId: string, from: string): Promise<void> {
  await authorize(ctx, organizations, organizationId, 'view');
  if (organizationId === from) throw conflict('The content already belongs to this organization.');
  await authorize(ctx, organizations, organizationId, 'createContent');
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
