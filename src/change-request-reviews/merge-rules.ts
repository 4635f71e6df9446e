// The merge rules, enforced: a space's own (`mergeRules`), or its organization's when the space inherits them. The
// merge checks them in its transaction, after its locks (enforceMergeRules), and refuses with a 409 naming the first
// rule it breaks; a rule the service cannot enforce is refused when set (kernel/validation.ts), so none is ever stored
// and ignored. Counted reviews are the current ones of the change request's latest revision: each reviewer's newest,
// never the author's. While the rules require reviews, the space's content changes only through change requests:
// whatever else would write it asks assertPrimaryContentWritable first.
import type { SqlRunner } from '../db/client.js';
import type { ChangeRequest } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';
import { conflict } from '../kernel/errors.js';
import { type MergeRule, REFUSED_MERGE_RULES } from '../kernel/validation.js';
import { documentToMarkdown } from '../revisions/document.js';

/** A stored merge rules configuration (organizations: none or rules; spaces also inherit). */
type MergeRulesConfiguration = { type: 'inherit' } | { type: 'none' } | { type: 'rules'; rules: MergeRule[] };

/** The rules that ask for reviews: while any applies, the space's content changes only through change requests. */
const REVIEW_RULES: ReadonlySet<MergeRule['rule']> = new Set([
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_specific_reviewers',
  'require_one_of_specific_reviewers',
]);

/** The rules of a configuration; an item that is no rule at all (never written through the API) is none. */
const rulesOf = (configuration: MergeRulesConfiguration | null): MergeRule[] =>
  configuration?.type === 'rules' && Array.isArray(configuration.rules)
    ? configuration.rules.filter((rule) => typeof (rule as { rule?: unknown } | null)?.rule === 'string')
    : [];

/** The space's configuration, or its organization's when it inherits: SQL over space `s` and organization `o`. */
const effectiveRulesSql = Prisma.sql`CASE WHEN s."mergeRules" ->> 'type' = 'inherit' THEN o."mergeRules" ELSE s."mergeRules" END`;

/** The rules that apply to the space's change requests. */
async function effectiveRules(sql: SqlRunner, spaceId: string): Promise<MergeRule[]> {
  const [row] = await sql<{ rules: MergeRulesConfiguration }>(Prisma.sql`
    SELECT ${effectiveRulesSql} AS rules FROM "Space" s JOIN "Organization" o ON o.id = s."organizationId" WHERE s.id = ${spaceId}`);
  return rulesOf(row?.rules ?? null);
}

/**
 * Refuses (409 naming the rule) a write that would reach the space's primary content without a change request while
 * its merge rules require reviews: a Git import that is not standalone, an import run without a change request.
 * Called before the work is queued and again in the transaction that writes, where the rules are read as committed.
 */
export async function assertPrimaryContentWritable(sql: SqlRunner, spaceId: string): Promise<void> {
  const rule = (await effectiveRules(sql, spaceId)).find((candidate) => REVIEW_RULES.has(candidate.rule));
  if (rule) {
    throw conflict(
      `Merge rule "${rule.rule}": the space's content changes only through reviewed change requests; import into a change request, or as standalone.`,
    );
  }
}

/** What the rules are judged on. */
interface MergeFacts {
  changeRequest: ChangeRequest;
  mergerId: string;
  /** The change request builds on the space's current revision. */
  upToDate: boolean;
  /** Reviewers (never the author) whose current review of the latest revision approves it, and those who ask for changes. */
  approvedBy: ReadonlySet<string>;
  changesRequestedBy: ReadonlySet<string>;
  /** Each requested reviewer: a user, or a team's members (any of whom answers for it). */
  requested: readonly { user: string | null; members: string[] }[];
}

interface ReviewFacts {
  reviews: { reviewer: string; status: 'approved' | 'changes_requested' }[];
  requested: { user: string | null; members: string[] }[];
}

/**
 * The current reviews of the change request's latest revision (each reviewer's newest, the author's left out) and its
 * requested reviewers, in one statement.
 */
async function reviewFacts(sql: SqlRunner, changeRequest: ChangeRequest): Promise<ReviewFacts> {
  const [facts] = await sql<ReviewFacts>(Prisma.sql`
    SELECT (SELECT coalesce(json_agg(json_build_object('reviewer', r."reviewerId", 'status', r.status)), '[]')
              FROM "ChangeRequestReview" r
             WHERE r."changeRequestId" = ${changeRequest.id} AND r."revisionId" = ${changeRequest.revisionId}
               AND r."reviewerId" <> ${changeRequest.createdById}
               AND NOT EXISTS (SELECT 1 FROM "ChangeRequestReview" newer
                                WHERE newer."changeRequestId" = r."changeRequestId" AND newer."reviewerId" = r."reviewerId"
                                  AND newer.seq > r.seq)) AS reviews,
           (SELECT coalesce(json_agg(json_build_object('user', q."userId", 'members',
                      (SELECT coalesce(json_agg(tm."userId"), '[]') FROM "TeamMember" tm WHERE tm."teamId" = q."teamId"))), '[]')
              FROM "ChangeRequestRequestedReviewer" q WHERE q."changeRequestId" = ${changeRequest.id}) AS requested`);
  return facts;
}

