// The shell's page as one visitor gets it (docs/decisions/0018-prerendered-first-screen.md, 0026-edge.md):
// the built index.html (the frame, a marker in <main>) with the route's region of the visitor's release
// spliced in, the plan the shell starts from, and preloads of the route's remote code.
import { randomUUID } from 'node:crypto';
import { REGION_MARKER, styleBlock } from '@app/page-format';
import type { Region } from './regions';

/** A JSON file the page will fetch() in CORS mode, as its preload must be too (else it goes unused). */
export interface Preload {
  href: string;
  as: 'fetch';
}

export interface PageParts {
  pathname: string;
  region: Region | null;
  /** The plan's data block (@app/rollout pagePlanBlock), or null when there is no valid plan to give. */
  planBlock: string | null;
  preloads: Preload[];
  /** The build's preloads of startup files the plan replaces (config.json, deployment.json). */
  unneededPreloads: string[];
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

function preloadTag({ href, as }: Preload): string {
  return `<link rel="preload" href="${escapeAttr(href)}" as="${as}" crossorigin="anonymous" />`;
}

/**
 * The API's answers a server-rendered region was made from, for the live app to start from (the api
 * client's PRIMED_RESPONSES_SELECTOR). A data block: the browser never runs it. "<" is escaped so no answer
 * can close the element early.
 */
export function primedBlock(primed: Record<string, unknown>): string {
  const json = JSON.stringify(primed).replace(/</g, '\\u003c');
  return `<script type="application/json" data-primed-responses="">${json}</script>`;
}

export interface ComposedPage {
  html: string;
  /**
   * The same page without the region's HTML: everything in it is the edge's own (the shell's page, the
   * blocks the edge writes), so its inline blocks are what the CSP may admit by hash (security-headers.ts).
   */
  trusted: string;
}

/**
 * The region's CSS goes in the head (a style block the CSP admits by hash), its HTML where the remote will
 * render, marked (remote, version, path) for the shell to keep on screen until the live remote has rendered.
 * The region's HTML must have been cleaned (region-html.ts) before it gets here.
 */
export function composePage(shellHtml: string, parts: PageParts): ComposedPage {
  let page = shellHtml;
  for (const href of parts.unneededPreloads) {
    page = page.replace(
      new RegExp(`\\s*<link rel="preload" href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`),
      '',
    );
  }
  const head = [...parts.preloads.map(preloadTag), parts.planBlock ?? ''];
  const { region } = parts;
  let regionAt: string | null = null;
  if (region && page.includes(REGION_MARKER)) {
    head.push(styleBlock('region', region.css, region.ids));
    const attrs = [
      `data-prerendered-region="${region.remote}"`,
      `data-version="${escapeAttr(region.version)}"`,
      `data-path="${escapeAttr(encodeURI(parts.pathname))}"`,
    ].join(' ');
    // A slot no release's CSS or data can contain, where the region's HTML goes last.
    regionAt = `<!--region-${randomUUID()}-->`;
    page = page.replace(REGION_MARKER, () => `<div ${attrs}>${regionAt}</div>`);
    if (region.primed) page = page.replace('</body>', () => `${primedBlock(region.primed ?? {})}</body>`);
  }
  page = page.replace('</head>', () => `${head.filter(Boolean).join('')}</head>`);
  if (!region || regionAt === null) return { html: page, trusted: page };
  const at = page.indexOf(regionAt);
  const [before, after] = [page.slice(0, at), page.slice(at + regionAt.length)];
  return { html: `${before}${region.html}${after}`, trusted: `${before}${after}` };
}
