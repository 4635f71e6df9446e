// A domain's share of the statement budgets (test/performance/statement-budgets.test.ts): the exact number of SQL
// statements each of its routes runs, called once as an organization admin, and the request to call each with.
import type { Collection, Space } from '../../src/generated/prisma/client.js';
import type { Person, TestApp } from './app.js';

export interface BudgetCall {
  path: string;
  body?: unknown;
}

/** The fixed world every budget is measured over; a domain adds what its routes need. */
export interface BudgetWorld {
  t: TestApp;
  /** Admin of the organization, and the caller of every route. */
  admin: Person;
  organizationId: string;
  /** A team of the organization, with `colleague` in it. */
  team: string;
  /** A member with the default role. */
  colleague: Person;
  /** A space of the organization, inside `collection`. */
  space: Space;
  collection: Collection;
}

export interface DomainBudgets {
  /** By route key, `METHOD /path/:param`. */
  budgets: Record<string, number>;
  /** The request per route key; destructive routes get objects of their own, so that calls succeed in any order. */
  calls(world: BudgetWorld): Promise<Record<string, BudgetCall>>;
}
