// Pre-rendered first screens (issue 16, docs/decisions/0018-prerendered-first-screen.md): at build time, an
// app with `src/prerender.tsx` renders its static routes to HTML in Node, so a first visit paints the page
// from the HTML instead of waiting for ~170 KiB of JavaScript. A remote writes `dist/prerender.json` (it
// travels inside every release); the shell writes its frame (header, footer) into `dist/index.html`.
//
// An app's `src/prerender.tsx` exports:
//   prerenderPaths: string[]                      the paths whose first screen is the same for every guest
//   Prerender: ComponentType<{ path: string, dom?: Window }>  what to render for one path (the providers are
//                                                 added here); dom: a DOM lent by the edge per request
//   serverRequests?: (path) => string[] | null    optional: the API GETs (path and query) a guest's first
//                                                 screen of `path` is rendered from. With it, the renderer
//                                                 itself ships in the dist as `server-render.mjs`, and the
//                                                 edge renders that path per request with the API's
//                                                 answers (docs/decisions/0021-first-screen-with-data.md).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PRERENDER_FILE, REGION_MARKER, SERVER_RENDER_FILE, styleBlock } from '@app/page-format';

const require = createRequire(import.meta.url);

export const PRERENDER_ENTRY = 'src/prerender.tsx';
export { PRERENDER_FILE };

/** Whether the app's prerender entry declares data-backed pages (a plain text check: the entry is ours). */
const declaresServerRequests = (source) => /export\s+(?:function|const)\s+serverRequests\b/.test(source);

// The wrapper every app's pages render in: the shared theme, a guest session, a router at the path, and a
// fresh emotion cache per page, so each page's CSS is exactly the rules it uses (collected from the cache
// instead of inline <style> tags, which would need a CSP hash each). The rules' ids go with them: emotion
// in the browser reads them from the block's data-emotion attribute and does not insert those rules again.
const wrapperSource = (entry, cachePath, withServerRequests) => `
import { forgetPrimedResponses, primeResponses } from '@app/api-client';
import { MemoryRouter } from '@app/router';
import { SessionProvider } from '@app/session';
import { theme } from '@app/ui';
import createCache from ${JSON.stringify(cachePath)};
import { CacheProvider, ThemeProvider } from '@emotion/react';
import { renderToString } from 'react-dom/server';
import { Prerender, prerenderPaths${withServerRequests ? ', serverRequests as appServerRequests' : ''} } from ${JSON.stringify(entry)};

// The picture carries no ids and nothing that points at one (label for, aria-*by, aria-controls): it is
// hidden from assistive technology anyway, and so no label, link or script finds a control in the picture
// instead of the live one, and the live page never meets its own ids twice. (React escapes quotes in
// attribute values and text, so the pattern cannot match inside either.)
const ID_ATTRIBUTES = /\\s(?:id|for|aria-labelledby|aria-describedby|aria-controls)="[^"]*"/g;
const withoutIds = (html) => html.replace(ID_ATTRIBUTES, '');

export { prerenderPaths };
export const serverRequests = ${withServerRequests ? 'appServerRequests' : '() => null'};

/**
 * One page: { html, css, ids }. \`primed\`: the API's answers it is rendered from (the api client's peek).
 * \`window\`: a DOM the edge lends (jsdom) for what needs one on a server, e.g. a sanitiser.
 */
export function renderPage(path, primed = {}, { window } = {}) {
  const cache = createCache({ key: 'css' });
  cache.compat = true;
  primeResponses(primed);
  let html;
  try {
    html = renderToString(
    <CacheProvider value={cache}>
      <ThemeProvider theme={theme}>
        <MemoryRouter initialEntries={[path]}>
          <SessionProvider>
            <Prerender path={path} dom={window} />
          </SessionProvider>
        </MemoryRouter>
      </ThemeProvider>
    </CacheProvider>,
    );
  } finally {
    forgetPrimedResponses();
  }
  const rules = Object.entries(cache.inserted).filter(([, rule]) => typeof rule === 'string');
  return { html: withoutIds(html), css: rules.map(([, rule]) => rule).join(''), ids: rules.map(([id]) => id) };
}
`;

