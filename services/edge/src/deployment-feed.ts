// The deployment an edge serves, as the API publishes it (docs/decisions/0030-deploy-control-plane.md): a
// long poll of the public feed `GET /api/deployment/<env>?after=<revision>`. The API answers at once with
// a newer revision, or 204 after ~25 s of none, and the edge asks again; so a change made through any API
// instance reaches every edge within the API's own watch interval (~200 ms), with no file on a shared disk.
// The last good manifest is kept through an API outage (pages go on with it) and through a manifest that
// does not validate; reconnects back off 250 ms doubling to 5 s. The feed also carries the environment's
// preview links (decision 0037) with a revision of their own: the poll asks `after=<revision>&previews=<n>`
// and is answered when either moves, so a link made or revoked reaches every edge as fast as a rollout.
import { DEPLOY_PATHS, FeedOverrideSchema, FeedPreviewSchema } from '@app/contracts/deploy';
import { type DeploymentManifest, type FeedPreview, parseManifest } from '@app/rollout';
import type { FeedOverride } from '@app/rollout/dev-override';
import * as v from 'valibot';

export interface FeedStatus {
  environment: string;
  /** The feed's URL as last asked (null: no API URL known yet). */
  url: string | null;
  /** The revision of the manifest in use (null before the first). */
  revision: number | null;
  /** The revision of the preview links in use (null before the first). */
  previewsRevision: number | null;
  /** When the API last answered (any answer: a manifest, 204, an error status). */
  lastContactAt: string | null;
  lastManifestAt: string | null;
  /** Why the last attempt failed, until one succeeds. */
  error: string | null;
  errorAt: string | null;
  /** Failed attempts since the last success. */
  failures: number;
}

export interface ManifestFeed {
  manifest(): DeploymentManifest | null;
  /** The environment's preview links (decision 0037); null before the first answer that had them. */
  previews(): readonly FeedPreview[] | null;
  /** The environment's dev override links (issue 47), published with the preview links; null likewise. */
  overrides(): readonly FeedOverride[] | null;
  status(): FeedStatus;
  /** Whether a first manifest has arrived (readiness). */
  hasManifest(): boolean;
  /** Calls `listener` with each new valid manifest (the edge starts the render workers it will need). */
  onManifest(listener: (manifest: DeploymentManifest) => void): void;
  /** Resolves once the feed has read `revision` or a later one, valid or not (tests, start-up). */
  waitFor(revision: number, timeoutMs?: number): Promise<void>;
  /** Resolves once the feed has the preview links' `revision` or a later one (tests). */
  waitForPreviews(revision: number, timeoutMs?: number): Promise<void>;
  /** Ends the loop and aborts the poll in flight (a drain must not wait out a 25 s poll). */
  stop(): void;
}

export interface FeedOptions {
  /** The API's base URL, asked before each poll (it may come from a config file that changes). */
  apiUrl: () => string | null;
  environment: string;
  fetchImpl?: typeof fetch;
  /** A failed attempt or a manifest that does not validate (the caller logs it once, counts the rest). */
  onError?: (kind: 'feed-unreachable' | 'manifest-invalid', error: unknown) => void;
  /** Called when the API is reachable again after failures. */
  onRecovered?: (failures: number) => void;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** A poll's own limit, above the API's ~25 s wait: a silent connection is dropped and asked again. */
  pollTimeoutMs?: number;
}

/**
 * The preview links of an answer, or null when it has none (an API from before decision 0037) or they do not
 * validate: then the last good list stays, as a manifest that does not validate does.
 */
function previewsOf(
  raw: unknown,
): { revision: number; links: FeedPreview[]; overrides: FeedOverride[] } | null {
  const parsed = v.safeParse(
    v.object({
      revision: v.pipe(v.number(), v.integer()),
      links: v.array(FeedPreviewSchema),
      // An API from before issue 47 publishes none: no override link is then valid.
      overrides: v.optional(v.array(FeedOverrideSchema), []),
    }),
    raw,
  );
  return parsed.success ? parsed.output : null;
}

