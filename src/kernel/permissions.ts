// The one place that decides what a caller may do. Every resolver asks here; nothing else compares roles.
//
// Model (documented in README.md, "Permissions"):
// - An organization role (admin > create > review > edit > comment > read; null = guest) applies to all content.
// - A collection or space has a defaultLevel: a role, `inherit` (parent collection, then the organization), or null
//   (no default access). effectiveLevel stores it with `inherit` resolved up the tree.
// - A member's level on content: admin role -> admin; guest -> none; otherwise their role capped by the content's
//   effective level (`inherit` all the way up: their role; null: none).
// - Content is administered (settings, move, delete, transfer) from level `create` up, as GitBook's creators do.
// - A caller who is not a member of an organization cannot see anything in it: 404, never 403.
import type { ContentLevel, MemberRole } from '../generated/prisma/enums.js';
import { Prisma } from '../generated/prisma/client.js';

export type Role = MemberRole;
/** What a caller may do with one piece of content; null when it may not even see it. */
export type Level = Role | null;

/** The caller's membership in one organization; undefined when not a member. */
export interface Membership {
  role: Role | null;
}

const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

export const atLeast = (level: Level, role: Role): boolean => level !== null && RANK[level] >= RANK[role];
const lower = (a: Role, b: Role): Role => (RANK[a] <= RANK[b] ? a : b);

export function contentLevel(member: Membership | undefined, effectiveLevel: ContentLevel | null): Level {
  if (!member || member.role === null) return null;
  if (member.role === 'admin') return 'admin';
  if (effectiveLevel === null) return null;
  if (effectiveLevel === 'inherit') return member.role;
  return lower(member.role, effectiveLevel);
}

/**
 * SQL twin of `contentLevel(...) !== null` for a collection or space aliased `t`: the viewer is a member (not a guest)
 * of its organization, and an admin there or the content has a default level. Viewer-relative, so it filters lists
 * at any nesting depth, across organizations, in one statement.
 */
export function visibleToViewerSql(userId: string): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM "Member" m
    WHERE m."organizationId" = t."organizationId" AND m."userId" = ${userId} AND NOT m.disabled AND m.role IS NOT NULL
      AND (m.role = 'admin' OR t."effectiveLevel" IS NOT NULL))`;
}

export const can = {
  administerContent: (level: Level) => atLeast(level, 'create'),
  createContentIn: (level: Level) => atLeast(level, 'create'),
  createContentInOrganization: (member: Membership | undefined) => !!member && atLeast(member.role, 'create'),
  administerOrganization: (member: Membership | undefined) => !!member && member.role === 'admin',
};

export function spacePermissions(level: Level) {
  return {
    view: atLeast(level, 'read'),
    access: atLeast(level, 'read'),
    admin: can.administerContent(level),
    viewInviteLinks: can.administerContent(level),
    edit: atLeast(level, 'edit'),
    triggerGitSync: atLeast(level, 'edit'),
    comment: atLeast(level, 'comment'),
    merge: atLeast(level, 'review'),
    review: atLeast(level, 'review'),
    installIntegration: can.administerContent(level),
  };
}

export function collectionPermissions(level: Level) {
  return {
    view: atLeast(level, 'read'),
    admin: can.administerContent(level),
    viewInviteLinks: can.administerContent(level),
    create: can.createContentIn(level),
  };
}

export function organizationPermissions(member: Membership | undefined) {
  const role = member?.role ?? null;
  const isMember = !!member;
  const admin = role === 'admin';
  return {
    view: isMember,
    access: isMember,
    admin,
    ownTeam: role !== null,
    createContent: atLeast(role, 'create'),
    createOpenAPISpec: atLeast(role, 'create'),
    viewBilling: admin,
    listMembers: role !== null,
    listTeams: role !== null,
    listIntegrations: role !== null,
    listInstallations: admin,
    installIntegration: admin,
  };
}

type Sql = Pick<Prisma.TransactionClient, '$executeRaw'>;

/**
 * Recomputes effectiveLevel for every collection and space of an organization, in two statements.
 * Called inside the transaction of any change to defaultLevel or to the tree (create, move, transfer).
 */
export async function refreshEffectiveLevels(tx: Sql, organizationId: string): Promise<void> {
  await tx.$executeRaw`
    WITH RECURSIVE tree AS (
      SELECT id, "defaultLevel" AS level FROM "Collection"
       WHERE "organizationId" = ${organizationId} AND "parentId" IS NULL
      UNION ALL
      SELECT c.id, CASE WHEN c."defaultLevel" = 'inherit' THEN tree.level ELSE c."defaultLevel" END
        FROM "Collection" c JOIN tree ON c."parentId" = tree.id
    )
    UPDATE "Collection" c SET "effectiveLevel" = tree.level
      FROM tree WHERE c.id = tree.id AND c."effectiveLevel" IS DISTINCT FROM tree.level`;
  await tx.$executeRaw`
    UPDATE "Space" s SET "effectiveLevel" = CASE
        WHEN s."defaultLevel" = 'inherit' AND s."parentId" IS NOT NULL THEN p."effectiveLevel"
        ELSE s."defaultLevel" END
      FROM "Space" s2 LEFT JOIN "Collection" p ON p.id = s2."parentId"
     WHERE s.id = s2.id AND s."organizationId" = ${organizationId}
       AND s."effectiveLevel" IS DISTINCT FROM (CASE
        WHEN s."defaultLevel" = 'inherit' AND s."parentId" IS NOT NULL THEN p."effectiveLevel"
        ELSE s."defaultLevel" END)`;
}
