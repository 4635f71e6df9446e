// Statement budgets of the custom-field routes (see test/support/budgets.ts). The fields are made here, with the
// space's value of one; the PATCH of a definition removes an option, so it pays for pruning the values that held it.
// Every write records its event in its transaction: one statement more, and BEGIN and COMMIT for a create or a delete.
import { newId } from '../../src/kernel/ids.js';
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';

const FIELDS = '/v1/orgs/:organizationId/custom-fields';

export const customFieldsBudgets: DomainBudgets = {
  budgets: {
    'GET /v1/spaces/:spaceId/custom-fields': 4,
    'PATCH /v1/spaces/:spaceId/custom-fields': 9,
    [`GET ${FIELDS}`]: 3,
    [`POST ${FIELDS}`]: 6,
    [`GET ${FIELDS}/:fieldName`]: 3,
    [`PATCH ${FIELDS}/:fieldName`]: 8,
    [`DELETE ${FIELDS}/:fieldName`]: 6,
  },
  calls: async ({ t, organizationId, space }) => {
    const field = (name: string, type: 'text' | 'select_multi', options: string[] = []) =>
      t.prisma.customField.create({ data: { id: newId(), organizationId, name, type, options } });
    const select = await field('budget-select', 'select_multi', ['a', 'b', 'c']);
    await field('budget-text', 'text');
    await field('budget-doomed', 'text');
    await t.prisma.customFieldValue.create({ data: { spaceId: space.id, customFieldId: select.id, value: ['a', 'b'] } });
    const fields = `/v1/orgs/${organizationId}/custom-fields`;
    const calls: Record<string, BudgetCall> = {
      'GET /v1/spaces/:spaceId/custom-fields': { path: `/v1/spaces/${space.id}/custom-fields` },
      'PATCH /v1/spaces/:spaceId/custom-fields': {
        path: `/v1/spaces/${space.id}/custom-fields`,
        body: { values: { 'budget-select': { value: ['c'] }, 'budget-text': { value: null } } },
      },
      [`GET ${FIELDS}`]: { path: fields },
      [`POST ${FIELDS}`]: { path: fields, body: { name: 'budget-new', type: 'select:single', options: ['x'] } },
      [`GET ${FIELDS}/:fieldName`]: { path: `${fields}/budget-select` },
      [`PATCH ${FIELDS}/:fieldName`]: { path: `${fields}/budget-select`, body: { title: 'Select', options: ['a', 'c'] } },
      [`DELETE ${FIELDS}/:fieldName`]: { path: `${fields}/budget-doomed` },
    };
    return calls;
  },
};
