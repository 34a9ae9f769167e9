import type { RemoteChoice } from '@app/rollout';
import { type Metric, onCLS, onINP, onLCP } from 'web-vitals';
import { measure, reportHealth } from './health';

/**
 * LCP, INP and CLS of this page view with Google's web-vitals library, charged to the remote whose route the
 * page was opened on, at the version that runs it (docs/decisions/0027-health-gate.md). A chunk of its own,
 * loaded once the page is idle: the library reads the buffered performance entries, so it misses nothing
 * by starting late, and costs the first screen nothing.
 */
export function watchWebVitals(routeRemote: () => Pick<RemoteChoice, 'remote' | 'version'>): void {
  const started = performance.now();
  const record = (kind: 'lcp' | 'inp' | 'cls') => (metric: Metric) =>
    reportHealth(routeRemote(), kind, metric.value);
  onLCP(record('lcp'));
  onINP(record('inp'));
  onCLS(record('cls'));
  measure('health:web-vitals', started);
}
