// The PDF export of a change request's content and of a space's current content: through GitBook's client, matching
// its published spec (0.202.0); the link downloaded without a token and the PDF parsed (pdf-parse): pages' titles and
// text in tree order, each page from a new PDF page, the markdown's blocks, link annotations, embedded images and alt
// text, `page` and `only`; who may export; the limits; how long the link works; what it costs, whatever the number of
// pages. Setting PDF_SCREENSHOT=<file.png> writes page 1 of the export rendered as PNG there, for a look.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { PDFParse } from 'pdf-parse';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeFile } from '../../src/files/storage.js';
import type { Space } from '../../src/generated/prisma/client.js';
import { renderPdf } from '../../src/pdf/render.js';
import { MAX_PDF_PAGES } from '../../src/pdf/service.js';
import { PdfTooLarge } from '../../src/pdf/source.js';
import { parseMarkdown } from '../../src/revisions/markdown.js';
import { file, page, publish } from '../revisions/content.js';
import { useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const SPEC_PATH = '/spaces/{spaceId}/change-requests/{changeRequestId}/pdf';
const SPACE_SPEC_PATH = '/spaces/{spaceId}/pdf';
/** Where pdf.js finds the standard fonts' substitutes, to render pages as a viewer shows them. */
const STANDARD_FONTS = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** A PNG of coloured tiles (which compress well), with an alpha channel or without; `corrupt` breaks its pixel data. */
function png(width: number, height: number, { alpha = false, corrupt = false } = {}): Buffer {
  const channels = alpha ? 4 : 3;
  const raw = Buffer.alloc((width * channels + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * (width * channels + 1) + 1 + x * channels;
      const [column, row] = [Math.floor((x * 8) / width), Math.floor((y * 4) / height)];
      raw.set([column * 32, row * 64, 160, 255].slice(0, channels), at);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, alpha ? 6 : 2], 8);
  const pixels = corrupt ? Buffer.from('not a deflate stream at all') : deflateSync(raw);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const GUIDE = `# Getting started

Welcome to the **handbook**, with *emphasis*, ~~old words~~ and \`inline code\`. See [the website](https://example.com/docs)
and the pages below. Café, naïve, Ελληνικά, русский, → ≤ ✓🎉, 日本語.

Next: [the install page](/getting-started/installing-the-tool), then the rest.

## Setup steps

1. Download the installer
2. Run it
   - Nested bullet item
3. Restart

- [ ] Open task
- [x] Closed task

\`\`\`js
const answer = 42;
console.log(answer);
\`\`\`

> A quoted remark.

---

| Name | Value |
| --- | ---: |
| alpha | 1 |
| beta | 2 |

![Architecture diagram](.gitbook/assets/diagram.png)

![Broken picture](broken.png)

![Missing picture](https://example.com/remote.png)

<figure><img src="../.gitbook/assets/diagram.png" alt="Figure diagram"><figcaption>Figure caption text</figcaption></figure>
`;

/** The pages of the change request's export, in tree order. */
const TITLES = ['Getting started', 'Installing the tool', 'Changelog', 'Frequently asked', 'Release notes'];

const { t, world } = useApi({ world: true });
let space: Space;
let changeRequest: { id: string; number: number };
const DIAGRAM = png(320, 180, { alpha: true });

const crPath = (spaceId: string, cr: string | number) => `/v1/spaces/${spaceId}/change-requests/${cr}`;

async function openChangeRequest(spaceId: string, subject: string): Promise<{ id: string; number: number }> {
  const created = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: world.admin.token, body: { subject } });
  expect(created.status, created.text).toBe(201);
  return { id: created.body.id, number: created.body.number };
}

async function edit(spaceId: string, cr: string, changes: unknown[]) {
  const res = await t.request('POST', `${crPath(spaceId, cr)}/content`, { token: world.admin.token, body: { changes } });
  expect(res.status, res.text).toBe(200);
}

