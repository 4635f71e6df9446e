// Input validation with zod. Every failure becomes a 400 whose message names the field.
import { z } from 'zod';
import { badRequest } from './errors.js';

/** "must be at most 50 characters", "must have at least 1 items", "must be at most 10". */
function bound(origin: string, comparison: 'at most' | 'at least', limit: number | bigint): string {
  if (origin === 'string') return `must be ${comparison} ${limit} characters`;
  if (origin === 'array') return `must have ${comparison} ${limit} items`;
  return `must be ${comparison} ${limit}`;
}

function describe(issue: z.core.$ZodIssue): string {
  const field = issue.path.length ? `"${issue.path.join('.')}"` : 'body';
  switch (issue.code) {
    case 'too_big':
      return `Invalid ${field}: ${bound(issue.origin, 'at most', issue.maximum)}.`;
    case 'too_small':
      return `Invalid ${field}: ${bound(issue.origin, 'at least', issue.minimum)}.`;
    case 'invalid_value':
      return `Invalid ${field}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
    default:
      return `Invalid ${field}: ${issue.message}.`;
  }
}

export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(describe(result.error.issues[0]));
  return result.data;
}

/** Shared field rules. */
export const rules = {
  /** A title that is not only white space. */
  title: (min: number, max: number) => z.string().trim().min(min).max(max),
  uri: (max: number) => z.url().max(max),
};
