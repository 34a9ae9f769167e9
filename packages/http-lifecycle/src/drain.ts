// Draining an HTTP server (docs/decisions/0028-process-lifecycle.md): stop accepting, let what is in flight
// finish within a bound, then close what is left. One implementation for every server of the product (the
// API, the edge, the remotes' file servers), each bundled into its compiled server by esbuild.
import type { RequestListener, Server } from 'node:http';
import { Server as NetServer } from 'node:net';

/** Shared by the request listener, the readiness route and the drain: true from the first signal on. */
export interface Lifecycle {
  draining: boolean;
}

/**
 * How long an idle kept-alive socket is left open once draining starts. A client (nginx's upstream pool)
 * may be writing a request on it at that very moment; closing it at once would reset that request. Within
 * the grace its next request is answered (with `Connection: close`), after it the socket is closed.
 */
const IDLE_GRACE_MS = 1000;

/** While draining, every answer closes its connection: a kept-alive socket carries no further request. */
export function closingWhenDraining(state: Lifecycle, listener: RequestListener): RequestListener {
  return (req, res) => {
    if (state.draining) res.setHeader('Connection', 'close');
    listener(req, res);
  };
}

export interface DrainResult {
  /** Connections still open at the bound, closed under their requests. */
  forced: boolean;
  ms: number;
}

/**
 * Marks the instance as draining (its readiness answers 503 from now on), stops accepting connections, and
 * resolves once every connection has closed, or at `timeoutMs` after closing those left.
 */
export function drainServer(server: Server, state: Lifecycle, timeoutMs: number): Promise<DrainResult> {
  const started = performance.now();
  state.draining = true;
  return new Promise((resolve) => {
    let forced = false;
    const timers: NodeJS.Timeout[] = [];
    // net.Server's close, not http.Server's: the latter also closes idle kept-alive sockets at once (Node
    // 19+), which would reset a request being written on one (see IDLE_GRACE_MS).
    NetServer.prototype.close.call(server, () => {
      for (const timer of timers) clearTimeout(timer);
      resolve({ forced, ms: Math.round(performance.now() - started) });
    });
    // From the grace on, a socket that falls idle (its answer said Connection: close) is closed.
    timers.push(
      setTimeout(
        () => {
          server.closeIdleConnections();
          timers.push(setInterval(() => server.closeIdleConnections(), 100));
        },
        Math.min(IDLE_GRACE_MS, timeoutMs),
      ),
    );
    timers.push(
      setTimeout(() => {
        forced = true;
        server.closeAllConnections();
      }, timeoutMs),
    );
  });
}

/**
 * A repeat within this long of the first stop signal is the same stop: Ctrl+C reaches a child both from the
 * terminal and from its parent (`pnpm start` passes it on as SIGTERM).
 */
export const SAME_STOP_MS = 500;

export interface StopSignalOptions {
  /** How long after the first signal a repeat is still the same stop (SAME_STOP_MS). */
  sameStopMs?: number;
  /** Told of a repeat within that window, which changes nothing else: a server logs it, so it is on record. */
  repeated?: (signal: NodeJS.Signals, afterMs: number) => void;
  /** The clock the window is measured on (performance.now); a test passes its own. */
  clock?: () => number;
}

/**
 * What a stop signal does: the first calls `drain`; a repeat within `sameStopMs` of it calls `repeated` (and
 * is otherwise ignored); a later one calls `now` (which exits at once).
 */
export function stopSignalHandler(
  drain: (signal: NodeJS.Signals) => void,
  now: (signal: NodeJS.Signals) => void,
  o: StopSignalOptions = {},
): (signal: NodeJS.Signals) => void {
  const sameStopMs = o.sameStopMs ?? SAME_STOP_MS;
  const clock = o.clock ?? (() => performance.now());
  let first: number | null = null;
  return (signal) => {
    if (first === null) {
      first = clock();
      drain(signal);
      return;
    }
    const afterMs = clock() - first;
    if (afterMs >= sameStopMs) now(signal);
    else o.repeated?.(signal, afterMs);
  };
}

/** SIGTERM and SIGINT: the first calls `drain`; a later one calls `now` (stopSignalHandler). */
export function onStopSignals(
  drain: (signal: NodeJS.Signals) => void,
  now: (signal: NodeJS.Signals) => void,
  o: StopSignalOptions = {},
): void {
  const handler = stopSignalHandler(drain, now, o);
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
