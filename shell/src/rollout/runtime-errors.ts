import type { RemoteChoice } from '@app/rollout';
import { reportHealth } from './health';

/**
 * Runtime errors after the first render, charged to the remote release whose code threw
 * (docs/decisions/0027-health-gate.md): an uncaught error or unhandled rejection whose stack (or script URL)
 * names a file under a release's folder counts as a `runtime-error` of that remote's version. Errors of the
 * shell, of the browser's extensions or without a stack are nobody's release: not counted.
 */
export interface ReleaseSource {
  /** The release's folder URL, ending in "/" (its manifest's directory). */
  base: string;
  remote: RemoteChoice['remote'];
  version: string;
}

/** The folders of every versioned remote a plan may load: each choice and the stable it falls back to. */
export function releaseSources(plan: Record<string, RemoteChoice>): ReleaseSource[] {
  const sources: ReleaseSource[] = [];
  for (const choice of Object.values(plan)) {
    for (const option of [choice, choice.fallback]) {
      if (!option?.version || option.track === 'config') continue;
      sources.push({ base: new URL('.', option.entry).href, remote: choice.remote, version: option.version });
    }
  }
  return sources;
}

const URL_IN_STACK = /https?:\/\/[^\s()'"<>]+/g;

/** The release a stack trace's first frame from a release folder belongs to, or null. */
export function releaseOfError(
  sources: readonly ReleaseSource[],
  stack: string | undefined,
  filename?: string,
): ReleaseSource | null {
  const urls = [...(stack?.match(URL_IN_STACK) ?? []), ...(filename ? [filename] : [])];
  for (const url of urls) {
    const found = sources.find((s) => url.startsWith(s.base));
    if (found) return found;
  }
  return null;
}

function stackOf(value: unknown): string | undefined {
  return value instanceof Error ? value.stack : undefined;
}

export function watchRuntimeErrors(sources: readonly ReleaseSource[], target: Window = window): void {
  if (sources.length === 0) return;
  const charge = (source: ReleaseSource | null) => {
    if (source) reportHealth(source, 'runtime-error');
  };
  target.addEventListener('error', (event) => {
    charge(releaseOfError(sources, stackOf(event.error), event.filename));
  });
  target.addEventListener('unhandledrejection', (event) => {
    charge(releaseOfError(sources, stackOf(event.reason)));
  });
}
