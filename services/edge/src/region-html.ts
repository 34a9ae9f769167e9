// A release's first screen, as the edge puts it into the page (docs/decisions/0036-render-sandbox.md). The
// HTML comes from a release's code (a render, or its build's prerender.json): the edge parses it as a
// fragment and writes it out again, so it is balanced and ends where the region ends (no `<plaintext>` or
// unclosed element swallowing the rest of the page), and drops what could act on the page outside the
// region's own content or past the CSP: a `<base>`, `<meta>` (a refresh), `<link>`, frames and plugins, a
// script with a source (the CSP admits the site's own files: a release's file would run) and data blocks
// (a fake page plan or primed answers). An inline script is left in: the CSP trusts only the edge's own
// blocks by hash, so the browser refuses it and reports it to /csp-report, where operators see it.
import { createHash } from 'node:crypto';
import { type DefaultTreeAdapterMap, parseFragment, serialize } from 'parse5';

type ParentNode = DefaultTreeAdapterMap['parentNode'];
type ChildNode = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];

/** Elements that never belong in a region: they act on the whole page or load what the CSP would admit. */
const DROPPED = new Set([
  'base',
  'meta',
  'link',
  'plaintext',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'portal',
]);

/** Script types a browser runs; anything else is a data block (JSON the page might read). */
const RUNNABLE_TYPES = new Set([
  '',
  'module',
  'text/javascript',
  'application/javascript',
  'text/ecmascript',
  'application/ecmascript',
]);

/** The largest region the edge takes from a release (Explore's 50 cards are ~110 KB). */
export const MAX_REGION_BYTES = 2 * 1024 * 1024;

export interface CleanRegion {
  html: string;
  /** What was taken out, e.g. `script[src]`, `meta`, for the operator's log. */
  removed: string[];
}

const attribute = (element: Element, name: string) =>
  element.attrs.find((attr) => attr.name === name || attr.name.endsWith(`:${name}`))?.value;

const textOf = (element: Element) =>
  element.childNodes.map((node) => ('value' in node && node.nodeName === '#text' ? node.value : '')).join('');

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Why an element is dropped, or null when it stays. */
function dropReason(element: Element, trustedHashes: ReadonlySet<string>): string | null {
  const tag = element.tagName.toLowerCase();
  if (DROPPED.has(tag)) return tag;
  if (tag !== 'script') return null;
  if (attribute(element, 'src') !== undefined || attribute(element, 'href') !== undefined)
    return 'script[src]';
  const type = (attribute(element, 'type') ?? '').trim().toLowerCase();
  if (!RUNNABLE_TYPES.has(type)) return `script[type=${type.slice(0, 40)}]`;
  // One of the edge's own scripts, copied: the CSP would let it run a second time.
  if (trustedHashes.has(sha256(textOf(element)))) return "script (a copy of the page's own)";
  return null;
}

function clean(parent: ParentNode, trustedHashes: ReadonlySet<string>, removed: string[]) {
  parent.childNodes = parent.childNodes.filter((node: ChildNode) => {
    if (!('tagName' in node)) return true;
    const reason = dropReason(node, trustedHashes);
    if (reason) {
      removed.push(reason);
      return false;
    }
    clean(node, trustedHashes, removed);
    if (node.tagName === 'template' && 'content' in node)
      clean(node.content as ParentNode, trustedHashes, removed);
    return true;
  });
}

/**
 * The region's HTML made safe to splice into the page. `trustedHashes`: the CSP hashes of the edge's own
 * inline scripts, which no region may repeat. Throws when the HTML is larger than MAX_REGION_BYTES.
 */
export function cleanRegionHtml(html: string, trustedHashes: ReadonlySet<string> = new Set()): CleanRegion {
  if (Buffer.byteLength(html, 'utf8') > MAX_REGION_BYTES) {
    throw new Error(`the region's HTML is larger than ${MAX_REGION_BYTES} bytes`);
  }
  const fragment = parseFragment(html);
  const removed: string[] = [];
  clean(fragment, trustedHashes, removed);
  return { html: serialize(fragment), removed };
}
