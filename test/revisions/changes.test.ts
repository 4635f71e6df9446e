// The semantic diff between two revisions' content, in GitBook's shape and validated against its published schema.
import { describe, expect, it } from 'vitest';
import type { PageVersion } from '../../src/generated/prisma/client.js';
import { semanticChanges } from '../../src/revisions/changes.js';
import { expectMatchesDocument } from '../support/openapi.js';
import { fileVersion, pageVersion } from './content.js';

const page = (pageId: string, title: string, parentId: string | null, fields: Partial<PageVersion> = {}) =>
  pageVersion(pageId, title, { id: `v-${pageId}-${title}`, parentId, markdown: 'Text\n', ...fields });
const file = (fileId: string, name: string, storageKey: string) =>
  fileVersion(fileId, name, { id: `v-${fileId}-${storageKey}`, contentType: 'image/png', size: 10, width: 1, height: 1, storageKey });

describe('the semantic diff of two revisions', () => {
  it('names created, edited, moved and deleted pages and files, with paths and attributes before and after', () => {
    const before = {
      pages: [page('guide', 'Guide', null), page('faq', 'FAQ', null, { position: 1 }), page('old', 'Old', null, { position: 2 })],
      files: [file('f1', 'a.png', 'k1'), file('f2', 'b.png', 'k2')],
    };
    const after = {
      pages: [
        page('guide', 'Guide', null, { markdown: 'New text\n' }),
        page('faq', 'Questions', 'guide'),
        page('new', 'New page', 'guide', { position: 1 }),
      ],
      files: [file('f1', 'a.png', 'k1-changed'), file('f3', 'c.png', 'k3')],
    };
    const changes = semanticChanges(before, after, (f) => `https://files.test/${f.storageKey}`);
    expect(changes).toEqual([
      {
        type: 'page_edited',
        page: { id: 'guide', type: 'document', title: 'Guide', path: 'guide' },
        attributes: { document: { before: 'Text\n', after: 'New text\n' } },
      },
      {
        type: 'page_edited',
        page: { id: 'faq', type: 'document', title: 'Questions', path: 'guide/questions' },
        attributes: { title: { before: 'FAQ', after: 'Questions' }, slug: { before: 'faq', after: 'questions' } },
      },
      {
        type: 'page_moved',
        page: { id: 'faq', type: 'document', title: 'Questions', path: 'guide/questions' },
        parent: { after: { id: 'guide', type: 'document', title: 'Guide', path: 'guide' } },
      },
      { type: 'page_created', page: { id: 'new', type: 'document', title: 'New page', path: 'guide/new-page' } },
      { type: 'page_deleted', page: { id: 'old', type: 'document', title: 'Old', path: 'old' } },
      {
        type: 'file_edited',
        file: { id: 'f1', name: 'a.png', contentType: 'image/png', downloadURL: 'https://files.test/k1-changed' },
        attributes: { downloadURL: { before: 'https://files.test/k1', after: 'https://files.test/k1-changed' } },
      },
      { type: 'file_created', file: { id: 'f3', name: 'c.png', contentType: 'image/png', downloadURL: 'https://files.test/k3' } },
      { type: 'file_deleted', file: { id: 'f2', name: 'b.png', contentType: 'image/png', downloadURL: 'https://files.test/k2' } },
    ]);
    // GitBook's schema cannot accept any page_edited: its attributes are a oneOf of three open object schemas that
    // every object with a property matches, so exactly-one always fails. Its shape is asserted above; the rest is
    // validated against the published spec.
    const checkable = changes.filter((change) => change.type !== 'page_edited');
    expectMatchesDocument('0202', 'get', '/spaces/{spaceId}/change-requests/{changeRequestId}/changes', 200, { changes: checkable });
  });
});
