// An HTML page made into a page of content: its main content (@mozilla/readability on a linkedom DOM) converted to
// markdown (turndown: atx headings, fenced code, `-` bullets, and GFM tables by rules of ours, turndown having no
// table support), its title, and the links it holds (read before Readability prunes the document). Links and images
// are made absolute against the page's URL: images stay remote, links to other imported pages stay absolute URLs.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** The parts of a DOM element used here (linkedom's and turndown's; the project compiles without the DOM library). */
interface Element {
  nodeName: string;
  textContent: string | null;
  parentNode: Element | null;
  firstChild: Element | null;
  nextSibling: Element | null;
  childNodes: ArrayLike<Element>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  replaceWith(...nodes: unknown[]): void;
  querySelector(selector: string): Element | null;
  querySelectorAll(selector: string): Iterable<Element>;
  innerHTML: string;
}

export interface ConvertedPage {
  title: string;
  markdown: string;
  /** Every http(s) link of the page, absolute, in document order (navigation included: it is how a site is found). */
  links: URL[];
}

const fence = (code: string, language: string) => {
  const longest = Math.max(2, ...[...code.matchAll(/^`{3,}/gm)].map((match) => match[0].length));
  const marks = '`'.repeat(longest + 1);
  return `\n\n${marks}${language}\n${code.replace(/\n$/, '')}\n${marks}\n\n`;
};
const languageOf = (node: Element | null) => /(?:language|lang)-(\S+)/.exec(node?.getAttribute('class') ?? '')?.[1] ?? '';

const cellsOf = (row: Element) => Array.from(row.childNodes).filter((node) => node.nodeName === 'TH' || node.nodeName === 'TD');
const spanOf = (cell: Element) => Math.max(1, Math.min(100, Number(cell.getAttribute('colspan')) || 1));
const tableOf = (node: Element) => {
  let at = node.parentNode;
  while (at && at.nodeName !== 'TABLE') at = at.parentNode;
  return at;
};

const element = (node: unknown) => node as Element;

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'template', 'button']);
// `- item` and `1. item`, continuation lines indented to the text (turndown pads markers to four columns).
turndown.addRule('listItem', {
  filter: 'li',
  replacement: (content, li) => {
    const node = element(li);
    const parent = node.parentNode;
    let prefix = '- ';
    if (parent?.nodeName === 'OL') {
      const start = Number(parent.getAttribute('start')) || 1;
      const items = Array.from(parent.childNodes).filter((child) => child.nodeName === 'LI');
      prefix = `${start + items.indexOf(node)}. `;
    }
    const paragraph = /\n$/.test(content);
    const text = content.replace(/^\n+|\n+$/g, '') + (paragraph ? '\n' : '');
    return `${prefix}${text.replace(/\n/g, `\n${' '.repeat(prefix.length)}`)}${node.nextSibling ? '\n' : ''}`;
  },
});
// Preformatted text without a <code> inside is code too (turndown fences only <pre><code>).
turndown.addRule('preformatted', {
  filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName !== 'CODE',
  replacement: (_content, pre) => fence(pre.textContent ?? '', languageOf(element(pre))),
});
// GFM tables: the first row is the heading row (GFM requires one); cells are one line, pipes escaped; colspan is kept
// as empty cells. A table nested in a cell comes out as the cell's text.
turndown.addRule('tableCell', {
  filter: ['th', 'td'],
  replacement: (content, cell) =>
    ` ${content
      .replace(/\s*\n+\s*/g, ' ')
      .replace(/\|/g, '\\|')
      .trim()} |${' |'.repeat(spanOf(element(cell)) - 1)}`,
});
turndown.addRule('tableRow', {
  filter: 'tr',
  replacement: (content, tr) => {
    const node = element(tr);
    const row = `|${content}\n`;
    const table = tableOf(node);
    if (table?.querySelector('tr') !== node) return row;
    const columns = cellsOf(node).reduce((sum, cell) => sum + spanOf(cell), 0);
    return `${row}|${' --- |'.repeat(Math.max(1, columns))}\n`;
  },
});
turndown.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
turndown.addRule('tableCaption', { filter: 'caption', replacement: (content) => `${content.trim()}\n\n` });
turndown.addRule('table', { filter: 'table', replacement: (content) => `\n\n${content.replace(/^\n+|\n+$/g, '')}\n\n` });

/** `href` made absolute against `base`, or null when it is not a URL of one of the schemes kept. */
function absolute(href: string | null, base: URL, schemes: readonly string[]): URL | null {
  if (!href) return null;
  try {
    const url = new URL(href.trim(), base);
    return schemes.includes(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const textOf = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

/**
 * The page's title: its <h1> when the <title> is that heading and the site's name (`Install | Acme`), else
 * Readability's title (the <title>, cleaned of a site name where it can tell), else the <title>, else the <h1>.
 */
function titleOf(heading: string, full: string, readabilityTitle: string | null | undefined): string {
  if (heading && full.split(/\s+[|\-–—·:»]+\s+/).some((part) => same(part, heading))) return heading;
  return readabilityTitle?.trim() || full || heading;
}

/** Links and images made absolute against the page's base; the links to follow, in document order. */
function absolutize(document: Element, url: URL): URL[] {
  const base = absolute(document.querySelector('base[href]')?.getAttribute('href') ?? null, url, ['http:', 'https:']) ?? url;
  const links: URL[] = [];
  for (const anchor of document.querySelectorAll('a[href]')) {
    const target = absolute(anchor.getAttribute('href'), base, ['http:', 'https:', 'mailto:']);
    if (!target) {
      // javascript: and the like: the text stays, the link goes.
      anchor.removeAttribute('href');
      continue;
    }
    anchor.setAttribute('href', target.href);
    if (target.protocol !== 'mailto:') links.push(target);
  }
  for (const image of document.querySelectorAll('img')) {
    const source = absolute(image.getAttribute('src'), base, ['http:', 'https:']);
    image.removeAttribute('srcset');
    // Images are not downloaded: they stay where the site serves them. Inline (data:) ones would bloat the markdown.
    if (source) image.setAttribute('src', source.href);
    else image.replaceWith();
  }
  return links;
}

/** Elements around a page's content (navigation, banners, footers), which Readability misses on a short page. */
const CHROME = 'nav, aside, [role=navigation], [role=banner], [role=contentinfo], [role=complementary], header, footer';

/** Removes the page's chrome; a <header> or <footer> inside the content (an article's own) stays. */
function removeChrome(document: Element): void {
  const inContent = (node: Element) => {
    for (let at = node.parentNode; at; at = at.parentNode) if (at.nodeName === 'MAIN' || at.nodeName === 'ARTICLE') return true;
    return false;
  };
  for (const node of document.querySelectorAll(CHROME)) {
    if ((node.nodeName === 'HEADER' || node.nodeName === 'FOOTER') && inContent(node)) continue;
    node.replaceWith();
  }
}

/** The page's body without its chrome, for a page Readability finds nothing in (it prunes what it reads: reparsed). */
function bodyOf(html: string, url: URL): string {
  const { document } = parseHTML(html) as unknown as { document: Element };
  absolutize(document, url);
  removeChrome(document);
  return document.querySelector('body')?.innerHTML ?? '';
}

/** The page at `url` from its HTML: title (empty when it has none), markdown of its main content, and its links. */
export function convertHtml(html: string, url: URL): ConvertedPage {
  const { document } = parseHTML(html) as unknown as { document: Element };
  const links = absolutize(document, url);
  const [heading, full] = [textOf(document.querySelector('h1')), textOf(document.querySelector('title'))];
  removeChrome(document);
  // Readability keeps classes when asked: turndown reads a code block's language from them.
  const article = new Readability(document as never, { keepClasses: true }).parse();
  const title = titleOf(heading, full, article?.title);
  const markdown = turndown.turndown(article?.content ?? bodyOf(html, url)).trim();
  return { title, markdown: markdown && `${markdown}\n`, links };
}
