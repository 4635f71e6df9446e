// Cutting pages into sections (src/search/sections.ts): on the markdown AST, headings at the top level only, anchors
// unique within the page, text of every kind of block kept apart.
import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/revisions/document.js';
import { MAX_INDEXED_BYTES, markdownOfPage, pageTextOf, sectionsOf, withinBytes } from '../../src/search/sections.js';

describe('sections of a page', () => {
  it('cuts the intro and one section per heading, whatever its level, each with its body up to the next heading', () => {
    const markdown = [
      '# Guide',
      '',
      'Welcome to the guide.',
      '',
      '## Install on Linux',
      '',
      'Run the installer.',
      '',
      '### With apt',
      '',
      '```bash',
      'apt install tool',
      '```',
      '',
      '## Configure',
      '',
      '- first item',
      '- second item',
    ].join('\n');
    expect(sectionsOf(markdown, 'Guide')).toEqual([
      { position: 0, anchor: null, heading: '', body: 'Welcome to the guide.' },
      { position: 1, anchor: 'install-on-linux', heading: 'Install on Linux', body: 'Run the installer.' },
      { position: 2, anchor: 'with-apt', heading: 'With apt', body: 'apt install tool' },
      { position: 3, anchor: 'configure', heading: 'Configure', body: 'first item\nsecond item' },
    ]);
  });

  it('keeps a leading level-1 heading that is not the title as a section, and gives repeated headings their own anchors', () => {
    const sections = sectionsOf('# Overview\n\nText.\n\n## FAQ\n\nOne.\n\n## FAQ\n\nTwo.\n\n## ¿¡!?\n\nThree.', 'Guide');
    expect(sections.map((section) => [section.anchor, section.heading, section.body])).toEqual([
      [null, '', ''],
      ['overview', 'Overview', 'Text.'],
      ['faq', 'FAQ', 'One.'],
      ['faq-2', 'FAQ', 'Two.'],
      ['section', '¿¡!?', 'Three.'],
    ]);
  });

  it('reads the text of inline markup, links, images, tables and quotes, and not HTML, definitions or front matter', () => {
    const markdown = [
      '---',
      'description: hidden metadata',
      '---',
      '',
      'Some **bold** and _italic_ with `code` and a [link](https://example.com) and ![a diagram](d.png).',
      '',
      '> Quoted words.',
      '',
      '| Name | Value |',
      '| --- | --- |',
      '| alpha | beta |',
      '',
      '<div>markup</div>',
      '',
      '[ref]: https://example.com/ref',
      '',
      '## Heading with `code` and *emphasis*',
    ].join('\n');
    const [intro, heading] = sectionsOf(markdown, 'Page');
    expect(intro.body).toBe('Some bold and italic with code and a link and a diagram.\nQuoted words.\nName\nValue\nalpha\nbeta');
    expect(heading).toMatchObject({ anchor: 'heading-with-code-and-emphasis', heading: 'Heading with code and emphasis' });
  });

  it('does not take a heading inside a quote or a list for a section', () => {
    const sections = sectionsOf('Intro.\n\n> ## Quoted heading\n\n- ## Listed heading\n', 'Page');
    expect(sections).toEqual([{ position: 0, anchor: null, heading: '', body: 'Intro.\nQuoted heading\nListed heading' }]);
  });

  it('reads a page kept as a JSON document through its markdown, and an empty page as an empty intro', () => {
    const document = markdownToDocument('Intro text.\n\n## Usage\n\nCall it.\n');
    expect(sectionsOf(markdownOfPage({ markdown: null, document }), 'Page').map((section) => section.heading)).toEqual(['', 'Usage']);
    expect(sectionsOf(markdownOfPage({ markdown: null, document: null }), 'Page')).toEqual([
      { position: 0, anchor: null, heading: '', body: '' },
    ]);
  });

  it('keeps at most MAX_INDEXED_BYTES of a section’s text and of a page’s, cut at a character, so that no tsvector passes 1 MB', () => {
    const [intro, second] = sectionsOf(
      `${'word '.repeat(MAX_INDEXED_BYTES / 4)}\n\n## Next\n\n${'文档 '.repeat(MAX_INDEXED_BYTES / 5)}`,
      'Page',
    );
    expect(Buffer.byteLength(intro.body)).toBe(MAX_INDEXED_BYTES);
    expect(Buffer.byteLength(second.body)).toBeLessThanOrEqual(MAX_INDEXED_BYTES);
    expect(second.body.endsWith('\uFFFD')).toBe(false);
    const page = pageTextOf([intro, second]);
    expect(page.headings).toBe('Next');
    expect(Buffer.byteLength(page.headings) + Buffer.byteLength(page.body)).toBeLessThanOrEqual(MAX_INDEXED_BYTES);
    expect(withinBytes('é', 1)).toBe('');
    expect(withinBytes('abc', 3)).toBe('abc');
  });
});
