// Input validation: zod schemas declared on the Pothos inputs themselves (`validate:` of @pothos/plugin-validation),
// and the one way their failures are told: a 400 naming the field, as the REST body spells it.
import type { StandardSchemaV1 } from '@pothos/plugin-validation';
import { z } from 'zod';
import { ApiError } from './errors.js';
import { ID_PATTERN } from './ids.js';

/** The argument that carries a mutation's request body: its fields are named without it. */
const BODY_ARGUMENT = 'input';

/** "Invalid "title": must be at most 50 characters." for the path of the offending value within the arguments. */
export function invalidInput(path: readonly PropertyKey[], problem: string): ApiError {
  const names = (path[0] === BODY_ARGUMENT ? path.slice(1) : path).map(String);
  return new ApiError(400, `Invalid ${names.length ? `"${names.join('.')}"` : 'body'}: ${problem}.`);
}

/** "must be at most 50 characters", "must have at least 1 items", "must be at most 10". */
function bound(origin: string, comparison: 'at most' | 'at least', limit: number | bigint): string {
  if (origin === 'string') return `must be ${comparison} ${limit} characters`;
  if (origin === 'array') return `must have ${comparison} ${limit} items`;
  return `must be ${comparison} ${limit}`;
}

function problemOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_big':
      return bound(issue.origin, 'at most', issue.maximum);
    case 'too_small':
      return bound(issue.origin, 'at least', issue.minimum);
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message;
  }
}

const pathOf = (issue: StandardSchemaV1.Issue) =>
  (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment));

/** plugin-validation's failure hook: the first issue, as a 400. */
export function validationError(failure: { issues: readonly StandardSchemaV1.Issue[] }): ApiError {
  const issue = failure.issues[0];
  return invalidInput(pathOf(issue), 'code' in issue ? problemOf(issue as z.core.$ZodIssue) : issue.message);
}

/**
 * The values an integer argument takes, declared on the argument (`extensions.integerRange`) by whoever validates it.
 * A query string carries integers of any size, and GraphQL's Int refuses those past 32 bits with an error that is not
 * the client's: REST checks every integer query parameter against its argument's range first, with the message the
 * argument's own validation gives.
 */
export interface IntegerRange {
  min: number;
  max: number;
}

/** Argument option: the integer argument takes values from `min` to `max` (its validation is the caller's). */
export const integerRangeExtension = (range: IntegerRange) => ({ extensions: { integerRange: range } }) as const;

/** The range an argument declares, if any. */
export const integerRangeOf = (extensions: Readonly<Record<string, unknown>> | null | undefined): IntegerRange | undefined =>
  (extensions as { integerRange?: IntegerRange } | null | undefined)?.integerRange;

/** What an integer outside its range is told. */
export const outOfRange = ({ min, max }: IntegerRange) => `must be an integer from ${min} to ${max}`;

/**
 * Argument option of an integer argument: it takes `min` to `max`, anything else is a 400 naming it. The range is also
 * declared to REST, which must refuse query-string integers past GraphQL's Int before GraphQL sees them, and to the
 * OpenAPI document. Its description is `describe`'s, given the range as words (`0 to 1000`), so that the numbers it
 * states are the ones checked.
 */
export function integerRange(min: number, max: number, describe: (range: string) => string) {
  const range = { min, max };
  return {
    description: describe(`${min} to ${max}`),
    validate: z.number().refine((value) => Number.isInteger(value) && value >= min && value <= max, outOfRange(range)),
    ...integerRangeExtension(range),
  };
}

// biome-ignore lint/suspicious/noMisleadingCharacterClass: the class lists emoji components on purpose; sequences are what it matches.
const EMOJI = /^(|[0-9a-f]{4,6}(-[0-9a-f]{4,6})*|[\p{Extended_Pictographic}\p{Emoji_Component}\u200d\ufe0f\u20e3]+)$/iu;

/** Shared field rules. */
export const rules = {
  /** A title that is not only white space. */
  title: (min: number, max: number) => z.string().trim().min(min).max(max),
  uri: (max: number) => z.url().max(max),
  /**
   * An http or https URL of at most `max` characters. Zod runs later checks after a failed one unless told to abort,
   * so a refinement added to this rule (`new URL(url)...`) only ever sees a URL that parses.
   */
  httpUrl: (max: number) => z.url({ protocol: /^https?$/, error: 'must be an http or https URL', abort: true }).max(max),
  /** An id named in a body: one that cannot exist is refused before any lookup. */
  id: z.string().regex(ID_PATTERN, 'not an id'),
  /** An emoji character sequence, or its code points in hex ("1f389", "1f468-200d-1f4bb"), as GitBook accepts. */
  emoji: z.string().max(50).regex(EMOJI, 'must be an emoji or its hex code points'),
};

/**
 * Input-type rule: these optional fields may be left out but not sent as null (their columns always hold a value).
 * GraphQL cannot say it (an optional input field is nullable), so the input says it here.
 */
export const notNull = (...fields: string[]) =>
  z.any().superRefine((input: Record<string, unknown>, check) => {
    for (const field of fields) if (input[field] === null) check.addIssue({ code: 'custom', path: [field], message: 'must not be null' });
  });

/**
 * Rules of the published enum that this service cannot enforce: it has no AI reviewer, and evaluates no expressions.
 * Refused when set (a 400 naming the rule), so that no rule is ever stored and then ignored by a merge.
 */
export const REFUSED_MERGE_RULES: Readonly<Record<string, string>> = {
  require_agent_review: 'this service has no AI reviewer',
  custom: 'this service evaluates no custom expressions',
};

/** One rule of a change request's merge rules, as GitBook's published spec (MergeRule) defines them. */
const PublishedMergeRule = z.discriminatedUnion('rule', [
  z.object({
    rule: z.enum(['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass']),
    users: z.array(rules.id).max(100),
  }),
  z.object({
    rule: z.enum([
      'require_at_least_one_review',
      'require_at_least_one_approved_review',
      'require_all_reviews_approved',
      'require_agent_review',
      'require_up_to_date_change_request',
      'require_change_request_subject',
      'require_change_request_description',
      'require_author_to_merge',
    ]),
  }),
  z.object({ rule: z.literal('custom'), expression: z.string().max(2000), message: z.string().max(500).optional() }),
]);

const MergeRule = PublishedMergeRule.superRefine((value, check) => {
  const refused = REFUSED_MERGE_RULES[value.rule];
  if (refused) check.addIssue({ code: 'custom', path: ['rule'], message: `"${value.rule}" cannot be enforced: ${refused}` });
});

/** A merge rule as stored: one the merge enforces (src/change-request-reviews/merge-rules.ts). */
export type MergeRule = z.infer<typeof PublishedMergeRule>;

/** MergeRulesStandaloneConfiguration of the published spec (organizations); spaces may also `inherit`. */
export const mergeRules = {
  standalone: z.discriminatedUnion('type', [
    z.object({ type: z.literal('none') }),
    z.object({ type: z.literal('rules'), rules: z.array(MergeRule).max(50) }),
  ]),
  space: z.discriminatedUnion('type', [
    z.object({ type: z.literal('inherit') }),
    z.object({ type: z.literal('none') }),
    z.object({ type: z.literal('rules'), rules: z.array(MergeRule).max(50) }),
  ]),
};
