// The shell's pre-rendered frame (tooling/webpack/prerender.mjs): header and footer as a guest sees them,
// with an empty main that the edge fills with the route's pre-rendered region. Rendered at a path no
// navigation item matches, so no item is marked current before the live app knows the route.
import { Frame } from './app';

export const prerenderPaths = ['/__frame'];

/** The spot in <main> where the page takes the region (replaced by a marker in the built index.html). */
function PrerenderSlot() {
  return <div data-prerender-slot="" />;
}

export function Prerender(_props: { path: string }) {
  return (
    <Frame>
      <PrerenderSlot />
    </Frame>
  );
}
