import { findRoute, type RemoteName } from '@app/federation';
import type { RemoteChoice } from '@app/rollout';
import { currentChoice } from '../federation/remotes';
import { hasHealthTicket, measure, sendWhenHidden } from './health';
import { releaseSources, watchRuntimeErrors } from './runtime-errors';

/**
 * Starts watching what this page view feels (docs/decisions/0027-health-gate.md), once the remotes are
 * registered: runtime errors at once, the Web Vitals once the page has loaded and is idle, and a report sent
 * whenever the page is hidden. Nothing without a ticket.
 */
export function watchPageHealth(plan: Record<RemoteName, RemoteChoice>, path = location.pathname): void {
  if (!hasHealthTicket()) return;
  const started = performance.now();
  watchRuntimeErrors(releaseSources(plan));
  sendWhenHidden();
  measure('health:start', started);
  const route = findRoute(path);
  if (!route) return;
  const vitals = () =>
    import(/* webpackChunkName: "web-vitals" */ './web-vitals').then(({ watchWebVitals }) => {
      watchWebVitals(() => currentChoice(route.remote));
      sendWhenHidden(); // after the library's own listeners: its last values go in the same report
    });
  const whenIdle = () =>
    'requestIdleCallback' in window
      ? requestIdleCallback(() => void vitals())
      : setTimeout(() => void vitals(), 1);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
