// What a batch of content changes answers with GitBook's `compat=false`: the change request, each page the batch
// created, updated or deleted with the API address of its stored content (GitBook normalizes what it is sent, and so
// does this server: titles from front matter, derived slugs), and the files it inserted.
import { builder } from '../kernel/builder.js';
import type { Context } from '../kernel/context.js';
import { apiUrl } from '../kernel/urls.js';
import type { AffectedPage } from '../revisions/edits.js';
import { RevisionFile } from '../revisions/types.js';
import type { ContentUpdate } from './content.js';
import { ChangeRequest } from './types.js';

const OBJECT: Record<AffectedPage['outcome'], string> = { created: 'created_page', updated: 'updated_page', deleted: 'deleted_page' };

interface ChangeView {
  update: ContentUpdate;
  page: AffectedPage;
}

const pageLocation = (ctx: Context, { update, page }: ChangeView) =>
  page.outcome === 'deleted'
    ? null
    : apiUrl(ctx, `spaces/${update.changeRequest.spaceId}/change-requests/${update.changeRequest.id}/content/page/${page.pageId}`);

const ChangeRequestContentUpdateChange = builder.objectRef<ChangeView>('ChangeRequestContentUpdateChange').implement({
  description: 'A page the batch created, updated or deleted, judged by the page before and after the whole batch.',
  fields: (t) => ({
    object: t.string({ description: 'created_page, updated_page or deleted_page.', resolve: ({ page }) => OBJECT[page.outcome] }),
    ref: t.string({ nullable: true, description: 'The `ref` its insert_page gave it.', resolve: ({ page }) => page.ref ?? null }),
    pageId: t.id({ resolve: ({ page }) => page.pageId }),
    location: t.string({
      nullable: true,
      description: 'The API address of the page’s stored content in the change request; none for a deleted page.',
      resolve: (view, _args, ctx) => pageLocation(ctx, view),
    }),
    page: t.field({
      type: 'JSON',
      description: 'GitBook’s REST form of the page: `{object: "page", id, urls: {location}}`, or the id of a deleted page.',
      resolve: (view, _args, ctx) => {
        const location = pageLocation(ctx, view);
        return location ? { object: 'page', id: view.page.pageId, urls: { location } } : view.page.pageId;
      },
    }),
  }),
});

export const ChangeRequestContentUpdate = builder.objectRef<ContentUpdate>('ChangeRequestContentUpdate').implement({
  description: 'The result of a batch of content changes: the change request, the pages the batch affected and the files it inserted.',
  fields: (t) => ({
    changeRequest: t.field({ type: ChangeRequest, resolve: (update) => update.changeRequest }),
    changes: t.field({
      type: [ChangeRequestContentUpdateChange],
      description: 'One per affected page, in the order the batch first touched them; then the subpages its deletions took along.',
      resolve: (update) => update.affected.map((page) => ({ update, page })),
    }),
    insertedFiles: t.field({
      type: [RevisionFile],
      description: 'The files its insert_files changes added, in order.',
      resolve: (update) => update.insertedFiles.map((file) => ({ content: { revision: update.revision, metadata: false }, file })),
    }),
  }),
});

/** GitBook's `compat`: the change request alone (true, its default for now), or the whole result (false). */
export const ChangeRequestContentUpdateResult = builder.unionType('ChangeRequestContentUpdateResult', {
  description: 'What updateChangeRequestContent answers: the ChangeRequest (compat true) or the ChangeRequestContentUpdate (compat false).',
  types: [ChangeRequest, ChangeRequestContentUpdate],
  resolveType: (result) => ('affected' in result ? ChangeRequestContentUpdate : ChangeRequest),
});
