/**
 * The shell's startup files, each fetched once and shared by whoever asks first: the first script (which
 * starts them before the shared modules load, to preload the route's remote) and bootstrap (which
 * validates them). The HTML preloads the default ones, so they are usually in flight before any script runs.
 */
export interface FetchedJson {
  ok: boolean;
  status: number;
  /** The parsed body; undefined when it was not JSON. */
  body: unknown;
}

const started = new Map<string, Promise<FetchedJson>>();

export function fetchJsonOnce(url: string): Promise<FetchedJson> {
  const key = new URL(url, window.location.href).href;
  let pending = started.get(key);
  if (!pending) {
    // Default cache mode, so a <link rel="preload"> of the same URL is used; the server sends no-cache.
    pending = fetch(key).then(async (response) => ({
      ok: response.ok,
      status: response.status,
      body: await response.json().catch(() => undefined),
    }));
    started.set(key, pending);
  }
  return pending;
}

export const CONFIG_URL = '/config.json';
