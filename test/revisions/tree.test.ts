// The page tree of a revision as the API shows it: siblings by position, paths from the slugs of a page and its
// ancestors, and pages whose place is broken shown rather than lost.
import { describe, expect, it } from 'vitest';
import { buildTree, type PageNode } from '../../src/revisions/read.js';
import { page } from './content.js';

const outline = (nodes: PageNode[]): unknown[] => nodes.map((node) => [node.page.pageId, node.path, outline(node.children)]);

describe('buildTree', () => {
  it('orders siblings by position (then id) and gives each page the path of its slugs', () => {
    const tree = buildTree([
      page('c', 'Child', { parentId: 'a', position: 2 }),
      page('b', 'Second', { position: 1 }),
      page('a', 'First', { position: 0 }),
      page('d', 'Another', { parentId: 'a', position: 1 }),
      page('e', 'Grandchild', { parentId: 'c' }),
      page('f', 'Same place', { parentId: 'a', position: 1 }),
    ]);
    expect(outline(tree.roots)).toEqual([
      [
        'a',
        'first',
        [
          ['d', 'first/another', []],
          ['f', 'first/same-place', []],
          ['c', 'first/child', [['e', 'first/child/grandchild', []]]],
        ],
      ],
      ['b', 'second', []],
    ]);
    expect(tree.byId.get('e')?.path).toBe('first/child/grandchild');
    expect(tree.byPath.get('first/child')?.page.pageId).toBe('c');
  });

  it('finds documents and groups by path, the first in the tree where two share one, and never a link', () => {
    const tree = buildTree([
      page('one', 'Twin', { position: 0 }),
      page('two', 'Twin', { position: 1 }),
      page('group', 'Group', { type: 'group', position: 2 }),
      page('link', 'Link', { type: 'link', position: 3 }),
    ]);
    expect(tree.byPath.get('twin')?.page.pageId).toBe('one');
    expect(tree.byPath.get('group')?.page.pageId).toBe('group');
    expect(tree.byId.get('link')?.path).toBeNull();
    expect([...tree.byPath.keys()]).toEqual(['twin', 'group']);
  });

  it('shows a page whose parent is not in the revision at the top level, and leaves out a cycle no edit can make', () => {
    const tree = buildTree([
      page('orphan', 'Orphan', { parentId: 'gone' }),
      page('x', 'X', { parentId: 'y' }),
      page('y', 'Y', { parentId: 'x' }),
    ]);
    expect(outline(tree.roots)).toEqual([['orphan', 'orphan', []]]);
    expect(tree.byId.has('x')).toBe(false);
  });
});
