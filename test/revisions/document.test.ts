// A page's body in GitBook's two formats: markdown read into GitBook's JSON document (valid by the published spec's
// Document schemas), and a JSON document written as markdown, so that one format round-trips through the other.
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, type JsonDocument, markdownToDocument } from '../../src/revisions/document.js';
import { expectMatchesDocument } from '../support/openapi.js';

/** Asserts the document is valid as the body of a page that GitBook's spec 0202 describes. */
function expectValidDocument(document: JsonDocument) {
  const layout = {
    ...Object.fromEntries(
      ['cover', 'title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata', 'tags', 'actions', 'anchors'].map((k) => [
        k,
        true,
      ]),
    ),
    width: 'default',
    coverSize: 'hero',
    coverMask: 'none',
  };
  const page = { id: 'p', title: 'Page', kind: 'sheet', type: 'document', urls: { app: 'https://app.example/p' }, slug: 'p', path: 'p' };
  expectMatchesDocument('0202', 'get', '/spaces/{spaceId}/content/page/{pageId}', 200, { ...page, pages: [], layout, tags: [], document });
}

const text = (value: string, ...marks: string[]) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }],
});
/** The outline of blocks: each block's type, with its children's when it has blocks or inlines (not text) inside. */
const types = (nodes: Record<string, unknown>[]): unknown[] =>
  nodes.map((node) =>
    Array.isArray(node.nodes) && node.object === 'block' ? [node.type, types(node.nodes as never)] : (node.type ?? node.object),
  );

const everything = `---
description: front matter is metadata
---
# Title

Some *emphasis*, **strong**, ~~gone~~, \`code\`, a [link](https://example.com "t") and an [anchor](#usage).
A line break follows.\\
Next line with ![inline](https://example.com/i.png).

## Second level

#### Fourth level

- one
- two
  1. nested
  2. ordered

3. three
4. four

- [x] done
- [ ] to do

> quoted **text**
>
> > nested quote
>
> \`\`\`
> code in a quote
> \`\`\`

\`\`\`js
const a = 1;

console.log(a);
\`\`\`

---

![A diagram](https://example.com/d.png "Its caption")

| Name | Value |
|:-----|------:|
| *a*  | 1     |
| b    |       |

See [the docs][docs].

[docs]: https://docs.example.com
`;