const hasText = (document: unknown) => document != null && documentToMarkdown(document).trim() !== '';

/** Why the rule is unmet, or null when it is met. */
function unmet(rule: MergeRule, facts: MergeFacts): string | null {
  const { changeRequest, approvedBy, changesRequestedBy } = facts;
  switch (rule.rule) {
    case 'require_at_least_one_review':
      return approvedBy.size + changesRequestedBy.size > 0
        ? null
        : 'the change request needs a review of its latest revision by someone other than its author.';
    case 'require_at_least_one_approved_review':
      return approvedBy.size > 0 ? null : 'the change request needs an approval of its latest revision by someone other than its author.';
    case 'require_all_reviews_approved': {
      if (changesRequestedBy.size > 0) return 'a current review of the change request asks for changes.';
      if (approvedBy.size === 0) return 'the change request needs a review of its latest revision, and every review to approve it.';
      const waiting = facts.requested.some((request) =>
        request.user ? !approvedBy.has(request.user) : !request.members.some((member) => approvedBy.has(member)),
      );
      return waiting ? 'every requested reviewer (or a member of each requested team) must approve its latest revision.' : null;
    }
    case 'require_specific_reviewers': {
      // The author is not asked to approve their own work, which never counts.
      const missing = rule.users.filter((user) => user !== changeRequest.createdById && !approvedBy.has(user));
      return missing.length ? `each of these reviewers must approve its latest revision: ${missing.join(', ')}.` : null;
    }
    case 'require_one_of_specific_reviewers':
      return rule.users.some((user) => approvedBy.has(user))
        ? null
        : `one of these reviewers must approve its latest revision: ${rule.users.join(', ')}.`;
    case 'require_up_to_date_change_request':
      return facts.upToDate ? null : 'the change request does not build on the space’s current content: update it from the space first.';
    case 'require_change_request_subject':
      return changeRequest.subject.trim() ? null : 'the change request needs a subject.';
    case 'require_change_request_description':
      return hasText(changeRequest.description) ? null : 'the change request needs a description.';
    case 'require_author_to_merge':
      return facts.mergerId === changeRequest.createdById ? null : 'only the change request’s author may merge it.';
    case 'allow_bypass':
      return null;
    default:
      // Refused when set; one stored before that (the migration removes them) still stops the merge rather than pass.
      return `this rule cannot be enforced: ${REFUSED_MERGE_RULES[rule.rule] ?? 'unknown rule'}.`;
  }
}

/**
 * Refuses the merge (409 naming the first rule it breaks) unless the change request meets the effective merge rules
 * or the merger is allowed to bypass them. To be called in the merge's transaction, after its locks, with `sql` on
 * that transaction: what it reads cannot change before the merge commits.
 */
export async function enforceMergeRules(sql: SqlRunner, changeRequest: ChangeRequest, mergerId: string): Promise<void> {
  const [row] = await sql<{ rules: MergeRulesConfiguration; upToDate: boolean }>(Prisma.sql`
    SELECT ${effectiveRulesSql} AS rules, head."baseSeq" IS NOT DISTINCT FROM main.seq AS "upToDate"
      FROM "Space" s JOIN "Organization" o ON o.id = s."organizationId"
      JOIN "Revision" main ON main.id = s."revisionId"
      JOIN "Revision" head ON head.id = ${changeRequest.revisionId}
     WHERE s.id = ${changeRequest.spaceId}`);
  const rules = rulesOf(row?.rules ?? null);
  if (!rules.length) return;
  if (rules.some((rule) => rule.rule === 'allow_bypass' && rule.users.includes(mergerId))) return;
  const needsReviews = rules.some((rule) => REVIEW_RULES.has(rule.rule));
  const { reviews, requested } = needsReviews ? await reviewFacts(sql, changeRequest) : { reviews: [], requested: [] };
  const facts: MergeFacts = {
    changeRequest,
    mergerId,
    upToDate: row.upToDate,
    approvedBy: new Set(reviews.filter((review) => review.status === 'approved').map((review) => review.reviewer)),
    changesRequestedBy: new Set(reviews.filter((review) => review.status === 'changes_requested').map((review) => review.reviewer)),
    requested,
  };
  for (const rule of rules) {
    const problem = unmet(rule, facts);
    if (problem) throw conflict(`Merge rule "${rule.rule}": ${problem}`);
  }
}
