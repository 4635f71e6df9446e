// Statement budgets of the OpenAPI specification routes (see test/support/budgets.ts), over specs of the budget
// world with two versions each. A read is the token, the membership, the spec by slug, then the version, or a list's
// page and its rows (read by Prisma, for the columns the selection needs: never a source text or a version's files); a
// write adds its transaction (BEGIN, the write, the job enqueued, its event, the spec read back, COMMIT); a delete is
// BEGIN, the delete, its event, COMMIT.
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';
import { buildSpec } from './fixtures.js';

const SPECS = '/v1/orgs/:organizationId/openapi';
const SPEC = `${SPECS}/:specSlug`;

export const openAPIBudgets: DomainBudgets = {
  budgets: {
    [`GET ${SPECS}`]: 4,
    [`POST ${SPECS}`]: 8,
    [`GET ${SPEC}`]: 3,
    [`PUT ${SPEC}`]: 8,
    [`DELETE ${SPEC}`]: 6,
    [`GET ${SPEC}/versions`]: 5,
    [`GET ${SPEC}/versions/latest`]: 4,
    [`GET ${SPEC}/versions/latest/content`]: 4,
    [`GET ${SPEC}/versions/latest/content/raw`]: 4,
    [`GET ${SPEC}/versions/:versionId`]: 4,
    [`GET ${SPEC}/versions/:versionId/content`]: 4,
  },
  calls: async ({ t, organizationId }) => {
    const read = await buildSpec(t.prisma, { organizationId, slug: 'budget-read', versions: 2 });
    await buildSpec(t.prisma, { organizationId, slug: 'budget-put', versions: 2 });
    await buildSpec(t.prisma, { organizationId, slug: 'budget-doomed', versions: 2 });
    const specs = `/v1/orgs/${organizationId}/openapi`;
    const spec = `${specs}/budget-read`;
    const calls: Record<string, BudgetCall> = {
      [`GET ${SPECS}`]: { path: specs },
      [`POST ${SPECS}`]: { path: specs, body: { slug: 'budget-new', source: { url: 'https://example.com/openapi.json' } } },
      [`GET ${SPEC}`]: { path: spec },
      [`PUT ${SPEC}`]: { path: `${specs}/budget-put`, body: { source: { text: '{"openapi": "3.1.0"}' } } },
      [`DELETE ${SPEC}`]: { path: `${specs}/budget-doomed` },
      [`GET ${SPEC}/versions`]: { path: `${spec}/versions` },
      [`GET ${SPEC}/versions/latest`]: { path: `${spec}/versions/latest` },
      [`GET ${SPEC}/versions/latest/content`]: { path: `${spec}/versions/latest/content` },
      [`GET ${SPEC}/versions/latest/content/raw`]: { path: `${spec}/versions/latest/content/raw` },
      [`GET ${SPEC}/versions/:versionId`]: { path: `${spec}/versions/${read.lastVersionId}` },
      [`GET ${SPEC}/versions/:versionId/content`]: { path: `${spec}/versions/${read.lastVersionId}/content` },
    };
    return calls;
  },
};