/**
 * Bundles the app's prerender entry for Node (production React, the app's own sources) and imports it. An
 * app with serverRequests keeps the bundle: it is written to `keepAs` (its dist), to travel in its releases.
 */
async function loadRenderer(appDir, keepAs) {
  const esbuild = await import('esbuild');
  const entry = path.join(appDir, PRERENDER_ENTRY);
  const withServerRequests = declaresServerRequests(fs.readFileSync(entry, 'utf8'));
  const kept = withServerRequests && keepAs;
  const outfile = kept
    ? keepAs
    : path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'prerender-')), 'render.mjs');
  await esbuild.build({
    stdin: {
      contents: wrapperSource(entry, require.resolve('@emotion/cache'), withServerRequests),
      resolveDir: appDir,
      loader: 'tsx',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    jsx: 'automatic',
    jsxImportSource: '@emotion/react',
    define: { 'process.env.NODE_ENV': '"production"' },
    // Bundled CommonJS (react-dom/server) calls require() for Node's own modules.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    if (!kept) fs.rmSync(path.dirname(outfile), { recursive: true, force: true });
  }
}

/**
 * Renders every static path of the app: `{ [path]: { html, css, ids } }` (ids: emotion's, of the css rules).
 * `keepRendererAs`: where an app with serverRequests keeps its renderer (see loadRenderer).
 */
export async function prerenderApp(appDir, keepRendererAs) {
  const { prerenderPaths, renderPage } = await loadRenderer(appDir, keepRendererAs);
  return Object.fromEntries(prerenderPaths.map((p) => [p, renderPage(p)]));
}

/**
 * The shell's frame with the region marker in its main element, and the frame's CSS in the head: the page
 * shows header and footer at first paint, and a region spliced in later lands where the remote will render.
 */
export function frameIntoPage(pageHtml, { html, css, ids }) {
  const SLOT = '<div data-prerender-slot=""></div>';
  if (!html.includes(SLOT))
    throw new Error('prerender: the shell frame has no <PrerenderSlot /> in its main');
  if (!pageHtml.includes('<div id="root"></div>'))
    throw new Error('prerender: index.html has no empty #root');
  return pageHtml
    .replace('</head>', () => `${styleBlock('frame', css, ids)}</head>`)
    .replace(
      '<div id="root"></div>',
      // inert: until the live app replaces it, the picture is not a page one can half use (a button that
      // does nothing, a link, a form). aria-hidden as well: screen readers, and tests that look for roles,
      // meet the live page only (inert alone is not hidden for every accessibility tool).
      () =>
        `<div id="root"><div data-prerendered-frame="" inert="" aria-hidden="true">${html.replace(SLOT, REGION_MARKER)}</div></div>`,
    );
}

/** webpack plugin: after a production build, pre-render the app's first screens into its dist. */
export class PrerenderPlugin {
  constructor({ appDir, isShell }) {
    this.appDir = appDir;
    this.isShell = isShell;
  }
  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('PrerenderPlugin', async (compilation) => {
      if (!fs.existsSync(path.join(this.appDir, PRERENDER_ENTRY))) return;
      const outDir = compilation.outputOptions.path;
      const pages = await prerenderApp(
        this.appDir,
        this.isShell ? undefined : path.join(outDir, SERVER_RENDER_FILE),
      );
      if (this.isShell) {
        const indexFile = path.join(outDir, 'index.html');
        const frame = Object.values(pages)[0];
        fs.writeFileSync(indexFile, frameIntoPage(fs.readFileSync(indexFile, 'utf8'), frame));
      } else {
        fs.writeFileSync(path.join(outDir, PRERENDER_FILE), `${JSON.stringify({ pages })}\n`);
      }
    });
  }
}