/** The PDF behind a download link, fetched without a token, and parsed. */
async function download(url: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  const parser = new PDFParse({ data: new Uint8Array(bytes), standardFontDataUrl: STANDARD_FONTS });
  try {
    const text = await parser.getText();
    return { res, bytes, text: text.text, pages: text.pages.map((p) => p.text), total: text.total };
  } finally {
    await parser.destroy();
  }
}

const api = (token = world.reader.token) => gitbookClient('0202', t.url, token);

beforeAll(async () => {
  space = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Handbook' });
  await publish(t.prisma, space.id, {
    pages: [
      page('guide', 'Getting started', { slug: 'getting-started', position: 0, markdown: 'Old text.\n' }),
      page('install', 'Installing the tool', { parentId: 'guide', slug: 'installing-the-tool', markdown: 'Run `install.sh`.\n' }),
      page('faq', 'Frequently asked', { position: 1, markdown: 'Questions and answers.\n' }),
      page('website', 'External link', { type: 'link', markdown: null, target: { kind: 'url', url: 'https://example.com' }, position: 2 }),
    ],
  });
  changeRequest = await openChangeRequest(space.id, 'Handbook review');
  await edit(space.id, changeRequest.id, [
    {
      operation: 'insert_files',
      files: [
        { name: 'diagram.png', contentType: 'image/png', base64: DIAGRAM.toString('base64') },
        { name: 'broken.png', contentType: 'image/png', base64: png(40, 40, { alpha: true, corrupt: true }).toString('base64') },
      ],
    },
    { operation: 'update_page', page: 'guide', document: { markdown: GUIDE } },
    { operation: 'insert_page', into: 'guide', title: 'Changelog', document: { markdown: 'What changed in this release.\n' } },
  ]);
  const files = await t.request('GET', `${crPath(space.id, changeRequest.id)}/content/files`, { token: world.admin.token });
  const diagram = files.body.items.find((file: { name: string }) => file.name === 'diagram.png');
  // A page kept as GitBook's JSON document, whose image names the file by id.
  const document = {
    object: 'document',
    data: {},
    nodes: [
      {
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Notes from a JSON document.', marks: [] }] }],
      },
      { object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: diagram.id }, alt: 'JSON diagram' } },
    ],
  };
  await edit(space.id, changeRequest.id, [{ operation: 'insert_page', title: 'Release notes', document: { document } }]);
});

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf', () => {
  it('exports every page in tree order, each from a new PDF page, as a signed link to the PDF, through the official client', async () => {
    const { data, status } = await api().spaces.getChangeRequestPdf(space.id, changeRequest.id);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'get', SPEC_PATH, 200, data);
    expect(data.url.startsWith(`${t.url}/files/`)).toBe(true);

    const { res, bytes, text, pages } = await download(data.url);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="Handbook-cr1.pdf"');
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // Each page's title opens a PDF page, in the page tree's order; the link page has no content and is left out.
    const opening = TITLES.map((title) => pages.findIndex((text) => text.trimStart().startsWith(title)));
    expect(opening.every((index) => index >= 0)).toBe(true);
    expect([...opening].sort((a, b) => a - b)).toEqual(opening);
    expect(new Set(opening).size).toBe(TITLES.length);
    expect(text).not.toContain('External link');
    for (const body of [
      'Welcome to the',
      'Run install.sh',
      'What changed in this release.',
      'Questions and answers.',
      'Notes from a JSON document.',
    ]) {
      expect(text).toContain(body);
    }
    // The title is not repeated by the markdown's leading heading that gave it.
    expect(pages[opening[0]].split('Getting started').length - 1).toBe(1);

    const parser = new PDFParse({ data: new Uint8Array(bytes) });
    const info = await parser.getInfo({ parsePageInfo: true });
    await parser.destroy();
    expect(info.info).toMatchObject({
      Title: 'Handbook review',
      Subject: 'Change request #1 of Handbook',
      Creator: 'Docs platform management API',
    });
    const outline = (nodes: { title: string; items: any[] }[]): unknown[] => nodes.map((node) => [node.title, outline(node.items)]);
    expect(outline(info.outline ?? [])).toEqual([
      [
        'Getting started',
        [
          ['Installing the tool', []],
          ['Changelog', []],
        ],
      ],
      ['Frequently asked', []],
      ['Release notes', []],
    ]);
  });

  it('draws the markdown: headings, inline styles, lists, code, quotes, tables, links and images', async () => {
    const { data } = await api().spaces.getChangeRequestPdf(space.id, String(changeRequest.number), { only: true, page: 'guide' });
    const { bytes, text, total } = await download(data.url);
    expect(total).toBeGreaterThanOrEqual(1);
    for (const expected of [
      'Setup steps',
      'handbook, with emphasis, old words and inline code. See the website and the pages below. Café',
      'Next: the install page, then the rest.',
      '1. Download the installer',
      'Nested bullet item',
      '[x] Closed task',
      'const answer = 42;',
      'console.log(answer);',
      'A quoted remark.',
      'alpha',
      'beta',
      // Greek, Cyrillic and symbols are shown; emoji are left out, and what the fonts lack (CJK) is replaced, never garbled.
      'Café, naïve, Ελληνικά, русский, → ≤ ✓, ???.',
      'Figure caption text',
    ]) {
      expect(text.replace(/\s+/g, ' ')).toContain(expected);
    }
    // Images that are files PDF can show are embedded; a damaged one, and one that is no file of the space, show their alt text.
    expect(text).toContain('Broken picture');
    expect(text).toContain('Missing picture');
    expect(text).not.toContain('Architecture diagram');
    const parser = new PDFParse({ data: new Uint8Array(bytes) });
    const images = await parser.getImage({ imageThreshold: 0 });
    const info = await parser.getInfo({ parsePageInfo: true });
    await parser.destroy();
    const shown = images.pages.flatMap((p) => p.images.map((image) => [image.width, image.height]));
    expect(shown).toContainEqual([320, 180]);
    expect(bytes.toString('latin1')).toContain('/Subtype /Image');
    // An address link is an annotation with its URL; a link to a page the PDF holds jumps there, one to a page it does
    // not hold (here, with `only`) leads to the page in the app.
    const links = info.pages.flatMap((p) => p.links);
    expect(links).toContainEqual({ text: 'the website', url: 'https://example.com/docs' });
    expect(links.map((link) => link.url)).toContain(
      `${t.url}/app/s/${space.id}/~/changes/${changeRequest.number}/getting-started/installing-the-tool`,
    );
  });

  it('jumps inside the PDF for a link to a page it holds, and embeds the image of a JSON document', async () => {
    const { data } = await api().spaces.getChangeRequestPdf(space.id, changeRequest.id);
    const { bytes } = await download(data.url);
    const raw = bytes.toString('latin1');
    // One jump, over the link's text alone (the text after it is no link).
    expect(raw.split('/S /GoTo').length - 1).toBe(1);
    expect(raw).toContain('(page-install)');
    const { data: notes } = await api().spaces.getChangeRequestPdf(space.id, changeRequest.id, {
      only: true,
      page: (await t.prisma.pageVersion.findFirstOrThrow({ where: { spaceId: space.id, title: 'Release notes' } })).pageId,
    });
    const parser = new PDFParse({ data: new Uint8Array((await download(notes.url)).bytes) });
    const images = await parser.getImage({ imageThreshold: 0 });
    await parser.destroy();
    expect(images.pages.flatMap((p) => p.images.map((image) => [image.width, image.height]))).toEqual([[320, 180]]);
  });

  it('exports a page with its subpages with `page`, and that page alone with `only` too', async () => {
    const { data: section } = await api().spaces.getChangeRequestPdf(space.id, changeRequest.id, { page: 'guide' });
    const { text: sectionText } = await download(section.url);
    expect(TITLES.filter((title) => sectionText.includes(title))).toEqual(['Getting started', 'Installing the tool', 'Changelog']);

    const { data: one } = await api().spaces.getChangeRequestPdf(space.id, changeRequest.id, { page: 'install', only: true });
    const { text, total } = await download(one.url);
    expect(total).toBe(1);
    expect(TITLES.filter((title) => text.includes(title))).toEqual(['Installing the tool']);
    expect(text).toContain('Run install.sh');
  });

  it('answers the same link for the same export: the PDF is made of the content alone, and stored once', async () => {
    const first = await api().spaces.getChangeRequestPdf(space.id, changeRequest.id, { page: 'faq', only: true });
    const again = await api(world.admin.token).spaces.getChangeRequestPdf(space.id, String(changeRequest.number), {
      page: 'faq',
      only: true,
    });
    expect(again.data.url).toBe(first.data.url);
    const whole = await api().spaces.getChangeRequestPdf(space.id, changeRequest.id);
    expect(whole.data.url).not.toBe(first.data.url);
  });

  it('serves the PDF on the strength of the signature alone, until it expires', async () => {
    const { data } = await api().spaces.getChangeRequestPdf(space.id, changeRequest.id, { page: 'faq', only: true });
    const tampered = new URL(data.url);
    tampered.searchParams.set('name', 'Other.pdf');
    expect((await fetch(tampered)).status).toBe(403);
    t.clock.advanceDays(2);
    try {
      expect((await fetch(data.url)).status).toBe(403);
    } finally {
      t.clock.advanceDays(-2);
    }
  });

  it('is in GraphQL as ChangeRequest.pdf', async () => {
    const query = `query ($spaceId: ID!, $id: ID!) { changeRequest(spaceId: $spaceId, id: $id) { pdf(only: true, page: "faq") { url } } }`;
    const res = await t.request('POST', '/graphql', {
      token: world.reader.token,
      body: { query, variables: { spaceId: space.id, id: changeRequest.id } },
    });
    expect(res.status, res.text).toBe(200);
    const { text } = await download(res.body.data.changeRequest.pdf.url);
    expect(text).toContain('Frequently asked');
  });

  it('exports a change request without pages as one page that says so', async () => {
    const empty = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Empty' });
    const cr = await openChangeRequest(empty.id, '');
    const { data } = await api().spaces.getChangeRequestPdf(empty.id, cr.id);
    const { text, total } = await download(data.url);
    expect(total).toBe(1);
    // Without a subject, the space's title is the document's.
    expect(text).toContain('Empty');
    expect(text).toContain('There are no pages to export.');
  });

  it('refuses a page that is not in the change request, `only` without a page, and a link page, naming "page"', async () => {
    const get = (query: string) => t.request('GET', `${crPath(space.id, changeRequest.id)}/pdf${query}`, { token: world.reader.token });
    for (const query of ['?page=nowhere', '?only=true', '?page=website&only=true', '?page=website']) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message, query).toMatch(/^Invalid "page": /);
    }
    expect((await get('?only=maybe')).status).toBe(400);
  });

  it(`refuses an export of more than ${MAX_PDF_PAGES} pages, of a change request or a space, naming "page", and exports a part of it`, async () => {
    const big = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Big' });
    const pages = Array.from({ length: MAX_PDF_PAGES }, (_, i) => page(`big${i}`, `Page ${i}`, { parentId: 'bigRoot', position: i }));
    await publish(t.prisma, big.id, { pages: [page('bigRoot', 'Root'), ...pages] });
    const cr = await openChangeRequest(big.id, 'Everything');
    // The change request's export and the space's alike.
    for (const path of [`${crPath(big.id, cr.id)}/pdf`, `/v1/spaces/${big.id}/pdf`]) {
      const res = await t.request('GET', path, { token: world.reader.token });
      expect(res.status, path).toBe(400);
      expect(res.body.error.message).toMatch(/^Invalid "page": the export holds 1001 pages, more than the 1000 of one PDF/);
      const part = await t.request('GET', `${path}?page=big7`, { token: world.reader.token });
      expect(part.status, part.text).toBe(200);
    }
  });

  it('stops a PDF past its size cap', async () => {
    const source = {
      title: 'Cap',
      subject: 'Cap',
      creator: 'Test',
      createdAt: new Date('2026-01-01T00:00:00Z'),
      pages: Array.from({ length: 3 }, (_, i) => ({
        id: `p${i}`,
        title: `Page ${i}`,
        description: null,
        depth: 0,
        markdown: parseMarkdown(Array.from({ length: 200 }, (_, n) => `Paragraph ${n} of page ${i}.`).join('\n\n')),
      })),
      imageOf: () => null,
      linkOf: () => null,
    };
    const whole = await renderPdf({ ...source, maxBytes: 10 * 1024 * 1024 });
    await expect(renderPdf({ ...source, maxBytes: Math.floor(whole.length / 2) })).rejects.toBeInstanceOf(PdfTooLarge);
  });

  it('keeps every letter as text, whatever the PDFs made before it', async () => {
    const source = (markdown: string) => ({
      title: 'Letters',
      subject: 'Letters',
      creator: 'Test',
      createdAt: new Date('2026-01-01T00:00:00Z'),
      pages: [{ id: 'p', title: 'Letters', description: null, depth: 0, markdown: parseMarkdown(markdown) }],
      imageOf: () => null,
      linkOf: () => null,
      maxBytes: 10 * 1024 * 1024,
    });
    // Ŷ is drawn as a Y and a circumflex: the PDF of it embeds the Y as a part, without a character of its own.
    await renderPdf(source('```\nŶ\n```\n'));
    const parser = new PDFParse({ data: new Uint8Array(await renderPdf(source('```\nYes\n```\n'))) });
    const { text } = await parser.getText();
    await parser.destroy();
    expect(text).toContain('Yes');
  });

  it('answers 401 without a token, 404 to those who cannot see the space and for a change request that is not there', async () => {
    const path = `${crPath(space.id, changeRequest.id)}/pdf`;
    expect((await t.request('GET', path)).status).toBe(401);
    for (const person of [world.outsider, world.guest]) {
      const res = await t.request('GET', path, { token: person.token });
      expect(res.status).toBe(404);
    }
    expect((await t.request('GET', `${crPath(space.id, 'nothing')}/pdf`, { token: world.reader.token })).status).toBe(404);
    expect((await t.request('GET', `${crPath(space.id, 999)}/pdf`, { token: world.reader.token })).status).toBe(404);
    // A change request of another space is not found through this one.
    const other = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const elsewhere = await openChangeRequest(other.id, 'Elsewhere');
    expect((await t.request('GET', `${crPath(space.id, elsewhere.id)}/pdf`, { token: world.reader.token })).status).toBe(404);
  });

  it('runs as many statements for 200 pages as for one, of a change request and of a space', async () => {
    const statements = async (count: number) => {
      const book = await buildSpace(t.prisma, { organizationId: world.organizationId, title: `Book of ${count}` });
      const markdown = '## Part\n\nText with ![a picture](diagram.png) and a [link](/page-0).\n';
      await publish(t.prisma, book.id, {
        pages: Array.from({ length: count }, (_, i) => page(`p${count}x${i}`, `Page ${i}`, { position: i, markdown })),
      });
      const cr = await openChangeRequest(book.id, `${count} pages`);
      const counted = [];
      for (const path of [`${crPath(book.id, cr.id)}/pdf`, `/v1/spaces/${book.id}/pdf`]) {
        const res = await t.counted('GET', path, { token: world.reader.token });
        expect(res.status, res.text).toBe(200);
        counted.push(res.statements);
      }
      return counted;
    };
    expect(await statements(200)).toEqual(await statements(1));
  });

  it('renders as pages a viewer shows (PDF_SCREENSHOT=<file.png> keeps page 1)', async () => {
    const { data } = await api().spaces.getChangeRequestPdf(space.id, changeRequest.id);
    const { bytes } = await download(data.url);
    const parser = new PDFParse({ data: new Uint8Array(bytes), standardFontDataUrl: STANDARD_FONTS });
    const shot = await parser.getScreenshot({ partial: [1], scale: 1.5 });
    await parser.destroy();
    const [first] = shot.pages;
    expect(Buffer.from(first.data).subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(first.width).toBeGreaterThan(800);
    if (process.env.PDF_SCREENSHOT) writeFileSync(process.env.PDF_SCREENSHOT, first.data);
  });
});

