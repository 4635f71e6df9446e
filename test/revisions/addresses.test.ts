// Links between a space's pages and files as paths, without a database: what a relative address names from a page's
// file (GitBook's Git Sync layout), and the references written back as paths from the page's file, both ways.
import { describe, expect, it } from 'vitest';
import { ContentLayout, targetOf } from '../../src/revisions/addresses.js';
import { buildTree } from '../../src/revisions/read.js';
import { pageContent } from '../../src/revisions/store.js';

const at = new Date('2026-01-01T00:00:00Z');
const page = (pageId: string, slug: string, extra: Partial<Parameters<typeof pageContent>[0]> = {}) =>
  pageContent({ pageId, title: slug, slug, createdAt: at, updatedAt: at, ...extra });

/** Welcome (README.md), Guide (guide/README.md) with Install (guide/install.md), a group Reference with API (reference/api.md). */
const tree = buildTree([
  page('welcome', 'welcome', { position: 0 }),
  page('guide', 'guide', { position: 1 }),
  page('install', 'install', { parentId: 'guide' }),
  page('reference', 'reference', { type: 'group', position: 2 }),
  page('api', 'api', { parentId: 'reference' }),
]);
const files = [
  { fileId: 'diagram', name: 'diagram.png', gitPath: null },
  { fileId: 'odd', name: 'a (1).png', gitPath: null },
  { fileId: 'logo', name: 'logo.png', gitPath: 'images/logo.png' },
];
const layout = new ContentLayout(tree, files);

describe('a relative address', () => {
  it('is a path from the folder of the page’s file, or from the root with a leading slash, with its anchor', () => {
    expect(targetOf('./install.md#linux', 'guide/README.md')).toEqual({ path: 'guide/install.md', anchor: 'linux' });
    expect(targetOf('../images/a%20b.png?x=1', 'guide/install.md')).toEqual({ path: 'images/a b.png', anchor: null });
    expect(targetOf('/guide/', 'guide/install.md')).toEqual({ path: 'guide', anchor: null });
    for (const none of [
      'https://example.com/a',
      'mailto:a@example.com',
      '#top',
      '?page=2',
      '//cdn.example.com/a',
      '../../x.md',
      '%E0%A4%A',
    ]) {
      expect(targetOf(none, 'guide/install.md'), none).toBeNull();
    }
  });

  it('names a page by its file (.md optional, a folder its README), by its path in the tree, or a file by its path', () => {
    const from = (address: string, pageId = 'install') => layout.referenceOf(address, pageId);
    expect(from('README.md')).toBe('page-id:guide');
    expect(from('./')).toBe('page-id:guide');
    expect(from('../guide')).toBe('page-id:guide');
    expect(from('install#usage')).toBe('page-id:install#usage');
    expect(from('/')).toBe('page-id:welcome');
    expect(from('../README.md')).toBe('page-id:welcome');
    expect(from('../reference/api.md')).toBe('page-id:api');
    // The readme's path in the tree is its slug.
    expect(from('/welcome')).toBe('page-id:welcome');
    expect(from('../.gitbook/assets/diagram.png')).toBe('file-id:diagram');
    expect(from('/images/logo.png')).toBe('file-id:logo');
    // A group has no file; a path that names nothing, nothing.
    expect(from('/reference')).toBeUndefined();
    expect(from('nowhere.md')).toBeUndefined();
    expect(from('diagram.png')).toBeUndefined();
  });

  it('is resolved to references, and references are written back as the same paths, escaped for markdown', () => {
    const markdown =
      'See [Install](./install.md#linux), ![odd](../.gitbook/assets/a%20%281%29.png), [API][api] and [none](x.md).\n\n[api]: /reference/api\n';
    const resolved = layout.resolveLinks(markdown, 'guide');
    expect(resolved).toEqual({
      markdown: 'See [Install](page-id:install#linux), ![odd](file-id:odd), [API][api] and [none](x.md).\n\n[api]: page-id:api\n',
      unresolved: true,
    });
    expect(layout.relativeLinks(resolved.markdown, 'guide')).toBe(
      'See [Install](install.md#linux), ![odd](../.gitbook/assets/a%20%281%29.png), [API][api] and [none](x.md).\n\n[api]: ../reference/api.md\n',
    );
    // Without the files, a path to a file is left for a second pass that has them.
    expect(new ContentLayout(tree, null).resolveLinks('![d](../.gitbook/assets/diagram.png)', 'guide')).toEqual({
      markdown: '![d](../.gitbook/assets/diagram.png)',
      unresolved: true,
    });
    // A reference to a page that is gone, or to a file when the files are not given, stays as it is.
    expect(new ContentLayout(tree, null).relativeLinks('[x](page-id:gone) ![d](file-id:diagram)', 'guide')).toBe(
      '[x](page-id:gone) ![d](file-id:diagram)',
    );
  });
});
