import { API_PATHS, type RolloutHealthReport } from '@app/contracts';
import type { RemoteChoice } from '@app/rollout';

/**
 * Health reports feed `pnpm rollout status` and the health gate: per remote and version, loads, load
 * failures and error-boundary hits. Fire and forget (keepalive survives a navigation); never personal data.
 */
let apiBaseUrl: string | null = null;

export function configureHealthReports(baseUrl: string): void {
  apiBaseUrl = baseUrl;
}

export function reportHealth(
  choice: Pick<RemoteChoice, 'remote' | 'version' | 'track'>,
  event: RolloutHealthReport['event'],
  ms?: number,
): void {
  if (!apiBaseUrl || choice.version === null || choice.track === 'config') return;
  const report: RolloutHealthReport = {
    remote: choice.remote,
    version: choice.version,
    track: choice.track,
    event,
    ...(ms === undefined ? {} : { ms: Math.max(0, Math.min(600_000, Math.round(ms))) }),
  };
  try {
    void fetch(`${apiBaseUrl}${API_PATHS.rolloutHealth}`, {
      method: 'POST',
      keepalive: true,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(report),
    }).catch(() => undefined);
  } catch {
    // reporting must never break the page
  }
}
