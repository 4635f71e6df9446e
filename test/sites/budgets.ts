// Statement budgets of the site routes (see test/support/budgets.ts). The sites are made here, each with a site space
// of the world's space; publish, unpublish, update and delete get sites of their own, so that any order of calls
// measures the same work (publishing a published site writes nothing).
import { newId } from '../../src/kernel/ids.js';
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';

const SITES = '/v1/orgs/:organizationId/sites';
const SITE = `${SITES}/:siteId`;

const adaptiveSchema = {
  type: 'object',
  properties: { beta: { type: 'boolean', description: 'Whether the visitor joined the beta.' } },
  additionalProperties: false,
};

export const sitesBudgets: DomainBudgets = {
  // Every request: the token and the memberships. Then the site (its row, and the site-space count a Site body
  // carries); writes add their statement, and a create with spaces checks them and writes in a transaction.
  budgets: {
    [`GET ${SITES}`]: 4,
    [`POST ${SITES}`]: 7,
    [`GET ${SITE}`]: 4,
    [`PATCH ${SITE}`]: 6,
    [`DELETE ${SITE}`]: 4,
    [`POST ${SITE}/publish`]: 5,
    [`POST ${SITE}/unpublish`]: 5,
    [`GET ${SITE}/adaptive-schema`]: 3,
    [`PUT ${SITE}/adaptive-schema`]: 4,
  },
  calls: async ({ t, organizationId, space }) => {
    const site = async (title: string, data: { published?: boolean; adaptiveSchema?: object } = {}) => {
      const id = newId();
      await t.prisma.site.create({
        data: {
          id,
          organizationId,
          title,
          published: data.published ?? false,
          ...(data.adaptiveSchema && { adaptiveSchema: data.adaptiveSchema, adaptiveSchemaUpdatedAt: t.clock.now() }),
        },
      });
      await t.prisma.siteSpace.create({ data: { id: newId(), siteId: id, spaceId: space.id, path: 'docs' } });
      return `/v1/orgs/${organizationId}/sites/${id}`;
    };
    const main = await site('Budget site', { adaptiveSchema });
    const calls: Record<string, BudgetCall> = {
      [`GET ${SITES}`]: { path: `/v1/orgs/${organizationId}/sites` },
      [`POST ${SITES}`]: { path: `/v1/orgs/${organizationId}/sites`, body: { title: 'New site', spaces: [space.id] } },
      [`GET ${SITE}`]: { path: main },
      [`PATCH ${SITE}`]: {
        path: await site('Renamed site'),
        body: { title: 'Renamed', basename: 'renamed', hostname: 'docs.budget.test' },
      },
      [`DELETE ${SITE}`]: { path: await site('Doomed site') },
      [`POST ${SITE}/publish`]: { path: `${await site('Unpublished site')}/publish` },
      [`POST ${SITE}/unpublish`]: { path: `${await site('Published site', { published: true })}/unpublish` },
      [`GET ${SITE}/adaptive-schema`]: { path: `${main}/adaptive-schema` },
      [`PUT ${SITE}/adaptive-schema`]: { path: `${main}/adaptive-schema`, body: { jsonSchema: adaptiveSchema } },
    };
    return calls;
  },
};
