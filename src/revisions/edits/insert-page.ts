// insert_page: a new page (root or `into` a parent, `at` an index among its siblings), its title from `title`, or
// from the markdown's front matter or leading heading (which win), its slug from its title unless given.
import { badRequest } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { type PageContent, pageContent } from '../store.js';
import { existingPage, type Operation } from './batch.js';
import { type ContentChange, pageFields } from './changes.js';

const DEFAULT_TITLE = 'Untitled';

export const insertPage: Operation<Extract<ContentChange, { operation: 'insert_page' }>> = {
  async apply(batch, change, field) {
    const { draft, refs, context } = batch;
    if (change.ref && (refs.has(change.ref) || (await draft.head(change.ref)) !== undefined)) {
      throw badRequest(`Invalid "${field}.ref": ${JSON.stringify(change.ref)} is used twice in the batch.`);
    }
    const parentId = change.into ? await existingPage(batch, change.into, `${field}.into`) : null;
    const { meta, markdown, document } = pageFields(change, field);
    const title = meta.title ?? DEFAULT_TITLE;
    const id = newId();
    draft.set(
      id,
      pageContent({
        pageId: id,
        parentId,
        title,
        emoji: meta.emoji || null,
        icon: meta.icon || null,
        slug: await draft.slugFor(title, meta.slug, parentId, id, field),
        description: meta.description ?? null,
        document: (document ?? null) as PageContent['document'],
        markdown: markdown ?? null,
        hidden: meta.hidden ?? false,
        noIndex: meta.noIndex ?? false,
        noRobotsIndex: meta.noRobotsIndex ?? false,
        position: await draft.positionAt(parentId, change.at, id),
        createdAt: context.now,
        updatedAt: context.now,
      }),
    );
    if (change.ref) refs.set(change.ref, id);
    if (markdown) batch.bodiesWritten.add(id);
  },
};
