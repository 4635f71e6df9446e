// GitBook's Git Sync layout, read and written without a repository: .gitbook.yaml, SUMMARY.md both ways, a page's
// front matter both ways, the tree of a repository without a summary, and where pages and files are written.
import { describe, expect, it } from 'vitest';
import {
  LayoutError,
  readConfig,
  readPageFile,
  readSummary,
  slugFromPath,
  titleFromPath,
  treeFromFiles,
  writePageFile,
  writeSummary,
} from '../../src/git-sync/layout.js';
import { filePaths, insidePath, pagePaths, relativeAddress } from '../../src/revisions/addresses.js';
import { buildTree, type PageHead } from '../../src/revisions/read.js';
import { pageContent } from '../../src/revisions/store.js';

const at = new Date('2026-01-01T00:00:00.000Z');
const head = (pageId: string, fields: Partial<PageHead> & { title: string; slug: string }): PageHead => {
  const { markdown: _markdown, document: _document, ...rest } = pageContent({ pageId, createdAt: at, updatedAt: at, ...fields });
  return rest;
};

describe('.gitbook.yaml', () => {
  it('gives the root and the structure, with GitBook’s defaults', () => {
    expect(readConfig(null)).toEqual({ root: '', readme: 'README.md', summary: 'SUMMARY.md' });
    expect(readConfig('root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc/SUMMARY.md\n')).toEqual({
      root: 'docs',
      readme: 'intro.md',
      summary: 'toc/SUMMARY.md',
    });
    expect(readConfig('redirects:\n  old: new.md\n')).toEqual({ root: '', readme: 'README.md', summary: 'SUMMARY.md' });
  });

  it('refuses YAML that does not read, and paths out of the repository', () => {
    expect(() => readConfig('root: [docs')).toThrow(LayoutError);
    expect(() => readConfig('root: ../../etc')).toThrow(/"root" must be a path inside the repository/);
    expect(() => readConfig('structure:\n  summary: 3\n')).toThrow(/structure.summary/);
  });

  it('normalizes paths inside the repository', () => {
    expect([insidePath('./docs/'), insidePath('/docs//a/../b'), insidePath('.'), insidePath('a/../../b')]).toEqual([
      'docs',
      'docs/b',
      '',
      null,
    ]);
  });
});

describe('SUMMARY.md', () => {
  it('reads nested pages, groups, links to URLs, reference links, and paths from its own folder', () => {
    const summary = `# Table of contents

* [Intro](README.md)
* [Guide](guide/README.md)
  * [Install][install]
  * Not a link
    * [Deep](guide/deep%20page.md "title")
* [Not markdown](image.png)

## Reference

- [API](../reference/api.md)
- [Status](https://status.example.com)

[install]: guide/install.md
`;
    expect(readSummary(summary, 'toc/SUMMARY.md')).toEqual([
      { kind: 'page', title: 'Intro', path: 'toc/README.md', children: [] },
      {
        kind: 'page',
        title: 'Guide',
        path: 'toc/guide/README.md',
        children: [
          { kind: 'page', title: 'Install', path: 'toc/guide/install.md', children: [] },
          { kind: 'page', title: 'Deep', path: 'toc/guide/deep page.md', children: [] },
        ],
      },
      {
        kind: 'group',
        title: 'Reference',
        children: [
          { kind: 'page', title: 'API', path: 'reference/api.md', children: [] },
          { kind: 'link', title: 'Status', url: 'https://status.example.com' },
        ],
      },
    ]);
  });

  it('is written so that it reads back the same, titles with markdown’s own characters included', () => {
    const pages = [
      head('readme', { title: 'Intro *to* [Acme]', slug: 'intro', position: 0 }),
      head('guide', { title: 'Guide_1 `x`', slug: 'guide', position: 1 }),
      head('install', { title: '1. Install', slug: 'install', parentId: 'guide', position: 0 }),
      head('group', { title: 'Reference # API', slug: 'reference', type: 'group', position: 2 }),
      head('api', { title: 'API', slug: 'api', parentId: 'group', position: 0 }),
      head('link', {
        title: 'Status',
        slug: 'status',
        type: 'link',
        target: { kind: 'url', url: 'https://status.example.com/a b' },
        parentId: 'group',
        position: 1,
      }),
      head('late', { title: 'Late', slug: 'late', position: 3 }),
    ];
    const tree = buildTree(pages);
    const config = readConfig(null);
    const paths = pagePaths(tree.roots, config.readme);
    expect(Object.fromEntries(paths)).toEqual({
      readme: 'README.md',
      guide: 'guide/README.md',
      install: 'guide/install.md',
      api: 'reference/api.md',
      late: 'late.md',
    });
    const written = writeSummary(tree.roots, paths, 'SUMMARY.md');
    expect(readSummary(written, 'SUMMARY.md')).toEqual([
      { kind: 'page', title: 'Intro *to* [Acme]', path: 'README.md', children: [] },
      {
        kind: 'page',
        title: 'Guide_1 `x`',
        path: 'guide/README.md',
        children: [{ kind: 'page', title: '1. Install', path: 'guide/install.md', children: [] }],
      },
      // A top-level page after a group is written before the groups: under the heading it would be the group's.
      { kind: 'page', title: 'Late', path: 'late.md', children: [] },
      {
        kind: 'group',
        title: 'Reference # API',
        children: [
          { kind: 'page', title: 'API', path: 'reference/api.md', children: [] },
          { kind: 'link', title: 'Status', url: 'https://status.example.com/a b' },
        ],
      },
    ]);
  });
});

