// Statement budgets of the share-link routes (see test/support/budgets.ts), over a share-link site of the budget
// world with links of its own.

import type { Context } from '../../src/kernel/context.js';
import { newId } from '../../src/kernel/ids.js';
import { newShareKey } from '../../src/share-links/keys.js';
import { buildSite } from '../site-redirects/fixtures.js';
import type { BudgetCall, DomainBudgets } from '../support/budgets.js';

const LINKS = '/v1/orgs/:organizationId/sites/:siteId/share-links';

export const shareLinkBudgets: DomainBudgets = {
  budgets: {
    [`GET ${LINKS}`]: 4,
    [`POST ${LINKS}`]: 7,
    [`PATCH ${LINKS}/:shareLinkId`]: 8,
    [`DELETE ${LINKS}/:shareLinkId`]: 7,
  },
  calls: async ({ t, organizationId }) => {
    const site = await buildSite(t.prisma, { organizationId, title: 'Share links budget', visibility: 'share_link' });
    const link = async (name: string) => {
      const id = newId();
      const { keyHash, keyCiphertext } = newShareKey(t.app.services as Context, id);
      return t.prisma.shareLink.create({ data: { id, siteId: site.id, name, keyHash, keyCiphertext } });
    };
    const [changed, doomed] = [await link('Changed'), await link('Doomed')];
    await link('Kept');
    const links = `/v1/orgs/${organizationId}/sites/${site.id}/share-links`;
    const calls: Record<string, BudgetCall> = {
      [`GET ${LINKS}`]: { path: links },
      [`POST ${LINKS}`]: { path: links, body: { name: 'New' } },
      [`PATCH ${LINKS}/:shareLinkId`]: { path: `${links}/${changed.id}`, body: { active: false, name: 'Changed, off' } },
      [`DELETE ${LINKS}/:shareLinkId`]: { path: `${links}/${doomed.id}` },
    };
    return calls;
  },
};
