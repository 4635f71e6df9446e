// The one place that decides what a caller may do. Enforcement (authorize.ts) and the `permissions` objects sent to
// clients both read the policy tables below, so what the API advertises is what it enforces.
//
// Model (documented in README.md, "Permissions"):
// - An organization role (admin > create > review > edit > comment > read) applies to all content; a member without
//   a role is a guest, who sees the organization but no content.
// - A collection or space has a defaultLevel: a role, `inherit` (parent collection, then the organization), or null
//   (no default access). effectiveLevel stores it with `inherit` resolved up the tree.
// - A member's level on content: admin role -> admin; guest -> none; otherwise their role capped by the content's
//   effective level (`inherit` all the way up: their role; null: none). Grants raise it: the highest role granted to
//   the member, or to a team of theirs, on the content or on a collection above it (guests included, uncapped).
// - Content is administered (settings, move, delete, transfer) from level `create` up, as GitBook's creators do.
// - A caller who is not a member of an organization cannot see anything in it: 404, never 403.
import { Prisma } from '../generated/prisma/client.js';
import type { ContentLevel, MemberRole } from '../generated/prisma/enums.js';
import { type Viewer, viewerMembershipSql } from './context.js';

export type Role = MemberRole;
/** A caller's standing on an object: a role, `guest` (a member without role), or null: may not even see it. */
export type Level = Role | 'guest' | null;
export type GrantedLevel = Exclude<Level, null>;

/** The caller's membership in one organization; undefined when not a member. */
export interface Membership {
  role: Role | null;
  /** Whether any content of the organization is granted to them or to one of their teams. */
  granted: boolean;
  /** For a token scoped to spaces: the membership those spaces are judged by (the standing above is a guest's). */
  spaces?: { role: Role | null; granted: boolean };
}

