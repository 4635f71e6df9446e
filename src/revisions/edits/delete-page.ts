// delete_page: the page and its subpages.
import { existingPage, type Operation } from './batch.js';
import type { ContentChange } from './changes.js';

export const deletePage: Operation<Extract<ContentChange, { operation: 'delete_page' }>> = {
  async apply(batch, change, field) {
    await batch.draft.deleteWithSubpages(await existingPage(batch, change.page, `${field}.page`));
  },
};
