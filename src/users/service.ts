// A user changes their own profile (GitBook's updateUserById): display name and photo. Anyone else who sees the user
// is refused (403); whoever does not, learns nothing (404).
import type { User } from '../generated/prisma/client.js';
import { authorize } from '../kernel/authorize.js';
import type { Context } from '../kernel/context.js';
import { changedFields, recordEvents } from '../kernel/events.js';
import { users } from './access.js';

export interface UserChange {
  displayName?: string | null;
  photoURL?: string | null;
}

export async function updateUser(ctx: Context, userId: string, change: UserChange): Promise<User> {
  const { row: user } = await authorize(ctx, users, userId, 'edit');
  const after = { displayName: change.displayName ?? undefined, photoURL: change.photoURL };
  const changed = changedFields(user, after);
  if (!Object.keys(changed).length) return user;
  return ctx.prisma.$transaction(async (tx) => {
    const updated = await tx.user.update({ where: { id: userId }, data: after });
    const memberships = await tx.member.findMany({ where: { userId }, select: { organizationId: true } });
    await recordEvents(
      tx,
      ctx,
      memberships.map(({ organizationId }) => ({
        action: 'user_updated',
        organizationId,
        target: { type: 'user', id: userId, label: updated.displayName },
        payload: { changed },
      })),
    );
    return updated;
  });
}
