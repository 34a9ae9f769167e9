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

/**
 * @param {{ store: string, manifestFile: string }} releases
 * @returns {(pathname: string) => { remote: string, html: string, css: string } | null}
 */
export function prerenderedRegions({ store, manifestFile }) {
  // A release never changes (its id is its content), so its pages are read once.
  const byRelease = new Map();
  const pagesOf = (remote, version) => {
    const key = `${remote}/${version}`;
    if (!byRelease.has(key)) {
      const file = readJson(path.join(store, remote, version, 'prerender.json'));
      byRelease.set(key, file?.pages && typeof file.pages === 'object' ? file.pages : {});
    }
    return byRelease.get(key);
  };
  return (pathname) => {
    const manifest = readJson(manifestFile);
    for (const [remote, deployment] of Object.entries(manifest?.remotes ?? {})) {
      const version = deployment?.stable;
      if (!REMOTE.test(remote) || typeof version !== 'string' || !VERSION.test(version)) continue;
      const page = pagesOf(remote, version)[pathname];
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
  return shellHtml
    .replace('</head>', () => `${styleBlock('region', region.css, ids)}</head>`)
    .replace(REGION_MARKER, () => `<div ${attrs}>${region.html}</div>`);
}