const RANK: Record<GrantedLevel, number> = { guest: 0, read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

export const atLeast = (level: Level, minimum: GrantedLevel): boolean => level !== null && RANK[level] >= RANK[minimum];
const lower = (a: Role, b: Role): Role => (RANK[a] <= RANK[b] ? a : b);

/**
 * What an action needs: a minimum level, or for objects that have an author (comments), one minimum for the author
 * and another (none when absent) for everyone else.
 */
export type Rule = GrantedLevel | { readonly owner: GrantedLevel; readonly others?: GrantedLevel };

/**
 * What each action needs, per kind of object. Every kind's `view` decides who may see its objects at all: whoever
 * may not is answered "not found", wherever the object is reached from (src/kernel/access.ts). A child kind (a site's
 * share links, a space's change requests) is judged by the viewer's level on its parent.
 */
export const policies = {
  organization: {
    view: 'guest',
    access: 'guest',
    admin: 'admin',
    ownTeam: 'read',
    createContent: 'create',
    createOpenAPISpec: 'create',
    viewBilling: 'admin',
    listMembers: 'read',
    listTeams: 'read',
    listIntegrations: 'read',
    listInstallations: 'admin',
    installIntegration: 'admin',
  },
  collection: { view: 'read', admin: 'create', viewInviteLinks: 'create', create: 'create' },
  /** A user is seen by themselves and by the members of the organizations they belong to; changed by themselves. */
  user: { view: 'guest', edit: { owner: 'guest' } },
  /** A team is managed (renamed, its members changed) by the organization's admins and by the team's owners. */
  team: { view: 'read', admin: 'admin' },
  teamMember: { view: 'read' },
  /**
   * A membership: seen by the organization's members with a role, and by its own member; changed by the admins; ended
   * by the admins, or by the member leaving.
   */
  member: { view: { owner: 'guest', others: 'read' }, admin: 'admin', remove: { owner: 'guest', others: 'admin' } },
  /** An organization's custom field definitions: every member reads them, its admins change them. */
  customField: { view: 'guest', edit: 'admin' },
  /** An organization's OpenAPI specifications: its members with a role read them; who may create them changes them. */
  openAPISpec: { view: 'read', edit: 'create', delete: 'create' },
  /** The audit log tells who did what in the whole organization: its admins alone read it. */
  auditEvent: { view: 'admin' },
  /** SAML providers hold the organization's way in: its admins alone see them. */
  samlProvider: { view: 'admin' },
  /** Webhooks send the organization's events out, signed with their secrets: its admins alone see them. */
  webhook: { view: 'admin' },
  /**
   * An invite link is judged by the viewer's level on what it opens, counted only where they manage its invites: the
   * organization's admins, and on a space or collection, whoever has its `viewInviteLinks`.
   */
  inviteLink: { view: 'create' },
  /**
   * An integration's installation: managed by the admins of the organization that installed it, and seen by those of
   * the one that publishes the integration; on a space, seen too by whoever may install integrations there.
   */
  installation: { view: 'create' },
  /**
   * An API token: seen and revoked by its user, and by the admins of an organization it acts in (they judge who acts
   * there, not what the token does elsewhere).
   */
  apiToken: { view: { owner: 'guest', others: 'admin' }, revoke: { owner: 'guest', others: 'admin' } },
  /** A background job: seen by whoever asked for it, and by the admins of the organization it works for. */
  job: { view: { owner: 'guest', others: 'admin' } },
  /**
   * A docs site is the organization's: its members with a role read it; creators build it (settings, site spaces,
   * sections, redirects); admins delete it and hold its secrets (share links, publishing auth).
   */
  site: {
    view: 'read',
    access: 'read',
    edit: 'create',
    create: 'create',
    admin: 'admin',
    installIntegration: 'admin',
    viewAdaptiveSchema: 'read',
    editAdaptiveSchema: 'create',
  },
  /** What a site holds, judged by the viewer's level on the site (a site space, also on its space). */
  siteStructure: { view: 'read', edit: 'create' },
  siteRedirect: { view: 'read', edit: 'create' },
  /** Share links are listed by the site's builders; their keys (in their URLs) are for its admins. */
  shareLink: { view: 'create', admin: 'admin' },
  publishingAuth: { view: 'admin' },
  space: {
    view: 'read',
    access: 'read',
    admin: 'create',
    viewInviteLinks: 'create',
    edit: 'edit',
    triggerGitSync: 'edit',
    comment: 'comment',
    merge: 'review',
    review: 'review',
    installIntegration: 'create',
  },
  /** A space's change requests, judged by the viewer's level on the space. */
  changeRequest: { view: 'read', edit: 'edit', merge: 'review', review: 'review' },
  /** A change request's reviews, seen by whoever sees the change request. */
  changeRequestReview: { view: 'read' },
  /** An import run, judged by the viewer's level on the space it imports into: who may edit the space cancels it. */
  importRun: { view: 'read', cancel: 'edit' },
  /**
   * Comments and replies, judged by the viewer's level on their space and whether they wrote them: a body is its
   * author's to edit; its author or the space's administrators delete it.
   */
  comment: {
    view: 'read',
    edit: { owner: 'comment' },
    reply: 'comment',
    delete: { owner: 'comment', others: 'create' },
  },
} as const satisfies Record<string, Record<string, Rule>>;

export type Policy = Record<string, Rule>;
export type ActionOf<P extends Policy> = keyof P & string;

/** Whether a level (of an author of the object, or not) satisfies a rule. */
export function allows(rule: Rule, level: Level, owner = false): boolean {
  if (typeof rule === 'string') return atLeast(level, rule);
  const minimum = owner ? rule.owner : rule.others;
  return minimum !== undefined && atLeast(level, minimum);
}

/** The actions of the policies that read and change nothing: what a read-only token may still be advertised. */
const READING_ACTIONS: ReadonlySet<string> = new Set([
  'view',
  'access',
  'viewInviteLinks',
  'viewBilling',
  'viewAdaptiveSchema',
  'listMembers',
  'listTeams',
  'listIntegrations',
  'listInstallations',
]);

/**
 * The `permissions` object of a level under a policy: every action, allowed or not. A read-only token (src/kernel/
 * read-only.ts refuses its mutations) is advertised the reading actions alone.
 */
export function permissionsOf<P extends Policy>(policy: P, level: Level, owner = false, readOnly = false): Record<ActionOf<P>, boolean> {
  const out = {} as Record<ActionOf<P>, boolean>;
  for (const action in policy) {
    const advertised = !readOnly || READING_ACTIONS.has(action);
    out[action as ActionOf<P>] = advertised && allows(policy[action], level, owner);
  }
  return out;
}

/** The level a membership gives on the organization itself. */
export function organizationLevel(member: Membership | undefined): Level {
  if (!member) return null;
  return member.role ?? 'guest';
}

/** The level on a team: its owners manage it whatever their organization role; otherwise the organization level. */
export function teamLevel(member: Membership | undefined, ownsTeam: boolean): Level {
  if (!member) return null;
  return ownsTeam && !member.spaces ? 'admin' : organizationLevel(member);
}

/** The level a membership gives on a collection or space with this effective level, raised by what is granted there. */
export function contentLevel(member: Membership | undefined, effectiveLevel: ContentLevel | null, granted: Role | null = null): Level {
  if (!member) return null;
  if (member.role === 'admin') return 'admin';
  const byRole =
    member.role === null || effectiveLevel === null
      ? null
      : effectiveLevel === 'inherit'
        ? member.role
        : lower(member.role, effectiveLevel);
  if (!granted) return byRole;
  return byRole && RANK[byRole] >= RANK[granted] ? byRole : granted;
}

/** The highest of some roles; null for none. */
export const highestRole = (roles: readonly Role[]): Role | null =>
  roles.reduce<Role | null>((best, role) => (best && RANK[best] >= RANK[role] ? best : role), null);

/**
 * The ids of the collections and spaces granted to a user or to their teams, in organizations where they are an
 * enabled member, with everything below the granted collections: a subquery, computed once per statement.
 */
export function grantedContentSql(userId: string): Prisma.Sql {
  return Prisma.sql`(WITH RECURSIVE granted(id) AS (
      SELECT COALESCE(g."collectionId", g."spaceId") FROM "ContentGrant" g
        JOIN "Member" m ON m."organizationId" = g."organizationId" AND m."userId" = ${userId} AND NOT m.disabled
       WHERE g."userId" = ${userId} OR g."teamId" IN (SELECT tm."teamId" FROM "TeamMember" tm WHERE tm."userId" = ${userId})
      UNION
      SELECT n.id FROM granted
        JOIN (SELECT id, "parentId" FROM "Collection" UNION ALL SELECT id, "parentId" FROM "Space") n ON n."parentId" = granted.id
    ) SELECT id FROM granted)`;
}

/**
 * SQL twin of `contentLevel(...) !== null` for a collection or space aliased `content` (`t` unless told): the viewer is
 * a member (not a guest) of its organization, and an admin there or the content has a default level; or it is granted
 * to them; and for a token scoped to spaces, it is one of them. Viewer-relative, so it filters lists at any nesting depth, across organizations, in one statement.
 */
export function visibleToViewerSql(viewer: Viewer, content = 't'): Prisma.Sql {
  const t = Prisma.raw(content);
  // The granted subtree only for a viewer who holds grants (the token's statement tells): it costs the list
  // statement its index-only count and much of its planning, which most viewers need not pay. One EXISTS with the
  // alternatives inside, so that PostgreSQL still makes it a semi-join.
  const granted = viewer.holdsGrants ? Prisma.sql`OR ${t}.id IN ${grantedContentSql(viewer.userId)}` : Prisma.empty;
  const scope = viewer.spaces ? Prisma.sql`${t}.id = ANY(${viewer.spaces}::text[]) AND` : Prisma.empty;
  return Prisma.sql`${scope} EXISTS (SELECT 1 FROM "Member" m
    WHERE m."organizationId" = ${t}."organizationId" AND ${viewerMembershipSql(viewer, 'm')}
      AND ((m.role IS NOT NULL AND (m.role = 'admin' OR ${t}."effectiveLevel" IS NOT NULL)) ${granted}))`;
}

/**
 * SQL twin of `contentLevel(...)` for any member, not only the viewer: the level (a MemberRole, or NULL for none) of
 * the member row aliased `member` on the collection or space with this id and effective level, raised by the grants made
 * to them or to their teams on it or on a collection above it. MemberRole's values are declared from admin down, so
 * LEAST is the higher role and GREATEST the lower.
 */
export function memberLevelSql(member: 'm' | 't', contentId: Prisma.Sql, effectiveLevel: Prisma.Sql): Prisma.Sql {
  const m = Prisma.raw(member);
  return Prisma.sql`(CASE WHEN ${m}.disabled THEN NULL WHEN ${m}.role = 'admin' THEN 'admin'::"MemberRole" ELSE LEAST(
      CASE WHEN ${m}.role IS NULL OR ${effectiveLevel} IS NULL THEN NULL
           WHEN ${effectiveLevel} = 'inherit' THEN ${m}.role
           ELSE GREATEST(${m}.role, ${effectiveLevel}::text::"MemberRole") END,
      (WITH RECURSIVE above(node) AS (
          SELECT ${contentId}::text
          UNION ALL
          SELECT n."parentId" FROM above
            JOIN (SELECT id, "parentId" FROM "Collection" UNION ALL SELECT id, "parentId" FROM "Space") n ON n.id = above.node
           WHERE n."parentId" IS NOT NULL)
        SELECT min(g.role) FROM above JOIN "ContentGrant" g ON g."collectionId" = above.node OR g."spaceId" = above.node
         WHERE g."userId" = ${m}."userId"
            OR g."teamId" IN (SELECT tm."teamId" FROM "TeamMember" tm WHERE tm."userId" = ${m}."userId"))
    ) END)`;
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
