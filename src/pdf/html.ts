// HTML inside markdown, read with linkedom as paragraphs of text and images; and the images a page shows.
import { parseHTML } from 'linkedom';
import type { Root, RootContent } from 'mdast';

export type HtmlPart = { text: string } | { image: string; alt: string };

/** The DOM nodes the HTML walk reads (linkedom's, typed here: the project compiles without the DOM library). */
interface HtmlNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<HtmlNode>;
  getAttribute?(name: string): string | null;
}

const HTML_BLOCKS = new Set(['P', 'DIV', 'FIGURE', 'FIGCAPTION', 'LI', 'TR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'PRE', 'BLOCKQUOTE']);
const HTML_SKIPPED = new Set(['SCRIPT', 'STYLE', 'TEMPLATE']);

/** A block of HTML as paragraphs of text and images, in order (GitBook writes images as `<figure><img>` in markdown). */
export function htmlParts(html: string): HtmlPart[] {
  const { document } = parseHTML(`<!DOCTYPE html><html><body>${html}</body></html>`) as unknown as { document: { body: HtmlNode } };
  const parts: HtmlPart[] = [];
  let text = '';
  const flush = () => {
    const paragraph = text.replace(/\s+/g, ' ').trim();
    if (paragraph) parts.push({ text: paragraph });
    text = '';
  };
  const walk = (node: HtmlNode) => {
    if (node.nodeType === 3) text += node.textContent ?? '';
    if (node.nodeType !== 1 || HTML_SKIPPED.has(node.nodeName)) return;
    if (node.nodeName === 'IMG') {
      flush();
      const src = node.getAttribute?.('src');
      if (src) parts.push({ image: src, alt: node.getAttribute?.('alt') ?? '' });
      return;
    }
    if (node.nodeName === 'BR') text += ' ';
    const block = HTML_BLOCKS.has(node.nodeName);
    if (block) flush();
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) flush();
  };
  walk(document.body);
  flush();
  return parts;
}

/** The addresses of the images a page's markdown shows (image nodes, reference images, `<img>` in HTML). */
export function imageUrlsOf(root: Root): string[] {
  const definitions = definitionsOf(root);
  const urls: string[] = [];
  const visit = (node: Root | RootContent) => {
    if (node.type === 'image') urls.push(node.url);
    else if (node.type === 'imageReference') urls.push(definitions.get(node.identifier) ?? '');
    else if (node.type === 'html') for (const part of htmlParts(node.value)) if ('image' in part) urls.push(part.image);
    if ('children' in node) for (const child of node.children as RootContent[]) visit(child);
  };
  visit(root);
  return urls.filter(Boolean);
}

export function definitionsOf(root: Root): Map<string, string> {
  const definitions = new Map<string, string>();
  const visit = (node: Root | RootContent) => {
    if (node.type === 'definition') definitions.set(node.identifier, node.url);
    if ('children' in node) for (const child of node.children as RootContent[]) visit(child);
  };
  visit(root);
  return definitions;
}
