// The response headers that make the front door strict (docs/decisions/0015-front-door.md): a
// Content-Security-Policy generated from the runtime config and the page's own inline blocks, and the
// other security headers, in one place for every app the edge serves.
import { createHash } from 'node:crypto';
import { DEFAULT_CORS_ORIGINS } from '@app/rollout';

/** Where browsers send CSP violation reports (served by the same edge, see serve.ts). */
export const CSP_REPORT_PATH = '/csp-report';

/**
 * emotion (production) inserts its rules through the CSSOM into `<style>` elements it creates empty, with
 * one empty text node. CSP does not govern CSSOM rule insertion, only the element's text: the hash of ''
 * admits exactly those empty elements, so no 'unsafe-inline' is needed for styles.
 */
const EMPTY_STYLE_HASH = `'sha256-${createHash('sha256').update('').digest('base64')}'`;

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** A `<script>` the browser runs (no type, or a JavaScript one, or a module); others are data blocks. */
function isRunnable(attributes: string): boolean {
  const type = /\stype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes)?.[1]?.toLowerCase() ?? '';
  return ['', 'module', 'text/javascript', 'application/javascript'].includes(type);
}

/**
 * The CSP hashes of the inline `<script>` blocks the browser would run (not those with src, not data blocks
 * such as the page plan, which no policy governs) and of the `<style>` blocks. Given the edge's own HTML only
 * (the shell's page and the blocks the edge writes), never a region a release rendered: a script injected
 * into a render is then no script the policy admits (docs/decisions/0036-render-sandbox.md).
 */
export function inlineHashes(html: string): { scripts: string[]; styles: string[] } {
  const scripts: string[] = [];
  const styles: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? '';
    if (!/\ssrc\s*=/i.test(attributes) && isRunnable(attributes) && match[2]) scripts.push(hashOf(match[2]));
  }
  for (const match of html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/gi))
    styles.push(hashOf(match[1] ?? ''));
  return { scripts, styles };
}

function originOf(url: string, base?: string): string | null {
  try {
    const { protocol, origin } = new URL(url, base);
    return protocol === 'http:' || protocol === 'https:' ? origin : null;
  } catch {
    return null;
  }
}

/** Origins other than the page's own that the shell loads code from or talks to, per its runtime config. */
/** The parts of a runtime config the policy reads (config.json as served, validated or not). */
export interface PolicyConfig {
  apiBaseUrl?: unknown;
  remotes?: Record<string, { url?: unknown } | undefined>;
}

const asUrl = (value: unknown) => (typeof value === 'string' ? value : '');

export function configOrigins(runtimeConfig: PolicyConfig | undefined, selfOrigin: string) {
  const remotes = Object.values(runtimeConfig?.remotes ?? {})
    .map((remote) => originOf(asUrl(remote?.url), selfOrigin))
    .filter((origin): origin is string => origin !== null && origin !== selfOrigin);
  const api = originOf(asUrl(runtimeConfig?.apiBaseUrl), selfOrigin);
  const unique = (list: string[]) => [...new Set(list)].sort();
  return { remotes: unique(remotes), api: api && api !== selfOrigin ? api : null };
}

/**
 * html: the edge's own HTML of the page (never a release's region), for the hashes of its inline blocks;
 * runtimeConfig: the shell's config.json (remote URLs,
 * API address), none for a remote; selfOrigin: the origin the page is served from (relative URLs resolve to it).
 */
export function contentSecurityPolicy({
  html,
  runtimeConfig,
  selfOrigin,
  devOrigin,
}: {
  html: string;
  runtimeConfig?: PolicyConfig;
  selfOrigin: string;
  /**
   * A dev override's origin (issue 47), on the page of the one browser whose cookie holds a valid link: its
   * scripts, its fetches and its live-reload socket (ws: or wss: on the same host and port). Nobody else's
   * policy names it.
   */
  devOrigin?: string | null;
}): string {
  const { scripts, styles } = inlineHashes(html);
  const config = configOrigins(runtimeConfig, selfOrigin);
  const dev = devOrigin ? originOf(devOrigin) : null;
  const remotes = dev && !config.remotes.includes(dev) ? [...config.remotes, dev] : config.remotes;
  const sockets = dev ? [dev.replace(/^http/, 'ws')] : [];
  const { api } = config;
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    // The shell's own bundles and the release store are 'self'; remotes on their own origins (config.json
    // URLs) are named one by one. No 'unsafe-inline', no 'unsafe-eval': inline blocks go by hash.
    // 'report-sample': a report of a refused inline script carries its first characters, so an operator sees
    // what a release's render (or a post) tried to run.
    'script-src': ["'self'", ...remotes, ...scripts, "'report-sample'"],
    'style-src': ["'self'", ...styles, EMPTY_STYLE_HASH],
    'connect-src': ["'self'", ...remotes, ...sockets, ...(api ? [api] : [])],
    // data: for the inline favicon; https: for images authors link in their Markdown.
    'img-src': ["'self'", 'data:', 'https:'],
    'font-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'report-uri': [CSP_REPORT_PATH],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** Sent with every response of every app. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/** Sent with HTML pages, beside the CSP: no framing, no powerful features, an isolated browsing context. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'X-Frame-Options': 'DENY',
  'Permissions-Policy':
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/**
 * CORS for a remote's files: only the product's own pages (CORS_ORIGINS) may read them (manifest fetches and the entry, which
 * the shell loads with `crossorigin` for its integrity check). Returns the headers to add.
 */
export function corsHeaders(
  requestOrigin: string | undefined,
  allowedOrigins: readonly string[],
): Record<string, string> {
  if (!requestOrigin || !allowedOrigins.includes(requestOrigin)) return { Vary: 'Origin' };
  return { 'Access-Control-Allow-Origin': requestOrigin, Vary: 'Origin' };
}

/** `CORS_ORIGINS` (comma-separated) or the defaults; each must be an http(s) origin (config.ts reads it). */
export function corsOriginsFrom(value: string | undefined): string[] {
  if (!value) return [...DEFAULT_CORS_ORIGINS];
  const origins = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (originOf(origin) !== origin) throw new Error(`CORS_ORIGINS: "${origin}" is not an origin`);
  }
  return origins;
}