describe('where pages and files are written', () => {
  it('keeps a page’s Git path, and gives the others paths of their own', () => {
    const pages = [
      head('first', { title: 'First', slug: 'first', position: 0, gitPath: 'start/first.md' }),
      head('taken', { title: 'Taken', slug: 'first', parentId: 'first', position: 0 }),
      head('readme', { title: 'Readme', slug: 'readme-page', position: 1, gitPath: 'README.md' }),
      head('other', { title: 'Other', slug: 'other', position: 2, gitPath: '../outside.md' }),
      head('clash', { title: 'Clash', slug: 'start', position: 3 }),
      head('clashChild', { title: 'Clash child', slug: 'first', parentId: 'clash', position: 0 }),
    ];
    expect(Object.fromEntries(pagePaths(buildTree(pages).roots))).toEqual({
      first: 'start/first.md',
      readme: 'README.md',
      taken: 'first/first.md',
      other: 'other.md',
      clash: 'start/README.md',
      clashChild: 'start/first-2.md',
    });
  });

  it('writes files at their Git path, or under .gitbook/assets by name, each once', () => {
    const files = [
      { fileId: 'a', name: 'logo.png', gitPath: 'images/logo.png' },
      { fileId: 'b', name: 'logo.png', gitPath: null },
      { fileId: 'c', name: 'logo.png', gitPath: null },
      { fileId: 'd', name: '../../x', gitPath: '../escape.png' },
      { fileId: 'e', name: 'README', gitPath: null },
    ];
    expect(Object.fromEntries(filePaths(files))).toEqual({
      a: 'images/logo.png',
      b: '.gitbook/assets/logo.png',
      c: '.gitbook/assets/logo-2.png',
      d: '.gitbook/assets/-..-x',
      e: '.gitbook/assets/README',
    });
    expect(relativeAddress('.gitbook/assets/a b.png', 'guide/install.md')).toBe('../.gitbook/assets/a%20b.png');
  });

  it('names pages after their files', () => {
    expect([
      slugFromPath('guide/README.md'),
      slugFromPath('Getting Started.md'),
      slugFromPath('README.md'),
      slugFromPath('a/my_page.md'),
    ]).toEqual(['guide', 'getting-started', null, 'my_page']);
    expect([titleFromPath('guide/getting-started.md'), titleFromPath('api/README.md')]).toEqual(['Getting started', 'Api']);
  });
});

describe('a page’s file', () => {
  it('reads and writes GitBook’s front matter, layout included', () => {
    const matter = {
      description: 'A: description',
      icon: 'rocket',
      emoji: null,
      hidden: true,
      noIndex: false,
      noRobotsIndex: true,
      layout: { title: false, width: 'wide', outline: true },
    };
    const text = writePageFile(matter, '# Install\n\nRun it.\n');
    expect(text).toBe(
      '---\ndescription: "A: description"\nicon: rocket\nhidden: true\nnoRobotsIndex: true\nlayout:\n  width: wide\n  title:\n    visible: false\n  outline:\n    visible: true\n---\n\n# Install\n\nRun it.\n',
    );
    expect(readPageFile(text, 'install.md')).toEqual({
      matter: {
        description: 'A: description',
        icon: 'rocket',
        hidden: true,
        noRobotsIndex: true,
        layout: { width: 'wide', title: false, outline: true },
      },
      body: '# Install\n\nRun it.\n',
      heading: 'Install',
    });
    expect(writePageFile({ hidden: false, layout: null }, 'Body.\n')).toBe('Body.\n');
  });

  it('refuses front matter that is not a mapping, naming the file', () => {
    expect(() => readPageFile('---\n- a\n- b\n---\nBody\n', 'guide/list.md')).toThrow(/guide\/list\.md/);
    expect(() => readPageFile('---\ntitle: [unclosed\n---\nBody\n', 'bad.md')).toThrow(LayoutError);
  });
});

describe('a repository without a summary', () => {
  it('reads its tree from its folders: the readme first, a folder’s README holding the folder', () => {
    const files = ['README.md', 'b.md', 'a.md', 'guide/README.md', 'guide/z.md', 'loose/x.md', '.github/issue.md', 'SUMMARY.md'];
    expect(treeFromFiles(files, { root: '', readme: 'README.md', summary: 'SUMMARY.md' })).toEqual([
      { kind: 'page', title: null, path: 'README.md', children: [] },
      { kind: 'page', title: null, path: 'a.md', children: [] },
      { kind: 'page', title: null, path: 'b.md', children: [] },
      { kind: 'page', title: null, path: 'guide/README.md', children: [{ kind: 'page', title: null, path: 'guide/z.md', children: [] }] },
      { kind: 'page', title: null, path: 'loose/x.md', children: [] },
    ]);
  });
});
