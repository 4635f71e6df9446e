// Input validation with zod. Every failure becomes a 400 whose message names the field.
import { z } from 'zod';
import { badRequest } from './errors.js';

function describe(issue: z.core.$ZodIssue): string {
  const field = issue.path.length ? `"${issue.path.join('.')}"` : 'body';
  switch (issue.code) {
    case 'too_big':
      return issue.origin === 'string'
        ? `Invalid ${field}: must be at most ${issue.maximum} characters.`
        : issue.origin === 'array'
          ? `Invalid ${field}: must have at most ${issue.maximum} items.`
          : `Invalid ${field}: must be at most ${issue.maximum}.`;
    case 'too_small':
      return issue.origin === 'string'
        ? `Invalid ${field}: must be at least ${issue.minimum} characters.`
        : issue.origin === 'array'
          ? `Invalid ${field}: must have at least ${issue.minimum} items.`
          : `Invalid ${field}: must be at least ${issue.minimum}.`;
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
