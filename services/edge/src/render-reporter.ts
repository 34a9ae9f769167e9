// Sends this edge's server-render figures (render-figures.ts) to the API every ~10 s and when it stops
// (docs/decisions/0043-server-signals-in-the-gate.md), signed with the secret the edge and the API share
// (EDGE_SECRET; @app/rollout/node render-report). A batch the API cannot take now (unreachable, 5xx) is kept
// for the next one; one it refuses (4xx: a wrong secret, a clock far off) is dropped and said, since sending
// it again would be refused again.
import { randomBytes } from 'node:crypto';
import { API_PATHS } from '@app/contracts';
import type { RenderFiguresEntry } from '@app/contracts/render-report';
import { renderReportKey, signRenderReport } from '@app/rollout/node';
import type { RenderFigures } from './render-figures';

export const REPORT_INTERVAL_MS = 10_000;
/** The API's schema takes at most this many entries a batch. */
const BATCH_ENTRIES = 500;
const SEND_TIMEOUT_MS = 5000;

export interface RenderReporterOptions {
  figures: RenderFigures;
  /** The API as the edge reaches it (API_URL); null: not known yet (the figures wait). */
  apiUrl: () => string | null;
  environment: string;
  edgeSecret: string;
  intervalMs?: number;
  fetchImpl?: typeof fetch;
  warn?: (message: string) => void;
  now?: () => number;
}

export function renderReporter(o: RenderReporterOptions) {
  const key = renderReportKey(o.edgeSecret);
  const fetchImpl = o.fetchImpl ?? fetch;
  const warn = o.warn ?? ((message: string) => console.warn(`edge: ${message}`));
  let sending: Promise<void> = Promise.resolve();

  async function send(apiUrl: string, entries: RenderFiguresEntry[]): Promise<void> {
    const body = JSON.stringify({
      id: randomBytes(16).toString('base64url'),
      environment: o.environment,
      entries,
    });
    try {
      const response = await fetchImpl(new URL(API_PATHS.rolloutRenders, apiUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...signRenderReport(body, key, o.now?.()) },
        body,
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      if (response.status >= 500) throw new Error(`the API answered ${response.status}`);
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        warn(`the API refused ${entries.length} render figures (${response.status}): ${text.slice(0, 200)}`);
      }
    } catch (error) {
      o.figures.putBack(entries);
      warn(`render figures not sent, kept for the next batch: ${String(error)}`);
    }
  }

  /** Sends what is counted now (one send at a time: a slow API never has two batches of the same counts). */
  function flush(): Promise<void> {
    sending = sending.then(async () => {
      const apiUrl = o.apiUrl();
      if (!apiUrl || o.figures.size === 0) return;
      if (o.figures.dropped > 0) {
        warn(`${o.figures.dropped} render counts dropped: too many minutes waiting for the API`);
        o.figures.dropped = 0;
      }
      const entries = o.figures.take();
      for (let i = 0; i < entries.length; i += BATCH_ENTRIES)
        await send(apiUrl, entries.slice(i, i + BATCH_ENTRIES));
    });
    return sending;
  }

  const timer = setInterval(() => void flush(), o.intervalMs ?? REPORT_INTERVAL_MS);
  timer.unref();
  return {
    flush,
    /** Stops the timer and sends what is left (on drain: the last seconds' renders are not lost). */
    stop(): Promise<void> {
      clearInterval(timer);
      return flush();
    },
  };
}

export type RenderReporter = ReturnType<typeof renderReporter>;