describe('GET /v1/spaces/{spaceId}/pdf', () => {
  let manual: Space;
  const MANUAL_TITLES = ['Introduction', 'Setup', 'Usage'];
  const HOUR_MS = 60 * 60 * 1000;

  beforeAll(async () => {
    manual = await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Manual' });
    const diagram = await storeFile(t.app.services, DIAGRAM, 'diagram.png');
    await publish(t.prisma, manual.id, {
      pages: [
        page('intro', 'Introduction', {
          slug: 'introduction',
          position: 0,
          markdown: 'Welcome to the manual. See [the setup page](page-id:setup).\n\n![Manual diagram](diagram.png)\n',
        }),
        page('setup', 'Setup', { parentId: 'intro', slug: 'setup', markdown: 'Run the installer.\n' }),
        page('usage', 'Usage', { position: 1, markdown: 'Daily use.\n' }),
        page('home', 'Home site', { type: 'link', markdown: null, target: { kind: 'url', url: 'https://example.com' }, position: 2 }),
      ],
      files: [file('diagram', 'diagram.png', diagram)],
    });
  });

  it('exports the space’s pages in tree order as a signed link to the PDF, through the official client', async () => {
    const { data, status } = await api().spaces.getSpacePdf(manual.id);
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'get', SPACE_SPEC_PATH, 200, data);
    expect(data.url.startsWith(`${t.url}/files/`)).toBe(true);

    const { res, bytes, text, pages } = await download(data.url);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="Manual.pdf"');
    const opening = MANUAL_TITLES.map((title) => pages.findIndex((text) => text.trimStart().startsWith(title)));
    expect(opening.every((index) => index >= 0)).toBe(true);
    expect([...opening].sort((a, b) => a - b)).toEqual(opening);
    expect(new Set(opening).size).toBe(MANUAL_TITLES.length);
    expect(text).not.toContain('Home site');
    for (const body of ['Welcome to the manual.', 'Run the installer.', 'Daily use.']) expect(text).toContain(body);
    // The image, a file of the space, is embedded; the link to a page the PDF holds jumps there.
    expect(text).not.toContain('Manual diagram');
    const raw = bytes.toString('latin1');
    expect(raw.split('/S /GoTo').length - 1).toBe(1);
    expect(raw).toContain('(page-setup)');

    const parser = new PDFParse({ data: new Uint8Array(bytes) });
    const info = await parser.getInfo({ parsePageInfo: true });
    const images = await parser.getImage({ imageThreshold: 0 });
    await parser.destroy();
    expect(images.pages.flatMap((p) => p.images.map((image) => [image.width, image.height]))).toEqual([[320, 180]]);
    expect(info.info).toMatchObject({ Title: 'Manual', Subject: 'Current content of Manual', Creator: 'Docs platform management API' });
    const outline = (nodes: { title: string; items: any[] }[]): unknown[] => nodes.map((node) => [node.title, outline(node.items)]);
    expect(outline(info.outline ?? [])).toEqual([
      ['Introduction', [['Setup', []]]],
      ['Usage', []],
    ]);
  });

  it('exports a page with its subpages with `page`, and that page alone with `only` too, linking to the others in the app', async () => {
    const { data: section } = await api().spaces.getSpacePdf(manual.id, { page: 'intro' });
    const { text: sectionText } = await download(section.url);
    expect(MANUAL_TITLES.filter((title) => sectionText.includes(title))).toEqual(['Introduction', 'Setup']);

    const { data: one } = await api().spaces.getSpacePdf(manual.id, { page: 'intro', only: true });
    const { bytes, text, total } = await download(one.url);
    expect(total).toBe(1);
    expect(MANUAL_TITLES.filter((title) => text.includes(title))).toEqual(['Introduction']);
    const parser = new PDFParse({ data: new Uint8Array(bytes) });
    const info = await parser.getInfo({ parsePageInfo: true });
    await parser.destroy();
    expect(info.pages.flatMap((p) => p.links)).toContainEqual({
      text: 'the setup page',
      url: `${t.url}/app/s/${manual.id}/introduction/setup`,
    });
  });

  it('exports the space’s current content, not a change request’s', async () => {
    const { data } = await api().spaces.getSpacePdf(space.id);
    const { text } = await download(data.url);
    expect(TITLES.filter((title) => text.includes(title))).toEqual(['Getting started', 'Installing the tool', 'Frequently asked']);
    expect(text).toContain('Old text.');
    expect(text).not.toContain('Welcome to the');
  });

  it('answers a link that works for an hour, and five minutes more at most, where a change request’s works DOWNLOAD_LINK_MINUTES', async () => {
    const { data } = await api().spaces.getSpacePdf(manual.id, { page: 'usage', only: true });
    // Within a few minutes, the same export answers the same link.
    expect((await api(world.admin.token).spaces.getSpacePdf(manual.id, { page: 'usage', only: true })).data.url).toBe(data.url);
    const { data: changeRequestPdf } = await api().spaces.getChangeRequestPdf(space.id, changeRequest.id, { page: 'faq', only: true });
    const tampered = new URL(data.url);
    tampered.searchParams.set('expires', String(Number(tampered.searchParams.get('expires')) + 3600));
    expect((await fetch(tampered)).status).toBe(403);
    t.clock.advanceMs(HOUR_MS);
    try {
      expect((await fetch(data.url)).status).toBe(200);
      t.clock.advanceMs(5 * 60 * 1000);
      const expired = await fetch(data.url);
      expect([expired.status, (await expired.json()).error.message]).toEqual([403, 'This download link has expired.']);
      // A change request's export lives as any download link: 15 minutes by default, long gone an hour later.
      expect((await fetch(changeRequestPdf.url)).status).toBe(403);
    } finally {
      t.clock.advanceMs(-HOUR_MS - 5 * 60 * 1000);
    }
  });

  it('is in GraphQL as Space.pdf', async () => {
    const query = `query ($id: ID!) { space(id: $id) { pdf(only: true, page: "usage") { url } } }`;
    const res = await t.request('POST', '/graphql', { token: world.reader.token, body: { query, variables: { id: manual.id } } });
    expect(res.status, res.text).toBe(200);
    const { text } = await download(res.body.data.space.pdf.url);
    expect(text).toContain('Daily use.');
  });

  it('answers 404 for a page that is not in the content, 400 for a link page and for `only` without a page', async () => {
    const get = (query: string) => t.request('GET', `/v1/spaces/${manual.id}/pdf${query}`, { token: world.reader.token });
    for (const query of ['?page=nowhere', '?page=nowhere&only=true']) {
      const res = await get(query);
      expect([res.status, res.body.error.message], query).toEqual([404, 'Page not found']);
    }
    for (const query of ['?only=true', '?page=home', '?page=home&only=true']) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message, query).toMatch(/^Invalid "page": /);
    }
    expect((await get('?only=maybe')).status).toBe(400);
    // A page of another space is not found through this one.
    expect((await get('?page=faq')).status).toBe(404);
  });

  it('answers 401 without a token, and 404 to those who cannot see the space and for a space that is not there', async () => {
    const path = `/v1/spaces/${manual.id}/pdf`;
    expect((await t.request('GET', path)).status).toBe(401);
    for (const person of [world.outsider, world.guest]) {
      const res = await t.request('GET', path, { token: person.token });
      expect(res.status).toBe(404);
    }
    expect((await t.request('GET', '/v1/spaces/nothing/pdf', { token: world.reader.token })).status).toBe(404);
  });
});
