// delete_page: the page and its subpages.
import { existingPage, type Operation } from './batch.js';
import type { ContentChange } from './changes.js';

export const deletePage: Operation<Extract<ContentChange, { operation: 'delete_page' }>> = {
  apply(batch, change, field) {
    batch.draft.deleteWithSubpages(existingPage(batch, change.page, `${field}.page`));
  },
};
