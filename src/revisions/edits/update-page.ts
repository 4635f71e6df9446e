// update_page: a page's document and/or metadata, and moves with `into` (null: the root) and `at`.
import { badRequest } from '../../kernel/errors.js';
import type { PageContent } from '../store.js';
import { existingPage, noPage, type Operation, pageIdOf } from './batch.js';
import { type ContentChange, pageFields } from './changes.js';

export const updatePage: Operation<Extract<ContentChange, { operation: 'update_page' }>> = {
  // The page is written whole, so its body is read even when only its metadata changes.
  bodiesRead: (change) => [change.page],
  async apply(batch, change, field) {
    const { draft, context } = batch;
    const id = pageIdOf(batch, change.page);
    const current = await draft.page(id);
    if (!current) throw noPage(id, `${field}.page`);
    const { meta, markdown, document } = pageFields(change, field);
    const next: PageContent = { ...current, updatedAt: context.now };
    if (change.into !== undefined) {
      const parentId = change.into === null ? null : await existingPage(batch, change.into, `${field}.into`);
      if (parentId && (await draft.isUnder(parentId, id))) {
        throw badRequest(`Invalid "${field}.into": a page cannot move under itself or its subpages.`);
      }
      next.parentId = parentId;
      next.position = await draft.positionAt(parentId, change.at, id);
    } else if (change.at != null) next.position = await draft.positionAt(current.parentId, change.at, id);
    const title = meta.title;
    if (title) next.title = title;
    if (meta.emoji !== undefined) next.emoji = meta.emoji || null;
    if (meta.icon !== undefined) next.icon = meta.icon || null;
    if (meta.description !== undefined) next.description = meta.description;
    for (const flag of ['hidden', 'noIndex', 'noRobotsIndex'] as const) if (meta[flag] != null) next[flag] = meta[flag];
    if (markdown !== undefined) {
      if (markdown) batch.bodiesWritten.add(id);
      next.markdown = markdown;
      next.document = (document ?? null) as PageContent['document'];
    }
    if (meta.slug || title || next.parentId !== current.parentId) {
      next.slug = await draft.slugFor(next.title, meta.slug ?? (title ? null : current.slug), next.parentId, id, field);
    }
    draft.set(id, next);
  },
};
