// What the organization service takes: a plain shape, which the GraphQL input of mutations.ts validates and hands
// over (the typecheck holds the two together where the resolver calls).
import type { MemberRole } from '../generated/prisma/enums.js';

export interface OrganizationChange {
  title?: string | null;
  emailDomains?: string[] | null;
  /** null removes it. */
  hostname?: string | null;
  /** null: new members join as guests. */
  defaultRole?: MemberRole | null;
  /** `{type: "site", site}` or null. */
  defaultContent?: unknown;
  logo?: string | null;
  sso?: boolean | null;
  ai?: boolean | null;
  inviteLinks?: boolean | null;
  mergeRules?: unknown;
}
