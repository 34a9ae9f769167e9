// The shell's page with the route's first screen already in it (docs/decisions/0018-prerendered-first-screen.md).
// The shell's build carries its frame (header, footer) and a marker in <main>; each remote's release carries
// `prerender.json`, its static routes rendered at build time ({ pages: { [path]: { html, css } } }). Per
// request, the page takes the fragment of the route's remote from the version the deployment manifest names
// as stable, so a new stable release is what first paints as soon as it is rolled out. A canary visitor sees
// the stable screen until the canary renders over it.
import fs from 'node:fs';
import path from 'node:path';

/** Where the shell's built page (tooling/webpack/prerender.mjs) takes a remote's region. */
export const REGION_MARKER = '<!--prerendered-region-->';

const VERSION = /^\d[0-9A-Za-z.-]*-[0-9a-f]{10}$/;
const REMOTE = /^mf-[a-z-]+$/;

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** The releases the deployment manifest names stable, as [remote, version, folder], read per call. */
export function stableReleases({ store, manifestFile }) {
  const manifest = readJson(manifestFile);
  return Object.entries(manifest?.remotes ?? {})
    .map(([remote, deployment]) => [remote, deployment?.stable])
    .filter(
      ([remote, version]) => REMOTE.test(remote) && typeof version === 'string' && VERSION.test(version),
    )
    .map(([remote, version]) => [remote, version, path.join(store, remote, version)]);
}

/**
 * @returns {(pathname: string, stable: ReturnType<typeof stableReleases>) =>
 *   { remote: string, html: string, css: string } | null}  stable: this request's stableReleases()
 */
export function prerenderedRegions() {
  // A release never changes (its id is its content), so its pages are read once.
  const byRelease = new Map();
  const pagesOf = (folder) => {
    if (!byRelease.has(folder)) {
      const file = readJson(path.join(folder, 'prerender.json'));
      byRelease.set(folder, file?.pages && typeof file.pages === 'object' ? file.pages : {});
    }
    return byRelease.get(folder);
  };
  return (pathname, stable) => {
    for (const [remote, , folder] of stable) {
      const page = pagesOf(folder)[pathname];
      if (typeof page?.html === 'string' && typeof page.css === 'string') return { remote, ...page };
    }
    return null;
  };
}

const EMOTION_ID = /^[A-Za-z0-9_-]+$/;

/**
 * A pre-rendered page's style block. `data-emotion="css <ids>"` is emotion's own server-rendering format: the
 * browser-side cache marks those rules as present and does not serialize them into the sheet again.
 */
export function styleBlock(name, css, ids = []) {
  const known = ids.filter((id) => EMOTION_ID.test(id));
  const emotion = known.length ? ` data-emotion="css ${known.join(' ')}"` : '';
  // CSS never legitimately contains "</style"; drop it rather than let it close the block early.
  return `<style data-prerendered="${name}"${emotion}>${css.replace(/<\/style/gi, '')}</style>`;
}

/**
 * The shell's page with a region spliced in: the region's CSS in the head (a style block the CSP admits by
 * hash), its HTML where the remote will render, marked for the shell to keep on screen until it has.
 */
export function pageWithRegion(shellHtml, pathname, region) {
  if (!region || !shellHtml.includes(REGION_MARKER)) return shellHtml;
  const attrs = `data-prerendered-region="${region.remote}" data-path="${encodeURI(pathname)}"`;
  const ids = Array.isArray(region.ids) ? region.ids : [];
  const page = shellHtml
    .replace('</head>', () => `${styleBlock('region', region.css, ids)}</head>`)
    .replace(REGION_MARKER, () => `<div ${attrs}>${region.html}</div>`);
  return region.primed ? page.replace('</body>', () => `${primedBlock(region.primed)}</body>`) : page;
}

/**
 * The API's answers a server-rendered region was made from, for the live app to start from (the api
 * client's PRIMED_RESPONSES_SELECTOR). A data block: the browser never runs it, so the CSP needs no hash.
 * "<" is escaped so no answer can close the element early.
 */
export function primedBlock(primed) {
  const json = JSON.stringify(primed).replace(/</g, '\\u003c');
  return `<script type="application/json" data-primed-responses="">${json}</script>`;
}
