import { API_PATHS, type HealthEvent } from '@app/contracts';
import type { HealthKind, PageHealthTicket, RemoteChoice } from '@app/rollout';

/**
 * What this page view felt, per remote and version, for the health gate (docs/decisions/0027-health-gate.md):
 * loads and load failures, error-boundary hits, runtime errors attributed to a remote's release, and the
 * route's Web Vitals. Queued in memory and sent in one small report when the page is hidden
 * (navigator.sendBeacon: never blocks the page, survives its unload), with the ticket the edge issued this
 * page view. Each kind is sent once per version and ticket: the API counts it once anyway. No ticket (a page
 * no edge served), no reports. Never personal data.
 */
type Choice = Pick<RemoteChoice, 'remote' | 'version'>;

const MAX_EVENTS_PER_REPORT = 40;
/** Clamp what a clock can say: the API takes 0 … 600,000 (ms, or a CLS score). */
const clamp = (value: number) => Math.max(0, Math.min(600_000, value));

let endpoint: string | null = null;
let ticket: PageHealthTicket | null = null;
let queue: HealthEvent[] = [];
/** `remote version kind` already queued or sent with this ticket. */
const seen = new Set<string>();

/** Whether this page view can report at all (the edge gave it a ticket). */
export const hasHealthTicket = () => ticket !== null;

export function configureHealthReports(apiBaseUrl: string, pageTicket: PageHealthTicket | null): void {
  endpoint = `${apiBaseUrl}${API_PATHS.rolloutHealth}`;
  ticket = pageTicket;
  queue = [];
  seen.clear();
}

/** Queues one event of a versioned remote (a config.json URL has no version to report on). */
export function reportHealth(choice: Choice, kind: HealthKind, value?: number): void {
  if (!ticket || choice.version === null) return;
  const key = `${choice.remote} ${choice.version} ${kind}`;
  if (seen.has(key)) return;
  seen.add(key);
  const event: HealthEvent = { remote: choice.remote, version: choice.version, kind };
  if (value !== undefined && Number.isFinite(value)) {
    event.value = kind === 'cls' ? Math.round(clamp(value) * 10_000) / 10_000 : Math.round(clamp(value));
  }
  queue.push(event);
}

/** What is waiting to be sent (tests, and the benchmark's count of bytes). */
export function pendingHealthEvents(): readonly HealthEvent[] {
  return queue;
}

/**
 * Sends what is queued, in reports of at most 40 events. Nothing once the ticket has expired: the API would
 * refuse it. Returns the bytes handed to the browser.
 */
export function flushHealthReports(now = Date.now()): number {
  if (!endpoint || !ticket || queue.length === 0) return 0;
  if (ticket.expiresAt <= now) {
    queue = [];
    return 0;
  }
  const started = performance.now();
  let bytes = 0;
  while (queue.length > 0) {
    const body = JSON.stringify({ ticket: ticket.ticket, events: queue.splice(0, MAX_EVENTS_PER_REPORT) });
    bytes += body.length;
    send(endpoint, body);
  }
  // What a report costs the page, for bench:rollout (performance.getEntriesByName('health:report')).
  measure('health:report', started, { bytes });
  return bytes;
}

export function measure(name: string, start: number, detail?: object): void {
  try {
    performance.measure(name, { start, end: performance.now(), detail });
  } catch {
    // an old browser without measure options: nothing to learn
  }
}

/** A string body is text/plain: a CORS-simple request, so the beacon needs no preflight. */
function send(url: string, body: string): void {
  try {
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, body)) return;
    void fetch(url, { method: 'POST', keepalive: true, body }).catch(() => undefined);
  } catch {
    // reporting must never break the page
  }
}

let listening = false;
const onHidden = () => {
  if (document.visibilityState === 'hidden') flushHealthReports();
};
const onPageHide = () => flushHealthReports();

/**
 * Sends the queue whenever the page is hidden (tab switch, navigation, close) or unloaded. Called again
 * after the Web Vitals library registered its own listeners, so this one runs after theirs and their last
 * values go out in the same report.
 */
export function sendWhenHidden(): void {
  if (listening) {
    document.removeEventListener('visibilitychange', onHidden);
    window.removeEventListener('pagehide', onPageHide);
  } else if (ticket) {
    // A page left open until its ticket expires sends what it has a minute before.
    const ms = ticket.expiresAt - Date.now() - 60_000;
    if (ms > 0 && ms < 2 ** 31) setTimeout(() => flushHealthReports(), ms);
  }
  listening = true;
  document.addEventListener('visibilitychange', onHidden);
  window.addEventListener('pagehide', onPageHide);
}
