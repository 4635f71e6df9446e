// revert_page: the page as it is in the change request's base (or in a given revision of the space): a page the
// change request added goes away, one it deleted comes back.
import { badRequest } from '../../kernel/errors.js';
import type { Operation } from './batch.js';
import type { ContentChange } from './changes.js';

export const revertPage: Operation<Extract<ContentChange, { operation: 'revert_page' }>> = {
  // Whether the page ends up as it was is judged on its content, body included.
  bodiesRead: (change) => [change.page],
  async apply({ draft, bodiesWritten, context }, change, field) {
    if (change.block?.length) throw badRequest(`Invalid "${field}.block": reverting single blocks is not supported; revert the page.`);
    const id = change.page;
    const target = await context.pageIn(id, change.revision);
    if (!target && !(await draft.has(id))) throw badRequest(`Invalid "${field}.page": no page ${JSON.stringify(id)} to revert.`);
    draft.revert(id, target && { ...target, ...(change.revision && { updatedAt: context.now }) }, !change.revision);
    bodiesWritten.delete(id);
  },
};
