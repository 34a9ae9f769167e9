// The first screen the server put into the page (docs/decisions/0018-prerendered-first-screen.md): read once
// before React replaces the page's pre-rendered content, then shown as the route region's loading state
// until the remote has rendered the same screen live, so a first visit goes picture -> live page with no
// skeleton in between and nothing moving.
import { forgetPrimedResponses } from '@app/api-client';
import type { RemoteName } from '@app/federation';
import { containerOf, isRemotePackage } from '@app/rollout';

interface Prerendered {
  /** The server names the remote by package (mf-public-pages), the shell's routes by container (mf_public_pages). */
  remote: RemoteName;
  path: string;
  html: string;
}

let prerendered: Prerendered | null = null;

/** Call before the first render: keeps the server's region (if any) for its remote's first load. */
export function takePrerenderedRegion(doc: Document = document): void {
  const region = doc.querySelector<HTMLElement>('[data-prerendered-region]');
  const remote = region?.dataset.prerenderedRegion;
  prerendered =
    region && isRemotePackage(remote)
      ? { remote: containerOf(remote), path: decodeURI(region.dataset.path ?? ''), html: region.innerHTML }
      : null;
}

/**
 * The remote has rendered: the picture is never shown again, and the API answers it was rendered from are
 * dropped (a later visit to the path loads live, with fresh answers).
 */
export function forgetPrerenderedRegion(): void {
  prerendered = null;
  forgetPrimedResponses();
}

/**
 * The pre-rendered screen for this remote at this path, as a region fallback, or undefined. Inert and hidden
 * from assistive technology: it looks like the page but is not yet one (see tooling/webpack/prerender.mjs).
 */
export function prerenderedFallback(remote: RemoteName, pathname: string) {
  if (!prerendered || prerendered.remote !== remote || prerendered.path !== pathname) return undefined;
  return (
    <div
      data-prerendered-region={remote}
      inert
      aria-hidden
      // Our own release's HTML, rendered by React at build time from the remote's components (no user input).
      dangerouslySetInnerHTML={{ __html: prerendered.html }}
    />
  );
}
