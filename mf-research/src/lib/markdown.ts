import createDOMPurify, { type DOMPurify, type WindowLike } from 'dompurify';
import { Marked } from 'marked';

/**
 * Markdown from authors is untrusted: it is rendered with marked and then sanitised with DOMPurify, so no
 * script, event handler, javascript:/data: URL or embedded frame survives. One private DOMPurify instance,
 * so the link hook below cannot leak into (or be undone by) other code sharing the page.
 *
 * Raw HTML inside the Markdown is shown as text, not parsed: posts are Markdown. Parsing it only to strip it
 * would put hostile attributes (onerror=…) into a DOM, which Chrome reports as CSP violations even in an
 * inert document (docs/decisions/0015-front-door.md); DOMPurify stays as the second line.
 */
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: { html: ({ text }) => escapeHtml(text) },
});

let purifier: DOMPurify | null = null;
let dom: WindowLike | null = typeof window === 'undefined' ? null : window;

/**
 * On a server there is no window: the edge's per-request render lends one (jsdom, the DOM
 * DOMPurify supports outside a browser; docs/decisions/0022-post-page-rendered-per-request.md). Without it,
 * renderMarkdown throws, and the page is sent without the rendered post rather than unsanitised.
 */
export function sanitiseWith(window: WindowLike): void {
  if (window === dom) return;
  dom = window;
  purifier = null;
}

function getPurifier(): DOMPurify {
  if (purifier) return purifier;
  if (!dom) throw new Error('renderMarkdown needs a DOM to sanitise with');
  const instance = createDOMPurify(dom);
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      // Links leave the page without handing it window.opener or the referrer.
      node.setAttribute('rel', 'noopener noreferrer');
      if (node.getAttribute('target')) node.setAttribute('target', '_blank');
    }
  });
  purifier = instance;
  return instance;
}

const ALLOWED_URI = /^(?:https?:|mailto:|\/|#)/i;

export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown) as string;
  return getPurifier().sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'iframe', 'object', 'embed', 'form', 'input', 'button', 'textarea', 'select'],
    FORBID_ATTR: ['style'],
    ALLOWED_URI_REGEXP: ALLOWED_URI,
  });
}