describe('markdownToDocument', () => {
  it('maps every construct to GitBook’s blocks and inlines, valid by the published spec', () => {
    const document = markdownToDocument(everything, 'Title');
    expectValidDocument(document);
    expect(types(document.nodes)).toEqual([
      ['paragraph', ['text', 'link', 'text', 'link', 'text', 'inline-image', 'text']],
      ['heading-2', ['text']],
      ['heading-3', ['text']],
      [
        'list-unordered',
        [
          ['list-item', [['paragraph', ['text']]]],
          [
            'list-item',
            [
              ['paragraph', ['text']],
              ['list-ordered', expect.anything()],
            ],
          ],
        ],
      ],
      [
        'list-ordered',
        [
          ['list-item', [['paragraph', ['text']]]],
          ['list-item', [['paragraph', ['text']]]],
        ],
      ],
      [
        'list-tasks',
        [
          ['list-item', [['paragraph', ['text']]]],
          ['list-item', [['paragraph', ['text']]]],
        ],
      ],
      [
        'blockquote',
        [
          ['paragraph', ['text']],
          ['blockquote', [['paragraph', ['text']]]],
          ['paragraph', ['text']],
        ],
      ],
      [
        'code',
        [
          ['code-line', ['text']],
          ['code-line', ['text']],
          ['code-line', ['text']],
        ],
      ],
      'divider',
      ['images', ['image']],
      'table',
      ['paragraph', ['text', 'link', 'text']],
    ]);
    const [first, , , , ordered, tasks, , code, , images, table, last] = document.nodes as any[];
    expect(first.nodes[0].leaves.slice(0, 8).map((leaf: any) => [leaf.text, leaf.marks.map((m: any) => m.type)])).toEqual([
      ['Some ', []],
      ['emphasis', ['italic']],
      [', ', []],
      ['strong', ['bold']],
      [', ', []],
      ['gone', ['strikethrough']],
      [', ', []],
      ['code', ['code']],
    ]);
    expect(first.nodes[1]).toMatchObject({
      type: 'link',
      data: { ref: { kind: 'url', url: 'https://example.com' } },
      nodes: [text('link')],
    });
    expect(first.nodes[3].data.ref).toEqual({ kind: 'anchor', anchor: 'usage' });
    expect(first.nodes[4].leaves.map((leaf: any) => leaf.text).join('')).toBe('.\nA line break follows.\nNext line with ');
    expect(first.nodes[5]).toEqual({
      object: 'inline',
      type: 'inline-image',
      data: { ref: { kind: 'url', url: 'https://example.com/i.png' }, alt: 'inline' },
      isVoid: true,
    });
    expect(ordered.data).toEqual({ start: 3 });
    expect(tasks.nodes.map((item: any) => item.data.checked)).toEqual([true, false]);
    expect(code.data).toEqual({ syntax: 'js' });
    expect(code.nodes.map((line: any) => line.nodes[0].leaves[0].text)).toEqual(['const a = 1;', '', 'console.log(a);']);
    expect(images.nodes[0]).toMatchObject({
      data: { ref: { kind: 'url', url: 'https://example.com/d.png' }, alt: 'A diagram' },
      fragments: [{ object: 'fragment', fragment: 'caption', nodes: [{ type: 'paragraph', nodes: [text('Its caption')] }] }],
    });
    expect(table.data.view).toEqual({ type: 'grid', columns: ['column1', 'column2'], hideHeader: false });
    expect(table.data.definition).toEqual({
      column1: { id: 'column1', title: 'Name', type: 'text', textAlignment: 'left' },
      column2: { id: 'column2', title: 'Value', type: 'text', textAlignment: 'right' },
    });
    expect(Object.values(table.data.records)).toEqual([
      { orderIndex: '00000000', values: { column1: 'cell1x1', column2: 'cell1x2' } },
      { orderIndex: '00000001', values: { column1: 'cell2x1', column2: 'cell2x2' } },
    ]);
    expect(table.fragments[0]).toEqual({
      object: 'fragment',
      fragment: 'cell1x1',
      nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('a', 'italic')] }],
    });
    expect(last.nodes[1].data.ref).toEqual({ kind: 'url', url: 'https://docs.example.com' });
  });

  it('reads references to the space’s files and pages as GitBook’s file, page and anchor references, valid by the spec', () => {
    const document = markdownToDocument('![dot](file-id:f1) [see](page-id:p1) [there](page-id:p1#usage) [file](file-id:f2)\n');
    expectValidDocument(document);
    const refs: unknown[] = [];
    const collect = (node: Record<string, unknown>) => {
      if ((node.data as { ref?: unknown })?.ref) refs.push((node.data as { ref: unknown }).ref);
      for (const child of (node.nodes as Record<string, unknown>[]) ?? []) collect(child);
    };
    collect(document as never);
    expect(refs).toEqual([
      { kind: 'file', file: 'f1' },
      { kind: 'page', page: 'p1' },
      { kind: 'anchor', page: 'p1', anchor: 'usage' },
      { kind: 'file', file: 'f2' },
    ]);
  });

  it('keeps a leading heading that is not the title, and makes an empty body an empty document', () => {
    expect(types(markdownToDocument('# Other\n\nText\n', 'Title').nodes)).toEqual([
      ['heading-1', ['text']],
      ['paragraph', ['text']],
    ]);
    const empty = markdownToDocument('', 'Title');
    expect(empty).toEqual({ object: 'document', data: {}, nodes: [] });
    expectValidDocument(empty);
  });

  it('keeps, as text, what a place cannot hold', () => {
    const document = markdownToDocument('> | a |\n> |---|\n> | 1 |\n\n- ![alone](x.png)\n\n<div>raw</div>\n');
    expectValidDocument(document);
    expect(types(document.nodes)).toEqual([
      ['blockquote', [['paragraph', ['text']]]],
      ['list-unordered', [['list-item', [['paragraph', ['inline-image']]]]]],
      ['paragraph', ['text']],
    ]);
    expect((document.nodes[2] as any).nodes[0].leaves[0].text).toBe('<div>raw</div>');
  });
});

describe('documentToMarkdown', () => {
  it('writes what markdownToDocument reads, so each format round-trips through the other', () => {
    const once = documentToMarkdown(markdownToDocument(everything, 'Title'));
    expect(once).toBe(`Some *emphasis*, **strong**, ~~gone~~, \`code\`, a [link](https://example.com) and an [anchor](#usage).
A line break follows.
Next line with ![inline](https://example.com/i.png).

## Second level

### Fourth level

- one
- two
  1. nested
  2. ordered

3. three
4. four

- [x] done
- [ ] to do

> quoted **text**
>
> > nested quote
>
> code in a quote

\`\`\`js
const a = 1;

console.log(a);
\`\`\`

---

![A diagram](https://example.com/d.png)

| Name | Value |
| :--- | ----: |
| *a*  |     1 |
| b    |       |

See [the docs](https://docs.example.com).
`);
    expect(documentToMarkdown(markdownToDocument(once))).toBe(once);
  });

  it('writes GitBook’s own blocks as their text or inner blocks, and references through the resolver', () => {
    const document = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'hint',
          data: { style: 'info' },
          nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('Careful')] }],
        },
        { object: 'block', type: 'math', data: { formula: 'x^2' }, isVoid: true },
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [
            { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'p1' } }, nodes: [text('a page')] },
            text(' and '),
            { object: 'inline', type: 'emoji', data: { code: '1f600' }, isVoid: true },
            { object: 'inline', type: 'inline-math', data: { formula: 'e=mc^2' }, isVoid: true },
          ],
        },
        {
          object: 'block',
          type: 'tabs',
          data: {},
          nodes: [
            {
              object: 'block',
              type: 'tabs-item',
              data: { title: 'One' },
              nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('Inside')] }],
            },
          ],
        },
      ],
    };
    const markdown = documentToMarkdown(document, (ref) => (ref.kind === 'page' ? `/pages/${ref.page}` : undefined));
    expect(markdown).toBe('> Careful\n\n```math\nx^2\n```\n\n[a page](/pages/p1) and 😀`e=mc^2`\n\nInside\n');
  });
});
