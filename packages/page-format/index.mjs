// The format a build hands the edge (docs/decisions/0018-prerendered-first-screen.md, 0026-edge.md): where
// the shell's page takes a remote's region, what a release's pre-rendered pages and its renderer are called,
// and how a region's CSS is written. Plain JavaScript with its types beside it (index.d.mts), because both
// sides read it: the webpack plugin (tooling/webpack/prerender.mjs, run by plain node) and the edge (TypeScript).

/** Where the shell's built page takes a remote's region. */
export const REGION_MARKER = '<!--prerendered-region-->';

/** A release's static routes rendered at build time: { pages: { [path]: { html, css, ids? } } }. */
export const PRERENDER_FILE = 'prerender.json';

/** A release's renderer of the first screens that show data (serverRequests, renderPage). */
export const SERVER_RENDER_FILE = 'server-render.mjs';

const EMOTION_ID = /^[A-Za-z0-9_-]+$/;

/**
 * A pre-rendered page's style block. `data-emotion="css <ids>"` is emotion's own server-rendering format: the
 * browser-side cache marks those rules as present and does not serialize them into the sheet again.
 * @param {string} name @param {string} css @param {string[]} [ids]
 */
export function styleBlock(name, css, ids = []) {
  const known = ids.filter((id) => EMOTION_ID.test(id));
  const emotion = known.length ? ` data-emotion="css ${known.join(' ')}"` : '';
  // CSS never legitimately contains "</style"; drop it rather than let it close the block early.
  return `<style data-prerendered="${name}"${emotion}>${css.replace(/<\/style/gi, '')}</style>`;
}
