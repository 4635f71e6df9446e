// Statement budgets of the Git sync routes (see test/support/budgets.ts). Asking for an operation: the token, the
// memberships, the space, then one statement that records the configuration and the operation and queues its job
// (the budget app runs no worker, so nothing is fetched); one that configures (the export here; the import is
// standalone) records its event in a transaction: BEGIN, the statement, the event, COMMIT. The Git info: the token,
// the memberships, the space, and its Git sync with its latest operation (read with the space's counters).
import { newId } from '../../src/kernel/ids.js';
import type { DomainBudgets } from '../support/budgets.js';

const GIT = 'POST /v1/spaces/:spaceId/git';

export const gitSyncBudgets: DomainBudgets = {
  budgets: {
    [`${GIT}/import`]: 4,
    [`${GIT}/export`]: 7,
    'GET /v1/spaces/:spaceId/git/info': 4,
  },
  calls: async ({ t, space }) => {
    await t.prisma.gitSync.create({
      data: { spaceId: space.id, url: 'https://git.example.com/acme/docs.git', ref: 'refs/heads/main', installationId: newId() },
    });
    await t.prisma.gitSyncOperation.create({
      data: { id: newId(), spaceId: space.id, direction: 'import', ref: 'refs/heads/main', state: 'success', endedAt: new Date() },
    });
    const body = { url: 'https://budget:secret@git.example.com/acme/docs.git', ref: 'refs/heads/main' };
    return {
      [`${GIT}/import`]: { path: `/v1/spaces/${space.id}/git/import`, body: { ...body, standalone: true } },
      [`${GIT}/export`]: { path: `/v1/spaces/${space.id}/git/export`, body: { ...body, commitMessage: 'Budget' } },
      'GET /v1/spaces/:spaceId/git/info': { path: `/v1/spaces/${space.id}/git/info` },
    };
  },
};