export function deploymentFeed(o: FeedOptions): ManifestFeed {
  const fetchImpl = o.fetchImpl ?? fetch;
  const minBackoff = o.minBackoffMs ?? 250;
  const maxBackoff = o.maxBackoffMs ?? 5000;
  const pollTimeoutMs = o.pollTimeoutMs ?? 35_000;
  const stopper = new AbortController();
  let manifest: DeploymentManifest | null = null;
  let previews: readonly FeedPreview[] | null = null;
  let overrides: readonly FeedOverride[] | null = null;
  // The revision asked `after`: the last one seen, valid or not (an invalid one is skipped, not re-read);
  // the same for the preview links' revision.
  let after: number | null = null;
  let previewsAfter: number | null = null;
  let backoff = minBackoff;
  const status: FeedStatus = {
    environment: o.environment,
    url: null,
    revision: null,
    previewsRevision: null,
    lastContactAt: null,
    lastManifestAt: null,
    error: null,
    errorAt: null,
    failures: 0,
  };
  const waiters = new Set<() => void>();
  const listeners = new Set<(manifest: DeploymentManifest) => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      stopper.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });

  function failed(kind: 'feed-unreachable' | 'manifest-invalid', error: unknown) {
    status.failures += 1;
    status.error = error instanceof Error ? error.message : String(error);
    status.errorAt = new Date().toISOString();
    o.onError?.(kind, error);
  }

  function succeeded() {
    if (status.failures > 0 && status.error) o.onRecovered?.(status.failures);
    status.failures = 0;
    status.error = null;
    backoff = minBackoff;
  }

  /** One request: true when the next may follow at once, false when it should back off. */
  async function pollOnce(): Promise<boolean> {
    const base = o.apiUrl();
    if (!base) {
      failed('feed-unreachable', new Error('no API URL: set API_URL (or an absolute apiBaseUrl)'));
      return false;
    }
    const url = new URL(DEPLOY_PATHS.feed(o.environment), base);
    if (after !== null) url.searchParams.set('after', String(after));
    if (after !== null && previewsAfter !== null) url.searchParams.set('previews', String(previewsAfter));
    status.url = url.href;
    const response = await fetchImpl(url, {
      headers: { Accept: 'application/json' },
      signal: AbortSignal.any([stopper.signal, AbortSignal.timeout(pollTimeoutMs)]),
    });
    status.lastContactAt = new Date().toISOString();
    if (response.status === 204) {
      await response.arrayBuffer();
      succeeded();
      return true;
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const detail = text.match(/"error"\s*:\s*"([^"]*)"/)?.[1] ?? text.slice(0, 200);
      failed('feed-unreachable', new Error(`${url.pathname} answered ${response.status}: ${detail}`));
      return false;
    }
    const body = (await response.json()) as { revision?: unknown; manifest?: unknown; previews?: unknown };
    if (typeof body?.revision !== 'number' || !Number.isSafeInteger(body.revision)) {
      failed('manifest-invalid', new Error(`${url.pathname} answered without a revision`));
      return false;
    }
    const links = previewsOf(body.previews);
    const samePreviews = links === null || links.revision === previewsAfter;
    if (links && !samePreviews) {
      previews = links.links;
      overrides = links.overrides;
      previewsAfter = links.revision;
      status.previewsRevision = links.revision;
    }
    // The same revisions again are no news; pausing keeps an API that answers so at once from a busy loop.
    // (A lower one is taken: a restored database is the deployment now.)
    const same = body.revision === after;
    after = body.revision;
    succeeded();
    if (same) {
      if (samePreviews) await sleep(minBackoff);
      else wake();
      return true;
    }
    try {
      const parsed = parseManifest(body.manifest);
      manifest = parsed;
      status.revision = body.revision;
      status.lastManifestAt = status.lastContactAt;
      for (const listener of listeners) {
        try {
          listener(parsed);
        } catch {
          // a listener's trouble is its own; the feed goes on
        }
      }
    } catch (error) {
      // Skipped (the next poll waits for a newer revision); the last good manifest stays in use.
      failed('manifest-invalid', error);
    }
    wake();
    return true;
  }

  /** Resolves when `done()` holds, checked now and after each answer; rejects after `timeoutMs`. */
  function reached(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        finish();
        resolve();
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`the feed did not reach ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  }

  void (async () => {
    while (!stopper.signal.aborted) {
      let next: boolean;
      try {
        next = await pollOnce();
      } catch (error) {
        if (stopper.signal.aborted) break;
        failed('feed-unreachable', error);
        next = false;
      }
      if (!next && !stopper.signal.aborted) {
        await sleep(backoff);
        backoff = Math.min(backoff * 2, maxBackoff);
      }
    }
  })();

  return {
    manifest: () => manifest,
    previews: () => previews,
    overrides: () => overrides,
    status: () => ({ ...status }),
    hasManifest: () => manifest !== null,
    onManifest(listener) {
      listeners.add(listener);
      if (manifest) listener(manifest);
    },
    waitFor(revision, timeoutMs = 5000) {
      return reached(() => after !== null && after >= revision, `revision ${revision}`, timeoutMs);
    },
    waitForPreviews(revision, timeoutMs = 5000) {
      return reached(
        () => previewsAfter !== null && previewsAfter >= revision,
        `preview links revision ${revision}`,
        timeoutMs,
      );
    },
    stop() {
      stopper.abort();
      wake();
    },
  };
}
