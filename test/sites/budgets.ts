// Statement budgets of the site routes (see test/support/budgets.ts). The sites are made here, each with a site space
// of the world's space; publish, unpublish, update and delete get sites of their own, so that any order of calls
// measures the same work (publishing a published site writes nothing).
import { newId } from '../../src/kernel/ids.js';
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';
import { buildSite } from '../support/factories.js';

const SITES = '/v1/orgs/:organizationId/sites';
const SITE = `${SITES}/:siteId`;
const CUSTOM_HOSTNAME = '/v1/custom-hostnames/:hostname';

const adaptiveSchema = {
  type: 'object',
  properties: { beta: { type: 'boolean', description: 'Whether the visitor joined the beta.' } },
  additionalProperties: false,
};

export const sitesBudgets: DomainBudgets = {
  // Every request: the token and the memberships. Then the site (its row, and the site-space count a Site body
  // carries); writes add their statement, and a create with spaces checks them and writes in a transaction. A new
  // hostname is claimed in a transaction with the site's update: BEGIN, the claim (with its check enqueued), COMMIT.
  // A claim is read in one statement; revalidating adds the statement that makes it due and enqueues its check;
  // releasing it deletes it and clears its site's hostname in a transaction.
  // A change records its events in one statement more (src/kernel/events.ts), in a transaction of its own if it had none.
  budgets: {
    [`GET ${SITES}`]: 4,
    [`POST ${SITES}`]: 8,
    [`GET ${SITE}`]: 4,
    [`PATCH ${SITE}`]: 10,
    [`DELETE ${SITE}`]: 7,
    [`POST ${SITE}/publish`]: 8,
    [`POST ${SITE}/unpublish`]: 8,
    [`GET ${SITE}/adaptive-schema`]: 3,
    [`PUT ${SITE}/adaptive-schema`]: 7,
    [`GET ${CUSTOM_HOSTNAME}`]: 3,
    [`PATCH ${CUSTOM_HOSTNAME}`]: 4,
    [`DELETE ${CUSTOM_HOSTNAME}`]: 8,
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
      [`GET ${CUSTOM_HOSTNAME}`]: { path: '/v1/custom-hostnames/claimed.budget.test' },
      [`PATCH ${CUSTOM_HOSTNAME}`]: { path: '/v1/custom-hostnames/claimed.budget.test' },
      [`DELETE ${CUSTOM_HOSTNAME}`]: { path: '/v1/custom-hostnames/released.budget.test' },
    };
    await buildSite(t.prisma, { organizationId, title: 'Claimed', hostname: 'claimed.budget.test' });
    await buildSite(t.prisma, { organizationId, title: 'Released', hostname: 'released.budget.test' });
    return calls;
  },
};
